// Command goblame is git blame, byte for byte, only faster.
//
// main is thin: it hands the process's arguments and environment to cli
// and exits with the status cli returns (0, 128 for fatal errors, 129 for
// usage errors, as git does). Run under the name git, it is the git shim
// (cli.ShimMain): git blame and git annotate itself, the real git for
// every other command.
package main

import (
	"os"
	"path/filepath"

	"github.com/goblame/goblame/cli"
)

func main() {
	name := filepath.Base(os.Args[0])
	if cli.IsShimName(name) {
		os.Exit(cli.ShimMain(os.Args)) // run as git: see cli/shim.go
	}
	args := os.Args[1:]
	if name == "annotate" || name == "git-annotate" {
		args = append([]string{"annotate"}, args...) // run as annotate
	}
	os.Exit(cli.Main(args, cli.OSEnviron()))
}
