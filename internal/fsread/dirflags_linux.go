package fsread

import "golang.org/x/sys/unix"

// dirOpenFlags opens a directory as a starting point for openat(2): with
// O_PATH, which needs no read permission on it, as a path lookup does.
const dirOpenFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC
