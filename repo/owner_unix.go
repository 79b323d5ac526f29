package repo

import "syscall"

// ownerUID returns the owner of path itself (lstat).
func ownerUID(path string) (uint32, bool) {
	var st syscall.Stat_t
	if err := syscall.Lstat(path, &st); err != nil {
		return 0, false
	}
	return st.Uid, true
}
