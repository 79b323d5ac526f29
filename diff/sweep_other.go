//go:build !amd64 || purego

package diff

// sweepForward and sweepBackward are the Go loops here (sweep_amd64.s
// has them in assembly on amd64).
func sweepForward(kvf, kvb []int32, sh, fmin, fmax, bmin, bmax int, check bool, a1, a2 []uint32) (x, y int, met, snake bool) {
	return sweepForwardGo(kvf, kvb, sh, fmin, fmax, bmin, bmax, check, a1, a2)
}

func sweepBackward(kvb, kvf []int32, sh, bmin, bmax, fmin, fmax int, check bool, b1, b2 []uint32, off1, off2 int) (x, y int, met, snake bool) {
	return sweepBackwardGo(kvb, kvf, sh, bmin, bmax, fmin, fmax, check, b1, b2, off1, off2)
}
