// Package fsread opens and reads the small files of a repository that
// are not objects — HEAD, refs, packed-refs, config and its includes,
// .git files, commondir, alternates, .mailmap, attributes, grafts,
// ignore-revs lists — without ever blocking or reading without end, and
// the files whose descriptors odb and traverse keep or map (packs, their
// indexes, commit-graphs) and the work-tree file a blame reads (with no
// size limit, as git reads it).
//
// git opens these with open(2) and reads them to the end; a FIFO in
// their place makes git wait forever, and a device such as /dev/zero
// makes it read until memory runs out. fsread opens with O_NONBLOCK, so
// that opening a FIFO returns at once, checks with fstat that what it
// opened is a regular file (or /dev/null, which git users name to mean
// "nothing", and which reads as empty), and refuses anything else with a
// *NotRegularError naming the file. Reads stop at a size limit
// (*TooLargeError) decided from the size fstat reports and the caller's
// limit, so a file cannot make a reader allocate more than either.
//
// What it opens is a File, a bare descriptor read with read(2) and
// pread(2), not an *os.File, which would hand it to the runtime's
// network poller for nothing (see File); ReadDirNames lists a directory
// the same way.
//
// # Concurrency
//
// The functions are safe for concurrent use.
package fsread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// DefaultLimit is the size above which ReadFile refuses a file when the
// caller names no limit: far above any real ref, config or mailmap.
const DefaultLimit = 1 << 30

// ErrNotRegular is wrapped by NotRegularError.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError reports a path that is a FIFO, socket, device or
// directory where a file was expected.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
	// Size is the file's st_size (what git, having opened a directory
	// where it maps a file, compares with the format's minimum before
	// its mmap fails).
	Size int64
}

// DirSize reports whether err is Open's refusal of a directory, and the
// directory's size.
func DirSize(err error) (int64, bool) {
	var nr *NotRegularError
	if errors.As(err, &nr) && nr.Mode.IsDir() {
		return nr.Size, true
	}
	return 0, false
}

// MapFailedText is git's xmmap death for a file that cannot be mapped
// (a directory: ENODEV): "mmap failed: No such device".
const MapFailedText = "mmap failed: No such device"

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s)", e.Path, kind(e.Mode))
}

func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "mode " + m.String()
}

// TooLargeError reports a file larger than the reader's limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.Path, e.Limit)
}

// Open opens name for reading without blocking and returns it when it is
// a regular file. /dev/null (any character device with the null
// device's numbers) is returned too, and reads as empty. With noFollow a
// final symbolic link is not followed (open fails with ELOOP).
func Open(name string, noFollow bool) (*File, error) {
	f, _, err := OpenStat(name, noFollow)
	return f, err
}

// OpenStat is Open that also returns what fstat said about the file.
func OpenStat(name string, noFollow bool) (*File, fs.FileInfo, error) {
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC
	if noFollow {
		flags |= unix.O_NOFOLLOW
	}
	f, err := openFile(name, flags)
	if err != nil {
		return nil, nil, err
	}
	return checkRegular(f, name)
}

// checkRegular returns f and its fstat when f is a regular file or the
// null device, and closes it otherwise.
func checkRegular(f *File, name string) (*File, fs.FileInfo, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() && !isDevNull(st) {
		f.Close()
		return nil, nil, &NotRegularError{Path: name, Mode: st.Mode(), Size: st.Size()}
	}
	return f, st, nil
}

// isDevNull reports whether st is the null device (major 1, minor 3 on
// Linux).
func isDevNull(st fs.FileInfo) bool {
	if st.Mode()&fs.ModeCharDevice == 0 {
		return false
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	major := (sys.Rdev >> 8) & 0xfff
	minor := (sys.Rdev & 0xff) | ((sys.Rdev >> 12) & 0xfff00)
	return major == 1 && minor == 3
}

// ReadFile reads the regular file name (see Open) to the end; a file
// larger than limit (DefaultLimit when limit <= 0) is an error.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, st, err := OpenStat(name, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, st, name, limit)
}

// ReadAll reads an opened file (from Open) to the end, at most limit
// bytes (DefaultLimit when limit <= 0).
func ReadAll(f *File, name string, limit int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		st = nil
	}
	return readAll(f, st, name, limit)
}

// ReadAllStat is ReadAll for a file whose fstat the caller has (from
// OpenStat or OpenIn).
func ReadAllStat(f *File, st fs.FileInfo, name string, limit int64) ([]byte, error) {
	return readAll(f, st, name, limit)
}

