package repo

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// layoutScript builds every repository layout discovery must handle.
const layoutScript = `
git init -q repo
mkdir -p repo/sub/dir
echo a >repo/file
(cd repo && commit_all one)
git init -q --bare bare.git
mkdir -p bare.git/sub
git -C repo worktree add -q ../wt
mkdir -p wt/deep
git init -q --separate-git-dir="$PWD/sep.git" sep
# Fixtures are built elsewhere and moved: make the links relative.
printf 'gitdir: ../repo/.git/worktrees/wt\n' >wt/.git
printf 'gitdir: ../sep.git\n' >sep/.git
mkdir -p sep/in
mkdir -p relgf/in
printf 'gitdir: ../repo/.git\n' >relgf/.git
mkdir -p badgf && printf 'nonsense\n' >badgf/.git
mkdir -p nopath && printf 'gitdir: \n' >nopath/.git
mkdir -p notrepo/empty && printf 'gitdir: empty\n' >notrepo/.git
git init -q cw
mkdir -p cwtree/in
git config -f cw/.git/config core.worktree ../../cwtree
git init -q cwabs
git config -f cwabs/.git/config core.worktree /
git init -q cwmissing
git config -f cwmissing/.git/config core.worktree /nonexistent-goblame/x/y
git init -q barewt
git config -f barewt/.git/config core.bare true
git config -f barewt/.git/config core.worktree ..
git init -q extunknown
git config -f extunknown/.git/config core.repositoryformatversion 1
git config -f extunknown/.git/config extensions.fooBar baz
git config -f extunknown/.git/config extensions.other 1
git init -q extv0
git config -f extv0/.git/config core.repositoryformatversion 0
git config -f extv0/.git/config extensions.noop-v1 true
git init -q extv0unknown
git config -f extv0unknown/.git/config core.repositoryformatversion 0
git config -f extv0unknown/.git/config extensions.whatever x
git init -q v2
git config -f v2/.git/config core.repositoryformatversion 2
git init -q extok
git config -f extok/.git/config core.repositoryformatversion 1
git config -f extok/.git/config extensions.noop true
git config -f extok/.git/config extensions.preciousObjects true
git config -f extok/.git/config extensions.partialClone origin
git init -q wtcfg
git config -f wtcfg/.git/config core.repositoryformatversion 1
git config -f wtcfg/.git/config extensions.worktreeConfig true
mkdir -p wtcfgtree
printf '[core]\n\tworktree = ../../wtcfgtree\n' >wtcfg/.git/config.worktree
git init -q noversion
printf '[core]\n\tbare = true\n' >noversion/.git/config
git init -q badcfg
printf '[core]\n\tbad line = x\n' >>badcfg/.git/config
git init -q badfmt
git config -f badfmt/.git/config core.repositoryformatversion 1
git config -f badfmt/.git/config extensions.objectFormat sha999
mkdir -p outside/deeper
git init -q --bare plainbare
mkdir -p ceil/repo2
git init -q ceil/repo2/inner
mkdir -p ceil/repo2/inner/x/y
`

