package cquote

import "testing"

func TestUnquote(t *testing.T) {
	cases := []struct {
		in  string
		out string
		n   int
		ok  bool
	}{
		{`"a\tb" rest`, "a\tb", 6, true},
		{`"caf\303\251"`, "café", 13, true},
		{`"q\"\\"`, `q"\`, 7, true},
		{`"\a\b\f\n\r\v"`, "\a\b\f\n\r\v", 14, true},
		{`"unterminated`, "", 0, false},
		{`"bad\x"`, "", 0, false},
		{`"oct\4"`, "", 0, false},
		{`plain`, "", 0, false},
		{`"ends with \`, "", 0, false},
	}
	for _, c := range cases {
		out, n, ok := Unquote([]byte(c.in))
		if ok != c.ok || (ok && (string(out) != c.out || n != c.n)) {
			t.Errorf("Unquote(%q) = %q, %d, %v; want %q, %d, %v", c.in, out, n, ok, c.out, c.n, c.ok)
		}
	}
}
