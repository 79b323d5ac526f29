//go:build !linux

package cli

// hugePageHeap, hugePageStart, hugePageAhead, hugePageFresh and hugePageMore do nothing
// where madvise's MADV_HUGEPAGE is not known.
func hugePageHeap(int) {}

func hugePageAhead(int) {}

func hugePageStart(int) {}

func hugePageFresh() int64 { return 0 }

func hugePageFreshUndo() {}

func unpinHugeStarts() {}

func pinnedStarts() int { return 0 }

// freshAdvised and freshAdvices: see process_linux.go (no advice here).
var (
	freshAdvised [][2]uintptr
	freshAdvices int
)

func hugePageMore() {}
