package object

import "fmt"

// Type is a git object type, numbered as in pack files.
type Type uint8

const (
	Invalid Type = 0
	Commit  Type = 1
	Tree    Type = 2
	Blob    Type = 3
	Tag     Type = 4
)

// String returns git's name for the type ("commit", "tree", "blob", "tag").
func (t Type) String() string {
	switch t {
	case Commit:
		return "commit"
	case Tree:
		return "tree"
	case Blob:
		return "blob"
	case Tag:
		return "tag"
	}
	return fmt.Sprintf("object.Type(%d)", uint8(t))
}

// ParseType maps git's type name to a Type; unknown names give Invalid.
func ParseType(name []byte) Type {
	switch string(name) {
	case "commit":
		return Commit
	case "tree":
		return Tree
	case "blob":
		return Blob
	case "tag":
		return Tag
	}
	return Invalid
}

// FormatError reports malformed object bytes.
type FormatError struct {
	Type   Type   // what was being parsed
	Offset int    // byte offset in the object body
	Msg    string // what was wrong
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("malformed %s object at offset %d: %s", e.Type, e.Offset, e.Msg)
}
