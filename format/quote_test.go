// Tests of QuotePath against git ls-files and the filename/previous lines
// of git blame --porcelain, for file names holding every byte a name can
// hold, with core.quotePath true and false.

package format

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// quoteNames are file names with every kind of byte quote_c_style treats
// specially. The last one holds every byte a file name can hold.
var quoteNames = func() []string {
	names := []string{
		"plain.txt",
		"with space.txt",
		"ta\tb.txt",
		"quote\"d.txt",
		"back\\slash.txt",
		"new\nline.txt",
		"ctrl\x01\x02\x1b\x1f.txt",
		"del\x7f.txt",
		"bell\a bs\b vt\v ff\f cr\r.txt",
		"caf\xc3\xa9.txt",
		"\xe6\x97\xa5\xe6\x9c\xac.txt",
		"bad\xff\xfe.txt",
		"ta\tb\xc3\xa9\"q.txt",
		"-dash",
		"'single'",
		"?*[glob]",
		"dir/sub dir/f\tile",
	}
	var all []byte
	for c := 1; c < 256; c++ {
		if c != '/' {
			all = append(all, byte(c))
		}
	}
	return append(names, string(all))
}()

func quoteFixtureScript() string {
	var b strings.Builder
	b.WriteString("git init -q\n")
	for i, name := range quoteNames {
		if dir, _, ok := strings.Cut(name, "/sub dir/"); ok {
			fmt.Fprintf(&b, "mkdir -p %s\n", shellQuote(dir+"/sub dir"))
		}
		fmt.Fprintf(&b, "echo 'one %d' >%s\n", i, shellQuote(name))
	}
	b.WriteString("commit_all one\n")
	for i, name := range quoteNames {
		fmt.Fprintf(&b, "echo 'two %d' >>%s\n", i, shellQuote(name))
	}
	b.WriteString("commit_all two\n")
	return b.String()
}

// TestQuotePathAgainstGit compares QuotePath with git ls-files and with
// the filename and previous lines of git blame --porcelain, for
// core.quotePath true and false.
func TestQuotePathAgainstGit(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	git := func(dir string, format oid.Format, args ...string) string {
		t.Helper()
		res := g.Run(testgit.Case{Dir: dir, Format: format, Args: args})
		if res.ExitCode != 0 {
			t.Fatalf("git %q: %s", args, res)
		}
		return string(res.Stdout)
	}
	compared := 0
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "format-quote-names", format, quoteFixtureScript())
		for _, quotePath := range []bool{true, false} {
			cfg := fmt.Sprintf("core.quotePath=%v", quotePath)
			out := git(dir, format, "-c", cfg, "ls-files")
			var want []string
			for _, name := range quoteNames {
				want = append(want, string(QuotePath(nil, []byte(name), quotePath)))
			}
			got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			// ls-files sorts by name; compare as sets of lines.
			if !sameLines(got, want) {
				t.Errorf("%s %s: git ls-files:\n%q\nQuotePath:\n%q", format, cfg, got, want)
			}
			compared += len(want)
			for _, name := range quoteNames {
				blame := git(dir, format, "-c", cfg, "blame", "--porcelain", "main", "--", name)
				quoted := QuotePath(nil, []byte(name), quotePath)
				var filename, previous []byte
				for _, line := range bytes.Split([]byte(blame), []byte("\n")) {
					if rest, ok := bytes.CutPrefix(line, []byte("filename ")); ok && filename == nil {
						filename = rest
					}
					if rest, ok := bytes.CutPrefix(line, []byte("previous ")); ok && previous == nil {
						_, previous, _ = bytes.Cut(rest, []byte(" "))
					}
				}
				compared += 2
				if !bytes.Equal(filename, quoted) || !bytes.Equal(previous, quoted) {
					t.Errorf("%s %s %q: git filename %q previous %q; QuotePath %q", format, cfg, name, filename, previous, quoted)
				}
			}
		}
	}
	t.Logf("compared %d quoted paths with git", compared)
}

func sameLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := map[string]int{}
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		count[s]--
		if count[s] < 0 {
			return false
		}
	}
	return true
}

func TestQuotePathKnown(t *testing.T) {
	for _, c := range []struct {
		in        string
		quotePath bool
		want      string
	}{
		{"file", true, "file"},
		{"with space", true, "with space"},
		{"ta\tb\xc3\xa9\"q.txt", true, `"ta\tb\303\251\"q.txt"`},
		{"ta\tb\xc3\xa9\"q.txt", false, "\"ta\\tb\xc3\xa9\\\"q.txt\""},
		{"caf\xc3\xa9", false, "caf\xc3\xa9"},
		{"\a\b\t\n\v\f\r\\\"", true, `"\a\b\t\n\v\f\r\\\""`},
		{"\x01\x1b\x7f", false, `"\001\033\177"`},
		{"nul\x00", true, `"nul\000"`},
		{"", true, ""},
	} {
		if got := string(QuotePath([]byte("prefix "), []byte(c.in), c.quotePath)); got != "prefix "+c.want {
			t.Errorf("QuotePath(%q, %v) = %q, want %q", c.in, c.quotePath, got, "prefix "+c.want)
		}
		if NeedsQuoting([]byte(c.in), c.quotePath) != (c.want != c.in) {
			t.Errorf("NeedsQuoting(%q, %v) disagrees with QuotePath", c.in, c.quotePath)
		}
	}
}

func TestQuotePathAllocations(t *testing.T) {
	buf := make([]byte, 0, 64)
	path := []byte("dir/caf\xc3\xa9\tname.txt")
	if a := testing.AllocsPerRun(100, func() { buf = QuotePath(buf[:0], path, true) }); a != 0 {
		t.Errorf("QuotePath allocates %.1f times", a)
	}
}

// FuzzQuotePath checks that with core.quotePath the quoted form is ASCII
// and reads back (as a Go string literal, whose escapes are C's) to the
// path, and that without it ASCII paths quote the same and paths that
// need no quoting stay as they are.
func FuzzQuotePath(f *testing.F) {
	for _, name := range quoteNames {
		f.Add([]byte(name))
	}
	f.Fuzz(func(t *testing.T, path []byte) {
		q := QuotePath(nil, path, true)
		if !NeedsQuoting(path, true) {
			if !bytes.Equal(q, path) {
				t.Fatalf("%q needs no quoting but became %q", path, q)
			}
			return
		}
		for _, c := range q {
			if c < 0x20 || c >= 0x7f {
				t.Fatalf("QuotePath(%q) = %q has byte %#x", path, q, c)
			}
		}
		back, err := strconv.Unquote(string(q))
		if err != nil || back != string(path) {
			t.Fatalf("QuotePath(%q) = %q reads back as %q, %v", path, q, back, err)
		}
		q2 := QuotePath(nil, path, false)
		ascii := true
		for _, c := range path {
			ascii = ascii && c < 0x80
		}
		if ascii && !bytes.Equal(q, q2) || !NeedsQuoting(path, false) && !bytes.Equal(q2, path) {
			t.Fatalf("QuotePath(%q, false) = %q, with quotePath %q", path, q2, q)
		}
	})
}
