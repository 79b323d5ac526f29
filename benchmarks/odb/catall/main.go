// Command catall prints every object of a repository (or the objects named
// in a file) in git cat-file --batch format, read with goblame's odb. It is
// the goblame side of the compare command's runs.
//
//	catall -repo PATH [-unordered] [-ids FILE] [-delta-cache MiB]
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/goblame/goblame/benchmarks/odb"
	"github.com/goblame/goblame/odb"
)

func main() {
	repo := flag.String("repo", "", "repository (bare, working copy or objects directory)")
	unordered := flag.Bool("unordered", false, "pack order, like --unordered")
	idsFile := flag.String("ids", "", "print only the objects named in this file, in order")
	deltaCache := flag.Int64("delta-cache", 0, "delta-base cache in MiB (0: odb's default)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "catall:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *repo == "" {
		fmt.Fprintln(os.Stderr, "usage: catall -repo PATH [-unordered] [-ids FILE] [-delta-cache MiB]")
		os.Exit(2)
	}
	db, err := odbbench.OpenRepo(*repo, odb.Options{DeltaBaseCacheBytes: *deltaCache << 20})
	if err != nil {
		fmt.Fprintln(os.Stderr, "catall:", err)
		os.Exit(1)
	}
	if *idsFile != "" {
		ids, err := odbbench.ReadIDs(*idsFile, db.Format())
		if err == nil {
			err = odbbench.CatIDs(db, os.Stdout, ids)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "catall:", err)
			os.Exit(1)
		}
		return
	}
	if err := odbbench.CatAll(db, os.Stdout, *unordered); err != nil {
		fmt.Fprintln(os.Stderr, "catall:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}
