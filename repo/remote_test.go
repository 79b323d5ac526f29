package repo

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// remotesScript sets up remotes every way git 2.39.5 reads them for
// @{upstream} and @{push}: the legacy $GIT_DIR/remotes and
// $GIT_DIR/branches files (read only when the configuration gives the
// remote no URL), and negative refspecs.
const remotesScript = `
git init -q r
cd r
commit_all one
commit_all two
commit_all three
for r in refs/heads/pl refs/remotes/neg/p/main refs/remotes/lr/main refs/remotes/lr/side refs/remotes/cfg/main refs/remotes/neg/main refs/remotes/neg/secret refs/remotes/neg/exact refs/heads/br refs/heads/br2 refs/heads/p/main refs/remotes/pl/pushed; do
	git update-ref $r HEAD~1
done
git update-ref refs/remotes/neg/other HEAD~2
mkdir -p .git/remotes .git/branches
# A remotes file, with a URL, and one the configuration's URL hides.
printf 'URL: https://example.com/lr.git\nPull: refs/heads/*:refs/remotes/lr/*\nPush: refs/heads/*:refs/heads/pushed/*\n' >.git/remotes/lr
git config remote.lr.fetch 'refs/heads/extra:refs/remotes/lr/side'
printf 'URL: x\nPull: refs/heads/*:refs/remotes/nowhere/*\n' >.git/remotes/cfg
git config remote.cfg.url https://example.com/cfg.git
git config remote.cfg.fetch '+refs/heads/*:refs/remotes/cfg/*'
# A remotes file without a URL: the branches file is read as well.
printf 'Pull: refs/heads/one:refs/remotes/pl/one\nPush: refs/heads/*:refs/remotes/pl/pushed/*\n' >.git/remotes/pl
# A remotes file with an invalid refspec.
printf 'URL: x\nPull: refs/heads/*:refs/remotes/rbad\n' >.git/remotes/rbad
printf 'https://example.com/pl.git#main\n' >.git/branches/pl
# Branches files, with a branch and without.
printf 'https://example.com/br.git#feature\n' >.git/branches/br
printf '  https://example.com/br2.git  \n' >.git/branches/br2
printf '\n' >.git/branches/empty
# Negative refspecs.
git config remote.neg.url https://example.com/neg.git
git config remote.neg.fetch '+refs/heads/*:refs/remotes/neg/*'
git config --add remote.neg.fetch '^refs/heads/secret'
git config --add remote.neg.fetch 'refs/heads/exact:refs/remotes/neg/exact'
git config --add remote.neg.fetch '^refs/heads/exact'
git config remote.ident.url https://example.com/ident.git
git config remote.ident.fetch 'refs/heads/*:refs/heads/*'
git config --add remote.ident.fetch '^refs/heads/hidden*'
git config remote.origin.url https://example.com/origin.git
git config remote.origin.fetch '+refs/heads/*:refs/remotes/neg/*'
git config remote.origin.push 'refs/heads/*:refs/heads/p/*'
git config --add remote.origin.push '^refs/heads/main'
b () { git branch "$1" && git config "branch.$1.remote" "$2" && git config "branch.$1.merge" "$3"; }
b lrb lr refs/heads/main
b lrx lr refs/heads/extra
b cfgb cfg refs/heads/main
b plb pl refs/heads/one
b plm pl refs/heads/main
b brb br refs/heads/feature
b br2b br2 refs/heads/master
b br2m br2 refs/heads/main
b emptyb empty refs/heads/main
b negmain neg refs/heads/main
b negsecret neg refs/heads/secret
b negexact neg refs/heads/exact
b identb ident refs/heads/hiddenx
b identok ident refs/heads/other
b originb origin refs/heads/main
b rbadb rbad refs/heads/main
`

func TestLegacyRemotesAndNegativeRefspecsMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	configs := [][]string{
		nil,
		{"init.defaultBranch", "main"},
		{"GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME=main"},
		{"push.default", "current"},
		{"remote.bad.fetch", "refs/heads/*:refs/remotes/bad"},
		{"remote.bad.fetch", "^refs/heads/x:refs/remotes/x"},
		{"remote.bad.push", "^refs/heads/x:refs/heads/y"},
		{"remote.lr.url", "https://example.com/now-configured.git"},
		{"init.defaultBranch", "bad..name"},
	}
	specs := []string{
		"lrb@{u}", "lrx@{u}", "cfgb@{u}", "plb@{u}", "plm@{u}", "brb@{u}", "br2b@{u}", "br2m@{u}", "emptyb@{u}",
		"negmain@{u}", "negsecret@{u}", "negexact@{u}", "identb@{u}", "identok@{u}",
		"lrb@{push}", "brb@{push}", "plb@{push}", "originb@{push}", "negmain@{push}", "br2b@{push}", "main@{push}",
		"rbadb@{u}",
	}
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "remotes", f, remotesScript), "r")
		for _, kv := range configs {
			var env []string
			switch len(kv) {
			case 1:
				env = kv
			case 2:
				env = []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=" + kv[0], "GIT_CONFIG_VALUE_0=" + kv[1]}
			}
			for _, spec := range specs {
				// A repository per case: git gives the default branch
				// name's advice once a process.
				r, err := Discover(EnvFromList(dir, append(testgit.Env(f), env...)))
				if err != nil {
					t.Fatal(err)
				}
				var warnings []string
				r.WarningHandler = func(l string) { warnings = append(warnings, l) }
				res := goldens.Run(testgit.Case{Dir: dir, Format: f, Env: env, Args: []string{"rev-parse", "--verify", "-q", "--end-of-options", spec}})
				id, rerr := r.ResolveRevision(r.Objects.NewReader(), spec)
				where := fmt.Sprintf("%s %v: %s", f, kv, spec)
				want := strings.TrimSpace(string(res.Stdout))
				switch res.ExitCode {
				case 0:
					if rerr != nil || id.String() != want {
						t.Errorf("%s = %v, %v; git %s", where, id, rerr, want)
					}
					if got := strings.Join(append(warnings, ""), "\n"); got != string(res.Stderr) {
						t.Errorf("%s: warnings %q; git %q", where, got, res.Stderr)
					}
				case 128:
					// The lines before git's fatal one are the warnings.
					stderr := strings.TrimSuffix(string(res.Stderr), "\n")
					before, last := "", stderr
					if i := strings.LastIndexByte(stderr, '\n'); i >= 0 {
						before, last = stderr[:i+1], stderr[i+1:]
					}
					msg := strings.TrimPrefix(last, "fatal: ")
					if rerr == nil || !strings.Contains(rerr.Error(), msg) || strings.Join(append(warnings, ""), "\n") != before {
						t.Errorf("%s = %v, %v, warnings %q; git dies with %q", where, id, rerr, warnings, res.Stderr)
					}
				default:
					if rerr == nil {
						t.Errorf("%s = %v; git finds nothing (exit %d, %q)", where, id, res.ExitCode, res.Stderr)
					}
				}
				r.Close()
			}
		}
	}
}
