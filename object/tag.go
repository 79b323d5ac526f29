package object

import (
	"bytes"

	"github.com/goblame/goblame/oid"
)

// TagInfo is the parsed header of an annotated tag. Slices alias the input.
type TagInfo struct {
	Object oid.ID
	Type   Type
	Name   []byte
	Tagger []byte // nil when absent (ancient tags)
}

// ParseTag parses a tag body: "object", "type" and "tag" lines in that
// order, as git's parse_tag_buffer requires.
func ParseTag(f oid.Format, body []byte) (TagInfo, error) {
	var t TagInfo
	hexLen := f.HexSize()
	if !bytes.HasPrefix(body, []byte("object ")) || len(body) < 7+hexLen+1 || body[7+hexLen] != '\n' {
		return t, &FormatError{Type: Tag, Offset: 0, Msg: "bad object line"}
	}
	id, err := oid.ParseHexBytes(f, body[7:7+hexLen])
	if err != nil {
		return t, &FormatError{Type: Tag, Offset: 7, Msg: "bad object id"}
	}
	t.Object = id
	off := 7 + hexLen + 1
	if !bytes.HasPrefix(body[off:], []byte("type ")) {
		return t, &FormatError{Type: Tag, Offset: off, Msg: "no type line"}
	}
	nl := bytes.IndexByte(body[off:], '\n')
	if nl < 0 {
		return t, &FormatError{Type: Tag, Offset: off, Msg: "truncated type line"}
	}
	t.Type = ParseType(body[off+5 : off+nl])
	if t.Type == Invalid {
		return t, &FormatError{Type: Tag, Offset: off + 5, Msg: "unknown object type"}
	}
	off += nl + 1
	if bytes.HasPrefix(body[off:], []byte("tag ")) {
		nl = bytes.IndexByte(body[off:], '\n')
		if nl < 0 {
			return t, &FormatError{Type: Tag, Offset: off, Msg: "truncated tag line"}
		}
		t.Name = body[off+4 : off+nl]
		off += nl + 1
	} else {
		return t, &FormatError{Type: Tag, Offset: off, Msg: "no tag line"}
	}
	if bytes.HasPrefix(body[off:], []byte("tagger ")) {
		nl = bytes.IndexByte(body[off:], '\n')
		if nl < 0 {
			nl = len(body) - off
		}
		t.Tagger = body[off+7 : off+nl]
	}
	return t, nil
}
