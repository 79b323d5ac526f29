package gitpath

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRealPath: strbuf_realpath's answers, as git 2.39.5's
// "test-tool path-utils real_path" gave them for the same tree (a
// directory d/e, a symbolic link ln -> d, a file f): symbolic links
// resolved component by component, ".." applied to the resolved prefix,
// only a last component may be missing — one before a trailing "/" is
// not the last.
func TestRealPath(t *testing.T) {
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(top, "d", "e"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d", filepath.Join(top, "ln")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(top, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want, err string }{
		{top + "/d", top + "/d", ""},
		{top + "/missing", top + "/missing", ""},
		{top + "/missing/", "", "Invalid path '" + top + "/missing': No such file or directory"},
		{top + "/missing/x", "", "Invalid path '" + top + "/missing': No such file or directory"},
		{top + "/ln/e", top + "/d/e", ""},
		{top + "/ln/../f", top + "/f", ""},
		{top + "/d/e/../../f", top + "/f", ""},
		{top + "//d///e/", top + "/d/e", ""},
		{top + "/f/x", "", "Invalid path '" + top + "/f/x': Not a directory"},
		{"d/e/..", top + "/d", ""},
		{"ln/missing", top + "/d/missing", ""},
		{"ln/missing/", "", "Invalid path '" + top + "/d/missing': No such file or directory"},
		{"", "", "The empty string is not a valid path"},
	} {
		got, err := RealPath(c.path, top, false)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("RealPath(%q) = %q, %v; want error %q", c.path, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("RealPath(%q) = %q, %v; want %q", c.path, got, err, c.want)
		}
	}
	// Many missing components are allowed on request.
	if got, err := RealPath(top+"/a/b/", top, true); err != nil || got != top+"/a/b" {
		t.Errorf("RealPath(a/b/, manyMissing) = %q, %v", got, err)
	}
}
