// Package diff is a line diff whose hunks are exactly those of git
// 2.39.5's xdiff, the engine behind git diff and git blame.
//
// (A full essay on the algorithm follows in a later commit.)
//
// # Concurrency
//
// A Differ and the Files it prepares are not safe for concurrent use; use
// one Differ per goroutine. TrimCommonTail is a pure function.
//
// # Security
//
// The inputs are arbitrary bytes (any blob in a repository). Nothing here
// trusts them: sizes over MaxFileSize are refused with ErrTooLarge (git
// refuses them too), and no input can make the code index out of range or
// panic.
package diff
