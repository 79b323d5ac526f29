package odb

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/goblame/goblame/oid"
)

// TestIndexChecksInGitsOrder checks load_idx's order of checks on
// indexes that fail more than one (the line git prints is the first
// failed check's; each was confirmed with git 2.39.5 cat-file on a
// repository holding the bytes as its pack index), and that parseIndex
// refuses exactly what gitIndexLine names.
func TestIndexChecksInGitsOrder(t *testing.T) {
	const h = 20 // SHA-1
	v2 := func(version uint32, size int, fan func(i int) uint32) []byte {
		b := make([]byte, size)
		copy(b, idxV2Magic)
		binary.BigEndian.PutUint32(b[4:], version)
		for i := 0; i < 256 && 8+4*i+4 <= size; i++ {
			binary.BigEndian.PutUint32(b[8+4*i:], fan(i))
		}
		return b
	}
	zero := func(int) uint32 { return 0 }
	one := func(int) uint32 { return 1 }
	cases := []struct {
		name string
		data []byte
		want string
	}{
		// The size comes before the version...
		{"bad version, too small", v2(3, 100, zero), "error: index file I is too small"},
		{"bad version", v2(3, 8+1024+2*h, zero), "error: index file I is version 3 and is not supported by this binary (try upgrading GIT to a newer version)"},
		// ... and the too-small bound is the v1 layout's, whatever the
		// version: a v2 index above it but under the v2 layout's
		// smallest size fails the v2 size check.
		{"v2 under its smallest size", v2(2, 1024+2*h, zero), "error: wrong index v2 file size in I"},
		{"non-monotonic before the size", v2(2, 8+1024+2*h, func(i int) uint32 { return uint32(255 - i) }), "error: non-monotonic index I"},
		{"v2 one object short", v2(2, 8+1024+2*h, one), "error: wrong index v2 file size in I"},
		{"v2 no objects", v2(2, 8+1024+2*h, zero), ""},
		{"v2 one object", v2(2, 8+1024+2*h+h+8, one), ""},
		{"v2 one object and a large offset too many", v2(2, 8+1024+2*h+h+8+8, one), "error: wrong index v2 file size in I"},
		{"v1 no objects", make([]byte, 1024+2*h), ""},
		{"v1 a byte over", make([]byte, 1024+2*h+1), "error: wrong index v1 file size in I"},
	}
	for _, c := range cases {
		if got := gitIndexLine("I", c.data, h); got != c.want {
			t.Errorf("%s: git's line %q, want %q", c.name, got, c.want)
		}
		_, err := parseIndex("I", "I", c.data, oid.SHA1)
		var le *LookupError
		if (err != nil) != (c.want != "") || err != nil && (!errors.As(err, &le) || le.Line != c.want) {
			t.Errorf("%s: parseIndex error %v where git's line is %q", c.name, err, c.want)
		}
	}
}
