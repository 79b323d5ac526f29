//go:build linux && !cgo && goblame_fwdsig && (amd64 || arm64) && !go1.27

package execve

import (
	"syscall"
	"unsafe"
)

// Without cgo no code runs before the Go runtime, but the runtime itself
// keeps what it found: initsig reads every signal's disposition into
// fwdSig before it installs its own handler (signals it leaves alone,
// such as SIGTSTP, keep their disposition in the kernel and need
// nothing). Reading it takes a pull linkname, which the linker refuses
// unless told otherwise: make build builds with this file's tag and
// -ldflags=-checklinkname=0. The layout is the runtime's, Go 1.21 to
// 1.26 at least: [_NSIG]uintptr, _NSIG 65 on linux/amd64 and arm64,
// SIG_IGN 1; a newer Go, whose runtime nobody has checked yet, builds
// execve_nocgo.go instead (the build constraint's !go1.27).
// TestShimSignals checks it in the build make build makes.
//
//go:linkname fwdSig runtime.fwdSig
var fwdSig [65]uintptr

const sigIgn = 1

// kernelSigaction is the kernel's struct sigaction on amd64 and arm64
// (rt_sigaction's layout, not the C library's).
type kernelSigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

// Exec runs the program at path in place of the process, with argv and
// env, the signals that were ignored when the process started ignored
// again. It returns only on failure.
func Exec(path string, argv, env []string) error {
	ign := kernelSigaction{handler: sigIgn}
	for s := 1; s < len(fwdSig); s++ {
		if fwdSig[s] == sigIgn && s != int(syscall.SIGKILL) && s != int(syscall.SIGSTOP) {
			syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(s), uintptr(unsafe.Pointer(&ign)), 0, unsafe.Sizeof(ign.mask), 0, 0)
		}
	}
	return syscall.Exec(path, argv, env)
}
