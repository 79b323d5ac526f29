package posixre

import "testing"

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
		re, err := Compile(c.pat, Newline)
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
