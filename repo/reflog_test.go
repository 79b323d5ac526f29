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
	now := "GIT_TEST_DATE_NOW=1112913000"
	compareRevisionsWithGit(t, "reflog-dates", reflogDateScript, []string{now}, []string{
		"main@{1112912053}", "main@{1112912113}", "main@{1112912112}", "main@{1112911000}", "main@{1112999999}",
		"@{1112912173}", "HEAD@{1112912173}", "@@{1112912173}", "main@{2005-04-07 22:14:00 +0000}",
		"main@{2005-04-07 22:16:13 +0000}", "main@{yesterday}", "main@{5 minutes ago}", "main@{20 minutes ago}",
		"main@{now}", "main@{garbage words}", "main@{1112912173}~1", "gap@{1112912150}", "gap@{1112912050}",
		"gap@{1112911000}", "ended@{1112912500}", "ended@{1112912000}", "nope@{1112912173}",
	})
}

// compareRevisionsWithGit resolves each spec in the fixture's repository
// "r" (with env added to the hermetic environment) and compares the
// object, the warnings of a resolved spec and the message of a failed
// one with git rev-parse --verify's: git's "fatal: <ours>" where git dies
// while resolving, rev-parse's own "Needed a single revision" where the
// spec names nothing.
func compareRevisionsWithGit(t *testing.T, fixture, script string, env, specs []string) {
	t.Helper()
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, fixture, f, script), "r")
		r, err := Discover(EnvFromList(dir, append(testgit.Env(f), env...)))
		if err != nil {
			t.Fatal(err)
		}
		rd := r.Objects.NewReader()
		for _, spec := range specs {
			r.Warnings = nil
			res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Env: env, Args: []string{"rev-parse", "--verify", "--end-of-options", spec}})
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
			msg := string(res.Stderr)
			switch {
			case res.ExitCode == 0:
				if gotWarn := strings.Join(r.Warnings, "\n"); gotWarn != strings.TrimSuffix(msg, "\n") {
					t.Errorf("%s: %s warns %q, git %q", f, spec, gotWarn, msg)
				}
			case rerr != nil && strings.HasPrefix(msg, "fatal: ") && msg != "fatal: Needed a single revision\n" && msg != "fatal: "+rerr.Error()+"\n":
				t.Errorf("%s: %s fails with %q, git %q", f, spec, rerr, msg)
			}
		}
		r.Close()
	}
}

// priorCheckoutScript checks out a branch, main again, a detached commit,
// the branch (which gets main as its upstream) and main, then appends to
// HEAD's reflog a checkout record whose zone has two digits and one
// without its newline, which git's reflog reader skips.
const priorCheckoutScript = `
git init -q r
cd r
for i in 1 2 3; do commit_all c$i; done
git checkout -q -b topic HEAD~2
commit_all t1
git checkout -q main
git checkout -q --detach HEAD~1
git checkout -q topic
git config branch.topic.remote .
git config branch.topic.merge refs/heads/main
git checkout -q main
h=$(git rev-parse HEAD) z=$(git rev-parse HEAD | tr 0-9a-f 0)
printf '%s %s C O Mitter <c@example.com> 1112913000 +02\tcheckout: moving from short-zone to main\n' $h $h >>.git/logs/HEAD
printf '%s %s C O Mitter <c@example.com> 1112913100 +0000\tcheckout: moving from torn to main' $h $h >>.git/logs/HEAD
`

// TestPriorCheckoutMatchesGit: "@{-N}" names what the N-th checkout back
// left (a branch, or a commit after a detached checkout), alone, with
// suffixes, as the base of a reflog entry, an upstream or a push mark;
// anywhere but at the start, with N <= 0 or with fewer checkouts it
// names nothing. Each is compared with git rev-parse.
func TestPriorCheckoutMatchesGit(t *testing.T) {
	compareRevisionsWithGit(t, "prior-checkout", priorCheckoutScript, nil, []string{
		"@{-1}", "@{-2}", "@{-3}", "@{-4}", "@{-5}", "@{-6}", "@{-0}", "@{- 1}", "@{-+1}", "@{--1}",
		"@{-x}", "@{-}", "@{-1}~1", "@{-1}^{commit}", "@{-1}@{0}", "@{-1}@{1}", "@{-3}@{1}", "@{-6}@{1}",
		"@{-1}@{u}", "@{-3}@{upstream}", "@{-6}@{u}", "@{-x}@{u}", "@{-2}@{u}", "main@{-1}", "@{-1}@{-1}",
	})
}