var layoutCases = []struct {
	name string
	dir  string   // relative to the fixture
	env  []string // extra variables; "@/" expands to the fixture path
}{
	{"top", "repo", nil},
	{"subdir", "repo/sub/dir", nil},
	{"inside-dotgit", "repo/.git", nil},
	{"inside-dotgit-refs", "repo/.git/refs", nil},
	{"bare", "bare.git", nil},
	{"bare-sub", "bare.git/sub", nil},
	{"linked-worktree", "wt", nil},
	{"linked-worktree-deep", "wt/deep", nil},
	{"linked-gitdir", "repo/.git/worktrees/wt", nil},
	{"separate-git-dir", "sep", nil},
	{"separate-git-dir-sub", "sep/in", nil},
	{"relative-gitfile", "relgf/in", nil},
	{"bad-gitfile", "badgf", nil},
	{"gitfile-no-path", "nopath", nil},
	{"gitfile-not-repo", "notrepo", nil},
	{"core-worktree-rel-from-tree", "cwtree/in", []string{"GIT_DIR=@/cw/.git"}},
	{"core-worktree-rel-from-repo", "cw", nil},
	{"core-worktree-abs", "cwabs", nil},
	{"core-worktree-abs-elsewhere", "outside", []string{"GIT_DIR=@/cwabs/.git"}},
	{"core-worktree-missing", "cwmissing", nil},
	{"work-tree-missing", "repo", []string{"GIT_WORK_TREE=/nonexistent-goblame/x/y"}},
	{"work-tree-missing-last", "repo", []string{"GIT_WORK_TREE=@/nosuchdir"}},
	{"bare-and-worktree", "barewt", nil},
	{"bare-and-worktree-explicit", "outside", []string{"GIT_DIR=@/barewt/.git"}},
	{"unknown-extensions", "extunknown", nil},
	{"v1-extension-in-v0", "extv0", nil},
	{"unknown-extension-in-v0", "extv0unknown", nil},
	{"version-2", "v2", nil},
	{"known-extensions", "extok", nil},
	{"worktree-config", "wtcfg", nil},
	{"worktree-config-tree", "wtcfgtree", []string{"GIT_DIR=@/wtcfg/.git"}},
	{"no-version", "noversion", nil},
	{"bad-config", "badcfg", nil},
	{"bad-object-format", "badfmt", nil},
	{"not-a-repo", "outside/deeper", []string{"GIT_CEILING_DIRECTORIES=@/outside"}},
	{"git-dir-abs", "outside", []string{"GIT_DIR=@/repo/.git"}},
	{"git-dir-rel", "repo", []string{"GIT_DIR=.git"}},
	{"git-dir-rel-sub", "repo/sub", []string{"GIT_DIR=../.git"}},
	{"git-dir-bare", "outside", []string{"GIT_DIR=@/bare.git"}},
	{"git-dir-not-repo", "outside", []string{"GIT_DIR=@/outside"}},
	{"git-dir-gitfile", "outside", []string{"GIT_DIR=@/sep/.git"}},
	{"git-dir-bad-gitfile", "outside", []string{"GIT_DIR=@/badgf/.git"}},
	{"git-dir-and-work-tree", "repo/sub", []string{"GIT_DIR=@/repo/.git", "GIT_WORK_TREE=@/repo"}},
	{"git-dir-and-work-tree-outside", "outside", []string{"GIT_DIR=@/repo/.git", "GIT_WORK_TREE=@/repo"}},
	{"work-tree-only", "repo/sub", []string{"GIT_WORK_TREE=@/repo"}},
	{"work-tree-elsewhere", "repo/sub/dir", []string{"GIT_WORK_TREE=@/repo/sub"}},
	{"work-tree-bare", "bare.git", []string{"GIT_WORK_TREE=@/outside"}},
	{"work-tree-rel", "repo/sub", []string{"GIT_WORK_TREE=.."}},
	{"common-dir", "repo", []string{"GIT_DIR=@/repo/.git/worktrees/wt", "GIT_COMMON_DIR=@/repo/.git"}},
	{"object-dir", "outside", []string{"GIT_DIR=@/plainbare", "GIT_OBJECT_DIRECTORY=@/repo/.git/objects"}},
	{"ceiling-stops", "ceil/repo2/inner/x/y", []string{"GIT_CEILING_DIRECTORIES=@/ceil/repo2/inner/x"}},
	{"ceiling-above", "ceil/repo2/inner/x/y", []string{"GIT_CEILING_DIRECTORIES=@/ceil"}},
	{"ceiling-at-repo", "ceil/repo2/inner/x/y", []string{"GIT_CEILING_DIRECTORIES=@/ceil/repo2/inner"}},
	{"ceiling-relative-ignored", "ceil/repo2/inner/x/y", []string{"GIT_CEILING_DIRECTORIES=x:y"}},
	{"ceiling-noncanonical", "ceil/repo2/inner/x/y", []string{"GIT_CEILING_DIRECTORIES=:@/ceil/repo2/inner/x/"}},
	{"implicit-worktree-off", "repo/sub", []string{"GIT_DIR=@/repo/.git", "GIT_IMPLICIT_WORK_TREE=0"}},
	{"safe-bare-explicit", "bare.git", []string{"GIT_CONFIG_PARAMETERS='safe.bareRepository'='explicit'"}},
	{"safe-bare-explicit-via-git-dir", "outside", []string{"GIT_DIR=@/bare.git", "GIT_CONFIG_PARAMETERS='safe.bareRepository'='explicit'"}},
	{"discovery-across-fs", "repo/sub", []string{"GIT_DISCOVERY_ACROSS_FILESYSTEM=1"}},
}

