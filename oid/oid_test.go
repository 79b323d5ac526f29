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
