//go:build unix

package odb

import (
	"github.com/goblame/goblame/internal/fsread"
	"golang.org/x/sys/unix"
)

// mmapFile maps size bytes of f read-only. ok is false when the platform or
// the file system refuses, and the caller falls back to reading.
func mmapFile(f *fsread.File, size int64) ([]byte, bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, false
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, false
	}
	return b, true
}

func munmap(b []byte) error { return unix.Munmap(b) }

// releasePages tells the kernel the mapped pages are not needed now
// (MADV_DONTNEED on a shared file mapping only unmaps them).
func releasePages(b []byte) { _ = unix.Madvise(b, unix.MADV_DONTNEED) }
