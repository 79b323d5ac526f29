package repo

import (
	"bytes"
	"errors"
	"io/fs"
	"unsafe"

	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
)

// Mailmap maps author and committer identities to canonical ones, as
// described by .mailmap files (gitmailmap(5)). Lookups are by e-mail and
// then name, both case-insensitive (ASCII).
type Mailmap struct {
	byEmail map[string]*mailmapEntry
	// Messages are the lines git prints while loading ("error: unable to
	// open mailmap at .mailmap: ...", "error: mailmap is not a blob: x").
	Messages []string
}

// mailmapEntry holds the replacements for one e-mail: the simple ones
// (from lines without an old name) and per-old-name ones.
type mailmapEntry struct {
	mailmapInfo
	byName map[string]*mailmapInfo
}

// mailmapInfo is a replacement: nil means "keep".
type mailmapInfo struct {
	name, email []byte
}

// ParseMailmap parses mailmap text as git reads a blob: lines split at
// newlines, '#' lines ignored; "Proper <proper> [Old] <old>" forms.
func ParseMailmap(data []byte) *Mailmap {
	m := &Mailmap{byEmail: map[string]*mailmapEntry{}}
	m.addText(data, false)
	return m
}

// mailmapSource is what the entries of one mailmap text are made from,
// allocated once per text rather than per line (a text like git/git's
// .mailmap, 318 lines, took 1,236 allocations and 78 us to parse): the
// text itself, which the replacements are slices of (capped at their
// length, so that appending to one cannot write into the next); an
// arena the keys are lowered into (ASCII letters, as strcasecmp
// compares), as large as the text, so that it is never reallocated and
// each key is a string over its bytes; and slabs for the entries and
// replacements, sized for one a line (or a 1023-byte piece of one).
type mailmapSource struct {
	text    []byte
	keys    []byte
	entries []mailmapEntry
	infos   []mailmapInfo
}

func newMailmapSource(data []byte) *mailmapSource {
	text := bytes.Clone(data)
	lines := bytes.Count(text, []byte{'\n'}) + 1 + len(text)/1023
	return &mailmapSource{
		text:    text,
		keys:    make([]byte, 0, len(text)),
		entries: make([]mailmapEntry, 0, lines),
		infos:   make([]mailmapInfo, 0, lines),
	}
}

// key is b, a part of a line of the source's text, lowered into the
// arena: a string over bytes that are never written again (each key is
// a distinct part of the text, so the arena's room is never exceeded).
func (src *mailmapSource) key(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(src.keys)+len(b) > cap(src.keys) {
		// Not reached: a key of its own.
		out := make([]byte, len(b))
		for i, c := range b {
			out[i] = lowerASCII(c)
		}
		return string(out)
	}
	start := len(src.keys)
	for _, c := range b {
		src.keys = append(src.keys, lowerASCII(c))
	}
	return unsafe.String(&src.keys[start], len(b))
}

func (src *mailmapSource) newEntry() *mailmapEntry {
	src.entries = append(src.entries, mailmapEntry{})
	return &src.entries[len(src.entries)-1]
}

func (src *mailmapSource) newInfo(info mailmapInfo) *mailmapInfo {
	src.infos = append(src.infos, info)
	return &src.infos[len(src.infos)-1]
}

// addText reads mailmap lines. Files are read as git's fgets with a
// 1024-byte buffer reads them: a longer line is split into pieces of
// 1023 bytes, each parsed as a line.
func (m *Mailmap) addText(data []byte, fileChunks bool) {
	src := newMailmapSource(data)
	data = src.text
	if len(m.byEmail) == 0 {
		m.byEmail = make(map[string]*mailmapEntry, cap(src.entries))
	}
	for len(data) > 0 {
		end := bytes.IndexByte(data, '\n')
		var line []byte
		if fileChunks {
			n := end + 1
			if end < 0 {
				n = len(data)
			}
			if n > 1023 {
				n = 1023
			}
			line, data = data[:n], data[n:]
		} else {
			if end < 0 {
				line, data = data, nil
			} else {
				line, data = data[:end], data[end+1:]
			}
		}
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		m.addLine(src, line)
	}
}

