package odb

import (
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/goblame/goblame/internal/fsread"
)

// maxPackFiles bounds the .pack files kept open for pread (see
// Reader.entry) across the process, so that a repository of hundreds of
// packs under a low open-file limit leaves descriptors for everything
// else; packs beyond it are read through their mappings alone.
const maxPackFiles = 32

var openPackFiles atomic.Int64

// disableMmap makes mapFile read files into memory instead of mapping them.
// Tests set it to exercise the fallback path.
var disableMmap = false

// mapping is the read-only content of a whole file: memory-mapped where the
// platform allows, otherwise read into the heap.
type mapping struct {
	data    []byte
	mmapped bool
}

// mapFile maps (or reads) the whole file at path.
func mapFile(path string) (*mapping, error) {
	f, m, err := openMapping(path)
	if f != nil {
		f.Close()
	}
	return m, err
}

// openMapping is mapFile that also returns the open file the mapping was
// made from (nil on error), for the caller to keep or close.
func openMapping(path string) (*fsread.File, *mapping, error) {
	f, st, err := fsread.OpenStat(path, false)
	if err != nil {
		return nil, nil, err
	}
	m, err := mapOpened(f, st, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, m, nil
}

func mapOpened(f *fsread.File, st os.FileInfo, path string) (*mapping, error) {
	if !st.Mode().IsRegular() {
		return nil, &fsread.NotRegularError{Path: path, Mode: st.Mode(), Size: st.Size()}
	}
	size := st.Size()
	if size == 0 {
		return &mapping{}, nil
	}
	if !disableMmap {
		if b, ok := mmapFile(f, size); ok {
			return &mapping{data: b, mmapped: true}, nil
		}
	}
	if int64(int(size)) != size {
		return nil, fmt.Errorf("%s: file too large to read", path)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, err
	}
	return &mapping{data: b}, nil
}

func (m *mapping) close() error {
	if m == nil || m.data == nil {
		return nil
	}
	var err error
	if m.mmapped {
		err = munmap(m.data)
	}
	m.data = nil
	return err
}

// release drops the pages of a memory-mapped file from the process's
// resident set; they are read again from the page cache on next use.
func (m *mapping) release() {
	if m != nil && m.mmapped && len(m.data) > 0 {
		releasePages(m.data)
	}
}
