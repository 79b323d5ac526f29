package fsread

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// ReadDirNames lists the names in the directory dir, "." and ".." left
// out, in the order the file system gives them (readdir's, the order git
// reads a directory in), from a bare descriptor as File reads: an
// *os.File would hand the directory to the runtime's network poller,
// whose first use in a run creates its epoll instance and eventfd (and
// makes the scheduler poll it from then on) for a read that never waits.
func ReadDirNames(dir string) ([]string, error) {
	f, err := openFile(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var names []string
	buf := make([]byte, 8<<10)
	for {
		n, err := unix.ReadDirent(f.fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return names, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}
