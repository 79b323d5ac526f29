package cli

import (
	"io"
	"os"
	"time"

	"github.com/goblame/goblame/repo"
)

// Environ is everything the command takes from its process: tests build
// one per run instead of touching process-wide state.
type Environ struct {
	Dir    string              // working directory
	Getenv func(string) string // environment lookup
	// LookupEnv tells unset from empty; nil means "empty is unset".
	LookupEnv func(string) (string, bool)
	// Env is the whole environment ("K=V"), handed to commands goblame
	// runs (textconv filters).
	Env    []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Now    func() time.Time
	// StdoutIsTerminal and StderrIsTerminal decide paging, progress and
	// auto date formats as isatty does for git.
	StdoutIsTerminal, StderrIsTerminal bool
	// Process says the run is the goblame process itself, which may tune
	// the Go runtime for a one-shot run (see process.go); in-process runs
	// (tests, benchmarks) leave it false.
	Process bool
}

// OSEnviron describes the running process.
func OSEnviron() Environ {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return Environ{
		Dir:              dir,
		Getenv:           os.Getenv,
		LookupEnv:        os.LookupEnv,
		Env:              os.Environ(),
		Stdin:            os.Stdin,
		Stdout:           os.Stdout,
		Stderr:           os.Stderr,
		Now:              time.Now,
		StdoutIsTerminal: isTerminal(os.Stdout),
		StderrIsTerminal: isTerminal(os.Stderr),
		Process:          true,
	}
}

// lookup is LookupEnv where the environment has it, else Getenv with
// empty taken for unset (repo.Env.Lookup).
func (e Environ) lookup(name string) (string, bool) {
	return repo.Env{Getenv: e.Getenv, LookupEnv: e.LookupEnv}.Lookup(name)
}
