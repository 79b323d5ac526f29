package fsread

import (
	"io"
	"io/fs"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// File is a file Open opened: its descriptor, read with read(2) and
// pread(2) directly. An *os.File offers every file it opens to the
// runtime's network poller: the first open of a run creates the epoll
// instance and its eventfd, and every later one tries epoll_ctl, which
// fails with EPERM for a regular file (three system calls for the first
// and one for each later file, 16 in a small blame that opens 13), and
// each carries a cleanup record. None of that serves a regular file,
// whose reads never wait.
//
// A File is not safe for concurrent Close with its reads. The descriptor
// is closed by Close only, never by the collector: whatever keeps a File
// open past a call arranges its closing (odb's packs close theirs with
// the database, or when collected).
type File struct {
	fd   int
	name string
}

// Name is the name the file was opened by.
func (f *File) Name() string { return f.name }

// Fd returns the file's descriptor (-1 once closed).
func (f *File) Fd() uintptr { return uintptr(f.fd) }

// Read reads up to len(b) bytes at the file's offset; at the end of the
// file it returns 0, io.EOF.
func (f *File) Read(b []byte) (int, error) {
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	if len(b) == 0 {
		return 0, nil
	}
	b = b[:min(len(b), maxIO)]
	for {
		n, err := unix.Read(f.fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt reads len(b) bytes from offset off, as io.ReaderAt: fewer only
// at the end of the file (io.EOF) or on an error.
func (f *File) ReadAt(b []byte, off int64) (int, error) {
	if f.fd < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	}
	done := 0
	for done < len(b) {
		chunk := b[done:min(len(b), done+maxIO)]
		n, err := unix.Pread(f.fd, chunk, off+int64(done))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return done, &fs.PathError{Op: "read", Path: f.name, Err: err}
		}
		if n == 0 {
			return done, io.EOF
		}
		done += n
	}
	return done, nil
}

// Stat returns what fstat(2) says of the file.
func (f *File) Stat() (fs.FileInfo, error) {
	if f.fd < 0 {
		return nil, &fs.PathError{Op: "stat", Path: f.name, Err: fs.ErrClosed}
	}
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(f.fd, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "stat", Path: f.name, Err: err}
		}
		return newFileInfo(f.name, &st), nil
	}
}

// Close closes the descriptor; closing a closed File does nothing.
func (f *File) Close() error {
	if f.fd < 0 {
		return nil
	}
	fd := f.fd
	f.fd = -1
	if err := unix.Close(fd); err != nil {
		return &fs.PathError{Op: "close", Path: f.name, Err: err}
	}
	return nil
}

// maxIO is the most one read asks for: macOS refuses counts above
// INT_MAX (EINVAL), and os reads a gigabyte at a time too.
const maxIO = 1 << 30

// openFile opens name with flags and returns it as a File. Where
// O_NONBLOCK makes open fail with EAGAIN on a regular file (one under
// another process's write lease: a Samba oplock, an NFS delegation), it
// opens it again without and waits, as git's open does; anything else
// (a device that is busy) keeps the error.
func openFile(name string, flags int) (*File, error) {
	for {
		fd, err := unix.Open(name, flags, 0)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN && flags&unix.O_NONBLOCK != 0 && isRegular(name, flags&unix.O_NOFOLLOW != 0) {
			flags &^= unix.O_NONBLOCK
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &File{fd: fd, name: name}, nil
	}
}

// isRegular reports whether name is a regular file (lstat'ed with
// noFollow).
func isRegular(name string, noFollow bool) bool {
	var st unix.Stat_t
	var err error
	if noFollow {
		err = unix.Lstat(name, &st)
	} else {
		err = unix.Stat(name, &st)
	}
	return err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG
}

// fileInfo is fs.FileInfo over a stat(2) record, as os reports it.
type fileInfo struct {
	name string
	st   syscall.Stat_t
}

func newFileInfo(name string, st *syscall.Stat_t) *fileInfo {
	base := name
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '/' {
			base = name[i+1:]
			break
		}
	}
	return &fileInfo{name: base, st: *st}
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return int64(fi.st.Size) }
func (fi *fileInfo) IsDir() bool        { return fi.Mode().IsDir() }
func (fi *fileInfo) Sys() any           { return &fi.st }
func (fi *fileInfo) ModTime() time.Time { return time.Unix(timespec(&fi.st)) }

// Mode converts the stat mode as os does.
func (fi *fileInfo) Mode() fs.FileMode {
	m := uint32(fi.st.Mode)
	mode := fs.FileMode(m & 0o777)
	switch m & syscall.S_IFMT {
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
