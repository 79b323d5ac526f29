//go:build !linux

package fsread

import "golang.org/x/sys/unix"

// dirOpenFlags opens a directory as a starting point for openat(2)
// (O_PATH is Linux's).
const dirOpenFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
