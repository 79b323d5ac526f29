package repo

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dieText is what git's die() prints for msg: control characters other
// than tab and newline become '?' (usage.c's vreportf).
func dieText(msg string) string {
	b := []byte(msg)
	for i, c := range b {
		if (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' {
			b[i] = '?'
		}
	}
	return string(b)
}

// shellWrite is a fixture-script line that writes content, any bytes,
// to path (relative to the script's directory): printf with every byte
// but letters and digits as an octal escape.
func shellWrite(path, content string) string {
	var b strings.Builder
	b.WriteString("printf '")
	for i := 0; i < len(content); i++ {
		c := content[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "\\%03o", c)
		}
	}
	b.WriteString("' >" + path + "\n")
	return b.String()
}

// withoutStatData drops the stat lines of git ls-files --debug (ctime,
// mtime, dev and ino, uid and gid): they are the fixture files' on the
// machine that built it, so a golden output from another machine holds
// other values.
// gitIndexResult is gitResult for a git ls-files --debug listing, whose
// times and device, inode and owner numbers are the fixture's on this
// machine: the golden keeps the listing without them.
func gitIndexResult(t *testing.T, dir string, f oid.Format, args ...string) string {
	t.Helper()
	stable := func(r testgit.Result) testgit.Result {
		r.Stdout = []byte(withoutStatData(string(r.Stdout)))
		return r
	}
	res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: args, Stable: stable})
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", res.ExitCode, res.Stdout, res.Stderr)
}

// withoutStatData is an ls-files --debug listing without what depends on
// when and where the fixture was built: the stat lines, and the
// CE_UPDATE_IN_BASE flag (1<<27), which a split index sets on the
// entries git smudged as racily clean (their files written in the same
// second as the index).
func withoutStatData(s string) string {
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if strings.HasPrefix(l, "  ctime: ") || strings.HasPrefix(l, "  mtime: ") || strings.HasPrefix(l, "  dev: ") || strings.HasPrefix(l, "  uid: ") {
			continue
		}
		if rest, ok := strings.CutPrefix(l, "  size: "); ok {
			if size, flags, ok := strings.Cut(strings.TrimSuffix(rest, "\n"), "\tflags: "); ok {
				if f, err := strconv.ParseUint(flags, 16, 32); err == nil {
					l = fmt.Sprintf("  size: %s\tflags: %x\n", size, f&^(1<<27))
				}
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "")
}
