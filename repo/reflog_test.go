package repo

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// reflogDateScript gives main a reflog of five updates a minute apart
// (test_tick), a branch whose hand-written reflog has a gap, and one
// whose log does not end at its value.
const reflogDateScript = `
git init -q r
cd r
for i in 1 2 3 4 5; do commit_all c$i; done
git branch gap HEAD~1
h1=$(git rev-parse HEAD~4) h2=$(git rev-parse HEAD~3) h3=$(git rev-parse HEAD~1) z=$(git rev-parse HEAD~4 | tr 0-9a-f 0)
printf '%s %s C O Mitter <c@example.com> 1112912000 +0200\tone\n%s %s C O Mitter <c@example.com> 1112912100 -0700\ttwo\n%s %s C O Mitter <c@example.com> 1112912200 +0000\tthree\n' $z $h1 $h3 $h2 $h2 $h3 >.git/logs/refs/heads/gap
git branch ended HEAD~2
printf '%s %s C O Mitter <c@example.com> 1112912000 +0000\tone\n' $z $h1 >.git/logs/refs/heads/ended
`

func TestReflogDatesMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	now := "GIT_TEST_DATE_NOW=1112913000"
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "reflog-dates", f, reflogDateScript), "r")
		r, err := Discover(EnvFromList(dir, append(testgit.Env(f), now)))
		if err != nil {
			t.Fatal(err)
		}
		rd := r.Objects.NewReader()
		for _, spec := range []string{
			"main@{1112912053}", "main@{1112912113}", "main@{1112912112}", "main@{1112911000}", "main@{1112999999}",
			"@{1112912173}", "HEAD@{1112912173}", "@@{1112912173}", "main@{2005-04-07 22:14:00 +0000}",
			"main@{2005-04-07 22:16:13 +0000}", "main@{yesterday}", "main@{5 minutes ago}", "main@{20 minutes ago}",
			"main@{now}", "main@{garbage words}", "main@{1112912173}~1", "gap@{1112912150}", "gap@{1112912050}",
			"gap@{1112911000}", "ended@{1112912500}", "ended@{1112912000}", "nope@{1112912173}",
		} {
			r.Warnings = nil
			res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Env: []string{now}, Args: []string{"rev-parse", "--verify", "--end-of-options", spec}})
			id, rerr := r.ResolveRevision(rd, spec)
			want := strings.TrimSpace(string(res.Stdout))
			got := ""
			if rerr == nil {
				got = id.String()
			}
			if got != want {
				t.Errorf("%s: %s = %q (%v), git %q (stderr %q)", f, spec, got, rerr, want, res.Stderr)
				continue
			}
			if res.ExitCode == 0 {
				wantWarn := strings.TrimSuffix(string(res.Stderr), "\n")
				gotWarn := strings.Join(r.Warnings, "\n")
				if gotWarn != wantWarn {
					t.Errorf("%s: %s warns %q, git %q", f, spec, gotWarn, wantWarn)
				}
			}
		}
		r.Close()
	}
}
