// Package cli is goblame's command line: git blame's argument syntax (parsed
// faithfully, with urfave/cli/v2 for help and version), configuration,
// colour, progress, and the mapping of errors to git's messages and exit
// codes (fatal: ... and 128; usage errors 129).
//
// The command runs against an explicit Environ (arguments, working
// directory, environment variables, standard streams, clock) so tests run
// it in-process, in parallel, next to the real git.
package cli
