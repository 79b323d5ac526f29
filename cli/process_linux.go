package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageHeap puts the next n bytes of the heap on huge pages (see
// process.go) when n is more than the hugeHeapFreshBytes that
// hugePageFresh advised at the start of the run: it allocates them in
// one piece, advises the aligned part MADV_HUGEPAGE and frees the
// allocation with a collection, so that the page allocator hands the
// same memory out again; each huge page faults in when first written.
// Where the kernel refuses the advice nothing changes but the cost of
// one collection of an almost empty heap.
func hugePageHeap(n int) {
	if n <= hugeHeapFreshBytes {
		return
	}
	// Allocating it must not itself start a collection: one is enough.
	// That collection is not the heap reaching tuneGC's first
	// collection: when tuneGC's collector is off it stays off (armGC
	// again, whether or not the cleanup of the collection below has
	// run by then), else the setting found is restored.
	if gcTuned() {
		// The collector is off, but tuneGC's memory limit would start
		// one when this allocation takes the heap past it (on git/git,
		// 18 MiB on top of the 7 MiB the run had: a second collection,
		// 3 ms of a 35 ms README.md blame).
		debug.SetMemoryLimit(math.MaxInt64)
		defer armGCAt(firstCollectionBytes + int64(n) + hugePageBytes)
	} else if prev := debug.SetGCPercent(-1); prev >= 0 {
		defer debug.SetGCPercent(prev)
	}
	buf := make([]byte, n+hugePageBytes)
	start := (uintptr(unsafe.Pointer(&buf[0])) + hugePageBytes - 1) &^ (hugePageBytes - 1)
	off := int(start - uintptr(unsafe.Pointer(&buf[0])))
	aligned := buf[off : off+n]
	unix.Madvise(aligned, unix.MADV_HUGEPAGE)
	runtime.KeepAlive(buf)
	buf, aligned = nil, nil
	runtime.GC()
}

// The Go runtime's heap, as hugePageFresh relies on it (Go 1.21 to 1.26;
// if it changes, the advice lands on memory the heap does not use next
// and nothing but the huge pages is lost): the heap grows in whole chunks
// of heapChunkBytes, 4 MiB-aligned, each growth rounding the pages asked
// for up to whole chunks; the page allocator hands out the lowest free
// run that fits; a large allocation's fresh pages are not written (the
// kernel's are zero); arenas of heapArenaBytes are reserved whole.
const (
	heapChunkBytes = 4 << 20
	heapPageBytes  = 8 << 10
	heapArenaBytes = 64 << 20
	// heapProbeBytes: an allocation this size (over 32 KiB) is a large
	// one, taken from the page allocator directly.
	heapProbeBytes = 5 * heapPageBytes
)

// hugePageFresh advises MADV_HUGEPAGE on memory the heap has mapped but
// never written, where its next allocations go, without a collection
// (one costs about 80 page faults and 1.4 ms on an empty heap). A probe
// allocation ends where the heap's free tail starts (t, below the next
// chunk boundary v). An allocation from t to v+4 MiB fits no free run,
// so the runtime maps two fresh chunks from v, and the heap's next 4 MiB,
// from v+4 MiB, are 2 MiB-aligned and unwritten: advised, they fault in
// as two huge pages instead of 1,000 small ones. Both allocations are
// dropped unwritten; their pages, advised too, are reused after the
// first collection. (When t is v, a 2 MiB allocation leaves 2 MiB.)
func hugePageFresh() {
	// The probe must come from the heap: a constant-size allocation that
	// does not escape goes on the goroutine's stack (this one grew it to
	// 64 KiB: 14-30 page faults), which says nothing of where the heap's
	// free tail is.
	heapProbe = make([]byte, heapProbeBytes)
	probe := heapProbe
	heapProbe = nil
	t := uintptr(unsafe.Pointer(unsafe.SliceData(probe))) + heapProbeBytes
	v := alignUp(t, heapChunkBytes)
	size := v + heapChunkBytes - t
	if v == t {
		size = hugePageBytes
	}
	b := make([]byte, size)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	lo := alignUp(start, hugePageBytes)
	hi := alignUp(start+size, heapChunkBytes)
	if hi == start+size {
		hi += heapChunkBytes
	}
	// Never past the arena the heap is in: what follows may not be the
	// heap's.
	hi = min(hi, alignUp(start+1, heapArenaBytes))
	if lo < hi {
		unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, unix.MADV_HUGEPAGE)
	}
	runtime.KeepAlive(probe)
	runtime.KeepAlive(b)
}

// heapProbe makes hugePageFresh's probe escape to the heap.
var heapProbe []byte

func alignUp(p, to uintptr) uintptr { return (p + to - 1) &^ (to - 1) }
