//go:build amd64 || arm64

package traverse

// prefetch asks the processor to bring the cache line at addr into its
// caches (PREFETCHT0, PRFM PLDL1KEEP): a hint, which never faults and
// does not wait for the line.
//
//go:noescape
func prefetch(addr uintptr)
