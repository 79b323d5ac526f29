package object

// Fuzz targets for the parsers of untrusted object bytes. Each target
// takes a selector byte (even: SHA-1, odd: SHA-256) and the bytes, and
// checks properties of the result rather than only the absence of a
// panic: views alias the input where the grammar puts them, a parse of a
// copy agrees with the parse of the original, and the answers agree with
// a second, simpler reading of the same bytes.
//
// Run one with
//
//	go test ./object -run '^$' -fuzz '^FuzzTreeIter$' -fuzztime 30s
//
// (make fuzz-short runs every target of the module). Crashers that
// the fuzzer finds are kept under testdata/fuzz/<Target>/ and replayed by
// plain go test.

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/goblame/goblame/oid"
)

// fuzzFormat picks the object format from a fuzz selector byte.
func fuzzFormat(sel byte) oid.Format {
	if sel&1 == 0 {
		return oid.SHA1
	}
	return oid.SHA256
}

func otherFormat(f oid.Format) oid.Format {
	if f == oid.SHA1 {
		return oid.SHA256
	}
	return oid.SHA1
}

// seedID is a deterministic ID of format f for building seed bodies.
func seedID(f oid.Format, n byte) oid.ID {
	return oid.HashObject(f, "blob", []byte{'s', 'e', 'e', 'd', n})
}

// offsetIn returns where view starts inside buf, or false if view is not
// a subslice of buf. buf must have been capped (buf[:len:len]) before it
// was parsed, so a view body[i:j] has cap(buf)-i spare room.
func offsetIn(buf, view []byte) (int, bool) {
	off := cap(buf) - cap(view)
	if off < 0 || off > len(buf) || off+len(view) > len(buf) {
		return 0, false
	}
	if len(view) > 0 && &buf[off] != &view[0] {
		return 0, false
	}
	return off, true
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }

func allGitSpace(b []byte) bool {
	for _, c := range b {
		if !isGitSpace(c) {
			return false
		}
	}
	return true
}

// lowerHex lowercases the ASCII letters of hex text.
func lowerHex(b []byte) string { return string(bytes.ToLower(b)) }

// checkFormatError checks that err is a *FormatError about typ whose
// offset lies within body.
func checkFormatError(t *testing.T, err error, typ Type, body []byte) *FormatError {
	t.Helper()
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
	if fe.Type != typ {
		t.Fatalf("error %v: type %v, want %v", err, fe.Type, typ)
	}
	if fe.Offset < 0 || fe.Offset > len(body) {
		t.Fatalf("error %v: offset %d outside the %d-byte body", err, fe.Offset, len(body))
	}
	if fe.Msg == "" || fe.Error() == "" {
		t.Fatalf("error without a message: %#v", fe)
	}
	return fe
}

// ---------------------------------------------------------------------
// Commits

func commitSeeds(f oid.Format) [][]byte {
	tree := seedID(f, 1).String()
	p1 := seedID(f, 2).String()
	p2 := seedID(f, 3).String()
	author := "author A U Thor <author@example.com> 1112911993 -0700\n"
	committer := "committer C O Mitter <committer@example.com> 1112912053 +0200\n"
	upper := string(bytes.ToUpper([]byte(p1)))
	return [][]byte{
		// a root commit as git commit writes it
		[]byte("tree " + tree + "\n" + author + committer + "\nInitial revision\n\nBody text.\n"),
		// a merge
		[]byte("tree " + tree + "\nparent " + p1 + "\nparent " + p2 + "\n" + author + committer + "\nMerge branch 'side'\n"),
		// encoding, a signature with continuation lines, unknown headers
		[]byte("tree " + tree + "\nparent " + p1 + "\n" + author + committer +
			"encoding ISO-8859-1\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEz\n -----END PGP SIGNATURE-----\n" +
			"x-unknown value\n\n\n  \n\t\nSubject after blank lines\nsecond line\n"),
		// no message, no blank line
		[]byte("tree " + tree + "\n" + author + committer),
		// empty message after the blank line
		[]byte("tree " + tree + "\n" + author + committer + "\n"),
		// uppercase hex, CRLF line ends in the idents, NUL in the message
		[]byte("tree " + tree + "\nparent " + upper + "\n" + "author A <a> 5 +0000\r\ncommitter C <c> 6 +0000\r\n\nsub\x00ject\n"),
		// the date git reads across lines, a negative date
		[]byte("tree " + tree + "\nauthor A <a>\ncommitter C <c>\n\n42 is the date\n"),
		[]byte("tree " + tree + "\nauthor A <a> 1 +0000\ncommitter C <c> -18446744073709551615 +0000\n\nm\n"),
		// headers out of order and repeated
		[]byte("tree " + tree + "\ncommitter C <c> 9 +0000\nauthor A <a> 8 +0000\nauthor B <b> 7 +0000\n\nm\n"),
		// malformed
		[]byte(""),
		[]byte("tree " + tree),
		[]byte("tree " + tree + "\n"),
		[]byte("tree " + tree[:len(tree)-1] + "\n" + author + committer + "\nm\n"),
		[]byte("tree " + tree + "\nparent " + p1[:10] + "\n" + author + committer + "\nm\n"),
		[]byte("tree " + tree + "\nparent " + p1 + "\n"),
		[]byte("tree " + tree + "\nparent abc"),
		[]byte("tree " + tree + "\ntree " + tree + "\n" + author + committer + "\nm\n"),
		[]byte("parent " + p1 + "\ntree " + tree + "\n"),
	}
}

