//go:build amd64 && !purego

package diff

import "unsafe"

// The sweeps of split in assembly (sweep_amd64.s), the same loops as
// sweepForwardGo and sweepBackwardGo: compiled from Go, the loop kept the
// snake's index and its bounds on the stack, and a diagonal cost 6.2 ns
// where git's xdl_split takes 3.4 (git/git po/ca.po: the same 28.4 M
// diagonals; benchmarks/blame/RESULTS.md). The wrappers check every
// index the loops use against the slices first, so the loops read and
// write nothing outside them; TestSweepsMatchGo compares both versions.

//go:noescape
func sweepFwd(kv, kb unsafe.Pointer, dmax, dmin, lo, span int, a1 unsafe.Pointer, n1 int, a2 unsafe.Pointer, n2 int) (i1, d, flags int)

//go:noescape
func sweepBwd(kb, kv unsafe.Pointer, dmax, dmin, lo, span int, b1 unsafe.Pointer, n1 int, b2 unsafe.Pointer, n2 int, off1, off2 int) (i1, d, flags int)

// The flags the assembly returns.
const (
	sweepSnake = 1 // a snake longer than snakeCnt
	sweepMet   = 2 // the paths met at (i1, i1-d)
)

// checkSpan is the check of a sweep over [lo, hi] against the other
// direction's [olo, ohi] as one unsigned comparison: d is checked when
// uint(d-first) <= uint(span). Without check, or where the two do not
// overlap, first is one past hi (and no d of the sweep passes).
func checkSpan(check bool, lo, hi, olo, ohi int) (first, span int) {
	first, last := max(lo, olo), min(hi, ohi)
	if !check || last < first {
		return hi + 1, 0
	}
	return first, last - first
}

func sweepForward(kvf, kvb []int32, sh, fmin, fmax, bmin, bmax int, check bool, a1, a2 []uint32) (x, y int, met, snake bool) {
	if fmin > fmax {
		return 0, 0, false, false
	}
	// The loop reads kvf[d-1+sh] and kvf[d+1+sh] and writes kvf[d+sh]
	// for d in [fmin, fmax], and reads kvb[d+sh] for the checked d.
	_, _ = kvf[fmin-1+sh], kvf[fmax+1+sh]
	first, span := checkSpan(check, fmin, fmax, bmin, bmax)
	if first <= fmax {
		_, _ = kvb[first+sh], kvb[first+span+sh]
	}
	i1, d, flags := sweepFwd(unsafe.Pointer(&kvf[sh]), unsafe.Pointer(&kvb[sh]), fmax, fmin, first, span,
		unsafe.Pointer(unsafe.SliceData(a1)), len(a1), unsafe.Pointer(unsafe.SliceData(a2)), len(a2))
	return sweepResult(i1, d, flags)
}

func sweepBackward(kvb, kvf []int32, sh, bmin, bmax, fmin, fmax int, check bool, b1, b2 []uint32, off1, off2 int) (x, y int, met, snake bool) {
	if bmin > bmax {
		return 0, 0, false, false
	}
	_, _ = kvb[bmin-1+sh], kvb[bmax+1+sh]
	first, span := checkSpan(check, bmin, bmax, fmin, fmax)
	if first <= bmax {
		_, _ = kvf[first+sh], kvf[first+span+sh]
	}
	i1, d, flags := sweepBwd(unsafe.Pointer(&kvb[sh]), unsafe.Pointer(&kvf[sh]), bmax, bmin, first, span,
		unsafe.Pointer(unsafe.SliceData(b1)), len(b1), unsafe.Pointer(unsafe.SliceData(b2)), len(b2), off1, off2)
	return sweepResult(i1, d, flags)
}

// sweepResult is what the assembly returned as the sweeps' results: the
// meeting point (i1, i1-d) if the paths met, and whether a snake was
// longer than snakeCnt.
func sweepResult(i1, d, flags int) (x, y int, met, snake bool) {
	if flags&sweepMet != 0 {
		return i1, i1 - d, true, flags&sweepSnake != 0
	}
	return 0, 0, false, flags&sweepSnake != 0
}