// revParseArgs are the questions asked of git and of Discover.
var revParseArgs = []string{"rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--is-bare-repository", "--show-prefix"}

// describeDiscovery renders a Discover result as git rev-parse (with
// revParseArgs, then --show-toplevel) would print it.
func describeDiscovery(r *Repository, err error) string {
	var out, errb strings.Builder
	code := 0
	fatal := func(e error) {
		var ge *Error
		if errors.As(e, &ge) {
			for _, l := range ge.Before {
				errb.WriteString(l + "\n")
			}
		}
		errb.WriteString("fatal: " + e.Error() + "\n")
		code = 128
	}
	if err != nil {
		fatal(err)
	} else {
		for _, w := range r.Warnings {
			errb.WriteString(w + "\n")
		}
		fmt.Fprintf(&out, "%s\n%s\n%v\n%s\n", r.GitDir, r.CommonDir, r.Bare, r.Prefix)
	}
	top := "(no toplevel)"
	if err == nil {
		if r.WorkTree != "" {
			top = r.WorkTree
		}
	}
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s--- toplevel\n%s\n", code, out.String(), errb.String(), top)
}

// describeGit is what git 2.39.5's rev-parse says in dir (git's own, or
// its goldens); with live set, git 2.39.x's only, ok false without it.
func describeGit(t *testing.T, dir string, format oid.Format, env []string) string {
	t.Helper()
	s, _ := describeGitRun(t, dir, format, env, false)
	return s
}

func describeGitRun(t *testing.T, dir string, format oid.Format, env []string, live bool) (string, bool) {
	t.Helper()
	g := testgit.Golden(t)
	run := func(args []string) (testgit.Result, bool) {
		c := testgit.Case{Dir: dir, Format: format, Env: env, Args: args}
		if live {
			return g.Live(c)
		}
		return g.Run(c), true
	}
	res, ok := run(revParseArgs)
	if !ok {
		return "", false
	}
	top := "(no toplevel)"
	if res.ExitCode == 0 {
		tl, _ := run([]string{"rev-parse", "--show-toplevel"})
		if tl.ExitCode == 0 {
			top = strings.TrimSuffix(string(tl.Stdout), "\n")
		}
	}
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s--- toplevel\n%s\n", res.ExitCode, res.Stdout, res.Stderr, top), true
}

func expandEnv(root string, env []string) []string {
	out := make([]string, len(env))
	for i, kv := range env {
		out[i] = strings.ReplaceAll(kv, "@/", root+"/")
	}
	return out
}

func TestDiscoverMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "repo-layouts", f, layoutScript)
		for _, c := range layoutCases {
			t.Run(f.String()+"/"+c.name, func(t *testing.T) {
				dir := filepath.Join(root, c.dir)
				env := expandEnv(root, c.env)
				want := describeGit(t, dir, f, env)
				r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
				got := describeDiscovery(r, err)
				if got != want {
					t.Errorf("in %s with %v:\n got: %s\nwant: %s", c.dir, c.env, got, want)
				}
				if err == nil && r.Format != f && c.name != "no-version" {
					t.Errorf("format %v, want %v", r.Format, f)
				}
			})
		}
	}
}

