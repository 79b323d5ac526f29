package cli

import "fmt"

// Main runs goblame with args (without the program name) and returns the
// exit status.
func Main(args []string, env Environ) int {
	// The blame pipeline is being assembled (issues 2-5); until it is, say
	// so in git's error shape rather than pretend.
	fmt.Fprintln(env.Stderr, "fatal: goblame: blame is not implemented yet")
	return 128
}
