package object

import (
	"bytes"

	"github.com/goblame/goblame/oid"
)

// File modes as git canonicalises them when reading a tree.
const (
	ModeTree    uint32 = 0o040000
	ModeFile    uint32 = 0o100644
	ModeExec    uint32 = 0o100755
	ModeSymlink uint32 = 0o120000
	ModeGitlink uint32 = 0o160000
)

// CanonMode maps a mode read from a tree to git's canonical form
// (canon_mode): regular files become 100644 or 100755, symlinks and
// directories keep their type, anything else is a gitlink.
func CanonMode(mode uint32) uint32 {
	switch mode & 0o170000 {
	case 0o100000:
		if mode&0o100 != 0 {
			return ModeExec
		}
		return ModeFile
	case 0o120000:
		return ModeSymlink
	case 0o040000:
		return ModeTree
	}
	return ModeGitlink
}

// IsTree reports whether a canonical mode is a directory.
func IsTree(mode uint32) bool { return mode&0o170000 == 0o040000 }

// IsBlobMode reports whether a canonical mode names a blob (file or symlink).
func IsBlobMode(mode uint32) bool {
	t := mode & 0o170000
	return t == 0o100000 || t == 0o120000
}

// TreeEntry is one entry of a tree. Name aliases the tree buffer.
type TreeEntry struct {
	Mode uint32 // canonical mode
	Name []byte
	ID   oid.ID
}

// TreeIter walks the entries of a tree body.
type TreeIter struct {
	format oid.Format
	body   []byte
	off    int
	err    error
}

// NewTreeIter starts iterating over a tree body.
func NewTreeIter(f oid.Format, body []byte) TreeIter {
	return TreeIter{format: f, body: body}
}

// Next stores the next entry in e and reports whether there was one. At the
// end, or on malformed input, it returns false; Err tells which.
func (it *TreeIter) Next(e *TreeEntry) bool {
	if it.err != nil || it.off >= len(it.body) {
		return false
	}
	b := it.body[it.off:]
	// mode
	if b[0] == ' ' {
		return it.fail("malformed mode in tree entry")
	}
	var mode uint32
	i := 0
	for ; i < len(b) && b[i] != ' '; i++ {
		c := b[i]
		if c < '0' || c > '7' || i > 10 {
			return it.fail("malformed mode in tree entry")
		}
		mode = mode<<3 | uint32(c-'0')
	}
	if i >= len(b) {
		return it.fail("truncated tree entry")
	}
	i++
	nul := bytes.IndexByte(b[i:], 0)
	if nul < 0 {
		return it.fail("truncated tree entry")
	}
	if nul == 0 {
		return it.fail("empty filename in tree entry")
	}
	name := b[i : i+nul]
	i += nul + 1
	hs := it.format.Size()
	if len(b)-i < hs {
		return it.fail("too-short tree file")
	}
	e.Mode = CanonMode(mode)
	e.Name = name
	e.ID = oid.FromBytes(it.format, b[i:i+hs])
	it.off += i + hs
	return true
}

func (it *TreeIter) fail(msg string) bool {
	it.err = &FormatError{Type: Tree, Offset: it.off, Msg: msg}
	return false
}

// Err returns the error that stopped iteration, if any.
func (it *TreeIter) Err() error { return it.err }

// FindEntry looks up one name (no slashes) in a tree body. It relies on
// git's sort order to stop early: entries compare as their names, with
// directories as if followed by '/'.
func FindEntry(f oid.Format, body []byte, name []byte) (TreeEntry, bool, error) {
	it := NewTreeIter(f, body)
	var e TreeEntry
	for it.Next(&e) {
		c := bytes.Compare(e.Name, name)
		if c == 0 {
			return e, true, nil
		}
		// An entry whose name is a proper prefix of name may still sort
		// before it, and so may "name" as a directory ("name/") relative
		// to entries such as "name.c". Stop only once an entry is greater
		// than both "name" and "name/".
		if c > 0 && !bytes.HasPrefix(e.Name, name) {
			return TreeEntry{}, false, nil
		}
	}
	return TreeEntry{}, false, it.Err()
}

// CompareEntryNames orders two tree entries as git sorts them
// (base_name_compare): byte order, with a directory name compared as if
// it ended in '/'.
func CompareEntryNames(a []byte, aIsTree bool, b []byte, bIsTree bool) int {
	n := min(len(a), len(b))
	if c := bytes.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	var ca, cb byte
	if n < len(a) {
		ca = a[n]
	} else if aIsTree {
		ca = '/'
	}
	if n < len(b) {
		cb = b[n]
	} else if bIsTree {
		cb = '/'
	}
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}
