package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/repo"
)

// exitError ends the command with git's output and status: lines on
// standard error (already terminated) and an exit code.
type exitError struct {
	stderr string
	code   int
}

func (e *exitError) Error() string { return e.stderr }

// die is git's die(): "fatal: <message>" and status 128.
func die(format string, args ...any) error {
	return &FatalError{Message: fmt.Sprintf(format, args...)}
}

// report prints err as git would and returns the exit status.
func report(stdout, stderr io.Writer, err error, annotate bool) int {
	var usage *UsageError
	var fatal *FatalError
	var rerr *repo.Error
	var exit *exitError
	var corrupt *odb.CorruptError
	var death interface{ GitDeath() string }
	var exiter interface{ GitExit() (string, int) }
	switch {
	case errors.As(err, &usage):
		io.WriteString(stdout, usage.Stdout)
		io.WriteString(stderr, usage.Stderr)
		return usage.ExitCode
	case errors.As(err, &fatal):
		io.WriteString(stderr, fatal.Stderr())
		return fatal.ExitCode()
	case errors.As(err, &exit):
		io.WriteString(stderr, exit.stderr)
		return exit.code
	case errors.As(err, &exiter):
		stderrText, code := exiter.GitExit()
		io.WriteString(stderr, stderrText)
		return code
	case errors.As(err, &death):
		if b, ok := death.(interface{ GitBefore() []string }); ok {
			for _, l := range b.GitBefore() {
				io.WriteString(stderr, l+"\n")
			}
		}
		io.WriteString(stderr, reportLine("fatal: ", death.GitDeath()))
		return 128
	case errors.Is(err, blame.ErrRangeSyntax):
		io.WriteString(stderr, "usage: "+usageSynopsis(annotate)+"\n")
		return 129
	case errors.As(err, &corrupt) && corrupt.Git != nil:
		// git dies in the read of a damaged object, after what its
		// read printed.
		for _, l := range corrupt.Git.Lines {
			io.WriteString(stderr, l+"\n")
		}
		io.WriteString(stderr, reportLine("fatal: ", corrupt.Git.Fatal))
		return 128
	case errors.As(err, &rerr):
		for _, l := range rerr.Before {
			// git's error() lines: control characters shown as '?'.
			io.WriteString(stderr, reportLine("", l))
		}
		io.WriteString(stderr, reportLine("fatal: ", rerr.Msg))
		return 128
	default:
		io.WriteString(stderr, reportLine("fatal: ", err.Error()))
		return 128
	}
}

func usageSynopsis(annotate bool) string {
	if annotate {
		return "git annotate [<options>] [<rev-opts>] [<rev>] [--] <file>"
	}
	return "git blame [<options>] [<rev-opts>] [<rev>] [--] <file>"
}
