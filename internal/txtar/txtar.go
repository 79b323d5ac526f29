// Package txtar reads and writes the txtar archive format of
// golang.org/x/tools/txtar, kept here so that the tests need no extra
// module: a free-form comment, then files, each introduced by a line
// "-- name --" and holding the lines up to the next such line.
//
// The format cannot hold a file line that looks like a marker ("-- x --"),
// and a file always ends with a newline once written; callers that store
// arbitrary bytes encode them first (see internal/testgit's goldens).
//
// # Concurrency
//
// The functions share no state.
package txtar

import (
	"bytes"
	"strings"
)

// File is one member of an archive.
type File struct {
	Name string
	Data []byte
}

// Archive is a comment and a sequence of files.
type Archive struct {
	Comment []byte
	Files   []File
}

// Format returns the serialized archive. A comment or a file that does not
// end in a newline gets one.
func Format(a *Archive) []byte {
	var b bytes.Buffer
	writeWithNewline(&b, a.Comment)
	for _, f := range a.Files {
		b.WriteString("-- ")
		b.WriteString(f.Name)
		b.WriteString(" --\n")
		writeWithNewline(&b, f.Data)
	}
	return b.Bytes()
}

func writeWithNewline(b *bytes.Buffer, data []byte) {
	b.Write(data)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		b.WriteByte('\n')
	}
}

// Parse parses a serialized archive. Every input is an archive: text
// before the first marker line is the comment.
func Parse(data []byte) *Archive {
	a := new(Archive)
	cur := -1
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := markerName(line); ok {
			a.Files = append(a.Files, File{Name: name})
			cur = len(a.Files) - 1
			continue
		}
		if cur < 0 {
			a.Comment = append(a.Comment, line...)
		} else {
			a.Files[cur].Data = append(a.Files[cur].Data, line...)
		}
	}
	return a
}

// IsMarker reports whether line (with or without its newline) would be
// read as the start of a file.
func IsMarker(line []byte) bool {
	_, ok := markerName(line)
	return ok
}

func markerName(line []byte) (string, bool) {
	t := bytes.TrimSuffix(line, []byte("\n"))
	if !bytes.HasPrefix(t, []byte("-- ")) || !bytes.HasSuffix(t, []byte(" --")) || len(t) < 6 {
		return "", false
	}
	return strings.TrimSpace(string(t[3 : len(t)-3])), true
}
