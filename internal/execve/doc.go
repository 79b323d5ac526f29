//go:build unix

// Package execve replaces the process with another program (execve(2))
// the way a C program would: with the signal dispositions the process
// was started with.
//
// A Go program's runtime installs its own handler, at start-up, for
// almost every signal, ignored ones included (it keeps an inherited
// SIG_IGN only for SIGHUP and SIGINT). execve resets handled signals to
// their default action, so a program a Go process executes would find
// SIGQUIT, SIGPIPE, SIGTERM and the rest no longer ignored where the Go
// process's parent had ignored them (a shell's background job ignores
// SIGQUIT; many runtimes ignore SIGPIPE). Exec ignores them again first.
// The dispositions are read before the Go runtime starts, by a C
// constructor, in a cgo build; without cgo, from what the runtime
// recorded of them at start-up (execve_fwdsig.go: the goblame_fwdsig tag
// and -ldflags=-checklinkname=0, as make build builds, on linux/amd64
// and arm64). A build without cgo and without the tag cannot see them,
// and Exec then passes on only SIGHUP and SIGINT.
//
// The signal mask (blocked signals) needs nothing: the Go runtime keeps
// the mask the process started with on its threads.
//
// # Concurrency
//
// Exec is meant to end the process: when it fails, the signals it set
// back to ignored stay ignored.
package execve
