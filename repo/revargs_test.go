package repo

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// TestParseRevisionArgsMatchesGit compares the objects (and signs) that
// revision arguments name with git rev-parse's expansion of the same
// arguments, and the order and names with git's revision-machinery rules.
func TestParseRevisionArgsMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	cases := [][]string{
		{"main"}, {"^main"}, {"main~3..main"}, {"..main"}, {"main~3.."}, {"side...main"}, {"main...side"},
		{"main^@"}, {"HEAD^!"}, {"main~2^!"}, {"main^-"}, {"main^-2"}, {"main^-1"}, {"--not", "main~2", "main"},
		{"main", "--not", "side", "--not", "v1"}, {"^side", "main"}, {"v1..v1outer"}, {"v1outer^@"},
		{"main~3..main~1", "side"}, {"--not", "main~3..main"}, {"--not", "main^!"}, {"v1"}, {"treetag"},
		{"HEAD:f"}, {"v1^{commit}^@"}, {"main^@", "--not", "main^@"},
	}
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "revisions", f, revScript)
		dir := filepath.Join(root, "r")
		r, err := Discover(EnvFromList(dir, testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		rd := r.Objects.NewReader()
		for _, args := range cases {
			res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: append([]string{"rev-parse"}, args...)})
			want := strings.Fields(string(res.Stdout))
			revs, perr := r.ParseRevisionArgs(rd, args)
			if perr != nil {
				t.Errorf("%s %v: %v (git: %v)", f, args, perr, want)
				continue
			}
			var got []string
			for _, rv := range revs {
				s := rv.ID.String()
				if rv.Negative {
					s = "^" + s
				}
				got = append(got, s)
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s %v:\n got %v\nwant %v", f, args, got, want)
			}
		}
	}
}

// TestParseRevisionArgsOrder checks pending order and names against
// git's rules (rev-parse prints ranges in another order).
func TestParseRevisionArgsOrder(t *testing.T) {
	testgit.Golden(t) // skips without git
	root := testgit.Fixture(t, "revisions", testgit.Formats[0], revScript)
	dir := filepath.Join(root, "r")
	f := testgit.Formats[0]
	r, err := Discover(EnvFromList(dir, testgit.Env(f)))
	if err != nil {
		t.Fatal(err)
	}
	rd := r.Objects.NewReader()
	id := func(spec string) string { return strings.TrimSpace(testgit.Golden(t).Git(dir, f, "rev-parse", spec)) }
	cases := []struct {
		args []string
		want []string // "name sign id"
	}{
		{[]string{"main~3..main"}, []string{"main~3 - " + id("main~3"), "main + " + id("main")}},
		{[]string{"..side"}, []string{"HEAD - " + id("HEAD"), "side + " + id("side")}},
		{[]string{"HEAD^!"}, []string{"HEAD - " + id("HEAD^1"), "HEAD - " + id("HEAD^2"), "HEAD + " + id("HEAD")}},
		{[]string{"HEAD^@"}, []string{"HEAD + " + id("HEAD^1"), "HEAD + " + id("HEAD^2")}},
		{[]string{"^HEAD^@"}, []string{"HEAD - " + id("HEAD^1"), "HEAD - " + id("HEAD^2")}},
		{[]string{"HEAD^-2"}, []string{"HEAD - " + id("HEAD^2"), "HEAD + " + id("HEAD")}},
		{[]string{"^v1"}, []string{"v1 - " + id("v1")}},
		{[]string{".."}, []string{"HEAD - " + id("HEAD"), "HEAD + " + id("HEAD")}},
		{[]string{"--not", "v1", "--not", "main"}, []string{"v1 - " + id("v1"), "main + " + id("main")}},
		{[]string{"side...main~1"}, []string{id("side~1") + " - " + id("side~1"), "side + " + id("side"), "main~1 + " + id("main~1")}},
	}
	for _, c := range cases {
		revs, err := r.ParseRevisionArgs(rd, c.args)
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		var got []string
		for _, rv := range revs {
			sign := "+"
			if rv.Negative {
				sign = "-"
			}
			got = append(got, fmt.Sprintf("%s %s %s", rv.Name, sign, rv.ID))
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%v:\n got %q\nwant %q", c.args, got, c.want)
		}
	}
}

// TestRevisionErrorsMatchGitBlame: what git blame prints for revisions
// it cannot use is what the errors carry.
func TestRevisionErrorsMatchGitBlame(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "revisions", f, revScript)
		dir := filepath.Join(root, "r")
		vals := revFixtureValues(t, dir, f)
		r, err := Discover(EnvFromList(dir, testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		rd := r.Objects.NewReader()
		for _, arg := range []string{"nosuch", "{amb}", "HEAD^{blob}", "HEAD~500", "nosuch..main", "main..nosuch",
			"{missing}", "{missing}..main", "{missing}...main", "treetag...main", "^nosuch", "main^{bogus}",
			"{amb}..main", "x^@", "x^!", "main^-0", "main^-x", "main^-3", "HEAD:nope", "HEAD:../x"} {
			for k, v := range vals {
				arg = strings.ReplaceAll(arg, k, v)
			}
			res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: []string{"blame", arg, "--", "f"}})
			_, perr := r.ParseRevisionArgs(rd, []string{arg})
			got := "exit 0\n"
			if perr != nil {
				got = "exit 128\n" + renderFatal(perr)
			}
			want := fmt.Sprintf("exit %d\n%s", res.ExitCode, res.Stderr)
			if res.ExitCode == 0 {
				want = "exit 0\n"
			}
			if got != want {
				t.Errorf("%s %q:\n got: %s\nwant: %s", f, arg, got, want)
			}
		}
	}
}

func TestIsRevision(t *testing.T) {
	testgit.Golden(t) // skips without git
	f := testgit.Formats[0]
	root := testgit.Fixture(t, "revisions", f, revScript)
	dir := filepath.Join(root, "r")
	vals := revFixtureValues(t, dir, f)
	r, err := Discover(EnvFromList(dir, testgit.Env(f)))
	if err != nil {
		t.Fatal(err)
	}
	rd := r.Objects.NewReader()
	for arg, want := range map[string]bool{
		"main": true, "f": false, "HEAD:f": true, ":f": true, "v1": true, vals["{missing}"]: false,
		vals["{amb}"]: false, "main..side": false, "nosuch": false, "treetag": true,
	} {
		if got := r.IsRevision(rd, arg); got != want {
			t.Errorf("IsRevision(%q) = %v, want %v", arg, got, want)
		}
	}
}
