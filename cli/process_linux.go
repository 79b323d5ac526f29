package cli

import (
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageHeap makes the next n bytes of the heap resident on huge pages
// (see process.go). A heap of at most hugeHeapFreshBytes is advised
// without a collection (hugePageFresh); a larger one is allocated in one
// piece, advised MADV_HUGEPAGE in its aligned part, touched once per huge
// page and freed with a collection, so that the page allocator hands the
// same memory out again. Where the kernel refuses the advice nothing
// changes but, for a large heap, the cost of one collection of an almost
// empty heap.
func hugePageHeap(n int) {
	if n <= 0 {
		return
	}
	if n <= hugeHeapFreshBytes {
		hugePageFresh()
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

// The Go runtime's heap, as hugePageFresh relies on it (Go 1.21 to 1.26;
// if it changes, the advice lands on memory the heap does not use next
// and nothing but the huge pages is lost): the heap grows in whole chunks
// of heapChunkBytes, 4 MiB-aligned, mapped when it grows; the page
// allocator hands out the lowest free pages first; a large allocation's
// fresh pages are not written (the kernel's are zero); arenas of
// heapArenaBytes are reserved whole.
const (
	heapChunkBytes  = 4 << 20
	heapPageBytes   = 8 << 10
	heapArenaBytes  = 64 << 20
	hugeFreshGrowth = heapChunkBytes + heapPageBytes
)

// hugePageFresh advises MADV_HUGEPAGE on memory the heap has mapped but
// never written, where its next allocations go, without a collection
// (one costs about 80 page faults and 1.4 ms on an empty heap). An
// allocation one page larger than a heap chunk fits no free run of the
// heap, so the runtime maps two fresh chunks: the allocation starts at
// the free tail of the heap (t) and ends a page past t+4 MiB; the
// mapping ends at the chunk boundary at or above t+4 MiB, plus a chunk.
// The allocation is dropped unwritten; from t to the mapping's end
// nothing has been written, and the heap's next 4 MiB come from what
// follows the allocation, faulted in as two huge pages instead of 1,000
// small ones. The allocation's own pages are reused, on huge pages too,
// after the first collection.
func hugePageFresh() {
	b := make([]byte, hugeFreshGrowth)
	t := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := alignUp(t, hugePageBytes)
	hi := alignUp(t+heapChunkBytes, heapChunkBytes) + heapChunkBytes
	// Never past the arena the heap is in: what follows may not be the
	// heap's.
	hi = min(hi, alignUp(t+1, heapArenaBytes))
	if lo < hi {
		unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, unix.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(b)
}

func alignUp(p, to uintptr) uintptr { return (p + to - 1) &^ (to - 1) }