// TestDiscoverErrorKinds checks that callers can branch on the kind.
func TestDiscoverErrorKinds(t *testing.T) {
	testgit.Golden(t) // skips without git, which builds the fixture (git is not asked anything)
	root := testgit.Fixture(t, "repo-layouts", oid.SHA1, layoutScript)
	cases := []struct {
		dir  string
		env  []string
		kind error
	}{
		{"outside/deeper", []string{"GIT_CEILING_DIRECTORIES=@/outside"}, ErrNotRepository},
		{"badgf", nil, ErrNotRepository},
		{"extunknown", nil, ErrUnsupportedFormat},
		{"v2", nil, ErrUnsupportedFormat},
		{"badcfg", nil, ErrBadConfig},
	}
	for _, c := range cases {
		_, err := Discover(EnvFromList(filepath.Join(root, c.dir), testgit.Env(oid.SHA1, expandEnv(root, c.env)...)))
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: error %v is not %v", c.dir, err, c.kind)
		}
	}
	_, err := Discover(EnvFromList(filepath.Join(root, "outside/deeper"), testgit.Env(oid.SHA1, "GIT_CEILING_DIRECTORIES="+root+"/outside")))
	if err != ErrNotRepository {
		t.Errorf("a failed walk returns %v, want ErrNotRepository itself", err)
	}
}

// TestDiscoverOwnership copies fixtures, gives them to another user and
// compares git's dubious-ownership refusal and safe.directory handling.
// The copies are made (and chowned, as root) at test time, outside any
// fixture, so they have no goldens: only git 2.39.x itself is compared.
func TestDiscoverOwnership(t *testing.T) {
	testgit.RequireGitFor(t, "its repositories are copies given to another user at test time, not fixtures")
	if os.Geteuid() != 0 {
		t.Skip("needs root to chown a copy of the fixture")
	}
	for _, f := range testgit.Formats {
		src := testgit.Fixture(t, "repo-layouts", f, layoutScript)
		tmp := t.TempDir()
		for _, name := range []string{"repo", "bare.git"} {
			if out, err := exec.Command("cp", "-a", filepath.Join(src, name), tmp).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v\n%s", err, out)
			}
			if out, err := exec.Command("chown", "-R", "4321:4321", filepath.Join(tmp, name)).CombinedOutput(); err != nil {
				t.Fatalf("chown: %v\n%s", err, out)
			}
		}
		global := filepath.Join(tmp, "global.cfg")
		cases := []struct {
			name   string
			dir    string
			env    []string
			global string
		}{
			{"refused", "repo", nil, ""},
			{"refused-sub", "repo/sub/dir", nil, ""},
			{"refused-bare", "bare.git", nil, ""},
			{"sudo-uid", "repo", []string{"SUDO_UID=4321"}, ""},
			{"sudo-uid-other", "repo", []string{"SUDO_UID=999"}, ""},
			{"safe-star", "repo", nil, "[safe]\n\tdirectory = *\n"},
			{"safe-exact", "repo/sub", nil, "[safe]\n\tdirectory = " + tmp + "/repo\n"},
			{"safe-reset", "repo", nil, "[safe]\n\tdirectory = *\n\tdirectory =\n"},
			{"safe-other", "repo", nil, "[safe]\n\tdirectory = /elsewhere\n"},
			{"safe-bare", "bare.git", nil, "[safe]\n\tdirectory = " + tmp + "/bare.git\n"},
			{"safe-cmdline", "repo", []string{"GIT_CONFIG_PARAMETERS='safe.directory'='*'"}, ""},
			{"explicit-git-dir-skips-check", "repo", []string{"GIT_DIR=" + tmp + "/repo/.git"}, ""},
			{"assume-different-owner", "repo", []string{"GIT_TEST_ASSUME_DIFFERENT_OWNER=1", "SUDO_UID=4321"}, ""},
		}
		for _, c := range cases {
			t.Run(f.String()+"/"+c.name, func(t *testing.T) {
				env := append([]string{}, c.env...)
				if c.global != "" {
					if err := os.WriteFile(global, []byte(c.global), 0o644); err != nil {
						t.Fatal(err)
					}
					env = append(env, "GIT_CONFIG_GLOBAL="+global)
				}
				dir := filepath.Join(tmp, c.dir)
				want, live := describeGitRun(t, dir, f, env, true)
				if !live {
					return
				}
				r, err := Discover(EnvFromList(dir, testgit.Env(f, env...)))
				if got := describeDiscovery(r, err); got != want {
					t.Errorf("got: %s\nwant: %s", got, want)
				}
				if strings.HasPrefix(c.name, "refused") && !errors.Is(err, ErrDubiousOwnership) {
					t.Errorf("error %v is not ErrDubiousOwnership", err)
				}
			})
		}
	}
}
