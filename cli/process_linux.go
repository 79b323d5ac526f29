package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugePageHeap puts the next n bytes of the heap on huge pages (see
// process.go) when n is more than the hugeHeapFreshBytes that
// hugePageFresh advised at the start of the run: it allocates them in
// one piece, advises MADV_HUGEPAGE on it and frees it with a collection,
// so that the page allocator hands the same memory out again; each huge
// page faults in when first written. The allocation starts behind a
// huge page's worth of pinned memory (heapPinned): its own start is
// seldom 2 MiB-aligned, and the free pages below the first aligned
// address, the lowest free ones after the collection, would fault in
// 4 KiB at a time (gitoxide gix/src/lib.rs: 220 page faults of 860).
// Where the kernel refuses the advice nothing changes but the cost of
// one collection of an almost empty heap.
func hugePageHeap(n int) {
	hugeStarts++
	if n <= hugeHeapFreshBytes {
		// A small repository's walk gets another fresh start instead:
		// 4 MiB more without a collection, which costs more here than
		// the small pages it saves (go-git worktree.go: 848 -> 654
		// page faults, 29.4 -> 26.1 ms; README.md, whose heap fits
		// the first 4 MiB, equal). Its pinned memory must not bring
		// tuneGC's first collection sooner.
		hugePageMore()
		return
	}
	// Allocating it must not itself start a collection: one is enough.
	// That collection is not the heap reaching tuneGC's first
	// collection: when tuneGC's collector is off it stays off (its
	// sentinel's cleanup made stale first, so that the restore, which
	// lets the pins go, does not run; armGC again after), else it is
	// paused (pauseGC: the setting found, or the one the large-heap
	// watch chose meanwhile, is restored).
	if disarmGC() {
		// The collector is off, but tuneGC's memory limit would start
		// one when this allocation takes the heap past it (on git/git,
		// 18 MiB on top of the 7 MiB the run had: a second collection,
		// 3 ms of a 35 ms README.md blame).
		debug.SetMemoryLimit(math.MaxInt64)
		defer armGCAt(int64(n) + hugePageBytes)
	} else {
		defer pauseGC()()
	}
	pin := make([]byte, hugePageBytes)
	buf := make([]byte, n)
	p := uintptr(unsafe.Pointer(unsafe.SliceData(pin)))
	start := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	lo := alignUp(p, hugePageBytes)
	if start != p+hugePageBytes {
		// Not behind the pin: only its own aligned part.
		lo = alignUp(start, hugePageBytes)
	}
	// Up to the next huge page boundary, in the chunk the heap mapped
	// for the allocation's end.
	hi := alignUp(start+uintptr(n), hugePageBytes)
	if lo < hi {
		unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, unix.MADV_HUGEPAGE)
	}
	pins.Lock()
	heapPinned = append(heapPinned, pin)
	pins.Unlock()
	runtime.KeepAlive(buf)
	buf = nil
	runtime.GC()
}

// hugePageStart is a walk's huge-page start (hugeSchedule.heap) outside
// -C: hugePageAhead where the runtime keeps the advice on memory it maps
// later (make build's, sysMapKeepsAdvice) and n is more than a fresh
// start's, else hugePageHeap. A -C blame keeps hugePageHeap's
// collection: without it gitoxide's -C gix/src/lib.rs took 12.6 ms [5.9,
// 17.0] longer of 183 and peaked 2-9 MB higher (its copy candidates'
// garbage from before the walk was left to its first collection).
func hugePageStart(n int) {
	if sysMapKeepsAdvice && n > hugeHeapFreshBytes {
		hugePageAhead(n)
		return
	}
	hugePageHeap(n)
}

// hugePageAhead is hugePageHeap without its collection, where make
// build's runtime maps the heap's reserved memory with mprotect
// (sysMapKeepsAdvice, tools/runtimepatch), which keeps the advice on
// memory the heap has reserved but not yet mapped: it advises
// MADV_HUGEPAGE on the n bytes of the heap's free tail from its first
// 2 MiB boundary (within the heap's arena), and keeps the heap's next
// allocations from the small pages below that boundary with an
// unwritten allocation up to it, pinned as hugePageFresh pins its own.
// The collection cost 0.3-0.6 ms of the walk it was made for (tmux
// regress/screen-redraw-results/cross-spaces.result: 0.65 ms of a 3.2
// ms blame; RESULTS.md, 2026-12-07), on a heap of a few hundred objects.
func hugePageAhead(n int) {
	hugeStarts++
	probe, t := probeHeapTail()
	lo := alignUp(t, hugePageBytes)
	var pad []byte
	if gap := lo - t; gap > 0 {
		if gap < heapProbeBytes {
			// A smaller allocation may come from a hole below the
			// tail: pad to the next boundary instead.
			gap += hugePageBytes
			lo += hugePageBytes
		}
		pad = heapAlloc(gap)
		if end := uintptr(unsafe.Pointer(unsafe.SliceData(pad))) + gap; end != lo {
			lo = alignUp(end, hugePageBytes) // not at the tail: after it
		}
	}
	hi := min(lo+uintptr(n), alignUp(lo+1, heapArenaBytes))
	if lo < hi {
		unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, unix.MADV_HUGEPAGE)
	}
	pins.Lock()
	if len(freshPinned)+2 <= cap(freshPinned) {
		freshPinned = append(freshPinned, probe, pad)
	} else {
		heapPinned = append(heapPinned, probe, pad)
	}
	pins.Unlock()
	raiseGCLimit(int64(len(probe) + len(pad)))
}