func allHex(b []byte) bool {
	for _, c := range b {
		if !oid.IsHexDigit(c) {
			return false
		}
	}
	return true
}

// gitRefusesCommit says whether git's parse_commit_buffer refuses body,
// by the rules git 2.39 shows: the body must begin with "tree <hex>\n"
// and go on after it; a "parent " line counts only where more than
// "parent <hex>" remains, and then it must be "parent <hex>\n" with more
// after it.
func gitRefusesCommit(f oid.Format, body []byte) bool {
	hexLen := f.HexSize()
	if len(body) <= 6+hexLen || !bytes.HasPrefix(body, []byte("tree ")) ||
		body[5+hexLen] != '\n' || !allHex(body[5:5+hexLen]) {
		return true
	}
	rest := body[6+hexLen:]
	for bytes.HasPrefix(rest, []byte("parent ")) && len(rest) > 7+hexLen {
		if len(rest) == 8+hexLen || rest[7+hexLen] != '\n' || !allHex(rest[7:7+hexLen]) {
			return true
		}
		rest = rest[8+hexLen:]
	}
	return false
}

// gitCommitDate is the date git's parse_commit_date gives a commit whose
// headers after the tree and parent lines are hdr: 0 unless hdr starts
// with an "author" line and a "committer" line, and then what strtoumax
// reads after the first '>' from the committer line on, provided a
// newline follows that '>' and is not the last byte.
func gitCommitDate(hdr []byte) uint64 {
	nl := bytes.IndexByte(hdr, '\n')
	if len(hdr) <= 6 || !bytes.HasPrefix(hdr, []byte("author")) || nl < 0 {
		return 0
	}
	hdr = hdr[nl+1:]
	if len(hdr) <= 9 || !bytes.HasPrefix(hdr, []byte("committer")) {
		return 0
	}
	_, after, ok := bytes.Cut(hdr, []byte(">"))
	if !ok {
		return 0
	}
	if nl := bytes.IndexByte(after, '\n'); nl < 0 || nl == len(after)-1 {
		return 0
	}
	// strtoumax: C white space (newlines too), a sign, decimal digits.
	num := bytes.TrimLeft(after, " \t\n\v\f\r")
	neg := false
	if len(num) > 0 && (num[0] == '+' || num[0] == '-') {
		neg = num[0] == '-'
		num = num[1:]
	}
	digits := len(num) - len(bytes.TrimLeft(num, "0123456789"))
	if digits == 0 {
		return 0
	}
	v, err := strconv.ParseUint(string(num[:digits]), 10, 64)
	if err != nil {
		return ^uint64(0) // out of range: saturated, the sign ignored
	}
	if neg {
		v = -v
	}
	return v
}

