//go:build unix

package testgit

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive lock on the file at path (created if
// missing), held until unlock, across processes.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
