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
// order, as git's parse_tag_buffer requires. Like git it refuses a body
// shorter than hex+24 bytes, reads the type as a C string (up to a NUL)
// from a type line of under 20 bytes, and takes a "tagger " line only
// when something follows that word.
func ParseTag(f oid.Format, body []byte) (TagInfo, error) {
	var t TagInfo
	hexLen := f.HexSize()
	if len(body) < hexLen+24 {
		return t, &FormatError{Type: Tag, Offset: 0, Msg: "too short"}
	}
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
	typeName := body[off+5 : off+nl]
	if len(typeName) >= 20 {
		return t, &FormatError{Type: Tag, Offset: off + 5, Msg: "type too long"}
	}
	if i := bytes.IndexByte(typeName, 0); i >= 0 {
		typeName = typeName[:i]
	}
	t.Type = ParseType(typeName)
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
	if len(body)-off > 7 && bytes.HasPrefix(body[off:], []byte("tagger ")) {
		nl = bytes.IndexByte(body[off:], '\n')
		if nl < 0 {
			nl = len(body) - off
		}
		t.Tagger = body[off+7 : off+nl]
	}
	return t, nil
}