// hugePageMore makes another fresh start (hugePageFresh): 4 MiB more
// of the heap on huge pages, without a collection. What it keeps must not
// bring tuneGC's first collection sooner.
func hugePageMore() {
	raiseGCLimit(hugePageFresh())
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
	// heapProbeBytes: an allocation this size is a large one, taken from
	// the page allocator directly, and larger than the holes freed
	// goroutine stacks leave below the heap's free tail (a 40 KiB probe
	// landed in one in about one run in eight: the advice then missed
	// the allocations that followed).
	heapProbeBytes = 32 * heapPageBytes
)

// hugePageFresh advises MADV_HUGEPAGE on memory the heap has mapped but
// never written, where its next allocations go, without a collection
// (one costs about 80 page faults and 1.4 ms on an empty heap). A probe
// allocation ends where the heap's free tail starts (t, below the next
// chunk boundary v). An allocation from t to v+4 MiB fits no free run,
// so the runtime maps two fresh chunks from v, and the heap's next 4 MiB,
// from v+4 MiB, are 2 MiB-aligned and unwritten: advised, they fault in
// as two huge pages instead of 1,000 small ones. Both allocations are
// kept unwritten for the rest of the run (freshPinned): freed by a
// collection, the pages of the probe and of b below its first 2 MiB
// boundary would be the lowest free ones and fault in 4 KiB at a time.
// (When t is v, a 2 MiB allocation leaves 2 MiB.) It returns the bytes
// it keeps.
func hugePageFresh() int64 {
	hugeStarts++
	probe, t := probeHeapTail()
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
		freshAdvices++
		if len(freshAdvised) < cap(freshAdvised) {
			freshAdvised = append(freshAdvised, [2]uintptr{lo, hi})
		}
	}
	pins.Lock()
	if len(freshPinned)+2 <= cap(freshPinned) {
		freshPinned = append(freshPinned, probe, b)
	}
	pins.Unlock()
	return int64(len(probe) + len(b))
}

// probeHeapTail allocates heapProbeBytes, which end where the heap's
// free tail starts (t). The probe must come from the heap: a
// constant-size allocation that does not escape goes on the goroutine's
// stack (this one grew it to 64 KiB: 14-30 page faults), which says
// nothing of where the heap's free tail is.
func probeHeapTail() (probe []byte, t uintptr) {
	probe = heapAlloc(heapProbeBytes)
	return probe, uintptr(unsafe.Pointer(unsafe.SliceData(probe))) + heapProbeBytes
}

// heapAlloc allocates n bytes on the heap, never on the goroutine's
// stack (through heapEscape).
func heapAlloc(n uintptr) []byte {
	heapEscape = make([]byte, n)
	b := heapEscape
	heapEscape = nil
	return b
}

// freshAdvised holds the ranges hugePageFresh advised (made with room
// for a run's starts: hugePageFresh must allocate nothing but its two
// blocks).
var freshAdvised = make([][2]uintptr, 0, 8)

// hugePageFreshUndo withdraws the fresh starts' advice: what of their
// ranges has not faulted in yet will in small pages (the huge pages
// already there stay).
func hugePageFreshUndo() {
	for _, r := range freshAdvised {
		unix.Syscall(unix.SYS_MADVISE, r[0], r[1]-r[0], unix.MADV_NOHUGEPAGE)
	}
	freshAdvised = freshAdvised[:0]
}

// freshAdvices counts the fresh starts that advised memory (one whose
// probe ends too near the end of the heap's arena advises none), for
// the tests.
var freshAdvices int

// heapEscape makes heapAlloc's allocations escape to the heap.
var heapEscape []byte

// freshPinned and heapPinned hold the huge-page starts' unwritten
// allocations that must not be handed out again while the heap grows
// into the memory behind them (they cost address space, no memory);
// freshPinned has room for the starts of a run without growing (past
// that, a start's allocations are left to the collector). pins guards
// them: tuneGC's first collection lets them go (unpinHugeStarts) from
// the cleanup goroutine.
var (
	pins        sync.Mutex
	freshPinned = make([][]byte, 0, 8)
	heapPinned  [][]byte
)

// unpinHugeStarts hands the huge-page starts' pinned allocations to the
// collector, at tuneGC's first collection: the starts are behind the
// heap by then, and the pinned bytes count as live, so that each
// collection's goal (twice the live heap) let the heap take as many
// bytes more than it held (go-git -C -C -C remote.go: 15 MB of pins in a
// 42 MB live heap, peak RSS 66-68 MB against git's 61). Their memory,
// never written, is then reused by the allocations that follow. A start
// made after the first collection (beforeWalk under -C once the heap has
// passed it, an --incremental walk's later start) keeps its 2-4 MiB of
// pins to the end of the run.
func unpinHugeStarts() {
	pins.Lock()
	defer pins.Unlock()
	clear(freshPinned)
	freshPinned = freshPinned[:0]
	heapPinned = nil
}

// pinnedStarts counts the allocations pinned, for the tests.
func pinnedStarts() int {
	pins.Lock()
	defer pins.Unlock()
	return len(freshPinned) + len(heapPinned)
}

func alignUp(p, to uintptr) uintptr { return (p + to - 1) &^ (to - 1) }
