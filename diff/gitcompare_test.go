package diff

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// testPair is one differential case: two files and where they came from.
type testPair struct {
	name string
	a, b []byte
}

// flagSet is one combination of options, with the git flags that select
// the same behaviour.
type flagSet struct {
	name string
	opts Options
	args []string
}

// gitFlagSets are the option combinations every pair is compared under.
func gitFlagSets(alg Algorithm) []flagSet {
	algArg := "--diff-algorithm=" + alg.String()
	return []flagSet{
		{"default", Options{IndentHeuristic: true, Algorithm: alg}, []string{algArg}},
		{"no-indent-heuristic", Options{Algorithm: alg}, []string{algArg, "--no-indent-heuristic"}},
		{"minimal", Options{IndentHeuristic: true, Minimal: true, Algorithm: alg}, []string{algArg, "--minimal"}},
		{"w", Options{IndentHeuristic: true, IgnoreWhitespace: true, Algorithm: alg}, []string{algArg, "-w"}},
	}
}

// gitHunks runs one git diff --no-index -U0 over all pairs (written to two
// directories) and returns the hunks of each pair, in callback terms:
// git 2.39.5's, from the goldens without git 2.39.x when golden is set,
// else git 2.39.x's own, or none (false) without it.
func gitHunks(t testing.TB, pairs []testPair, args []string, golden bool) ([][]Hunk, bool) {
	t.Helper()
	dir := t.TempDir()
	da, db := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, d := range []string{da, db} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range pairs {
		name := fmt.Sprintf("%06d", i)
		if err := os.WriteFile(filepath.Join(da, name), p.a, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(db, name), p.b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmdArgs := append([]string{"-c", "diff.interHunkContext=0", "diff", "--no-index", "--no-color", "--no-ext-diff", "--text", "-U0"}, args...)
	cmdArgs = append(cmdArgs, "a", "b")
	c := testgit.Case{Dir: dir, Format: oid.SHA1, Args: cmdArgs}
	var res testgit.Result
	switch {
	case golden:
		res = testgit.Golden(t).RunInFiles(c)
	case testgit.HaveTargetGit():
		var err error
		if res, err = testgit.Run(c.Dir, c.Format, nil, nil, "git", cmdArgs...); err != nil {
			t.Fatal(err)
		}
	default:
		return nil, false
	}
	if res.ExitCode != 0 && res.ExitCode != 1 {
		t.Fatalf("git %s: %s", strings.Join(cmdArgs, " "), res)
	}
	return parseGitDiff(t, res.Stdout, len(pairs)), true
}

// parseGitDiff splits git diff output per file and maps each hunk header
// "-s,c +s,c" back to xdiff's callback arguments: start = s-1 when c > 0,
// start = s when c == 0; a missing ",c" means 1.
func parseGitDiff(t testing.TB, out []byte, n int) [][]Hunk {
	t.Helper()
	res := make([][]Hunk, n)
	cur := -1
	for len(out) > 0 {
		line := out
		if i := bytes.IndexByte(out, '\n'); i >= 0 {
			line, out = out[:i], out[i+1:]
		} else {
			out = nil
		}
		switch {
		case bytes.HasPrefix(line, []byte("diff --git ")):
			f := strings.Fields(string(line))
			name := f[len(f)-1]
			idx, err := strconv.Atoi(name[strings.LastIndexByte(name, '/')+1:])
			if err != nil || idx >= n {
				t.Fatalf("unexpected diff header %q", line)
			}
			cur = idx
		case bytes.HasPrefix(line, []byte("@@ -")):
			if cur < 0 {
				t.Fatalf("hunk before any file header: %q", line)
			}
			h, err := parseHunkHeader(string(line))
			if err != nil {
				t.Fatal(err)
			}
			res[cur] = append(res[cur], h)
		}
	}
	return res
}

func parseHunkHeader(line string) (Hunk, error) {
	f := strings.Fields(line)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" {
		return Hunk{}, fmt.Errorf("bad hunk header %q", line)
	}
	os, oc, err := parseRange(strings.TrimPrefix(f[1], "-"))
	if err != nil {
		return Hunk{}, fmt.Errorf("bad hunk header %q: %v", line, err)
	}
	ns, nc, err := parseRange(strings.TrimPrefix(f[2], "+"))
	if err != nil {
		return Hunk{}, fmt.Errorf("bad hunk header %q: %v", line, err)
	}
	return Hunk{OldStart: os, OldCount: oc, NewStart: ns, NewCount: nc}, nil
}

func parseRange(s string) (start, count int, err error) {
	count = 1
	if i := strings.IndexByte(s, ','); i >= 0 {
		if count, err = strconv.Atoi(s[i+1:]); err != nil {
			return
		}
		s = s[:i]
	}
	if start, err = strconv.Atoi(s); err != nil {
		return
	}
	if count > 0 {
		start--
	}
	return
}

func hunksEqual(a, b []Hunk) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func formatHunks(hs []Hunk) string {
	var sb strings.Builder
	for _, h := range hs {
		sb.WriteString(h.String())
		sb.WriteByte('\n')
	}
	return sb.String()
}

// compareWithGit diffs every pair with goblame (the byte API and the
// prepared-file API) and with git under fs, and reports mismatches,
// writing a reproducer for the first few. It returns the number of
// comparisons made.
func compareWithGit(t *testing.T, d *Differ, pairs []testPair, fs flagSet, golden bool) int {
	t.Helper()
	want, ok := gitHunks(t, pairs, fs.args, golden)
	if !ok {
		return 0
	}
	failures := 0
	var got []Hunk
	for i, p := range pairs {
		got = d.BlameDiff(got, p.a, p.b, fs.opts)
		if err := d.Err(); err != nil {
			t.Errorf("%s [%s]: %v", p.name, fs.name, err)
			continue
		}
		if !hunksEqual(got, want[i]) {
			failures++
			if failures <= 5 {
				file := writeReproducer(t, p, fs, want[i])
				t.Errorf("%s [%s]: hunks differ from git (reproducer %s)\ngot:\n%swant:\n%s", p.name, fs.name, file, formatHunks(got), formatHunks(want[i]))
			}
			continue
		}
		// Where there is no common tail to trim, git ran plain xdl_diff:
		// Diff must give the same.
		if trimmedTail(p.a, p.b) == 0 {
			if got := d.Diff(nil, p.a, p.b, fs.opts); !hunksEqual(got, want[i]) {
				failures++
				t.Errorf("%s [%s]: Diff differs from git\ngot:\n%swant:\n%s", p.name, fs.name, formatHunks(got), formatHunks(want[i]))
			}
		}
		// The prepared-file API must agree with the byte API.
		fa, err := d.Prepare(nil, p.a, fs.opts)
		if err != nil {
			t.Fatal(err)
		}
		fb, err := d.PrepareNear(nil, p.b, fa, fs.opts)
		if err != nil {
			t.Fatal(err)
		}
		got2, err := d.BlameDiffFiles(nil, fa, fb, fs.opts)
		if err != nil || !hunksEqual(got2, want[i]) {
			failures++
			t.Errorf("%s [%s]: BlameDiffFiles differs from git (err %v)\ngot:\n%swant:\n%s", p.name, fs.name, err, formatHunks(got2), formatHunks(want[i]))
		}
	}
	if failures > 0 {
		t.Errorf("[%s] %d of %d pairs differ from git", fs.name, failures, len(pairs))
	}
	return len(pairs)
}
