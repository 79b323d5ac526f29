package repo

import (
	"bytes"
	"errors"
	"github.com/goblame/goblame/internal/fsread"
	"io/fs"

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

// foldASCII lowercases ASCII letters only, as strcasecmp compares.
func foldASCII(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = lowerASCII(c)
	}
	return string(out)
}

// ParseMailmap parses mailmap text as git reads a blob: lines split at
// newlines, '#' lines ignored; "Proper <proper> [Old] <old>" forms.
func ParseMailmap(data []byte) *Mailmap {
	m := &Mailmap{byEmail: map[string]*mailmapEntry{}}
	m.addText(data, false)
	return m
}

// addText reads mailmap lines. Files are read as git's fgets with a
// 1024-byte buffer reads them: a longer line is split into pieces of
// 1023 bytes, each parsed as a line.
func (m *Mailmap) addText(data []byte, fileChunks bool) {
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
		m.addLine(line)
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

func (m *Mailmap) addLine(line []byte) {
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
	key := foldASCII(oldEmail)
	e := m.byEmail[key]
	if e == nil {
		e = &mailmapEntry{}
		m.byEmail[key] = e
	}
	clone := func(b []byte) []byte {
		if b == nil {
			return nil
		}
		return append(make([]byte, 0, len(b)), b...)
	}
	if oldName == nil {
		if newName != nil {
			e.name = clone(newName)
		}
		if newEmail != nil {
			e.email = clone(newEmail)
		}
		return
	}
	if e.byName == nil {
		e.byName = map[string]*mailmapInfo{}
	}
	e.byName[foldASCII(oldName)] = &mailmapInfo{name: clone(newName), email: clone(newEmail)}
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
func (m *Mailmap) readFile(path, name string, noFollow bool) {
	f, err := fsread.Open(path, noFollow)
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
		m.Messages = append(m.Messages, "error: unable to open mailmap at "+name+": "+errnoText(err))
		return
	}
	defer f.Close()
	data, err := fsread.ReadAll(f, name, 0)
	if err != nil {
		return
	}
	m.addText(data, true)
}
