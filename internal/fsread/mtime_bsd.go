//go:build darwin || freebsd || netbsd

package fsread

import "syscall"

// timespec is the modification time of st as seconds and nanoseconds.
func timespec(st *syscall.Stat_t) (int64, int64) {
	return int64(st.Mtimespec.Sec), int64(st.Mtimespec.Nsec)
}
