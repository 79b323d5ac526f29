// Command goblame is git blame, byte for byte, only faster.
//
// main is thin: it hands the process's arguments and environment to cli
// and exits with the status cli returns (0, 128 for fatal errors, 129 for
// usage errors, as git does).
package main

import (
	"os"

	"github.com/goblame/goblame/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.OSEnviron()))
}
