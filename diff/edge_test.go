package diff

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// edgePairs are hand-made pairs at the corners of the line model and the
// tail trim.
func edgePairs() []testPair {
	rep := func(s string, n int) string { return strings.Repeat(s, n) }
	long := func(c byte, n int) string { return string(bytes.Repeat([]byte{c}, n)) }
	var lines1k strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&lines1k, "line %d\n", i)
	}
	l1k := lines1k.String()
	cases := []struct{ name, a, b string }{
		{"both-empty", "", ""},
		{"empty-vs-newline", "", "\n"},
		{"newline-vs-empty", "\n", ""},
		{"noeol-vs-eol", "x", "x\n"},
		{"eol-vs-noeol", "x\n", "x"},
		{"only-newlines", rep("\n", 50), rep("\n", 49)},
		{"cr-only-endings", "a\rb\rc\r", "a\rb\rd\r"},
		{"crlf-vs-lf", "a\r\nb\r\nc\r\n", "a\nb\nc\n"},
		{"nul-bytes", "a\x00b\nc\n", "a\x00c\nc\n"},
		{"long-line-tail-no-newline", "x\n" + long('a', 5000), "y\n" + long('a', 5000)},
		{"long-line-tail-with-newline", "x\n" + long('a', 5000) + "\n", "y\n" + long('a', 5000) + "\n"},
		{"tail-exact-block", "head1\n" + long('b', 1023) + "\n", "head2\n" + long('b', 1023) + "\n"},
		{"tail-block-plus-one", "h\n" + long('c', 1024) + "\n", "i\n" + long('c', 1024) + "\n"},
		{"tail-newline-at-cut", "a\n" + l1k, "b\n" + l1k},
		{"insert-before-tail", l1k, "new\n" + l1k},
		{"append-after-tail", l1k, l1k + "new\n"},
		{"dup-slides-to-tail", "a\nt\n" + rep("t\n", 600), "a\n" + rep("t\n", 600)},
		{"blank-runs", rep("x\n\n\n\n", 30), rep("x\n\n\n", 30)},
		{"indent-200", rep(" ", 250) + "x\n" + rep("\t", 40) + "y\n", rep(" ", 250) + "x\nz\n" + rep("\t", 40) + "y\n"},
		{"ws-only-lines", " \n\t\n\r\n", "\n\n\n\n"},
		{"vt-ff", "a\v\nb\f\n", "a\nb\n"},
		{"high-bytes", "\xff\xfe\n\xc3\xa9\n", "\xc3\xa9\n\xff\xfe\n"},
		{"one-line-each", "a\n", "b\n"},
		{"swap", "a\nb\n", "b\na\n"},
	}
	var out []testPair
	for _, c := range cases {
		out = append(out, testPair{name: "edge-" + c.name, a: []byte(c.a), b: []byte(c.b)})
	}
	return out
}

// TestEdgeCasesAgainstGit compares the hand-made pairs with git under
// every algorithm and option set.
func TestEdgeCasesAgainstGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	pairs := edgePairs()
	d := NewDiffer()
	n := 0
	for _, alg := range []Algorithm{Myers, Histogram, Patience} {
		for _, fs := range gitFlagSets(alg) {
			n += compareWithGit(t, d, pairs, fs, true)
		}
	}
	t.Logf("%d comparisons", n)
}

// TestTrimCommonTail checks the tail trim against its definition.
func TestTrimCommonTail(t *testing.T) {
	for _, p := range edgePairs() {
		a, b := TrimCommonTail(p.a, p.b)
		cut := len(p.a) - len(a)
		if len(p.b)-len(b) != cut || !bytes.Equal(p.a[len(a):], p.b[len(b):]) {
			t.Errorf("%s: cut %d/%d of different tails", p.name, cut, len(p.b)-len(b))
		}
		if cut > 0 && (a[len(a)-1] != '\n' || b[len(b)-1] != '\n') {
			t.Errorf("%s: kept parts do not end in a newline", p.name)
		}
	}
	a := []byte("x\n" + strings.Repeat("t\n", 1000))
	b := []byte("y\n" + strings.Repeat("t\n", 1000))
	ta, tb := TrimCommonTail(a, b)
	// 1 KiB blocks: 1024 bytes trimmed, then the line up to the first
	// newline of the cut region (it starts at a line boundary, so one
	// whole "t\n") is given back: 1022 bytes go.
	if len(a)-len(ta) != 1022 || len(b)-len(tb) != 1022 {
		t.Errorf("trimmed %d and %d bytes, want 1022", len(a)-len(ta), len(b)-len(tb))
	}
}
