package cli

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// TestUsageMatchesGit compares the help text with git's, where git prints
// it: on standard output for -h (exit 129, also outside a repository), on
// standard error after an unknown option (129), and the one-line usage
// after a malformed -L.
func TestUsageMatchesGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	r := argsFixtureRepo(t, oid.SHA1)
	// A directory that is no repository.
	outside := filepath.Join(testgit.Fixture(t, "cli-usage-outside", oid.SHA1, "mkdir outside\n"), "outside")

	for _, annotate := range []bool{false, true} {
		cmdName := "blame"
		if annotate {
			cmdName = "annotate"
		}
		res := goldens.Run(testgit.Case{Dir: outside, Format: oid.SHA1, Args: []string{cmdName, "-h"}})
		if res.ExitCode != 129 || string(res.Stdout) != Usage(annotate) || len(res.Stderr) != 0 {
			t.Errorf("git %s -h outside a repository:%s", cmdName, describeDifference(res, testgit.Result{Stdout: []byte(Usage(annotate)), ExitCode: 129}))
		}
		// ParseArgs answers a lone -h without a repository.
		_, perr := ParseArgs([]string{"-h"}, DefaultBlameArgs(), ParseContext{Annotate: annotate})
		var ue *UsageError
		if !errors.As(perr, &ue) || ue.Stdout != Usage(annotate) || ue.Stderr != "" || ue.ExitCode != 129 {
			t.Errorf("ParseArgs(-h) annotate=%v = %#v", annotate, perr)
		}

		res, _ = r.gitRun(t, false, r.dir, annotate, nil, []string{"-Z", "file"})
		want := "error: unknown option `-Z'\n" + Usage(annotate)
		if res.ExitCode != 129 || string(res.Stderr) != want || len(res.Stdout) != 0 {
			t.Errorf("git %s -Z file:%s", cmdName, describeDifference(res, testgit.Result{Stderr: []byte(want), ExitCode: 129}))
		}

		res, _ = r.gitRun(t, false, r.dir, annotate, nil, []string{"-LX", "file"})
		if res.ExitCode != 129 || string(res.Stderr) != UsageLine(annotate) {
			t.Errorf("git %s -LX file:%s", cmdName, describeDifference(res, testgit.Result{Stderr: []byte(UsageLine(annotate)), ExitCode: 129}))
		}
	}
}

func TestUsageLayout(t *testing.T) {
	// An option whose name and value take more than 24 columns gets its
	// help on the next line, as --ignore-revs-file does.
	opts := []poOption{
		{kind: poString, long: "a-very-long-option-name", argh: "value", help: "help"},
		{kind: poCallback, short: 'x', argh: "n", flags: poOptArg, help: "optional"},
		{kind: poGroup, help: "Group"},
		{kind: poSetInt, long: "hidden", flags: poNoArg | poHidden, help: "hidden"},
		{kind: poCallback, long: "lit", argh: "<a>|<b>", help: "literal"},
		{kind: poSetInt, long: "goblame-only", flags: poNoArg | poGoblame, help: "goblame's own"},
	}
	got := renderUsage([]string{"cmd [options]", "   cmd other", "", "note"}, opts, false)
	want := "usage: cmd [options]\n" +
		"   or:    cmd other\n" +
		"\n" +
		"    note\n" +
		"\n" +
		"    --a-very-long-option-name <value>\n" +
		"                          help\n" +
		"    -x[<n>]               optional\n" +
		"\n" +
		"Group\n" +
		"    --lit <a>|<b>         literal\n" +
		"\n"
	if got != want {
		t.Errorf("renderUsage:\n%s\nwant:\n%s", got, want)
	}
	full := renderUsage([]string{"cmd"}, opts, true)
	if want := "    --hidden              hidden\n"; !strings.Contains(full, want) {
		t.Errorf("--help-all output lacks the hidden option:\n%s", full)
	}
	if strings.Contains(full, "goblame-only") {
		t.Errorf("--help-all output shows goblame's own option:\n%s", full)
	}
}

// TestGoblameOptionsOutOfGitsLists checks that an option marked poGoblame
// stays out of the option list git-completion.bash asks for, as it stays
// out of the help (TestUsageLayout).
func TestGoblameOptionsOutOfGitsLists(t *testing.T) {
	opts := []poOption{
		{kind: poSetInt, long: "git-option", flags: poNoArg, help: "git's"},
		{kind: poSetInt, long: "goblame-only", flags: poNoArg | poGoblame, help: "goblame's own"},
	}
	for _, all := range []bool{false, true} {
		p := &poParser{}
		p.showCompletion(opts, all)
		if got, want := p.stdout.String(), "--git-option --no-git-option\n"; got != want {
			t.Errorf("showCompletion(all=%v) = %q, want %q", all, got, want)
		}
	}
}
