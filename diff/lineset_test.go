package diff

import (
	"math/rand"
	"strings"
	"testing"
)

// TestLineSetUnchangedLinesAreInIt checks what blame's -M/-C prefilter
// relies on: every line of b that BlameDiffFiles(a, b) leaves unchanged
// (outside every hunk, the common tail it trims included) is in a's
// LineSet, so a line the set does not have is changed in the diff. On
// random pairs from a small vocabulary, with and without -w, last lines
// with and without a newline.
func TestLineSetUnchangedLinesAreInIt(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	vocab := []string{"a\n", "b\n", "c\n", " a\n", "a \n", "}\n", "\n", "x y\n", "xy\n"}
	text := func() string {
		var b strings.Builder
		for range r.Intn(12) {
			b.WriteString(vocab[r.Intn(len(vocab))])
		}
		s := b.String()
		if len(s) > 1 && r.Intn(3) == 0 {
			s = s[:len(s)-1] // a last line without its newline
		}
		return s
	}
	d := NewDiffer()
	var set LineSet
	absent := 0
	for i := range 20000 {
		opts := Options{IgnoreWhitespace: i%2 == 1}
		a, err := d.Prepare(nil, []byte(text()), opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := d.Prepare(nil, []byte(text()), opts)
		if err != nil {
			t.Fatal(err)
		}
		set.Reset(a)
		hunks, err := d.BlameDiffFiles(nil, a, b, opts)
		if err != nil {
			t.Fatal(err)
		}
		changed := make([]bool, b.Lines())
		for _, h := range hunks {
			for j := h.NewStart; j < h.NewStart+h.NewCount; j++ {
				changed[j] = true
			}
		}
		for j := range b.Lines() {
			if !set.Has(b, j) {
				absent++
				if !changed[j] {
					t.Fatalf("-w %v: line %d (%q) of %q is unchanged in the diff with %q, but not in its set", opts.IgnoreWhitespace, j, b.Line(j), b.Data(), a.Data())
				}
			}
		}
	}
	if absent == 0 {
		t.Fatal("no line was ever absent from the set: the test checks nothing")
	}
}

// TestLineSetMembership: the set holds exactly the lines of its File
// (equal bytes, newline included; under -w equal but whitespace), forgets
// them on Reset, and answers true for a File it cannot judge.
func TestLineSetMembership(t *testing.T) {
	d := NewDiffer()
	prep := func(s string, ws bool) *File {
		f, err := d.Prepare(nil, []byte(s), Options{IgnoreWhitespace: ws})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	var set LineSet
	a := prep("one\ntwo\nthree", false)
	set.Reset(a)
	b := prep("two\nfour\nthree\nthree", false)
	for j, want := range []bool{true, false, false, true} {
		if got := set.Has(b, j); got != want {
			t.Errorf("line %d %q: Has = %v, want %v", j, b.Line(j), got, want)
		}
	}
	set.Reset(prep("four\n", false))
	for j, want := range []bool{false, true, false, false} {
		if got := set.Has(b, j); got != want {
			t.Errorf("after Reset, line %d %q: Has = %v, want %v", j, b.Line(j), got, want)
		}
	}
	// Under -w a line and its respaced copy, or the last line without
	// its newline, are the same line.
	set.Reset(prep("t w o\nthree", true))
	bw := prep("two\nthree\nfour\n", true)
	for j, want := range []bool{true, true, false} {
		if got := set.Has(bw, j); got != want {
			t.Errorf("-w: line %d %q: Has = %v, want %v", j, bw.Line(j), got, want)
		}
	}
	// A File of the other table, of another Differ, or prepared before
	// the tables were started afresh: not judged.
	if !set.Has(b, 1) {
		t.Error("a File of the table without -w was judged by a set of the -w table")
	}
	other, err := NewDiffer().Prepare(nil, []byte("zzz\n"), Options{IgnoreWhitespace: true})
	if err != nil {
		t.Fatal(err)
	}
	if !set.Has(other, 0) {
		t.Error("a File of another Differ was judged")
	}
	var empty LineSet
	if !empty.Has(b, 0) {
		t.Error("an empty set that was never Reset judged a line")
	}
	d.Reset()
	fresh := prep("zzz\n", true)
	if !set.Has(fresh, 0) {
		t.Error("a File prepared after the tables were started afresh was judged by an older set")
	}
}
