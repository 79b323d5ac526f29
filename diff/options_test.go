package diff

import (
	"errors"
	"testing"
)

func TestParseAlgorithm(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Algorithm
	}{{"myers", Myers}, {"Default", Myers}, {"MINIMAL", Myers}, {"histogram", Histogram}, {"Patience", Patience}} {
		got, err := ParseAlgorithm(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseAlgorithm(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, a := range []Algorithm{Myers, Histogram, Patience} {
		if got, err := ParseAlgorithm(a.String()); err != nil || got != a {
			t.Errorf("ParseAlgorithm(%q) = %v, %v", a.String(), got, err)
		}
	}
	if _, err := ParseAlgorithm("lcs"); !errors.Is(err, ErrUnknownAlgorithm) {
		t.Errorf("ParseAlgorithm(lcs): %v", err)
	}
	if s := Algorithm(9).String(); s != "Algorithm(9)" {
		t.Errorf("Algorithm(9).String() = %q", s)
	}
}

// TestHunkString checks the git diff -U0 header form, which parseHunkHeader
// (used on git's output) must read back to the same hunk.
func TestHunkString(t *testing.T) {
	for _, c := range []struct {
		h    Hunk
		want string
	}{
		{Hunk{0, 0, 0, 2}, "@@ -0,0 +1,2 @@"},
		{Hunk{4, 1, 4, 1}, "@@ -5 +5 @@"},
		{Hunk{490, 0, 490, 1}, "@@ -490,0 +491 @@"},
		{Hunk{2, 3, 1, 0}, "@@ -3,3 +1,0 @@"},
	} {
		if got := c.h.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.h, got, c.want)
		}
		back, err := parseHunkHeader(c.want)
		if err != nil || back != c.h {
			t.Errorf("parse %q = %+v, %v", c.want, back, err)
		}
	}
}

func TestNilFiles(t *testing.T) {
	d := NewDiffer()
	a, _ := d.Prepare(nil, []byte("a\n"), Options{})
	if _, err := d.DiffFiles(nil, a, nil, Options{}); err != ErrForeignFile {
		t.Errorf("nil File: %v", err)
	}
	if _, err := d.Prepare(nil, make([]byte, 0), Options{}); err != nil {
		t.Errorf("empty data: %v", err)
	}
}
