package oid

import (
	"encoding/hex"
	"errors"
	"fmt"
)

// Format is a repository's object format (hash function).
type Format uint8

const (
	// SHA1 is git's original object format: 20-byte IDs, 40 hex digits.
	SHA1 Format = 1
	// SHA256 is the object format of `git init --object-format=sha256`:
	// 32-byte IDs, 64 hex digits.
	SHA256 Format = 2
)

// MaxSize is the raw length of the longest ID (SHA-256).
const MaxSize = 32

// Size returns the raw ID length in bytes (20 or 32), or 0 for an unknown
// format.
func (f Format) Size() int {
	switch f {
	case SHA1:
		return 20
	case SHA256:
		return 32
	}
	return 0
}

// HexSize returns the number of hex digits of a full ID in this format.
func (f Format) HexSize() int { return 2 * f.Size() }

// String returns the name git uses for the format in extensions.objectFormat.
func (f Format) String() string {
	switch f {
	case SHA1:
		return "sha1"
	case SHA256:
		return "sha256"
	}
	return fmt.Sprintf("oid.Format(%d)", uint8(f))
}

// ParseFormat maps a value of extensions.objectFormat to a Format.
func ParseFormat(name string) (Format, error) {
	switch name {
	case "sha1", "":
		return SHA1, nil
	case "sha256":
		return SHA256, nil
	}
	return 0, fmt.Errorf("unknown object format %q", name)
}

// ID is an object name. It is a comparable value: use == and map keys.
type ID struct {
	raw    [MaxSize]byte
	format Format
}

// ErrBadHex reports a string that is not a full hex object name.
var ErrBadHex = errors.New("not a full hex object name")

// FromBytes builds an ID from the first f.Size() bytes of b. It panics if b
// is shorter; callers slice raw IDs out of validated buffers.
func FromBytes(f Format, b []byte) ID {
	var id ID
	id.format = f
	copy(id.raw[:f.Size()], b[:f.Size()])
	return id
}

// ParseHex parses a full-length hex ID (either case) of format f.
func ParseHex(f Format, s string) (ID, error) {
	return parseHex(f, s)
}

// ParseHexBytes is ParseHex over a byte slice, without allocating.
func ParseHexBytes(f Format, s []byte) (ID, error) {
	return parseHex(f, s)
}

// parseHex is ParseHex and ParseHexBytes: a table lookup per digit and
// one check at the end, with no branch per digit to mispredict (object
// names are random digits and letters; a walk without a commit-graph
// parses two or three of them a commit).
func parseHex[S string | []byte](f Format, s S) (ID, error) {
	var id ID
	if len(s) != f.HexSize() || f.Size() == 0 {
		return id, ErrBadHex
	}
	var bad byte
	for i := 0; i+1 < len(s); i += 2 {
		hi, lo := unhexTable[s[i]], unhexTable[s[i+1]]
		bad |= hi | lo
		id.raw[i/2] = hi<<4 | lo
	}
	if bad > 0x0f {
		return ID{}, ErrBadHex
	}
	id.format = f
	return id, nil
}

// unhexTable holds each hex digit's value (either case), and 0xff for
// every other byte.
var unhexTable = [256]byte{
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
}

func unhex(c byte) (byte, bool) {
	v := unhexTable[c]
	return v, v <= 0x0f
}

// IsHexDigit reports whether c is a hex digit of either case.
func IsHexDigit(c byte) bool {
	_, ok := unhex(c)
	return ok
}

// Null returns the all-zero ID of format f ("not committed yet").
func Null(f Format) ID { return ID{format: f} }

// Format returns the ID's object format (0 for the zero ID).
func (id ID) Format() Format { return id.format }

// Size returns the raw length of the ID.
func (id ID) Size() int { return id.format.Size() }

// Bytes returns the raw ID bytes (a copy).
func (id ID) Bytes() []byte {
	b := make([]byte, id.Size())
	copy(b, id.raw[:])
	return b
}

// Raw returns a pointer to the underlying array; only the first Size()
// bytes are meaningful. It lets hot paths compare without copying.
func (id *ID) Raw() []byte { return id.raw[:id.format.Size()] }

// IsZero reports whether id is the zero value (no format).
func (id ID) IsZero() bool { return id.format == 0 }

// IsNull reports whether all bytes are zero (the null ID of its format, or
// the zero value).
func (id ID) IsNull() bool { return id.raw == [MaxSize]byte{} }

// String returns the full lowercase hex form.
func (id ID) String() string {
	return string(id.AppendHex(make([]byte, 0, id.format.HexSize())))
}

// AppendHex appends the full lowercase hex form to dst.
func (id ID) AppendHex(dst []byte) []byte {
	n := id.Size()
	start := len(dst)
	dst = append(dst, make([]byte, 2*n)...)
	hex.Encode(dst[start:], id.raw[:n])
	return dst
}

// Compare orders IDs by raw bytes (the order of pack indexes).
func (id ID) Compare(other ID) int {
	a, b := id.raw[:id.Size()], other.raw[:other.Size()]
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// HasHexPrefix reports whether the hex form of id starts with the given
// lowercase hex prefix (odd lengths allowed).
func (id ID) HasHexPrefix(prefix string) bool {
	if len(prefix) > id.format.HexSize() {
		return false
	}
	const digits = "0123456789abcdef"
	for i := 0; i < len(prefix); i++ {
		b := id.raw[i/2]
		var d byte
		if i%2 == 0 {
			d = digits[b>>4]
		} else {
			d = digits[b&15]
		}
		c := prefix[i]
		if 'A' <= c && c <= 'F' {
			c += 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}

// Well-known IDs.
var (
	emptyTreeSHA1   = mustHex(SHA1, "4b825dc642cb6eb9a060e54bf8d69288fbee4904")
	emptyTreeSHA256 = mustHex(SHA256, "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321")
	emptyBlobSHA1   = mustHex(SHA1, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
	emptyBlobSHA256 = mustHex(SHA256, "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813")
)

// EmptyTree returns the ID of the empty tree in format f. Git treats it as
// present in every repository.
func EmptyTree(f Format) ID {
	if f == SHA256 {
		return emptyTreeSHA256
	}
	return emptyTreeSHA1
}

// EmptyBlob returns the ID of the empty blob in format f.
func EmptyBlob(f Format) ID {
	if f == SHA256 {
		return emptyBlobSHA256
	}
	return emptyBlobSHA1
}

func mustHex(f Format, s string) ID {
	id, err := ParseHex(f, s)
	if err != nil {
		panic(err)
	}
	return id
}

// MarshalText encodes the ID as lowercase hex (JSON strings, text
// formats); the zero ID encodes as "".
func (id ID) MarshalText() ([]byte, error) {
	if id.IsZero() {
		return []byte{}, nil
	}
	return id.AppendHex(nil), nil
}

// UnmarshalText decodes hex of a full SHA-1 (40 digits) or SHA-256 (64
// digits) ID; "" decodes as the zero ID.
func (id *ID) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*id = ID{}
		return nil
	}
	f := SHA1
	if len(text) == SHA256.HexSize() {
		f = SHA256
	}
	v, err := ParseHexBytes(f, text)
	if err != nil {
		return err
	}
	*id = v
	return nil
}
