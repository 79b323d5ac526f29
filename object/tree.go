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
//
// It reads one entry ahead, as git's tree walk does (tree_entry hands out
// an entry only after decoding the one that follows): an entry is
// returned only when the bytes after it are a well-formed entry too or the
// end of the tree. A malformed entry therefore also hides the one before
// it, so a lookup of that name fails where git dies, rather than
// succeeding.
type TreeIter struct {
	format oid.Format
	body   []byte
	off    int       // where the entry after ahead starts
	ahead  TreeEntry // decoded, handed out by the next call of Next
	filled bool      // ahead holds an entry
	err    error
}

// NewTreeIter starts iterating over a tree body. It decodes the first
// entry (git's init_tree_desc); Err reports if that failed.
func NewTreeIter(f oid.Format, body []byte) TreeIter {
	it := TreeIter{format: f, body: body}
	it.readAhead()
	return it
}

// Next stores the next entry in e and reports whether there was one. At the
// end, or on malformed input, it returns false; Err tells which.
func (it *TreeIter) Next(e *TreeEntry) bool {
	if !it.filled {
		return false
	}
	cur := it.ahead
	if !it.readAhead() && it.err != nil {
		return false
	}
	*e = cur
	return true
}

// readAhead decodes the entry at it.off into it.ahead and reports whether
// there was one; at the end of the body, or on malformed bytes (recorded
// in it.err), it returns false.
func (it *TreeIter) readAhead() bool {
	it.filled = false
	if it.err != nil || it.off >= len(it.body) {
		return false
	}
	mode, name, idAt, n, msg := decodeEntry(it.body[it.off:], it.format.Size())
	if msg != "" {
		return it.fail(msg)
	}
	b := it.body[it.off:]
	it.ahead = TreeEntry{Mode: mode, Name: name, ID: oid.FromBytes(it.format, b[idAt:])}
	it.filled = true
	it.off += n
	return true
}

// decodeEntry decodes the tree entry at the start of b (not empty) for
// hash size hs: its canonical mode, its name, where its ID starts and its
// length, or the message of the error git reports for it.
func decodeEntry(b []byte, hs int) (mode uint32, name []byte, idAt, n int, msg string) {
	// As git's decode_tree_entry: the byte before the last hash-size bytes
	// of the tree must be a NUL, so that every name ends in bounds with
	// room for its ID after it (a tree with trailing bytes fails at its
	// first entry, as in git). Then a mode of any number of octal digits
	// (git's unsigned int wraps, and so does mode), a space and a name.
	if len(b) < hs+3 || b[len(b)-hs-1] != 0 {
		return 0, nil, 0, 0, "too-short tree object"
	}
	if b[0] == ' ' {
		return 0, nil, 0, 0, "malformed mode in tree entry"
	}
	i := 0
	for ; b[i] != ' '; i++ {
		// The NUL checked above stops the loop in bounds.
		c := b[i]
		if c < '0' || c > '7' {
			return 0, nil, 0, 0, "malformed mode in tree entry"
		}
		mode = mode<<3 | uint32(c-'0')
	}
	i++
	// Found at len(b)-hs-1 at the latest, so the ID fits after it.
	nul := bytes.IndexByte(b[i:], 0)
	if nul == 0 {
		return 0, nil, 0, 0, "empty filename in tree entry"
	}
	name = b[i : i+nul]
	i += nul + 1
	return CanonMode(mode), name, i, i + hs, ""
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
	e, found, _, _, err := FindEntryIn(f, body, name, true)
	return e, found, err
}

// FindEntryIn is FindEntry on a tree body that is the whole tree (whole)
// or only its first bytes. decided reports whether those bytes settle
// the answer: for a prefix, not when they end before the entry that
// decides, or before the entry after it, which FindEntry decodes too
// (the whole tree must then be searched); for a whole tree, always.
// used is how many bytes of body the search read. On a prefix the check
// git's decode_tree_entry makes against the end of the whole tree ("too-
// short tree object": the byte before its last hash-size bytes must be a
// NUL) cannot be made: a tree damaged only past the entries read answers
// where git, reading it whole, would fail (see the fuzz test and the
// README's Robustness section).
func FindEntryIn(f oid.Format, body []byte, name []byte, whole bool) (e TreeEntry, found, decided bool, used int, err error) {
	// TreeIter's walk (an entry counts once the one after it decodes),
	// without copying out the ID of every entry passed over.
	hs := f.Size()
	decode := decodeEntry
	if !whole {
		decode = decodePrefixEntry
	}
	fail := func(off int, msg string) (TreeEntry, bool, bool, int, error) {
		if !whole {
			// Maybe an entry the prefix cuts short.
			return TreeEntry{}, false, false, off, nil
		}
		return TreeEntry{}, false, true, off, &FormatError{Type: Tree, Offset: off, Msg: msg}
	}
	if len(body) == 0 {
		return TreeEntry{}, false, whole, 0, nil
	}
	mode, ename, idAt, n, msg := decode(body, hs)
	if msg != "" {
		return fail(0, msg)
	}
	off := 0
	for {
		next := off + n
		var nMode uint32
		var nName []byte
		var nIDAt, nLen int
		if next < len(body) {
			if nMode, nName, nIDAt, nLen, msg = decode(body[next:], hs); msg != "" {
				return fail(next, msg)
			}
		} else if !whole {
			return TreeEntry{}, false, false, next, nil
		}
		c := bytes.Compare(ename, name)
		if c == 0 {
			return TreeEntry{Mode: mode, Name: ename, ID: oid.FromBytes(f, body[off+idAt:])}, true, true, next + nLen, nil
		}
		// An entry whose name is a proper prefix of name may still sort
		// before it, and so may "name" as a directory ("name/") relative
		// to entries such as "name.c". Stop only once an entry is greater
		// than both "name" and "name/".
		if c > 0 && !bytes.HasPrefix(ename, name) || next >= len(body) {
			return TreeEntry{}, false, true, next + nLen, nil
		}
		off, mode, ename, idAt, n = next, nMode, nName, nIDAt, nLen
	}
}

// decodePrefixEntry is decodeEntry for the first bytes of a tree, where
// the end of b is not the end of the tree: what git checks there (a NUL
// before the tree's last ID) cannot be, and an entry running past the
// end of b fails as one that is malformed does.
func decodePrefixEntry(b []byte, hs int) (mode uint32, name []byte, idAt, n int, msg string) {
	sp := bytes.IndexByte(b, ' ')
	if sp <= 0 {
		return 0, nil, 0, 0, "malformed mode in tree entry"
	}
	for _, c := range b[:sp] {
		if c < '0' || c > '7' {
			return 0, nil, 0, 0, "malformed mode in tree entry"
		}
		mode = mode<<3 | uint32(c-'0')
	}
	nul := bytes.IndexByte(b[sp+1:], 0)
	if nul <= 0 || sp+1+nul+1+hs > len(b) {
		return 0, nil, 0, 0, "truncated tree entry"
	}
	name = b[sp+1 : sp+1+nul]
	idAt = sp + 1 + nul + 1
	return CanonMode(mode), name, idAt, idAt + hs, ""
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
