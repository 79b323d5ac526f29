package odb

import (
	"bytes"
	"errors"
	"github.com/goblame/goblame/internal/testpack"
	"testing"
)

func TestApplyDelta(t *testing.T) {
	base := []byte("0123456789abcdef")
	cases := []struct {
		name string
		ops  []byte // instructions after the two size fields
		want string
		err  error
	}{
		{"insert", []byte{
			0x03, 'x', 'y', 'z', // insert 3 literal bytes
		}, "xyz", nil},
		{"copy offset and size", []byte{
			0x91, 0x02, 0x03, // copy: offset byte 0 = 2, size byte 0 = 3
		}, "234", nil},
		{"copy with no offset bytes", []byte{
			0x90, 0x04, // copy: offset 0, size 4
		}, "0123", nil},
		{"copy then insert then copy", []byte{
			0x91, 0x0a, 0x06, // copy "abcdef"
			0x01, '-', // insert "-"
			0x91, 0x00, 0x02, // bit 0 set but offset byte 0 is zero: "01"
		}, "abcdef-01", nil},
		{"copy past the base", []byte{
			0x91, 0x0e, 0x03, // offset 14 + size 3 > 16
		}, "", errDeltaWild},
		{"insert past the data", []byte{
			0x05, 'a', 'b', // says 5 bytes, has 2
		}, "", errDeltaWild},
		{"truncated copy", []byte{
			0x93, 0x01, // bits 0,1 and 4: needs three bytes, has one
		}, "", errDeltaWild},
		{"reserved opcode", []byte{
			0x00,
		}, "", errDeltaOpcodeZero},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := deltaResultLen(c.ops, len(base))
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("deltaResultLen error %v, want %v", err, c.err)
				}
				// applyDelta must refuse too, whatever output size it is given.
				if err := applyDelta(make([]byte, 64), base, c.ops); err == nil {
					t.Fatal("applyDelta accepted a bad delta")
				}
				return
			}
			if err != nil || n != uint64(len(c.want)) {
				t.Fatalf("deltaResultLen = %d, %v; want %d", n, err, len(c.want))
			}
			out := make([]byte, n)
			if err := applyDelta(out, base, c.ops); err != nil {
				t.Fatal(err)
			}
			if string(out) != c.want {
				t.Fatalf("got %q, want %q", out, c.want)
			}
		})
	}
}

func TestDeltaCopySizeZeroMeans64K(t *testing.T) {
	base := bytes.Repeat([]byte("abcd"), 0x10000/4+10)
	ops := []byte{
		0x81, 0x04, // copy: offset 4, no size bytes: 0x10000 bytes
	}
	n, err := deltaResultLen(ops, len(base))
	if err != nil || n != 0x10000 {
		t.Fatalf("deltaResultLen = %d, %v", n, err)
	}
	out := make([]byte, n)
	if err := applyDelta(out, base, ops); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, base[4:4+0x10000]) {
		t.Fatal("wrong copy")
	}
}

func TestDeltaHeader(t *testing.T) {
	delta := []byte{
		0x90, 0x01, // base size: 0x10 | 0x01<<7 = 144
		0x05, // result size 5
		0x05, 'h', 'e', 'l', 'l', 'o',
	}
	b, r, ops, err := deltaHeader(delta)
	if err != nil || b != 144 || r != 5 || ops != 3 {
		t.Fatalf("deltaHeader = %d %d %d %v", b, r, ops, err)
	}
	if _, _, _, err := deltaHeader([]byte{0x80, 0x80, 0x80}); err == nil {
		t.Fatal("short delta accepted")
	}
	long := bytes.Repeat([]byte{0xff}, 12) // a size varint longer than 64 bits
	if _, _, _, err := deltaHeader(append(long, 0, 0)); err == nil {
		t.Fatal("overlong varint accepted")
	}
}

func TestEncodeOfsRoundTrip(t *testing.T) {
	// The examples of git-formats.md §0.2: 7f -> 127, 80 00 -> 128, ff 7f -> 16511.
	for _, c := range []struct {
		d    uint64
		want []byte
	}{{127, []byte{0x7f}}, {128, []byte{0x80, 0x00}}, {16511, []byte{0xff, 0x7f}}} {
		if got := testpack.EncodeOfs(c.d); !bytes.Equal(got, c.want) {
			t.Errorf("testpack.EncodeOfs(%d) = %x, want %x", c.d, got, c.want)
		}
	}
}
