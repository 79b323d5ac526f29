package repo

import "testing"

// TestRemoveLeadingPath: git's remove_leading_path, on the cases of its
// own comments and git's t0060 (prefix runs of "/" match one; "/foo"
// does not lead "/foobar"; nothing left is ".").
func TestRemoveLeadingPath(t *testing.T) {
	for _, c := range []struct{ in, prefix, want string }{
		{"/foo", "/foo", "."},
		{"/foo/", "/foo", "."},
		{"/foo/bar", "/foo", "bar"},
		{"/foo/bar", "/foo/", "bar"},
		{"//foo//bar", "/foo", "bar"},
		{"/foo//bar", "//foo", "bar"},
		{"/foobar", "/foo", "/foobar"},
		{"/fo", "/foo", "/fo"},
		{"/a/./r/.git", "/a/r", "/a/./r/.git"},
		{"/a/r/sub/../.git", "/a/r", "sub/../.git"},
		{"rel/x", "", "rel/x"},
	} {
		if got := removeLeadingPath(c.in, c.prefix); got != c.want {
			t.Errorf("removeLeadingPath(%q, %q) = %q, want %q", c.in, c.prefix, got, c.want)
		}
	}
}
