//go:build unix

package cli

import (
	"errors"
	"os"
	"syscall"

	"github.com/goblame/goblame/internal/execve"
)

// execGit replaces the process with git (execve): git inherits the
// process id, the standard streams and the signal dispositions the shim
// started with (internal/execve), and its exit status or the signal that
// ends it is the shim's. It returns only when git cannot be run: 127 when there is no
// such file, 126 otherwise, as a shell says.
func execGit(path string, argv, environ []string) int {
	err := execve.Exec(path, argv, environ)
	os.Stderr.WriteString("goblame: running as git, cannot run " + path + ": " + err.Error() + "\n")
	if errors.Is(err, syscall.ENOENT) {
		return 127
	}
	return 126
}
