// Package cli is goblame's command line: git blame's argument syntax (parsed
// faithfully, by git's parse-options rules in args*.go), configuration,
// colour, progress, and the mapping of errors to git's messages and exit
// codes (fatal: ... and 128; usage errors 129). A first argument --help,
// --version or --generate-bash-completion is goblame's own (Main), and
// so is --json anywhere on the command line, an option git does not
// have: it is matched only in full and stays out of git's help,
// completion list and abbreviations (poGoblame), so that every other
// command line parses as in git.
//
// The command runs against an explicit Environ (arguments, working
// directory, environment variables, standard streams, clock) so tests run
// it in-process, in parallel, next to the real git.
//
// # Start-up
//
// Every package linked into goblame runs its initialisation on every run,
// so the binary links only what a blame needs.
//
// # Help, manual page and completions
//
// The manual page goblame.1, its plain-text rendering goblame.1.txt (what
// --help prints where man cannot show the page: help.go) and the bash, zsh
// and fish completions in ../completions are generated from the option
// tables (OptionDocs, RevisionOptionDocs, docs.go) by internal/gen/mangen
// and internal/gen/compgen (go generate ./cli); their tests fail when the
// committed files are out of date.
package cli

//go:generate go run ./internal/gen/mangen -out ../goblame.1 -text goblame.1.txt
//go:generate go run ./internal/gen/compgen -dir ../completions
