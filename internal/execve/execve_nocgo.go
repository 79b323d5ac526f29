//go:build unix && !cgo && !(linux && goblame_fwdsig && (amd64 || arm64) && !go1.27)

package execve

import "syscall"

// Exec runs the program at path in place of the process, with argv and
// env. It returns only on failure. Without cgo and the goblame_fwdsig
// tag the dispositions the process started with are unknown: the program
// finds only SIGHUP and SIGINT still ignored (see the package
// documentation).
func Exec(path string, argv, env []string) error {
	return syscall.Exec(path, argv, env)
}