func FuzzParseCommit(f *testing.F) {
	for i, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, body := range commitSeeds(format) {
			f.Add(byte(i), body)
		}
	}
	f.Fuzz(func(t *testing.T, sel byte, body []byte) {
		format := fuzzFormat(sel)
		body = body[:len(body):len(body)]
		var info CommitInfo
		err := ParseCommit(format, body, &info)

		// The same bytes elsewhere, parsed into a CommitInfo that holds
		// stale parents from an earlier parse, give the same answer.
		again := bytes.Clone(body)
		reused := CommitInfo{
			Parents: []oid.ID{seedID(format, 9), seedID(format, 8), seedID(format, 7)},
			Author:  []byte("stale"), Encoding: []byte("stale"), CommitTime: 77, Message: []byte("stale"),
		}
		err2 := ParseCommit(format, again, &reused)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("parse of a copy disagrees: %v vs %v", err, err2)
		}
		if refused := gitRefusesCommit(format, body); (err != nil) != refused {
			t.Fatalf("ParseCommit error %v, but git refuses the commit: %v", err, refused)
		}
		if err != nil {
			fe := checkFormatError(t, err, Commit, body)
			fe2 := checkFormatError(t, err2, Commit, again)
			if *fe != *fe2 {
				t.Fatalf("errors differ on a copy: %v vs %v", fe, fe2)
			}
			return
		}
		if info.Tree != reused.Tree || !slices.Equal(info.Parents, reused.Parents) || info.CommitTime != reused.CommitTime {
			t.Fatalf("parse of a copy disagrees:\n%+v\n%+v", info, reused)
		}
		for _, pair := range [][2][]byte{{info.Author, reused.Author}, {info.Committer, reused.Committer},
			{info.Encoding, reused.Encoding}, {info.Message, reused.Message}} {
			if (pair[0] == nil) != (pair[1] == nil) || !bytes.Equal(pair[0], pair[1]) {
				t.Fatalf("field differs on a copy (or kept stale state): %q vs %q", pair[0], pair[1])
			}
			o1, ok1 := offsetIn(body, pair[0])
			o2, ok2 := offsetIn(again, pair[1])
			if pair[0] != nil && (!ok1 || !ok2 || o1 != o2) {
				t.Fatalf("view %q does not alias the body at the same offset (%d %v, %d %v)", pair[0], o1, ok1, o2, ok2)
			}
		}

		// A body is a commit in at most one format: the tree line's
		// length decides.
		var other CommitInfo
		if ParseCommit(otherFormat(format), body, &other) == nil {
			t.Fatalf("body parses as a commit in both formats")
		}

		// The tree line and the parent lines, read again.
		hexLen := format.HexSize()
		if !bytes.HasPrefix(body, []byte("tree ")) || body[5+hexLen] != '\n' ||
			lowerHex(body[5:5+hexLen]) != info.Tree.String() || info.Tree.Format() != format {
			t.Fatalf("tree %v does not match the tree line of %q", info.Tree, body)
		}
		off := 5 + hexLen + 1
		for _, p := range info.Parents {
			line := body[off:]
			if !bytes.HasPrefix(line, []byte("parent ")) || len(line) <= 7+hexLen || line[7+hexLen] != '\n' ||
				lowerHex(line[7:7+hexLen]) != p.String() || p.Format() != format {
				t.Fatalf("parent %v does not match the line at offset %d", p, off)
			}
			off += 7 + hexLen + 1
		}
		// git takes "parent " as a parent line only when more than
		// "parent <hex>" remains; a shorter tail is an ordinary header.
		if rest := body[off:]; bytes.HasPrefix(rest, []byte("parent ")) && len(rest) > 7+hexLen {
			t.Fatalf("a parent line at offset %d was neither taken nor refused", off)
		}
		if off == len(body) {
			t.Fatalf("a body that ends after the tree and parent lines was accepted")
		}

		// The message follows the first empty line; there is none in the
		// tree and parent lines.
		headerEnd := len(body)
		if k := bytes.Index(body, []byte("\n\n")); k >= 0 {
			if k+1 < off-1 {
				t.Fatalf("empty line at %d inside the tree and parent lines", k)
			}
			headerEnd = k + 1
			if o, ok := offsetIn(body, info.Message); info.Message == nil || !ok || o != k+2 || len(info.Message) != len(body)-o {
				t.Fatalf("message %q is not the text after the first empty line (at %d)", info.Message, k)
			}
		} else if info.Message != nil {
			t.Fatalf("message %q without an empty line", info.Message)
		}

		// The first author, committer and encoding header lines.
		want := map[string][]byte{}
		for h := body[off:headerEnd]; len(h) > 0; {
			line := h
			if nl := bytes.IndexByte(h, '\n'); nl >= 0 {
				line, h = h[:nl], h[nl+1:]
			} else {
				h = nil
			}
			for _, key := range []string{"author ", "committer ", "encoding "} {
				if _, seen := want[key]; !seen && bytes.HasPrefix(line, []byte(key)) {
					want[key] = line[len(key):]
				}
			}
		}
		for key, got := range map[string][]byte{"author ": info.Author, "committer ": info.Committer, "encoding ": info.Encoding} {
			w, seen := want[key]
			if !seen {
				if got != nil {
					t.Fatalf("%q header %q where the body has none", key, got)
				}
				continue
			}
			wo, _ := offsetIn(body, w)
			if o, ok := offsetIn(body, got); got == nil || !ok || o != wo || len(got) != len(w) {
				t.Fatalf("%q header: got %q at %d, want %q at %d", key, got, o, w, wo)
			}
		}

		// The commit date, as git's parse_commit_date reads it.
		if w := gitCommitDate(body[off:]); info.CommitTime != w {
			t.Fatalf("commit time %d, want %d", info.CommitTime, w)
		}

		// Summary works on the whole body; its subject comes from the
		// message ParseCommit found.
		if s := Summary(body); len(s) > 0 && bytes.IndexByte(body, 0) < 0 {
			so, _ := offsetIn(body, s)
			mo, _ := offsetIn(body, info.Message)
			if info.Message == nil || so < mo {
				t.Fatalf("summary %q is not inside the message %q", s, info.Message)
			}
		}
	})
}

// FuzzParseCommitLinks checks ParseCommitLinks against ParseCommit on
// the same body: whole, it answers as ParseCommit does (tree, parents,
// date, error); on a prefix of any length that it says settles them, the
// whole body parses, to the same tree, parents and date.
func FuzzParseCommitLinks(f *testing.F) {
	for i, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, body := range commitSeeds(format) {
			f.Add(byte(i), body)
		}
		// the committer line's date cut by the prefix, and a date only
		// on the line after it
		tree := seedID(format, 1).String()
		f.Add(byte(i), []byte("tree "+tree+"\nauthor A <a> 1 +0000\ncommitter C <c> 123456789 +0000\nx\n"))
		f.Add(byte(i), []byte("tree "+tree+"\nauthor A <a> 1 +0000\ncommitter C <c> \n 77\n"))
		f.Add(byte(i), []byte("tree "+tree+"\nauthor A <a> 1 +0000\ncommitter C <c> 5\n"))
	}
	f.Fuzz(func(t *testing.T, sel byte, body []byte) {
		format := fuzzFormat(sel)
		if len(body) > 1<<12 {
			return
		}
		var full, links CommitInfo
		err := ParseCommit(format, body, &full)
		settled, lerr := ParseCommitLinks(format, body, true, &links)
		if !settled || (err == nil) != (lerr == nil) || err != nil && err.Error() != lerr.Error() {
			t.Fatalf("whole: settled %v, error %v; ParseCommit's %v", settled, lerr, err)
		}
		if err == nil && !sameLinks(&full, &links) {
			t.Fatalf("whole: %+v; ParseCommit's %+v", links, full)
		}
		for k := 0; k <= len(body); k++ {
			prefix := body[:k:k]
			settled, perr := ParseCommitLinks(format, prefix, false, &links)
			if !settled {
				continue
			}
			if perr != nil || err != nil {
				t.Fatalf("prefix of %d bytes settled (error %v), the whole body's error is %v", k, perr, err)
			}
			if !sameLinks(&full, &links) {
				t.Fatalf("prefix of %d bytes settled as %+v; the whole body %+v", k, links, full)
			}
		}
	})
}

