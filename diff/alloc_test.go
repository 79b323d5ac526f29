package diff

import (
	"bytes"
	"fmt"
	"github.com/goblame/goblame/internal/testgit"
	"testing"
)

// Allocation budgets: once a Differ has warmed up on inputs of a given
// size, diffing (prepared Files or bytes) allocates nothing, and
// re-preparing a File whose lines are all known allocates nothing.
func TestAllocationBudgets(t *testing.T) {
	g := newPairGen(1)
	a, b := g.pair("medium")
	ca, cb := g.pair("code")
	for _, alg := range []Algorithm{Myers, Histogram, Patience} {
		opts := Options{IndentHeuristic: true, Algorithm: alg}
		d := NewDiffer()
		fa, _ := d.Prepare(nil, a, opts)
		fb, _ := d.PrepareNear(nil, b, fa, opts)
		dst, _ := d.BlameDiffFiles(nil, fa, fb, opts)
		dst = d.BlameDiff(dst, a, b, opts)
		dst = d.BlameDiff(dst, ca, cb, opts)
		if n := testing.AllocsPerRun(20, func() {
			dst, _ = d.BlameDiffFiles(dst, fa, fb, opts)
		}); n != 0 {
			t.Errorf("%s: BlameDiffFiles allocates %v times per call", alg, n)
		}
		if n := testing.AllocsPerRun(20, func() {
			dst, _ = d.DiffFiles(dst, fa, fb, opts)
		}); n != 0 {
			t.Errorf("%s: DiffFiles allocates %v times per call", alg, n)
		}
		if n := testing.AllocsPerRun(20, func() {
			dst = d.BlameDiff(dst, a, b, opts)
			dst = d.BlameDiff(dst, ca, cb, opts)
		}); n != 0 {
			t.Errorf("%s: BlameDiff allocates %v times per call", alg, n)
		}
		// More blobs than the byte API remembers: every call prepares
		// again, into reused buffers.
		blobs := [][]byte{a, b, ca, cb, append([]byte("x\n"), a...), append([]byte("y\n"), b...)}
		for _, x := range blobs {
			for _, y := range blobs {
				dst = d.BlameDiff(dst, x, y, opts)
			}
		}
		if n := testing.AllocsPerRun(5, func() {
			for i := range blobs {
				dst = d.BlameDiff(dst, blobs[i], blobs[(i+3)%len(blobs)], opts)
			}
		}); n != 0 {
			t.Errorf("%s: BlameDiff on changing blobs allocates %v times per call", alg, n)
		}
		if n := testing.AllocsPerRun(20, func() {
			d.PrepareNear(fb, b, fa, opts)
		}); n != 0 {
			t.Errorf("%s: PrepareNear of known lines allocates %v times per call", alg, n)
		}
		if len(dst) == 0 {
			t.Fatal("the pair has no changes; the budget test measured nothing")
		}
	}
}

// TestPrepareNearMatchesPrepare checks that borrowing ids from a nearby
// File gives exactly the lines and ids that preparing from scratch gives.
func TestPrepareNearMatchesPrepare(t *testing.T) {
	g := newPairGen(testSeed(t))
	d := NewDiffer()
	kinds := []string{"small", "move", "dup", "code", "ws", "crlf", "bytes", "tail"}
	cases := [][2][]byte{
		{[]byte("a\nb"), []byte("a\nb\n")},
		{[]byte("a\nb\n"), []byte("a\nb")},
		{[]byte("a\nb"), []byte("a\nbc")},
		{[]byte("x\na\n"), []byte("a\n")},
		{[]byte("a\n"), []byte("xa\n")},
		{[]byte("ab\ncd\n"), []byte("ab\nxcd\n")},
		{[]byte(""), []byte("a")},
		{[]byte("a\n"), []byte("")},
		{[]byte("same\n"), []byte("same\n")},
		{[]byte("\n\n\n"), []byte("\n\n")},
	}
	for i := 0; i < 400; i++ {
		a, b := g.pair(kinds[i%len(kinds)])
		cases = append(cases, [2][]byte{a, b})
	}
	for _, ws := range []bool{false, true} {
		opts := Options{IgnoreWhitespace: ws}
		for _, c := range cases {
			near, _ := d.Prepare(nil, c[0], opts)
			got, _ := d.PrepareNear(nil, c[1], near, opts)
			want, _ := d.Prepare(nil, c[1], opts)
			if got.Lines() != want.Lines() {
				t.Fatalf("near %q, data %q: %d lines, want %d", c[0], c[1], got.Lines(), want.Lines())
			}
			for i := range want.ids {
				if got.ids[i] != want.ids[i] || !bytes.Equal(got.Line(i), want.Line(i)) {
					t.Fatalf("near %q, data %q: line %d is %q/%d, want %q/%d", c[0], c[1], i, got.Line(i), got.ids[i], want.Line(i), want.ids[i])
				}
			}
		}
	}
}

