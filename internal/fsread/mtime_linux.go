package fsread

import "syscall"

// timespec is the modification time of st as seconds and nanoseconds.
func timespec(st *syscall.Stat_t) (int64, int64) { return st.Mtim.Sec, st.Mtim.Nsec }
