package txtar

import (
	"bytes"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	a := &Archive{
		Comment: []byte("a comment\n"),
		Files: []File{
			{Name: "one", Data: []byte("first\nsecond\n")},
			{Name: "empty"},
			{Name: "name with spaces -- inside", Data: []byte("x\n")},
		},
	}
	data := Format(a)
	want := "a comment\n-- one --\nfirst\nsecond\n-- empty --\n-- name with spaces -- inside --\nx\n"
	if string(data) != want {
		t.Fatalf("Format:\n%q\nwant\n%q", data, want)
	}
	b := Parse(data)
	if !bytes.Equal(b.Comment, a.Comment) || len(b.Files) != len(a.Files) {
		t.Fatalf("Parse: %+v", b)
	}
	for i := range a.Files {
		if b.Files[i].Name != a.Files[i].Name || !bytes.Equal(b.Files[i].Data, a.Files[i].Data) {
			t.Errorf("file %d: %q %q, want %q %q", i, b.Files[i].Name, b.Files[i].Data, a.Files[i].Name, a.Files[i].Data)
		}
	}
}

func TestFormatAddsNewlines(t *testing.T) {
	got := string(Format(&Archive{Comment: []byte("c"), Files: []File{{Name: "f", Data: []byte("no newline")}}}))
	if want := "c\n-- f --\nno newline\n"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
	if a := Parse([]byte("-- f --\nlast")); len(a.Files) != 1 || string(a.Files[0].Data) != "last" {
		t.Errorf("Parse of an unterminated last line: %+v", a)
	}
}

func TestIsMarker(t *testing.T) {
	for line, want := range map[string]bool{
		"-- a --": true, "-- a --\n": true, "--  --": true, "-- --": false, "-- a": false,
		"|-- a --": false, " -- a --": false, "-- a -- ": false,
	} {
		if got := IsMarker([]byte(line)); got != want {
			t.Errorf("IsMarker(%q) = %v, want %v", line, got, want)
		}
	}
}
