package cli

import (
	"fmt"

	urfave "github.com/urfave/cli/v2"
)

// Version is goblame's version, printed by --version.
var Version = "0.1.0-dev (git blame 2.39.5 compatible)"

// Main runs goblame with args (without the program name) and returns the
// exit status: 0, 128 for fatal errors, 129 for usage errors, as git.
func Main(args []string, env Environ) int {
	if len(args) > 0 && (args[0] == "--help" || args[0] == "--version" || args[0] == "--generate-bash-completion") {
		return appMain(args, env)
	}
	r := &blameRun{env: env}
	err := r.run(args)
	if err != nil {
		r.flush()
		return report(env.Stdout, env.Stderr, err, false)
	}
	return 0
}

// appMain uses urfave/cli for what it is good at: --help, --version and
// shell completion. Everything else is git's syntax (ParseArgs).
func appMain(args []string, env Environ) int {
	app := &urfave.App{
		Name:      "goblame",
		Usage:     "git blame, byte for byte, only faster",
		UsageText: "goblame [<options>] [<rev-opts>] [<rev>] [--] <file>\n\n" + Usage(false),
		Version:   Version,
		Writer:    env.Stdout,
		ErrWriter: env.Stderr,
		// Options are git's, parsed by ParseArgs; the app only answers
		// --help, --version and completion.
		HideHelpCommand:      true,
		EnableBashCompletion: true,
		Action: func(*urfave.Context) error {
			return nil
		},
	}
	if err := app.Run(append([]string{"goblame"}, args...)); err != nil {
		fmt.Fprintln(env.Stderr, "fatal:", err)
		return 128
	}
	return 0
}
