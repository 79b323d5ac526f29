//go:build !linux

package cli

// hugePageHeap does nothing where madvise's MADV_HUGEPAGE is not known.
func hugePageHeap(int) {}
