package repo

import "testing"

func TestWildmatch(t *testing.T) {
	const (
		P  = wmPathname
		C  = wmCasefold
		PC = wmPathname | wmCasefold
	)
	cases := []struct {
		pattern, text string
		flags         int
		want          bool
	}{
		{"abc", "abc", 0, true},
		{"abc", "abd", 0, false},
		{"", "", 0, true},
		{"a?c", "abc", P, true},
		{"a?c", "a/c", P, false},
		{"a?c", "a/c", 0, true},
		{"*", "abc", P, true},
		{"*", "a/c", P, false},
		{"*", "a/c", 0, true},
		{"*.c", "dir/x.c", P, false},
		{"*.c", "dir/x.c", 0, true},
		{"**/x.c", "x.c", P, true},
		{"**/x.c", "a/b/x.c", P, true},
		{"a/**/b", "a/b", P, true},
		{"a/**/b", "a/x/y/b", P, true},
		{"a/**", "a/x/y", P, true},
		{"a/**", "a", P, false},
		{"a**b", "a/x/b", P, false},
		{"a**b", "axxb", P, true},
		{"a/*/b", "a/x/b", P, true},
		{"a/*/b", "a/x/y/b", P, false},
		{"a/*", "a/x/y", P, false},
		{"*/b", "a/b", P, true},
		{"foo\\*", "foo*", 0, true},
		{"foo\\*", "foox", 0, false},
		{"\\A", "a", C, false},
		{"A", "a", C, true},
		{"[abc]", "b", 0, true},
		{"[!abc]", "b", 0, false},
		{"[^abc]", "d", 0, true},
		{"[a-c]x", "bx", 0, true},
		{"[a-c]x", "dx", 0, false},
		{"[A-Z]", "q", C, true},
		{"[B]", "b", C, false},
		{"[]]", "]", 0, true},
		{"[!]]", "a", 0, true},
		{"[a-]", "-", 0, true},
		{"[[:digit:]x]", "5", 0, true},
		{"[[:alpha:]]", "5", 0, false},
		{"[[:upper:]]", "a", C, true},
		{"[[:bogus:]]", "a", 0, false},
		{"[[:space:]]", "\t", 0, true},
		{"[[:punct:]]", "!", 0, true},
		{"[/]", "/", P, false},
		{"[/]", "/", 0, true},
		{"[abc", "a", 0, false},
		{"*[al]?", "ball", 0, true},
		{"*ob*a*r*", "foobar", 0, true},
		{"*ab", "aaaaaaabababab", 0, true},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-m-70-iso8859-1", 0, true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", P, false},
		{"foo/**/bar", "foo/bar", PC, true},
		{"FOO/**", "foo/x", PC, true},
		{"*/", "a/", P, true},
		{"a\\", "a", 0, false},
	}
	for _, c := range cases {
		if got := wildmatch(c.pattern, c.text, c.flags); got != c.want {
			t.Errorf("wildmatch(%q, %q, %d) = %v, want %v", c.pattern, c.text, c.flags, got, c.want)
		}
	}
}
