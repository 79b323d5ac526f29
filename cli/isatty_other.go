//go:build !unix

package cli

import "os"

// isTerminal reports a character device (no isatty here).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
