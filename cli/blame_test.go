package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// runGoblame runs the command in-process with the hermetic environment
// of testgit, as the real git is run next to it.
func runGoblame(dir string, format oid.Format, stdin []byte, extra []string, args ...string) testgit.Result {
	return runGoblameAt(dir, format, stdin, extra, time.Now, args...)
}

// runGoblameAt is runGoblame with the clock now (the time of an
// uncommitted line).
func runGoblameAt(dir string, format oid.Format, stdin []byte, extra []string, now func() time.Time, args ...string) testgit.Result {
	var stdout, stderr bytes.Buffer
	env := testEnviron(dir, testgit.Env(format, extra...), stdin, &stdout, &stderr)
	env.Now = now
	code := Main(args, env)
	return testgit.Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), ExitCode: code}
}

// testEnviron is an in-process run's Environ: in dir, with the
// environment envList only, stdin as its input and its output in
// stdout and stderr.
func testEnviron(dir string, envList []string, stdin []byte, stdout, stderr *bytes.Buffer) Environ {
	m := map[string]string{}
	for _, kv := range envList {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return Environ{
		Dir:       dir,
		Getenv:    func(k string) string { return m[k] },
		LookupEnv: func(k string) (string, bool) { v, ok := m[k]; return v, ok },
		Env:       envList,
		Stdin:     bytes.NewReader(stdin),
		Stdout:    stdout,
		Stderr:    stderr,
		Now:       time.Now,
	}
}

// compareWithGit runs goblame with args in dir and compares its standard
// output, standard error and exit status with git 2.39.5's for git blame
// with the same arguments: git's own when git 2.39.x is installed (checked
// against the test's golden file), the golden file's otherwise (see
// internal/testgit's goldens).
func compareWithGit(t *testing.T, dir string, format oid.Format, stdin []byte, extra []string, args ...string) {
	t.Helper()
	c := testgit.Case{Dir: dir, Format: format, Stdin: stdin, Env: extra, Args: append([]string{"blame"}, args...)}
	compareRun(t, c, false, "goblame "+strings.Join(shellArgs(args), " "), func() testgit.Result {
		return runGoblame(dir, format, stdin, extra, args...)
	})
}

// compareWithLiveGit is compareWithGit for the cases that need git
// 2.39.x itself and are not compared without it: blames of lines not
// committed yet, which git dates with the current time.
func compareWithLiveGit(t *testing.T, dir string, format oid.Format, stdin []byte, extra []string, args ...string) {
	t.Helper()
	c := testgit.Case{Dir: dir, Format: format, Stdin: stdin, Env: extra, Args: append([]string{"blame"}, args...)}
	compareRun(t, c, true, "goblame "+strings.Join(shellArgs(args), " "), func() testgit.Result {
		return runGoblame(dir, format, stdin, extra, args...)
	})
}

// compareRun compares what run gives with git 2.39.5's result for the
// case c: from the golden file or git itself (compareWithGit), or, when
// live, from git 2.39.x itself only, skipped without it. Output that
// names the current time can straddle a second, so a live mismatch is
// retried (up to ten times: on a machine busy with the other packages'
// tests one run pair in three or more can straddle one).
func compareRun(t *testing.T, c testgit.Case, live bool, what string, run func() testgit.Result) {
	t.Helper()
	g := testgit.Golden(t)
	for attempt := 0; ; attempt++ {
		var want testgit.Result
		if live {
			var ok bool
			if want, ok = g.Live(c); !ok {
				return
			}
		} else {
			want = g.Run(c)
		}
		got := run()
		if bytes.Equal(got.Stdout, want.Stdout) && bytes.Equal(got.Stderr, want.Stderr) && got.ExitCode == want.ExitCode {
			return
		}
		if live && attempt < 10 && (bytes.Contains(want.Stdout, []byte("Not Committed Yet")) || bytes.Contains(want.Stdout, []byte("not.committed.yet"))) {
			continue
		}
		t.Errorf("%s (in %s, env %q):\n%s", what, c.Dir, c.Env, describeDiff(got, want))
		return
	}
}

func shellArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"") {
			out[i] = fmt.Sprintf("%q", a)
		} else {
			out[i] = a
		}
	}
	return out
}

// describeDiff shows the first differing line of each stream.
func describeDiff(got, want testgit.Result) string {
	var b strings.Builder
	if got.ExitCode != want.ExitCode {
		fmt.Fprintf(&b, "exit %d, want %d\n", got.ExitCode, want.ExitCode)
	}
	for _, s := range []struct {
		name      string
		got, want []byte
	}{{"stdout", got.Stdout, want.Stdout}, {"stderr", got.Stderr, want.Stderr}} {
		if bytes.Equal(s.got, s.want) {
			continue
		}
		gl := strings.SplitAfter(string(s.got), "\n")
		wl := strings.SplitAfter(string(s.want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				fmt.Fprintf(&b, "%s line %d:\n  got  %q\n  want %q\n", s.name, i+1, g, w)
				break
			}
		}
		fmt.Fprintf(&b, "%s: got %d bytes, want %d\n", s.name, len(s.got), len(s.want))
	}
	return b.String()
}

// fixtureDirs builds a scripted repository for both formats (skipping
// the test when no git is installed).
func fixtureDirs(t *testing.T, name, script string) map[oid.Format]string {
	t.Helper()
	testgit.Golden(t) // skips without git
	dirs := map[oid.Format]string{}
	for _, f := range testgit.Formats {
		dirs[f] = filepath.Join(testgit.Fixture(t, "cli-"+name, f, script), "r")
	}
	return dirs
}