func sameLinks(a, b *CommitInfo) bool {
	return a.Tree == b.Tree && slices.Equal(a.Parents, b.Parents) && a.CommitTime == b.CommitTime
}

// TestParseCommitLinksSettles: a prefix holding a usual commit's header
// lines and one byte more settles its links; one byte less does not.
func TestParseCommitLinksSettles(t *testing.T) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		body := commitSeeds(format)[1] // a merge
		end := bytes.Index(body, []byte("\ncommitter ")) + 1
		end += bytes.IndexByte(body[end:], '\n') + 1
		var info CommitInfo
		if settled, err := ParseCommitLinks(format, body[:end+1], false, &info); !settled || err != nil || len(info.Parents) != 2 || info.CommitTime != 1112912053 {
			t.Errorf("%s: %d bytes: settled %v, %v, %+v", format, end+1, settled, err, info)
		}
		if settled, _ := ParseCommitLinks(format, body[:end], false, &info); settled {
			t.Errorf("%s: %d bytes (the newline last) settled", format, end)
		}
	}
}

func FuzzSummary(f *testing.F) {
	for _, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, body := range commitSeeds(format) {
			f.Add(body)
		}
	}
	f.Add([]byte("\n\nsubject"))
	f.Add([]byte("h\n\n \t\r\n\n\vnot blank: vertical tab\n"))
	f.Add([]byte("h\x00\n\nafter NUL\n"))
	f.Add([]byte("h\n\nsub\x00ject\n"))
	f.Add([]byte("h\n\n  \n \t "))
	f.Fuzz(func(t *testing.T, body []byte) {
		body = body[:len(body):len(body)]
		s := Summary(body)
		if s2 := Summary(bytes.Clone(body)); !bytes.Equal(s, s2) {
			t.Fatalf("summary of a copy differs: %q vs %q", s, s2)
		}
		// git reads the commit as a C string.
		text := body
		if i := bytes.IndexByte(body, 0); i >= 0 {
			text = body[:i]
		}
		sep := bytes.Index(text, []byte("\n\n"))
		if sep < 0 {
			if len(s) != 0 {
				t.Fatalf("summary %q without an empty line", s)
			}
			return
		}
		msg := text[sep+2:]
		if len(s) == 0 {
			if !allGitSpace(msg) {
				t.Fatalf("empty summary of a message with text: %q", msg)
			}
			return
		}
		o, ok := offsetIn(body, s)
		if !ok || o < sep+2 || o+len(s) > len(text) {
			t.Fatalf("summary %q is not a view of the message (offset %d, %v)", s, o, ok)
		}
		if bytes.IndexByte(s, '\n') >= 0 || allGitSpace(s) {
			t.Fatalf("summary %q is not one non-blank line", s)
		}
		if end := o + len(s); end != len(text) && text[end] != '\n' {
			t.Fatalf("summary %q stops inside its line", s)
		}
		if o != sep+2 && text[o-1] != '\n' {
			t.Fatalf("summary %q starts inside a line", s)
		}
		if !allGitSpace(text[sep+2 : o]) {
			t.Fatalf("summary %q skips text %q", s, text[sep+2:o])
		}
	})
}

func FuzzParseIdent(f *testing.F) {
	f.Add([]byte("A U Thor <author@example.com> 1112911993 -0700"))
	f.Add([]byte("Name <mail>"))
	f.Add([]byte("<> 0 +0000"))
	f.Add([]byte("Name \t<a<b>c> >d> 12  +0100 trailing"))
	f.Add([]byte("Name <mail> 99999999999999999999999 +0000"))
	f.Add([]byte("Name <mail> x 12 +0000"))
	f.Add([]byte("Name <mail> 12 0000"))
	f.Add([]byte("no brackets 12 +0000"))
	f.Add([]byte("Name <unclosed 12 +0000"))
	f.Fuzz(func(t *testing.T, line []byte) {
		line = line[:len(line):len(line)]
		id, ok := ParseIdent(line)
		lt := bytes.IndexByte(line, '<')
		closed := lt >= 0 && bytes.IndexByte(line[lt+1:], '>') >= 0
		if ok != closed {
			t.Fatalf("ok=%v for %q", ok, line)
		}
		if !ok {
			if id.Name != nil || id.Mail != nil || id.Date != nil || id.TZ != nil {
				t.Fatalf("fields set on failure: %+v", id)
			}
			return
		}
		if o, good := offsetIn(line, id.Name); !good || o != 0 || len(id.Name) > lt ||
			!allGitSpace(line[len(id.Name):lt]) || (len(id.Name) > 0 && isGitSpace(id.Name[len(id.Name)-1])) {
			t.Fatalf("name %q is not the text before '<' without trailing space", id.Name)
		}
		if o, good := offsetIn(line, id.Mail); !good || o != lt+1 || bytes.IndexByte(id.Mail, '>') >= 0 || line[o+len(id.Mail)] != '>' {
			t.Fatalf("mail %q is not the text between the first '<' and the next '>'", id.Mail)
		}
		if (id.Date == nil) != (id.TZ == nil) {
			t.Fatalf("date %q without zone %q or the other way round", id.Date, id.TZ)
		}
		if id.Date == nil {
			return
		}
		last := bytes.LastIndexByte(line, '>')
		do, good := offsetIn(line, id.Date)
		if !good || do <= last || !allGitSpace(line[last+1:do]) || len(id.Date) == 0 {
			t.Fatalf("date %q does not follow the last '>'", id.Date)
		}
		for _, c := range id.Date {
			if c < '0' || c > '9' {
				t.Fatalf("date %q is not all digits", id.Date)
			}
		}
		to, good := offsetIn(line, id.TZ)
		if !good || to < do+len(id.Date) || !allGitSpace(line[do+len(id.Date):to]) ||
			len(id.TZ) < 2 || (id.TZ[0] != '+' && id.TZ[0] != '-') {
			t.Fatalf("zone %q does not follow the date %q", id.TZ, id.Date)
		}
		for _, c := range id.TZ[1:] {
			if c < '0' || c > '9' {
				t.Fatalf("zone %q is not a sign and digits", id.TZ)
			}
		}
		if to+len(id.TZ) < len(line) && '0' <= line[to+len(id.TZ)] && line[to+len(id.TZ)] <= '9' {
			t.Fatalf("zone %q stops before a digit", id.TZ)
		}
		// ParseTimestamp is strtoul: exact below 2^64, saturated above.
		v := ParseTimestamp(id.Date)
		if w, err := strconv.ParseUint(string(id.Date), 10, 64); err == nil && v != w {
			t.Fatalf("ParseTimestamp(%q) = %d, want %d", id.Date, v, w)
		} else if err != nil && v != ^uint64(0) {
			t.Fatalf("ParseTimestamp(%q) = %d, want saturation", id.Date, v)
		}
	})
}

