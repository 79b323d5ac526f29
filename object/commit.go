package object

import (
	"bytes"

	"github.com/goblame/goblame/oid"
)

// CommitInfo is the parsed header of a commit. Byte slices alias the input.
type CommitInfo struct {
	Tree    oid.ID
	Parents []oid.ID
	// Author and Committer are the raw ident values (after "author "),
	// without the trailing newline; nil when the header is missing.
	Author, Committer []byte
	// Encoding is the value of the "encoding" header, nil if absent.
	Encoding []byte
	// CommitTime is the committer timestamp as git computes a commit's
	// date (0 when it cannot be parsed).
	CommitTime uint64
	// Message is everything after the first empty line (nil if none).
	Message []byte
}

// ParseCommit parses a commit body. Parents are appended to
// info.Parents[:0], so a caller can reuse one CommitInfo across calls
// without allocating.
//
// Like git's parse_commit_buffer, it requires "tree <hex>\n" first, with
// at least one byte after it, and takes as parents only the
// "parent <hex>\n" lines that follow it directly. As in git, a line
// starting "parent " counts as one only where more than "parent <hex>"
// remains (a shorter tail is an ordinary header), and a parent line must
// not end the body.
func ParseCommit(f oid.Format, body []byte, info *CommitInfo) error {
	off, err := parseLinks(f, body, info)
	if err != nil {
		return err
	}
	// Remaining headers until the empty line.
	for off < len(body) {
		if body[off] == '\n' {
			info.Message = body[off+1:]
			break
		}
		nl := bytes.IndexByte(body[off:], '\n')
		var line []byte
		if nl < 0 {
			line = body[off:]
			off = len(body)
		} else {
			line = body[off : off+nl]
			off += nl + 1
		}
		switch {
		case bytes.HasPrefix(line, []byte("author ")):
			if info.Author == nil {
				info.Author = line[7:]
			}
		case bytes.HasPrefix(line, []byte("committer ")):
			if info.Committer == nil {
				info.Committer = line[10:]
			}
		case bytes.HasPrefix(line, []byte("encoding ")):
			if info.Encoding == nil {
				info.Encoding = line[9:]
			}
		}
	}
	return nil
}

// ParseCommitLinks parses what a history walk takes from a commit: its
// Tree, Parents and CommitTime, as ParseCommit sets them (and fails as it
// fails); info's other fields are left zero. data is the commit's body,
// or only its first bytes (whole false: a prefix read). settled reports
// that data decides the three as the whole body would: always for a
// whole body; for a prefix, only where it holds the committer line that
// the date is read from, with its date, its newline and a byte after it
// (the date of a commit whose committer line has none comes from later
// lines; the newline must not be the body's last byte). A prefix that
// does not settle them, or that fails to parse (the cut may make a
// parent line look short), says nothing of the whole body: read it.
func ParseCommitLinks(f oid.Format, data []byte, whole bool, info *CommitInfo) (settled bool, err error) {
	off, err := parseLinks(f, data, info)
	if whole {
		return true, err
	}
	if err != nil || !commitDateSettled(data[off:]) {
		return false, nil
	}
	return true, nil
}

// commitDateSettled reports whether buf, the first bytes of a commit's
// headers after its tree and parent lines, holds what commitDate reads
// of the whole headers in the usual case: an author line, then a
// committer line holding a '>' and, after it, something other than white
// space (where strtoumax starts: its number, or none), the line's newline
// and at least one more byte. (The parent lines that
// ParseCommit took from a prefix are then the whole body's: the next
// line starts "author", not "parent ".)
func commitDateSettled(buf []byte) bool {
	if !bytes.HasPrefix(buf, []byte("author")) {
		return false
	}
	nl := bytes.IndexByte(buf, '\n')
	if nl < 0 {
		return false
	}
	buf = buf[nl+1:]
	if !bytes.HasPrefix(buf, []byte("committer")) {
		return false
	}
	nl = bytes.IndexByte(buf, '\n')
	if nl < 0 || nl+1 >= len(buf) {
		return false
	}
	gt := bytes.IndexByte(buf[:nl], '>')
	if gt < 0 {
		return false
	}
	// strtoumax's leading white space (newlines included: it would read
	// on into the next lines) must end within the line.
	for i := gt + 1; i < nl; i++ {
		if c := buf[i]; c != ' ' && (c < '\t' || c > '\r') {
			return true
		}
	}
	return false
}

