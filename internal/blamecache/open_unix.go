//go:build unix

package blamecache

import "syscall"

// An entry is opened without following a symbolic link and without
// blocking on a FIFO someone put in its place.
const (
	syscallNoFollow = syscall.O_NOFOLLOW
	syscallNonBlock = syscall.O_NONBLOCK
)