// ---------------------------------------------------------------------
// Trees

func treeEntryBytes(mode, name string, id oid.ID) []byte {
	b := append([]byte(mode+" "+name), 0)
	return append(b, id.Bytes()...)
}

func treeSeeds(f oid.Format) [][]byte {
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	id1, id2, id3 := seedID(f, 1), seedID(f, 2), seedID(f, 3)
	sorted := join(
		treeEntryBytes("100644", ".gitattributes", id1),
		treeEntryBytes("100755", "a.c", id2),
		treeEntryBytes("40000", "a", id3), // "a/" sorts after "a.c"
		treeEntryBytes("100644", "a0", id1),
		treeEntryBytes("120000", "link", id2),
		treeEntryBytes("160000", "sub", id3),
		treeEntryBytes("100664", "z\xc3\xa9", id1), // a non-canonical mode, a UTF-8 name
	)
	hs := f.Size()
	return [][]byte{
		nil,
		sorted,
		treeEntryBytes("100644", "only", id1),
		// zero-padded and overlong modes (git reads any number of digits)
		join(treeEntryBytes("040000", "dir", id1), treeEntryBytes("00000000000000100644", "file", id2)),
		// unsorted and duplicate names
		join(treeEntryBytes("100644", "b", id1), treeEntryBytes("100644", "a", id2), treeEntryBytes("100644", "b", id3)),
		// a name with a slash, a name with a space
		join(treeEntryBytes("100644", "a b", id1), treeEntryBytes("100644", "a/b", id2)),
		// malformed: truncated id, trailing bytes, empty name, bad mode
		sorted[:len(sorted)-1],
		join(sorted, []byte("100644 x")),
		treeEntryBytes("100644", "", id1),
		treeEntryBytes(" 100644", "x", id1),
		treeEntryBytes("100648", "x", id1),
		treeEntryBytes("", "x", id1),
		append([]byte("100644 x"), make([]byte, hs+1)...),
		// a bad mode, an empty name between good entries: git withholds
		// the entry before them too
		join(treeEntryBytes("100644", "a", id1), treeEntryBytes("10x644", "b", id2), treeEntryBytes("100644", "c", id3)),
		join(treeEntryBytes("100644", "a", id1), treeEntryBytes("100644", "b", id2), treeEntryBytes("100644", "", id3),
			treeEntryBytes("100644", "d", id1)),
	}
}

type treeScan struct {
	entries []TreeEntry
	starts  []int // offset of each entry's mode
	end     int   // offset after the last entry
	err     error
}

// scanTree iterates over body with TreeIter and checks, entry by entry,
// that the entries tile the body: each is "<octal mode> <name>\0<id>"
// starting where the previous one ended, with its name and ID read from
// the bytes it says.
func scanTree(t *testing.T, format oid.Format, body []byte) treeScan {
	t.Helper()
	hs := format.Size()
	it := NewTreeIter(format, body)
	var s treeScan
	var e TreeEntry
	for it.Next(&e) {
		no, ok := offsetIn(body, e.Name)
		if !ok || len(e.Name) == 0 {
			t.Fatalf("entry %d: name %q is not a non-empty view of the body", len(s.entries), e.Name)
		}
		if bytes.IndexByte(e.Name, 0) >= 0 {
			t.Fatalf("entry %d: name %q contains NUL", len(s.entries), e.Name)
		}
		modeText := body[s.end : no-1]
		if len(modeText) == 0 || body[no-1] != ' ' {
			t.Fatalf("entry %d: no mode before the name at %d", len(s.entries), no)
		}
		var mode uint32
		for _, c := range modeText {
			if !isOctal(c) {
				t.Fatalf("entry %d: mode %q is not octal", len(s.entries), modeText)
			}
			mode = mode<<3 | uint32(c-'0')
		}
		switch e.Mode {
		case ModeTree, ModeFile, ModeExec, ModeSymlink, ModeGitlink:
		default:
			t.Fatalf("entry %d: mode %o is none of git's canonical modes", len(s.entries), e.Mode)
		}
		if e.Mode != CanonMode(mode) || CanonMode(e.Mode) != e.Mode {
			t.Fatalf("entry %d: mode %o from %q, want canonical %o", len(s.entries), e.Mode, modeText, CanonMode(mode))
		}
		idAt := no + len(e.Name) + 1
		if body[idAt-1] != 0 || idAt+hs > len(body) {
			t.Fatalf("entry %d: no NUL and full ID after the name", len(s.entries))
		}
		if e.ID.Format() != format || !bytes.Equal(e.ID.Bytes(), body[idAt:idAt+hs]) {
			t.Fatalf("entry %d: ID %v is not the bytes after the name", len(s.entries), e.ID)
		}
		s.entries = append(s.entries, e)
		s.starts = append(s.starts, s.end)
		s.end = idAt + hs
	}
	s.err = it.Err()
	if it.Next(&e) || it.Err() != s.err {
		t.Fatalf("iteration resumed after it stopped (err %v)", s.err)
	}
	return s
}

