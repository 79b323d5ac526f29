package oid

import "testing"

func TestWellKnownIDsHashCorrectly(t *testing.T) {
	for _, f := range []Format{SHA1, SHA256} {
		if got := HashObject(f, "tree", nil); got != EmptyTree(f) {
			t.Errorf("%v empty tree = %v, want %v", f, got, EmptyTree(f))
		}
		if got := HashObject(f, "blob", nil); got != EmptyBlob(f) {
			t.Errorf("%v empty blob = %v, want %v", f, got, EmptyBlob(f))
		}
	}
}

func TestParseHexRoundTripAndErrors(t *testing.T) {
	const s = "4B825DC642CB6EB9A060E54BF8D69288FBEE4904"
	id, err := ParseHex(SHA1, s)
	if err != nil {
		t.Fatal(err)
	}
	if id.String() != "4b825dc642cb6eb9a060e54bf8d69288fbee4904" {
		t.Errorf("String = %s", id)
	}
	if !id.HasHexPrefix("4b825D") || id.HasHexPrefix("4b826") {
		t.Error("HasHexPrefix wrong")
	}
	for _, bad := range []string{"", "4b825dc642cb6eb9a060e54bf8d69288fbee490", "4b825dc642cb6eb9a060e54bf8d69288fbee490g"} {
		if _, err := ParseHex(SHA1, bad); err == nil {
			t.Errorf("ParseHex(%q) succeeded", bad)
		}
	}
	if _, err := ParseHex(SHA256, s); err == nil {
		t.Error("40 hex digits accepted as sha256")
	}
	var zero ID
	if !zero.IsZero() || !Null(SHA1).IsNull() || Null(SHA1).IsZero() {
		t.Error("zero/null confusion")
	}
	if Null(SHA1) == Null(SHA256) {
		t.Error("null IDs of different formats compare equal")
	}
}

// TestParseHexEveryByte puts every byte value at each place of a name:
// accepted exactly where it is a hex digit (either case), with that
// digit's value, by ParseHex and ParseHexBytes alike.
func TestParseHexEveryByte(t *testing.T) {
	const base = "0123456789abcdef0123456789ABCDEF01234567"
	for c := 0; c < 256; c++ {
		var want byte
		isHex := true
		switch {
		case '0' <= c && c <= '9':
			want = byte(c - '0')
		case 'a' <= c && c <= 'f':
			want = byte(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			want = byte(c - 'A' + 10)
		default:
			isHex = false
		}
		for pos := 0; pos < len(base); pos++ {
			b := []byte(base)
			b[pos] = byte(c)
			id, err := ParseHexBytes(SHA1, b)
			id2, err2 := ParseHex(SHA1, string(b))
			if id != id2 || (err == nil) != (err2 == nil) {
				t.Fatalf("byte %#x at %d: ParseHexBytes %v %v, ParseHex %v %v", c, pos, id, err, id2, err2)
			}
			if (err == nil) != isHex {
				t.Fatalf("byte %#x at %d: error %v", c, pos, err)
			}
			if !isHex {
				continue
			}
			raw := id.Raw()[pos/2]
			got := raw & 0x0f
			if pos%2 == 0 {
				got = raw >> 4
			}
			if got != want {
				t.Fatalf("byte %#x at %d: digit value %d, want %d", c, pos, got, want)
			}
		}
	}
}
