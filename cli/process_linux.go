package cli

import (
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageHeap makes the next n bytes of the heap resident on huge pages
// (see process.go): it allocates them in one piece, advises the aligned
// part MADV_HUGEPAGE, touches each huge page and frees the allocation with
// a collection, so that the page allocator hands the same memory out
// again. Where the kernel refuses the advice nothing changes but the cost
// of one collection of an almost empty heap.
func hugePageHeap(n int) {
	if n <= 0 {
		return
	}
	// Allocating it must not itself start a collection: one is enough.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	buf := make([]byte, n+hugePageBytes)
	start := (uintptr(unsafe.Pointer(&buf[0])) + hugePageBytes - 1) &^ (hugePageBytes - 1)
	off := int(start - uintptr(unsafe.Pointer(&buf[0])))
	aligned := buf[off : off+n]
	if unix.Madvise(aligned, unix.MADV_HUGEPAGE) == nil {
		for i := 0; i < n; i += hugePageBytes {
			aligned[i] = 1
		}
	}
	runtime.KeepAlive(buf)
	buf, aligned = nil, nil
	runtime.GC()
}