// validEntryAt reports whether the bytes at the start of rest are a tree
// entry git reads, by git's rules: the tree's byte just before its last
// hash-size bytes is a NUL (so the name is NUL-terminated in bounds), the
// mode is one or more octal digits (any number of them) ended by a space,
// and the name is not empty.
func validEntryAt(rest []byte, hs int) bool {
	if len(rest) < hs+3 || rest[len(rest)-hs-1] != 0 {
		return false
	}
	sp := bytes.IndexByte(rest, ' ')
	if sp <= 0 {
		return false
	}
	for _, c := range rest[:sp] {
		if !isOctal(c) {
			return false
		}
	}
	return rest[sp+1] != 0
}

// entryLenAt is the length of the entry validEntryAt accepts at the start
// of rest, 0 if there is none.
func entryLenAt(rest []byte, hs int) int {
	if !validEntryAt(rest, hs) {
		return 0
	}
	sp := bytes.IndexByte(rest, ' ')
	return sp + 1 + bytes.IndexByte(rest[sp+1:], 0) + 1 + hs
}

func FuzzTreeIter(f *testing.F) {
	for i, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, body := range treeSeeds(format) {
			f.Add(byte(i), body)
		}
	}
	f.Fuzz(func(t *testing.T, sel byte, body []byte) {
		format := fuzzFormat(sel)
		body = body[:len(body):len(body)]
		s := scanTree(t, format, body)

		// The iterator stops exactly where the bytes stop being entries,
		// reading one entry ahead as git does: an entry is handed out
		// only if a good entry or the end of the tree follows it, and the
		// error is at the first bad entry, which is either where the
		// handed-out entries end or one (withheld) entry further.
		hs := format.Size()
		for i, start := range s.starts {
			if !validEntryAt(body[start:], hs) {
				t.Fatalf("entry %d at %d read where git refuses one", i, start)
			}
			if end := start + entryLenAt(body[start:], hs); end != len(body) && !validEntryAt(body[end:], hs) {
				t.Fatalf("entry %d handed out before a bad entry at %d", i, end)
			}
		}
		if s.err == nil {
			if s.end != len(body) {
				t.Fatalf("iteration ended at %d of %d without an error", s.end, len(body))
			}
		} else {
			fe := checkFormatError(t, s.err, Tree, body)
			if fe.Offset >= len(body) || validEntryAt(body[fe.Offset:], hs) {
				t.Fatalf("error %v, but git reads an entry at offset %d", s.err, fe.Offset)
			}
			if n := entryLenAt(body[s.end:], hs); fe.Offset != s.end && (n == 0 || fe.Offset != s.end+n) {
				t.Fatalf("error %v at offset %d, but the last entry ended at %d", s.err, fe.Offset, s.end)
			}
		}

		// The same bytes elsewhere give the same entries.
		again := bytes.Clone(body)
		s2 := scanTree(t, format, again)
		if len(s2.entries) != len(s.entries) || (s.err == nil) != (s2.err == nil) ||
			(s.err != nil && s.err.Error() != s2.err.Error()) {
			t.Fatalf("copy: %d entries (%v), original: %d entries (%v)", len(s2.entries), s2.err, len(s.entries), s.err)
		}
		for i := range s.entries {
			a, b := s.entries[i], s2.entries[i]
			if a.Mode != b.Mode || a.ID != b.ID || !bytes.Equal(a.Name, b.Name) {
				t.Fatalf("copy: entry %d differs: %+v vs %+v", i, a, b)
			}
		}
	})
}

// sortedForGit reports whether entries are in git's tree order (names
// compared as bytes, a directory as if its name ended in '/'), equal
// neighbours allowed.
func sortedForGit(entries []TreeEntry) bool {
	for i := 1; i < len(entries); i++ {
		a, b := entries[i-1], entries[i]
		if CompareEntryNames(a.Name, IsTree(a.Mode), b.Name, IsTree(b.Mode)) > 0 {
			return false
		}
	}
	return true
}

