package blame

import (
	"io"
	"io/fs"
	"slices"
)

// readContents reads --contents' reader (standard input, mostly an
// editor's buffer through a pipe) to its end. io.ReadAll starts at 512
// bytes and grows chunk by chunk, each chunk a read: a 60 KB buffer took
// about 15 reads and twice its size in fresh memory. This reads into
// one buffer, sized by the file where the reader is a regular one, else
// from 64 KiB up, doubling (the capacity a read does not fill is not
// touched, so costs no page).
func readContents(r io.Reader) ([]byte, error) {
	size := 64 << 10
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() >= 0 && fi.Size() < 1<<30 {
			size = int(fi.Size()) + 1 // +1: the read that meets the end
		}
	}
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, cap(b))
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