func readAll(f *File, st fs.FileInfo, name string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	size := int64(512)
	if st != nil {
		if !st.Mode().IsRegular() {
			return []byte{}, nil // /dev/null
		}
		if st.Size() > limit {
			return nil, &TooLargeError{Path: name, Limit: limit}
		}
		size = st.Size() + 1 // one more byte sees EOF without growing
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				return nil, &TooLargeError{Path: name, Limit: limit}
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > limit {
			return nil, &TooLargeError{Path: name, Limit: limit}
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// pathMax is Linux's PATH_MAX: open(2) refuses longer names with
// ENAMETOOLONG.
const pathMax = 4096

// OpenIn is Open for the file rel inside the directory dir, resolved as
// git resolves a name relative to its working directory: the length
// limit applies to rel alone (openat(2) from dir), not to dir/rel. Names
// deep inside a work tree whose absolute form is longer than PATH_MAX
// open as they do for git, which works from the top of the tree.
func OpenIn(dir, rel string, noFollow bool) (*File, fs.FileInfo, error) {
	if strings.HasPrefix(rel, "/") {
		return OpenStat(rel, noFollow) // absolute: dir does not apply
	}
	full := dir + "/" + rel
	if len(full) < pathMax {
		return OpenStat(full, noFollow)
	}
	d, err := unix.Open(dir, dirOpenFlags, 0)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(d)
	flags := unix.O_RDONLY | unix.O_NONBLOCK | unix.O_CLOEXEC
	if noFollow {
		flags |= unix.O_NOFOLLOW
	}
	fd, err := unix.Openat(d, rel, flags, 0)
	if err != nil {
		return nil, nil, &fs.PathError{Op: "openat", Path: rel, Err: err}
	}
	return checkRegular(&File{fd: fd, name: full}, rel)
}

// MapFile returns the contents of the regular file name as ReadFile does,
// but maps a file larger than mapAbove bytes read-only instead of reading
// it (git maps packed-refs above 32 KiB): a binary search then touches a
// few pages of it rather than copying all of it into fresh memory. mapped
// says which one it did; a mapping is released with Unmap, after its last
// use. Where mapping fails, the file is read.
func MapFile(name string, limit, mapAbove int64) (data []byte, mapped bool, err error) {
	f, st, err := OpenStat(name, false)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	if limit <= 0 {
		limit = DefaultLimit
	}
	if st.Mode().IsRegular() && st.Size() > mapAbove && st.Size() <= limit && int64(int(st.Size())) == st.Size() {
		if b, err := unix.Mmap(int(f.Fd()), 0, int(st.Size()), unix.PROT_READ, unix.MAP_SHARED); err == nil {
			return b, true, nil
		}
	}
	data, err = readAll(f, st, name, limit)
	return data, false, err
}

// Unmap releases a mapping returned by MapFile.
func Unmap(data []byte) { _ = unix.Munmap(data) }

// Strerror is the C library's strerror wording of err's cause ("No such
// file or directory"), err's own text when it has no errno. A directory
// Open would not read is EISDIR's, as git's fopen says of one (git is
// built with FREAD_READS_DIRECTORIES on Linux).
func Strerror(err error) string {
	if _, dir := DirSize(err); dir {
		err = syscall.EISDIR
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		s := errno.Error()
		if s != "" {
			s = strings.ToUpper(s[:1]) + s[1:]
		}
		return s
	}
	return err.Error()
}

// ReadFileOrPipe is ReadFile for a file the user names (an ignore-revs
// list, a -S graft file), which git reads whatever it is. A pipe (a
// shell's process substitution, "<(git log ...)", or /dev/stdin) is read
// to its writer's end, waiting while the writer holds it open, as git
// does. So is a named FIFO that a process has opened for writing. A
// named FIFO with no data and no writer is ReadFile's NotRegularError:
// git would wait for a writer that may never come. Anything else is
// ReadFile's.
func ReadFileOrPipe(name string, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	f, err := openFile(name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.Mode()&fs.ModeNamedPipe == 0 {
		f, st, err = checkRegular(f, name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readAll(f, st, name, limit)
	}
	defer f.Close()
	var sfs unix.Statfs_t
	if unix.Fstatfs(f.fd, &sfs) == nil && sfs.Type != unix.PIPEFS_MAGIC {
		// A named FIFO: the open did not wait for a writer, so look
		// for one. Data or EAGAIN means one has it open; EOF means
		// none has written.
		var probe [1]byte
		n, err := unix.Read(f.fd, probe[:])
		for err == unix.EINTR {
			n, err = unix.Read(f.fd, probe[:])
		}
		switch {
		case err == nil && n == 0:
			return nil, &NotRegularError{Path: name, Mode: st.Mode(), Size: st.Size()}
		case err == unix.EAGAIN:
			n = 0 // (unix.Read's -1): a writer, nothing written yet
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if err := setBlocking(f); err != nil {
			return nil, &fs.PathError{Op: "fcntl", Path: name, Err: err}
		}
		rest, err := readAll(f, nil, name, limit-int64(n))
		if err != nil {
			return nil, err
		}
		return append(probe[:n:n], rest...), nil
	}
	if err := setBlocking(f); err != nil {
		return nil, &fs.PathError{Op: "fcntl", Path: name, Err: err}
	}
	return readAll(f, nil, name, limit)
}

// setBlocking clears O_NONBLOCK: the reads wait for a pipe's data.
func setBlocking(f *File) error {
	flags, err := unix.FcntlInt(uintptr(f.fd), unix.F_GETFL, 0)
	if err != nil {
		return err
	}
	_, err = unix.FcntlInt(uintptr(f.fd), unix.F_SETFL, flags&^unix.O_NONBLOCK)
	return err
}