// TestForeignFiles checks that Files from another Differ, another
// whitespace mode or before a Reset are refused.
func TestForeignFiles(t *testing.T) {
	d1, d2 := NewDiffer(), NewDiffer()
	exact := Options{}
	ws := Options{IgnoreWhitespace: true}
	a, _ := d1.Prepare(nil, []byte("a\n"), exact)
	b, _ := d1.Prepare(nil, []byte("b\n"), exact)
	if _, err := d1.DiffFiles(nil, a, b, exact); err != nil {
		t.Fatalf("same Differ: %v", err)
	}
	if _, err := d2.DiffFiles(nil, a, b, exact); err != ErrForeignFile {
		t.Errorf("other Differ: got %v", err)
	}
	if _, err := d1.DiffFiles(nil, a, b, ws); err != ErrForeignFile {
		t.Errorf("other whitespace mode: got %v", err)
	}
	d1.Reset()
	if _, err := d1.BlameDiffFiles(nil, a, b, exact); err != ErrForeignFile {
		t.Errorf("after Reset: got %v", err)
	}
}

func TestCommonPrefixSuffix(t *testing.T) {
	g := newPairGen(3)
	for i := 0; i < 3000; i++ {
		n := g.n(700)
		a := make([]byte, n)
		for j := range a {
			a[j] = byte('a' + g.n(2))
		}
		b := append([]byte(nil), a...)
		if len(b) > 0 && g.n(4) > 0 {
			b[g.n(len(b))] = 'z'
		}
		b = b[:len(b)-g.n(min(len(b), 3)+1)]
		wantP, wantS := 0, 0
		for wantP < min(len(a), len(b)) && a[wantP] == b[wantP] {
			wantP++
		}
		for wantS < min(len(a), len(b)) && a[len(a)-1-wantS] == b[len(b)-1-wantS] {
			wantS++
		}
		if p := commonPrefix(a, b); p != wantP {
			t.Fatalf("commonPrefix(%q, %q) = %d, want %d", a, b, p, wantP)
		}
		if s := commonSuffix(a, b); s != wantS {
			t.Fatalf("commonSuffix(%q, %q) = %d, want %d", a, b, s, wantS)
		}
	}
}

// TestFirstLargePrepareSizesOnce: a fresh Differ preparing a large text
// sizes its line table and the File once for the text's lines instead of
// growing them line by line (lineTable.reserve): 10 allocations, where
// growing took 127 (the slot table doubled and rehashed six times, the
// arena and the per-line slices each grew a dozen times and more). The
// result is the same either way.
func TestFirstLargePrepareSizesOnce(t *testing.T) {
	testgit.SkipUnderRace(t)
	var text bytes.Buffer
	for i := range 30000 {
		fmt.Fprintf(&text, "line %d of a large file\n", i)
	}
	data := text.Bytes()
	var f *File
	n := testing.AllocsPerRun(5, func() {
		d := NewDiffer()
		var err error
		if f, err = d.Prepare(nil, data, Options{}); err != nil {
			t.Fatal(err)
		}
	})
	if f.Lines() != 30000 || !bytes.Equal(f.Line(29999), []byte("line 29999 of a large file\n")) {
		t.Fatalf("prepared %d lines, the last %q", f.Lines(), f.Line(f.Lines()-1))
	}
	// NewDiffer, the table and its first slots, the File, its ends and
	// ids, the reserved slots, arena, hashes and offsets.
	if n > 12 {
		t.Errorf("preparing a 30,000-line text on a fresh Differ allocates %v times; want at most 12", n)
	}
	// Every line is distinct: ids 0..29999 in order.
	for i := range f.Lines() {
		if f.ids[i] != uint32(i) {
			t.Fatalf("line %d has id %d", i, f.ids[i])
		}
	}
}

// TestRepetitiveLargePrepareReservesLittle: a huge text of few distinct
// lines (a million copies of two) reserves no more than reserve's caps in
// the line table, which keeps what it has for the Differ's life.
func TestRepetitiveLargePrepareReservesLittle(t *testing.T) {
	data := bytes.Repeat([]byte("same\nother line\n"), 500000)
	d := NewDiffer()
	f, err := d.Prepare(nil, data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Lines() != 1000000 || f.ids[0] == f.ids[1] || f.ids[2] != f.ids[0] {
		t.Fatalf("prepared %d lines, ids %v", f.Lines(), f.ids[:3])
	}
	tab := d.table(false)
	if tab.count() != 2 {
		t.Fatalf("%d ids for two distinct lines", tab.count())
	}
	if len(tab.slots) > 4*reserveMaxLines || tab.arena.capacity() > reserveMaxBytes+reserveMaxBytes/4 {
		t.Errorf("the table holds %d slots and a %d-byte arena for two ids", len(tab.slots), tab.arena.capacity())
	}
}