// parseNameEmail finds "name <email>" at the start of b: the name is
// the text before '<' without surrounding whitespace (nil if empty), the
// e-mail what is between '<' and the next '>'. rest is what follows '>'
// (nil at the end).
func parseNameEmail(b []byte, allowEmpty bool) (name, email, rest []byte, ok bool) {
	left := bytes.IndexByte(b, '<')
	if left < 0 {
		return nil, nil, nil, false
	}
	right := bytes.IndexByte(b[left+1:], '>')
	if right < 0 {
		return nil, nil, nil, false
	}
	right += left + 1
	if !allowEmpty && right == left+1 {
		return nil, nil, nil, false
	}
	ns := 0
	for ns < left && isConfigSpace(b[ns]) {
		ns++
	}
	ne := left - 1
	for ne > ns && isConfigSpace(b[ne]) {
		ne--
	}
	if ns <= ne {
		name = b[ns : ne+1]
	}
	email = b[left+1 : right]
	if right+1 < len(b) {
		rest = b[right+1:]
	}
	return name, email, rest, true
}

func (m *Mailmap) addLine(src *mailmapSource, line []byte) {
	if len(line) > 0 && line[0] == '#' {
		return
	}
	name1, email1, rest, ok := parseNameEmail(line, false)
	if !ok {
		return
	}
	var name2, email2 []byte
	hasEmail2 := false
	if rest != nil {
		name2, email2, _, hasEmail2 = parseNameEmail(rest, true)
	}
	newName, newEmail := name1, email1
	oldName, oldEmail := name2, email2
	if !hasEmail2 {
		oldEmail, newEmail = newEmail, nil
		oldName = nil
	}
	key := src.key(oldEmail)
	e := m.byEmail[key]
	if e == nil {
		e = src.newEntry()
		m.byEmail[key] = e
	}
	newName, newEmail = capped(newName), capped(newEmail)
	if oldName == nil {
		if newName != nil {
			e.name = newName
		}
		if newEmail != nil {
			e.email = newEmail
		}
		return
	}
	if e.byName == nil {
		e.byName = map[string]*mailmapInfo{}
	}
	e.byName[src.key(oldName)] = src.newInfo(mailmapInfo{name: newName, email: newEmail})
}

// capped is b with its capacity cut to its length (nil stays nil).
func capped(b []byte) []byte {
	if b == nil {
		return nil
	}
	return b[:len(b):len(b)]
}

// Map returns the canonical name and e-mail for an identity (git's
// map_user): the entry for the e-mail, or its entry for the name when
// there is one; unchanged parts are returned as given. Returned
// replacements are shared with the mailmap and must not be modified.
// Map does not allocate for keys up to 256 bytes.
func (m *Mailmap) Map(name, email []byte) (newName, newEmail []byte) {
	if m == nil || len(m.byEmail) == 0 {
		return name, email
	}
	var buf [256]byte
	e := m.byEmail[string(foldInto(buf[:0], email))]
	if e == nil {
		return name, email
	}
	rep := &e.mailmapInfo
	if len(e.byName) > 0 {
		if info := e.byName[string(foldInto(buf[:0], name))]; info != nil {
			rep = info
		}
	}
	newName, newEmail = name, email
	if rep.email != nil {
		newEmail = rep.email
	}
	if rep.name != nil {
		newName = rep.name
	}
	return newName, newEmail
}

// foldInto appends b lowercased (ASCII) to dst.
func foldInto(dst, b []byte) []byte {
	for _, c := range b {
		dst = append(dst, lowerASCII(c))
	}
	return dst
}

// Empty reports a mailmap without entries.
func (m *Mailmap) Empty() bool { return m == nil || len(m.byEmail) == 0 }

