//go:build !amd64 && !arm64

package traverse

// prefetch: see prefetch_asm.go (no hint here).
func prefetch(addr uintptr) {}
