package cquote

import "testing"

// TestSingleQuote checks the quoting of git's sq_quote_buf (quote.c): the
// expected strings are what git puts in GIT_CONFIG_PARAMETERS for
// "git -c <text>" (see cli's shim tests, which compare with git itself).
func TestSingleQuote(t *testing.T) {
	cases := []struct{ in, out string }{
		{"", "''"},
		{"core.abbrev", "'core.abbrev'"},
		{"it's", `'it'\''s'`},
		{"a!b", `'a'\!'b'`},
		{"''", `''\'''\'''`},
		{"sp ace\t\n", "'sp ace\t\n'"},
	}
	for _, c := range cases {
		if got := SingleQuote(c.in); got != c.out {
			t.Errorf("SingleQuote(%q) = %q, want %q", c.in, got, c.out)
		}
	}
}
