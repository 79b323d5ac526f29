package cli

import (
	"io"
	"strings"
)

// Version is goblame's version, printed by --version (VersionLine).
var Version = "0.1.0-dev"

// Name and Summary name the program in its help and its manual page.
const (
	Name    = "goblame"
	Summary = "git blame, byte for byte, only faster"
)

// Main runs goblame with args (without the program name) and returns the
// exit status: 0, 128 for fatal errors, 129 for usage errors, as git.
//
// A first argument --help, --version or --generate-bash-completion is
// goblame's own, and so is --help after "annotate": --help shows goblame's
// manual page as "git blame --help" shows git's (help.go), whatever
// follows it. Anything else is git blame's command line (where a later
// --help is parse-options' help, exit status 129, as in git).
func Main(args []string, env Environ) int {
	if len(args) > 0 {
		switch args[0] {
		case "--help":
			return showManual(env)
		case "--version":
			io.WriteString(env.Stdout, VersionLine())
			return 0
		case "--generate-bash-completion":
			io.WriteString(env.Stdout, completionWords())
			return 0
		}
	}
	annotate := false
	if len(args) > 0 && args[0] == "annotate" {
		// "goblame annotate ..." is git annotate (a file named
		// "annotate" is blamed with "goblame -- annotate").
		annotate, args = true, args[1:]
		if len(args) > 0 && args[0] == "--help" {
			return showManual(env)
		}
	}
	return runBlame(args, env, annotate)
}

// runBlame runs git blame (git annotate when annotate) with args, the
// words after the command's name, and returns its exit status.
func runBlame(args []string, env Environ, annotate bool) int {
	if env.Process {
		growStack() // its final size in one copy: stackstart.go
	}
	r := &blameRun{env: env, annotate: annotate}
	err := r.run(args)
	if err != nil {
		r.flush()
		return report(env.Stdout, env.Stderr, err, annotate)
	}
	return 0
}

// completionWords is the answer to --generate-bash-completion (the
// protocol of urfave/cli's bash_autocomplete script): every option of
// blame's table, one per line.
func completionWords() string {
	var b strings.Builder
	for _, o := range OptionDocs() {
		if o.Hidden {
			continue
		}
		if o.Long != "" {
			b.WriteString("--" + o.Long + "\n")
		}
		if o.Short != 0 {
			b.WriteString("-" + string(o.Short) + "\n")
		}
	}
	return b.String()
}
