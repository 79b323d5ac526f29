package odb

import (
	"fmt"
	"github.com/goblame/goblame/internal/fsread"
	"io"
)

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
	f, st, err := fsread.OpenStat(path, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
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
