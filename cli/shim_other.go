//go:build !unix

package cli

import (
	"errors"
	"os"
	"os/exec"
)

// execGit runs git as a child with the shim's standard streams and
// returns its exit status (where the system has no execve).
func execGit(path string, argv, environ []string) int {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Env = environ
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	os.Stderr.WriteString("goblame: running as git, cannot run " + path + ": " + err.Error() + "\n")
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		return 127
	}
	return 126
}
