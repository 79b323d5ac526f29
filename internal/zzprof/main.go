package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/goblame/goblame/blame"
)

func main() {
	runtime.MemProfileRate = 512
	os.Setenv("GOBLAME_CACHE", "off")
	r, err := blame.Open(os.Args[1])
	if err != nil {
		panic(err)
	}
	var ms runtime.MemStats
	res, err := r.File(context.Background(), "HEAD", os.Args[2], blame.Options{NoCache: true})
	if err != nil {
		panic(err)
	}
	runtime.ReadMemStats(&ms)
	fmt.Println(len(res.Entries), "entries; total alloc", ms.TotalAlloc>>10, "KB, mallocs", ms.Mallocs, "heapinuse", ms.HeapInuse>>10)
	runtime.KeepAlive(r)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	fmt.Println("after GC heapalloc", ms.HeapAlloc>>10, "KB")
	f, _ := os.Create(os.Args[3])
	pprof.Lookup("allocs").WriteTo(f, 0)
	f.Close()
}