// findEntryIter is FindEntry written over TreeIter, as it was.
// checkFindEntryIn asks FindEntryIn about name on prefixes of body (all
// of them for a short body, some for a long one, and body as a prefix):
// where a prefix decides, its answer is FindEntry's on the whole tree
// (got, found, err), unless the whole tree fails where the prefix
// cannot see: past the bytes the prefix search used, or in the NUL git
// checks before the tree's last ID.
func checkFindEntryIn(t *testing.T, format oid.Format, body, name []byte, got TreeEntry, found bool, err error) {
	t.Helper()
	if e, f, decided, used, werr := FindEntryIn(format, body, name, true); !decided || werr != err && (werr == nil || err == nil || werr.Error() != err.Error()) ||
		f != found || e.ID != got.ID || e.Mode != got.Mode || used > len(body) {
		t.Fatalf("FindEntryIn(%q, whole) = %+v, %v, decided %v, used %d, %v; FindEntry %+v, %v, %v", name, e, f, decided, used, werr, got, found, err)
	}
	step := max(1, len(body)/64)
	for cut := 0; cut <= len(body); cut += step {
		e, f, decided, used, perr := FindEntryIn(format, body[:cut:cut], name, false)
		if perr != nil || used > cut {
			t.Fatalf("FindEntryIn(%q, %d-byte prefix) used %d, error %v", name, cut, used, perr)
		}
		if !decided {
			continue
		}
		if err != nil {
			var fe *FormatError
			hs := format.Size()
			tailBad := len(body) < hs+3 || body[len(body)-hs-1] != 0
			if !errors.As(err, &fe) || fe.Offset < used && !tailBad {
				t.Fatalf("FindEntryIn(%q, %d-byte prefix) decided %+v, %v after %d bytes; the whole tree fails: %v", name, cut, e, f, used, err)
			}
			continue
		}
		if f != found || e.ID != got.ID || e.Mode != got.Mode || !bytes.Equal(e.Name, got.Name) {
			t.Fatalf("FindEntryIn(%q, %d-byte prefix) = %+v, %v; FindEntry on the whole tree %+v, %v", name, cut, e, f, got, found)
		}
	}
}

func findEntryIter(f oid.Format, body []byte, name []byte) (TreeEntry, bool, error) {
	it := NewTreeIter(f, body)
	var e TreeEntry
	for it.Next(&e) {
		c := bytes.Compare(e.Name, name)
		if c == 0 {
			return e, true, nil
		}
		if c > 0 && !bytes.HasPrefix(e.Name, name) {
			return TreeEntry{}, false, nil
		}
	}
	return TreeEntry{}, false, it.Err()
}

func FuzzFindEntry(f *testing.F) {
	for i, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, body := range treeSeeds(format) {
			for _, name := range []string{"a", "a.c", "b", "link", "zz", "a/b"} {
				f.Add(byte(i), body, []byte(name))
			}
		}
	}
	f.Fuzz(func(t *testing.T, sel byte, body, name []byte) {
		format := fuzzFormat(sel)
		body = body[:len(body):len(body)]
		s := scanTree(t, format, body)
		sorted := sortedForGit(s.entries)

		// Ask for the fuzzed name, every name of the tree, and names
		// next to them in the sort order.
		queries := [][]byte{name}
		for i, e := range s.entries {
			if i == 32 {
				break
			}
			n := e.Name
			bumped := bytes.Clone(n)
			bumped[len(bumped)-1]++
			queries = append(queries, n, n[:len(n)-1], append(bytes.Clone(n), '/'), append(bytes.Clone(n), '.'), bumped)
		}
		for _, q := range queries {
			got, found, err := FindEntry(format, body, q)
			// FindEntry decodes without TreeIter: the same answers as
			// the lookup written over it.
			rgot, rfound, rerr := findEntryIter(format, body, q)
			if found != rfound || (err == nil) != (rerr == nil) || err != nil && err.Error() != rerr.Error() ||
				got.Mode != rgot.Mode || got.ID != rgot.ID || !bytes.Equal(got.Name, rgot.Name) {
				t.Fatalf("FindEntry(%q) = %+v, %v, %v; over TreeIter %+v, %v, %v", q, got, found, err, rgot, rfound, rerr)
			}
			checkFindEntryIn(t, format, body, q, got, found, err)
			first := slices.IndexFunc(s.entries, func(e TreeEntry) bool { return bytes.Equal(e.Name, q) })
			switch {
			case found:
				if err != nil || first < 0 {
					t.Fatalf("FindEntry(%q) found %+v (err %v) but the scan has no such entry", q, got, err)
				}
				want := s.entries[first]
				wo, _ := offsetIn(body, want.Name)
				if o, ok := offsetIn(body, got.Name); !ok || o != wo || got.Mode != want.Mode || got.ID != want.ID {
					t.Fatalf("FindEntry(%q) = %+v, the scan's first match is %+v", q, got, want)
				}
			case err != nil:
				if first >= 0 || s.err == nil || err.Error() != s.err.Error() {
					t.Fatalf("FindEntry(%q) error %v; scan: match %d, error %v", q, err, first, s.err)
				}
			default:
				// Stopping early is only sound in a sorted tree.
				if sorted && first >= 0 {
					t.Fatalf("FindEntry(%q) missed entry %d of a sorted tree", q, first)
				}
			}
		}
	})
}

// ---------------------------------------------------------------------
// Tags

func tagSeeds(f oid.Format) [][]byte {
	obj := seedID(f, 1).String()
	tagger := "tagger C O Mitter <committer@example.com> 1112912053 +0200\n"
	return [][]byte{
		[]byte("object " + obj + "\ntype commit\ntag v1.0\n" + tagger + "\nRelease 1.0\n"),
		[]byte("object " + obj + "\ntype tree\ntag tree-tag\n" + tagger + "\nmessage\n-----BEGIN PGP SIGNATURE-----\n"),
		[]byte("object " + obj + "\ntype blob\ntag blob-tag\n\nno tagger (ancient tag)\n"),
		[]byte("object " + obj + "\ntype tag\ntag nested\n" + tagger),
		[]byte("object " + string(bytes.ToUpper([]byte(obj))) + "\ntype commit\ntag UPPER\n" + tagger),
		[]byte("object " + obj + "\ntype tree\x00zz\ntag nul-in-type\n"),
		[]byte("object " + obj + "\ntype commit\ntag v\ntagger "),
		// malformed
		[]byte("object " + obj + "\ntype blob\ntag \n"),
		[]byte("object " + obj + "\ntype Commit\ntag v1\n"),
		[]byte("object " + obj + "\ntype commit\ntag v1"),
		[]byte("object " + obj + "\ntag v1\ntype commit\n"),
		[]byte("object " + obj[:10] + "\ntype commit\ntag v1\n"),
		[]byte("object " + obj + "\ntype commit\x00zzzzzzzzzzzzzzzzzzzzzzz\ntag v1\n"),
		[]byte("object " + obj),
	}
}

