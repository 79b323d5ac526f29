//go:build unix

package cli

import (
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal is isatty: a character device is not enough (/dev/null is
// one), the terminal ioctl must succeed.
func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlGetTermios)
	return err == nil
}