// LoadMailmap reads the mailmap sources git reads for blame, later ones
// overriding earlier ones: .mailmap at the top of the work tree (not
// followed if it is a symbolic link; not in a bare repository), the blob
// named by mailmap.blob (default HEAD:.mailmap in a bare repository),
// and the file named by mailmap.file. Problems git only reports are in
// the result's Messages. parents are the grafts of the command that
// reads it (a mailmap.blob such as HEAD~1:.mailmap parses a commit).
func (r *Repository) LoadMailmap(rd *odb.Reader, parents CommandParents) (*Mailmap, error) {
	m := &Mailmap{byEmail: map[string]*mailmapEntry{}}
	if !r.Bare {
		m.readFile(join(r.gitCwd, ".mailmap"), ".mailmap", true)
	}
	blob, hasBlob := r.Config.Get("mailmap.blob")
	if e, ok := r.Config.Entry("mailmap.blob"); ok && !e.HasValue {
		return nil, MissingValueError(e)
	}
	if !hasBlob && r.Bare {
		blob, hasBlob = "HEAD:.mailmap", true
	}
	if hasBlob {
		res := &resolver{r: r, rd: rd, src: parents}
		id, ok, err := res.getOIDWithContext(blob, 0)
		if err != nil {
			return nil, res.fatal(err)
		}
		m.Messages = append(m.Messages, res.before...)
		if ok {
			typ, data, err := rd.Read(id, nil)
			switch {
			case err != nil:
				m.Messages = append(m.Messages, "error: unable to read mailmap object at "+blob)
			case typ != object.Blob:
				m.Messages = append(m.Messages, "error: mailmap is not a blob: "+blob)
			default:
				m.addText(data, false)
			}
		}
	}
	file, ok, err := r.Config.Path("mailmap.file", r.env)
	if err != nil {
		return nil, err
	}
	if ok {
		m.readFile(join(r.gitCwd, file), file, false)
	}
	return m, nil
}

// IsValueless reports a configuration key set without a value.
func (r *Repository) IsValueless(key string) bool { return r.Config.IsValueless(key) }

// readFile reads a mailmap file; a missing file is silently skipped.
// mailmap.file (noFollow false) is a file the user names and is read as
// git reads it even when it is a pipe ("<(...)"); the work tree's
// .mailmap must be a regular file.
func (m *Mailmap) readFile(path, name string, noFollow bool) {
	data, err := readMailmapFile(path, name, noFollow)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return
		}
		var nr *fsread.NotRegularError
		if errors.As(err, &nr) {
			// git blocks on a FIFO and reads /dev/zero without end;
			// goblame skips what is not a file, as a missing one (a
			// directory silently, as git's failed read of it is).
			if !nr.Mode.IsDir() {
				m.Messages = append(m.Messages, "warning: ignoring mailmap at "+name+": not a regular file")
			}
			return
		}
		var open *openError
		if errors.As(err, &open) {
			m.Messages = append(m.Messages, "error: unable to open mailmap at "+name+": "+errnoText(open.err))
		}
		return
	}
	m.addText(data, true)
}

// openError is a mailmap file's failed open (git's "unable to open"),
// where a failed read is skipped silently.
type openError struct{ err error }

func (e *openError) Error() string { return e.err.Error() }
func (e *openError) Unwrap() error { return e.err }

// readMailmapFile reads a mailmap file for readFile.
func readMailmapFile(path, name string, noFollow bool) ([]byte, error) {
	if !noFollow {
		data, err := fsread.ReadFileOrPipe(path, 0)
		var tooLarge *fsread.TooLargeError
		var nr *fsread.NotRegularError
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.As(err, &tooLarge) && !errors.As(err, &nr) {
			err = &openError{err}
		}
		return data, err
	}
	f, err := fsread.Open(path, noFollow)
	if err != nil {
		var nr *fsread.NotRegularError
		if !errors.Is(err, fs.ErrNotExist) && !errors.As(err, &nr) {
			err = &openError{err}
		}
		return nil, err
	}
	defer f.Close()
	return fsread.ReadAll(f, name, 0)
}
