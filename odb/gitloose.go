package odb

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"github.com/goblame/goblame/object"
)

// GitFailure is how git 2.39.5 fails to read an object whose file is
// there but damaged: the lines it prints on the way (zlib's message,
// "unable to unpack X header", "corrupt loose object 'X'", ...) and the
// line it dies with. A read of the object's type and size alone
// (oid_object_info, which parse_object makes before it reads a commit
// named on the command line) prints InfoLines, or dies of InfoFatal, or
// succeeds (InfoOK) where the whole read fails later in the stream.
type GitFailure struct {
	InfoLines []string
	InfoFatal string
	InfoOK    bool
	Lines     []string
	Fatal     string
	// Packed: the object is a pack's entry, which a failed read marks
	// bad, so that the next read of it finds nothing and prints nothing.
	Packed bool
	// Died: git dies reading the entry (use_pack past the pack's end),
	// where it would otherwise go on to another copy.
	Died bool
}

// looseReplay is what git makes of a loose object file the fast path
// refused: its failure, or the content it reads after all (git accepts
// a stream that ends short of the declared size, padding it with zeros,
// and an object whose whole stream fits in the first 32 bytes inflated
// even when it holds more than the header declares).
type looseReplay struct {
	fail    *GitFailure // nil: git reads it
	typ     object.Type
	size    int64
	content []byte // the whole object, when wanted and read
}

// replayLoose replays git's loose_object_info on file, the loose object
// hex whose file git names name; withContent reads the whole object
// (read_object_file) rather than its type and size. maxSize bounds what
// is allocated for content git would read (a larger one is reported as
// read, without content: the caller refuses it as too large).
func replayLoose(file []byte, hex, name string, withContent bool, maxSize uint64) looseReplay {
	f := &GitFailure{}
	fail := func(lines ...string) looseReplay {
		f.Lines = slices.Concat(f.InfoLines, lines)
		f.Fatal = "loose object " + hex + " (stored in " + name + ") is corrupt"
		return looseReplay{fail: f}
	}
	if len(file) == 0 {
		f.InfoLines = []string{"error: object file " + name + " is empty"}
		return fail()
	}
	// unpack_loose_header: the first call, into 32 bytes.
	z := newZlibReplay(file)
	st := z.call(maxLooseHeader, false)
	if l := z.zlibErrorLine(st); l != "" {
		f.InfoLines = append(f.InfoLines, l)
	}
	if st < zOK {
		f.InfoLines = append(f.InfoLines, "error: unable to unpack "+hex+" header")
		return fail()
	}
	hdr := z.out
	nul := bytes.IndexByte(hdr, 0)
	if nul < 0 {
		f.InfoLines = append(f.InfoLines, "error: header for "+hex+" too long, exceeds 32 bytes")
		return fail()
	}
	typ, size, parsed := parseGitLooseHeader(hdr[:nul])
	if !parsed {
		f.InfoLines = append(f.InfoLines, "error: unable to parse "+hex+" header")
	} else if typ == object.Invalid {
		f.InfoFatal = "invalid object type"
		f.Lines, f.Fatal = f.InfoLines, f.InfoFatal
		return looseReplay{fail: f}
	}
	if !withContent {
		if !parsed {
			return fail()
		}
		return looseReplay{typ: typ, size: int64(size)}
	}
	f.InfoOK = parsed
	// unpack_loose_rest: what followed the header in the first 32
	// bytes, then one Z_FINISH call with room for the rest.
	n := uint64(len(hdr) - nul - 1)
	if n > size {
		n = size
	}
	st = z.call(int(min(size-n, uint64(maxInflatedFrom(len(file))))), true)
	var rest []string
	if l := z.zlibErrorLine(st); l != "" {
		rest = append(rest, l)
	}
	switch {
	case st == zStreamEnd && z.availIn() == 0:
		if !parsed {
			return fail(rest...) // read, but loose_object_info fails
		}
		r := looseReplay{typ: typ, size: int64(size)}
		if size <= maxSize {
			r.content = make([]byte, size)
			copy(r.content, z.out[nul+1:])
		}
		return r
	case st < 0:
		rest = append(rest, "error: corrupt loose object '"+hex+"'")
	case z.availIn() > 0:
		rest = append(rest, "error: garbage at end of loose object '"+hex+"'")
	}
	return fail(rest...)
}

// parseGitLooseHeader is git's parse_loose_header of the header before
// its NUL: the type word (object.Invalid when git does not know it) and
// the size, which must be canonical decimal; parsed is false where git
// returns -1 (the size is what git had stored by then, 0 if nothing).
func parseGitLooseHeader(hdr []byte) (typ object.Type, size uint64, parsed bool) {
	sp := bytes.IndexByte(hdr, ' ')
	if sp < 0 {
		return object.Invalid, 0, false
	}
	switch string(hdr[:sp]) {
	case "commit", "tree", "blob", "tag":
		typ = object.ParseType(hdr[:sp])
	default:
		typ = object.Invalid
	}
	digits := hdr[sp+1:]
	if len(digits) == 0 || digits[0] < '0' || digits[0] > '9' {
		return typ, 0, false
	}
	size = uint64(digits[0] - '0')
	i := 1
	if size != 0 {
		for ; i < len(digits) && digits[i] >= '0' && digits[i] <= '9'; i++ {
			if size > (1<<63)/10 {
				return typ, size, false // git dies of the overflow
			}
			size = size*10 + uint64(digits[i]-'0')
		}
	}
	return typ, size, i == len(digits)
}

// gitName is what git calls path, a file under one of the objects
// directories: under the main one, its name from Options.ObjectsDirName.
func (db *DB) gitName(path string) string {
	if db.opts.ObjectsDirName != "" && len(db.dirs) > 0 {
		if rest, ok := strings.CutPrefix(path, db.dirs[0]); ok && strings.HasPrefix(rest, "/") {
			return db.opts.ObjectsDirName + rest
		}
	}
	return path
}

// ParseObjectFailure is err as git's parse_object meets the damaged
// object: it reads the object's type before the object, so what the
// first read prints comes first: for a loose object twice when that
// read fails (and its death, if it dies, alone), for a pack's entry
// alone (the failed read marked it bad). Other errors are returned as
// they are.
func ParseObjectFailure(err error) error {
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Git == nil {
		return err
	}
	g := *ce.Git
	switch {
	case g.InfoFatal != "":
		g.Lines, g.Fatal = g.InfoLines, g.InfoFatal
	case !g.InfoOK && g.Packed:
		g.Lines = g.InfoLines
	case !g.InfoOK:
		g.Lines = slices.Concat(g.InfoLines, g.Lines)
	}
	c := *ce
	c.Git = &g
	return &c
}

// DiesInRead reports whether git dies reading the object (where it
// would pass over a missing one): when its failure is known.
func (e *CorruptError) DiesInRead() bool { return e.Git != nil }