// parseLinks is ParseCommit's parse of the tree and parent lines and the
// commit date (info reset first); off is where the headers after the
// parent lines start.
func parseLinks(f oid.Format, body []byte, info *CommitInfo) (off int, err error) {
	parents := info.Parents[:0]
	*info = CommitInfo{Parents: parents}
	hexLen := f.HexSize()
	p := body
	if !bytes.HasPrefix(p, []byte("tree ")) || len(p) <= 5+hexLen+1 || p[5+hexLen] != '\n' {
		return 0, &FormatError{Type: Commit, Offset: 0, Msg: "bogus commit object: no tree line"}
	}
	tree, err := oid.ParseHexBytes(f, p[5:5+hexLen])
	if err != nil {
		return 0, &FormatError{Type: Commit, Offset: 5, Msg: "bad tree id"}
	}
	info.Tree = tree
	off = 5 + hexLen + 1
	for len(body)-off > 7+hexLen && bytes.HasPrefix(body[off:], []byte("parent ")) {
		end := off + 7 + hexLen
		if end+1 >= len(body) || body[end] != '\n' {
			return 0, &FormatError{Type: Commit, Offset: off, Msg: "bad parent line"}
		}
		id, err := oid.ParseHexBytes(f, body[off+7:end])
		if err != nil {
			return 0, &FormatError{Type: Commit, Offset: off + 7, Msg: "bad parent id"}
		}
		info.Parents = append(info.Parents, id)
		off = end + 1
	}
	info.CommitTime = commitDate(body[off:])
	return off, nil
}

// commitDate reproduces git's parse_commit_date on the headers that
// follow the tree and parent lines: the first line must start with
// "author", the next with "committer"; the date is what strtoumax reads
// after the first '>' from there on, and only if a newline follows that
// '>' and is not the last byte of the commit. strtoumax skips white space
// newlines included, so a committer line without a date takes its digits
// from a later line, as git does. Anything unexpected yields 0.
func commitDate(buf []byte) uint64 {
	if len(buf) <= 6 || !bytes.HasPrefix(buf, []byte("author")) {
		return 0
	}
	nl := bytes.IndexByte(buf, '\n')
	if nl < 0 {
		return 0
	}
	buf = buf[nl+1:]
	if len(buf) <= 9 || !bytes.HasPrefix(buf, []byte("committer")) {
		return 0
	}
	gt := bytes.IndexByte(buf, '>')
	if gt < 0 {
		return 0
	}
	buf = buf[gt+1:]
	nl = bytes.IndexByte(buf, '\n')
	if nl < 0 || nl == len(buf)-1 {
		return 0
	}
	return strtoumax(buf)
}

// strtoumax mimics C's strtoumax in base 10: leading C whitespace, an
// optional sign (a minus negates modulo 2^64), digits; on overflow the
// maximum, whatever the sign.
func strtoumax(b []byte) uint64 {
	i := 0
	for i < len(b) && (b[i] == ' ' || (b[i] >= '\t' && b[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	v, overflow := parseDecimal(b[i:])
	if overflow {
		return ^uint64(0)
	}
	if neg {
		v = -v
	}
	return v
}

// isGitSpace is git's isspace(): space, tab, LF and CR only.
func isGitSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// Summary returns the subject line git's blame prints as "summary": the
// first non-blank line after the header block, up to (not including) its
// newline. It follows find_commit_subject: the search for the blank line
// and the subject stop at a NUL byte, and a message without a blank line
// after the headers has an empty summary.
func Summary(commitBody []byte) []byte {
	if i := bytes.IndexByte(commitBody, 0); i >= 0 {
		commitBody = commitBody[:i]
	}
	sep := bytes.Index(commitBody, []byte("\n\n"))
	if sep < 0 {
		return nil
	}
	p := commitBody[sep+2:]
	// skip_blank_lines: skip lines consisting only of whitespace.
	for len(p) > 0 {
		nl := bytes.IndexByte(p, '\n')
		line := p
		if nl >= 0 {
			line = p[:nl]
		}
		blank := true
		for _, c := range line {
			if !isGitSpace(c) {
				blank = false
				break
			}
		}
		if !blank {
			break
		}
		if nl < 0 {
			p = p[len(p):]
			break
		}
		p = p[nl+1:]
	}
	if nl := bytes.IndexByte(p, '\n'); nl >= 0 {
		return p[:nl]
	}
	return p
}
