package posixre

import (
	"math/rand"
	"strings"
	"testing"
)

func TestBasicRegexSemanticsAndErrors(t *testing.T) {
	text := []byte("abc\n(x|y)\na{2}\nxy\n")
	cases := []struct {
		pat        string
		start, end int
		ok         bool
		err        string
	}{
		{pat: `a(b`, ok: false},
		{pat: `(x|y)`, start: 4, end: 9, ok: true},
		{pat: `a{2}`, start: 10, end: 14, ok: true},
		{pat: `x\|y`, start: 5, end: 6, ok: true},
		{pat: `^x`, start: 15, end: 16, ok: true},
		{pat: `c$`, start: 2, end: 3, ok: true},
		{pat: `a\(b`, err: `Unmatched ( or \(`},
		{pat: `[a`, err: "Unmatched [, [^, [:, [., or [="},
		{pat: `a\`, err: "Trailing backslash"},
	}
	for _, c := range cases {
		re, err := Compile(c.pat, Newline, "C")
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %q", c.pat, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.pat, err)
			continue
		}
		s, e, ok := re.Find(text)
		if ok != c.ok || (ok && (s != c.start || e != c.end)) {
			t.Errorf("%q: got %d,%d,%v want %d,%d,%v", c.pat, s, e, ok, c.start, c.end, c.ok)
		}
		re.Free()
	}
}

// TestMatchSearchesWholeLine checks Match (regexec with REG_STARTEND, as
// git's regexec_buf) against Find (a C string, cut at the first NUL).
func TestMatchSearchesWholeLine(t *testing.T) {
	re, err := Compile(`^[a-z]+ after$`, Extended, "C")
	if err != nil {
		t.Fatal(err)
	}
	defer re.Free()
	line := []byte("nul\x00 after")
	if re.Match(line) {
		t.Errorf("Match(%q): a NUL is not a letter", line)
	}
	re2, err := Compile(`after$`, Extended, "C")
	if err != nil {
		t.Fatal(err)
	}
	defer re2.Free()
	if !re2.Match(line) {
		t.Errorf("Match(%q): the text after the NUL is searched", line)
	}
	if _, _, ok := re2.Find(line); ok {
		t.Errorf("Find(%q): the C string ends at the NUL", line)
	}
	if !re2.Match([]byte("just after")) || re2.Match([]byte("after all")) {
		t.Error("Match on plain lines")
	}
}

// TestRequiredLiteralChangesNoAnswer: the literal every match takes
// (requiredLiteral) only turns subjects away that the machine would
// not match: random patterns and subjects, in the C and UTF-8 modes,
// with and without the prefilter, give the same Match and Find.
// (TestEngineMatchesCLibrary, in cgo builds, holds both against glibc.)
func TestRequiredLiteralChangesNoAnswer(t *testing.T) {
	pat := []string{"a", "b", "ab", "é", "€", "\xff", "\xc3", "\xa9", ".", "*", "x", "(", ")", `\(`, `\)`, "|", "^", "$", "[ab]", `\1`, `\<`, "+", "?"}
	subj := []string{"a", "b", "ab", "aab", "é", "€", "\xff", "\xc3", "\xa9", "\xc3\xa9", "x", "\n", " ", "\x00"}
	rng := rand.New(rand.NewSource(7))
	build := func(pieces []string, n int) string {
		var b strings.Builder
		for range rng.Intn(n + 1) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		return b.String()
	}
	checked := 0
	for range 4000 {
		p := build(pat, 6)
		for _, utf8Mode := range []bool{false, true} {
			for _, flags := range []int{0, Extended, Newline} {
				e, err := compileEngine(p, flags, utf8Mode)
				if err != nil || e.lit == nil {
					continue
				}
				plain := *e
				plain.lit = nil
				for range 20 {
					s := []byte(build(subj, 8))
					if e.match(s) != plain.match(s) {
						t.Fatalf("%q (utf8 %v, flags %d) on %q: Match %v with the literal %q, %v without", p, utf8Mode, flags, s, e.match(s), e.lit, plain.match(s))
					}
					s1, e1, ok1 := e.find(s)
					s2, e2, ok2 := plain.find(s)
					if s1 != s2 || e1 != e2 || ok1 != ok2 {
						t.Fatalf("%q (utf8 %v, flags %d) on %q: Find %d,%d,%v with the literal %q, %d,%d,%v without", p, utf8Mode, flags, s, s1, e1, ok1, e.lit, s2, e2, ok2)
					}
					checked++
				}
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d comparisons had a literal to check", checked)
	}
}