// gitRefusesTag says whether git's parse_tag_buffer refuses body, by the
// rules git 2.39 shows: at least hex+24 bytes; "object <hex>\n"; a
// "type " line of under 20 bytes whose text up to a NUL names a type;
// "tag " with more after it, up to a newline.
func gitRefusesTag(f oid.Format, body []byte) bool {
	hexLen := f.HexSize()
	if len(body) < hexLen+24 || !bytes.HasPrefix(body, []byte("object ")) ||
		!allHex(body[7:7+hexLen]) || body[7+hexLen] != '\n' {
		return true
	}
	rest := body[8+hexLen:]
	typeText, rest, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || !bytes.HasPrefix(typeText, []byte("type ")) || len(typeText)-5 >= 20 {
		return true
	}
	typeText, _, _ = bytes.Cut(typeText[5:], []byte{0})
	if ParseType(typeText) == Invalid {
		return true
	}
	return len(rest) <= 4 || !bytes.HasPrefix(rest, []byte("tag ")) || bytes.IndexByte(rest[4:], '\n') < 0
}

func FuzzParseTag(f *testing.F) {
	for i, format := range []oid.Format{oid.SHA1, oid.SHA256} {
		for _, body := range tagSeeds(format) {
			f.Add(byte(i), body)
		}
	}
	f.Fuzz(func(t *testing.T, sel byte, body []byte) {
		format := fuzzFormat(sel)
		body = body[:len(body):len(body)]
		tag, err := ParseTag(format, body)
		again := bytes.Clone(body)
		tag2, err2 := ParseTag(format, again)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("parse of a copy disagrees: %v vs %v", err, err2)
		}
		if refused := gitRefusesTag(format, body); (err != nil) != refused {
			t.Fatalf("ParseTag error %v, but git refuses the tag: %v", err, refused)
		}
		if err != nil {
			fe := checkFormatError(t, err, Tag, body)
			if fe2 := checkFormatError(t, err2, Tag, again); *fe != *fe2 {
				t.Fatalf("errors differ on a copy: %v vs %v", fe, fe2)
			}
			return
		}
		if tag.Object != tag2.Object || tag.Type != tag2.Type || !bytes.Equal(tag.Name, tag2.Name) ||
			!bytes.Equal(tag.Tagger, tag2.Tagger) || (tag.Tagger == nil) != (tag2.Tagger == nil) {
			t.Fatalf("parse of a copy disagrees:\n%+v\n%+v", tag, tag2)
		}
		if _, err := ParseTag(otherFormat(format), body); err == nil {
			t.Fatalf("body parses as a tag in both formats")
		}

		// git refuses a tag shorter than its smallest valid form.
		hexLen := format.HexSize()
		if len(body) < hexLen+24 {
			t.Fatalf("accepted a %d-byte tag", len(body))
		}
		if !bytes.HasPrefix(body, []byte("object ")) || body[7+hexLen] != '\n' ||
			lowerHex(body[7:7+hexLen]) != tag.Object.String() || tag.Object.Format() != format {
			t.Fatalf("object %v does not match the object line", tag.Object)
		}
		off := 7 + hexLen + 1
		typeLine := body[off:]
		nl := bytes.IndexByte(typeLine, '\n')
		if !bytes.HasPrefix(typeLine, []byte("type ")) || nl < 0 {
			t.Fatalf("no type line at %d", off)
		}
		// git compares the type as a C string and reads at most 19 bytes.
		typeText := typeLine[5:nl]
		if i := bytes.IndexByte(typeText, 0); i >= 0 {
			typeText = typeText[:i]
		}
		if nl-5 >= 20 || tag.Type < Commit || tag.Type > Tag || tag.Type.String() != string(typeText) {
			t.Fatalf("type %v from the type line %q", tag.Type, typeLine[:nl])
		}
		off += nl + 1
		no, ok := offsetIn(body, tag.Name)
		if tag.Name == nil || !ok || no != off+4 || !bytes.HasPrefix(body[off:], []byte("tag ")) ||
			no+len(tag.Name) >= len(body) || body[no+len(tag.Name)] != '\n' || bytes.IndexByte(tag.Name, '\n') >= 0 {
			t.Fatalf("name %q is not the rest of the tag line at %d", tag.Name, off)
		}
		off = no + len(tag.Name) + 1
		rest := body[off:]
		if !bytes.HasPrefix(rest, []byte("tagger ")) || len(rest) <= 7 {
			if tag.Tagger != nil {
				t.Fatalf("tagger %q without a tagger line", tag.Tagger)
			}
			return
		}
		to, ok := offsetIn(body, tag.Tagger)
		end := to + len(tag.Tagger)
		if tag.Tagger == nil || !ok || to != off+7 || bytes.IndexByte(tag.Tagger, '\n') >= 0 || (end < len(body) && body[end] != '\n') {
			t.Fatalf("tagger %q is not the rest of the tagger line at %d", tag.Tagger, off)
		}
	})
}
