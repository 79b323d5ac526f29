package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// The git shim's tests run the goblame binary, built once, under the
// name git (installed as make install-shim installs it), next to the real
// git: each command line goes through the shim and straight to git, and
// standard output, standard error and exit status must be the same.
// Where the shim must blame itself, the real git it would hand over to is
// a tripwire (a "git" that says it ran, exit 99), so that a blame the shim
// passed to git by mistake fails the comparison.

// shimInstall is the goblame binary built for the tests, in a temporary
// prefix: bin/goblame and libexec/goblame/git -> ../../bin/goblame (what
// make install-shim makes), tripwire/git, and recorder/git, a "real git"
// that writes down how it was run.
type shimInstall struct {
	root, goblame, shim, shimDir, tripwire, recorder string
}

var (
	shimOnce sync.Once
	shimInst shimInstall
	shimErr  error
)

func installShim(t *testing.T) shimInstall {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping: builds the goblame binary")
	}
	for _, tool := range []string{"go", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: no %s command to build goblame with: %v", tool, err)
		}
	}
	shimOnce.Do(func() { shimInst, shimErr = buildShimInstall() })
	if shimErr != nil {
		t.Fatal(shimErr)
	}
	return shimInst
}

const tripwireScript = `#!/bin/sh
echo "tripwire: the real git ran: $*" >&2
exit 99
`

// recorderScript writes its arguments, environment, standard input and
// working directory to files named by $SHIM_RECORD, and exits 7.
const recorderScript = `#!/bin/sh
printf '%s\0' "$0" "$@" >"$SHIM_RECORD.args"
env -0 >"$SHIM_RECORD.env"
cat >"$SHIM_RECORD.stdin"
pwd -P >"$SHIM_RECORD.cwd"
exit 7
`

func buildShimInstall() (shimInstall, error) {
	root, err := os.MkdirTemp("", "goblame-shim-test-")
	if err != nil {
		return shimInstall{}, err
	}
	in := shimInstall{
		root:     root,
		goblame:  filepath.Join(root, "bin", "goblame"),
		shimDir:  filepath.Join(root, "libexec", "goblame"),
		tripwire: filepath.Join(root, "tripwire", "git"),
		recorder: filepath.Join(root, "recorder", "git"),
	}
	in.shim = filepath.Join(in.shimDir, "git")
	// Built as make build builds it: without cgo, the shim's signals
	// come from the Go runtime (internal/execve's goblame_fwdsig).
	out, err := exec.Command("make", "-s", "-C", "..", "build", "OUT="+in.goblame).CombinedOutput()
	if err != nil {
		return in, fmt.Errorf("make build: %v\n%s", err, out)
	}
	for _, d := range []string{in.shimDir, filepath.Dir(in.tripwire), filepath.Dir(in.recorder)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return in, err
		}
	}
	if err := os.Symlink("../../bin/goblame", in.shim); err != nil {
		return in, err
	}
	if err := os.WriteFile(in.tripwire, []byte(tripwireScript), 0o755); err != nil {
		return in, err
	}
	return in, os.WriteFile(in.recorder, []byte(recorderScript), 0o755)
}

// removeShimInstall removes the binary built for the tests (TestMain).
func removeShimInstall() {
	if shimInst.root != "" {
		os.RemoveAll(shimInst.root)
	}
}

// shimEnv is the environment of a run through the shim: the hermetic one
// with extra, the shim's directory first on PATH, and GOBLAME_GIT when
// realGit is not "".
func (in shimInstall) shimEnv(extra []string, realGit string) []string {
	env := append(append([]string(nil), extra...), "PATH="+in.shimDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	if realGit != "" {
		env = append(env, "GOBLAME_GIT="+realGit)
	}
	return env
}

// run runs git's command line through the shim.
func (in shimInstall) run(t *testing.T, dir string, format oid.Format, stdin []byte, extra []string, realGit string, args ...string) testgit.Result {
	t.Helper()
	res, err := testgit.Run(dir, format, stdin, in.shimEnv(extra, realGit), in.shim, args...)
	if err != nil {
		t.Fatalf("git (the shim) %s: %v", strings.Join(args, " "), err)
	}
	return res
}

// shimScript is a small history for the editors' command lines: edits, a
// whitespace-only commit listed in .git-blame-ignore-revs, lines copied to
// another file, a rename, a replace ref, a file whose textconv filter
// prints the environment git's global options set, a rev-list for
// fugitive's -S, an editor's buffer outside the repository, and bare
// clones (two with a core.worktree, one of them missing).
const shimScript = `git init -q r && cd r
mkdir sub
printf '#include <stdio.h>\n\nint main(void)\n{\n\tprintf("hello\\n");\n\treturn 0;\n}\n' >main.c
printf 'alpha\nbeta\ngamma\ndelta\n' >sub/notes.txt
printf '*.env diff=env\n' >.gitattributes
printf 'env line\n' >show.env
commit_all initial
sed -i 's/hello/hello, world/' main.c
printf 'epsilon\n' >>sub/notes.txt
commit_all "greet the world"
sed -i 's/^\t/    /' main.c
commit_all "spaces, not tabs"
git rev-parse HEAD >.git-blame-ignore-revs
{ printf 'static int helper(void)\n{\n'; sed -n '5,6p' main.c; printf '}\n'; } >helper.c
commit_all "helper, with lines copied from main.c"
git mv sub/notes.txt sub/list.txt
sed -i 's/^beta$/BETA/' sub/list.txt
commit_all "rename notes to list"
sed -i 's/return 0;/return 1;/' main.c
sed -i 's/^gamma$/GAMMA/' sub/list.txt
commit_all "main fails"
git replace "$(git rev-parse HEAD~1)" "$(git rev-parse HEAD~2)"
git config diff.env.textconv ../envshow
cd ..
cat >envshow <<'EOF'
#!/bin/sh
env | grep -E '^GIT_(CONFIG_PARAMETERS|NO_REPLACE_OBJECTS|LITERAL_PATHSPECS|GLOB_PATHSPECS|NOGLOB_PATHSPECS|ICASE_PATHSPECS|OPTIONAL_LOCKS|IMPLICIT_WORK_TREE|PAGER)=' | LC_ALL=C sort
echo "cwd $(pwd -P)"
cat "$1"
EOF
chmod +x envshow
git -C r rev-list HEAD >revlist
sed -e 's/hello, world/hello, buffer/' -e '3a\
/* added in the editor */' r/main.c >buffer.c
git clone -q --bare r bare.git
printf '*.env diff=env\n' >bare.git/info/attributes
git -C bare.git config diff.env.textconv ../envshow
git clone -q --bare r worktree.git
git -C worktree.git config --unset core.bare
git -C worktree.git config core.worktree ../r
git clone -q --bare r bogus.git
git -C bogus.git config --unset core.bare
git -C bogus.git config core.worktree /nonexistent/work/tree
`

// dirtyBuffer is main.c as an editor holds it, edited and not saved.
var dirtyBuffer = []byte("#include <stdio.h>\n\n/* typed, not saved */\nint main(void)\n{\n    printf(\"hello, editor\\n\");\n    return 1;\n}\n")

// shimCase is a git command line run in a directory of the fixture.
type shimCase struct {
	dir   string // relative to the fixture's root
	args  []string
	stdin []byte
	env   []string
	// live: the output shows lines not committed yet, dated now, which
	// cannot be kept as goldens.
	live bool
}

func shimFixture(t *testing.T, format oid.Format) string {
	t.Helper()
	return testgit.Fixture(t, "cli-shim", format, shimScript)
}

// compareThroughShim runs c through the shim, whose real git is the
// tripwire, and compares it with git 2.39.5's result.
func compareThroughShim(t *testing.T, in shimInstall, root string, format oid.Format, c shimCase) {
	t.Helper()
	dir := filepath.Join(root, c.dir)
	tc := testgit.Case{Dir: dir, Format: format, Stdin: c.stdin, Env: c.env, Args: c.args}
	compareRun(t, tc, c.live, "git (the shim) "+strings.Join(shellArgs(c.args), " "), func() testgit.Result {
		return in.run(t, dir, format, c.stdin, c.env, in.tripwire, c.args...)
	})
}

// TestShimEditorInvocations runs the command lines editors and TUIs run
// (../shared/reference/editors-and-gaps.md, section 3.4) through the shim
// and through git, dirty buffers on standard input where the editor
// sends one.
func TestShimEditorInvocations(t *testing.T) {
	in := installShim(t)
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := shimFixture(t, format)
		r := filepath.Join(root, "r")
		// GitLens blames the index version of a file through
		// --contents -, fed from git show :file.
		staged := []byte(testgit.Git(t, r, format, "show", ":main.c"))
		gitDir := filepath.Join(r, ".git")
		ignoreRevs := filepath.Join(r, ".git-blame-ignore-revs")
		gitlens := []string{"-c", "core.quotepath=false", "-c", "color.ui=false"}
		fugitive := []string{"-C", r, "--no-pager", "-c", "blame.coloring=none", "-c", "blame.blankBoundary=false"}
		magit := []string{"--no-pager", "--literal-pathspecs", "-c", "core.preloadindex=true", "-c", "log.showSignature=false", "-c", "color.ui=false", "-c", "color.diff=false"}
		jetbrains := []string{"-c", "core.quotepath=false", "-c", "log.showSignature=false"}
		gitsigns := []string{"--no-pager", "--no-optional-locks", "--literal-pathspecs", "-c", "gc.auto=0", "--git-dir", gitDir}
		cat := func(parts ...[]string) []string {
			var out []string
			for _, p := range parts {
				out = append(out, p...)
			}
			return out
		}
		w := func(s ...string) []string { return s }
		cases := []shimCase{
			// GitLens: blame(), blame__contents() (a dirty document, the
			// staged version), ignore-revs, a line range at a revision.
			{dir: "r", args: cat(gitlens, w("blame", "--root", "--incremental", "-w", "--", "main.c"))},
			{dir: "r", args: cat(gitlens, w("blame", "--root", "--incremental", "-w", "-L", "2,5", "HEAD", "--", "main.c"))},
			{dir: "r", args: cat(gitlens, w("blame", "--root", "--incremental", "-w", "--contents", "-", "--", "main.c")), stdin: dirtyBuffer, live: true},
			{dir: "r", args: cat(gitlens, w("blame", "--root", "--incremental", "-w", "--contents", "-", "--", "main.c")), stdin: staged},
			{dir: "r", args: cat(gitlens, w("blame", "--root", "--incremental", "-w", "--ignore-revs-file", ignoreRevs, "--", "main.c"))},
			{dir: "r/sub", args: cat(gitlens, w("blame", "--root", "--incremental", "-w", "-C", "HEAD", "--", "list.txt"))},
			// VS Code's own blame.
			{dir: "r", args: w("blame", "--root", "--incremental", "-w", "HEAD", "--", "main.c")},
			{dir: "r", args: w("blame", "--", "main.c")},
			{dir: "r", args: w("blame", "--", "sub/list.txt")},
			// vim-fugitive: :Git blame, a modified buffer (--contents of a
			// temporary file), :GBrowse's mapping (-S, -s), reblame.
			{dir: "r/sub", args: cat(fugitive, w("blame", "--show-number", "--", "main.c"))},
			{dir: "r/sub", args: cat(fugitive, w("blame", "--show-number", "-L", "3,6", "--", "main.c"))},
			{dir: "r/sub", args: cat(fugitive, w("blame", "--show-number", "--contents", filepath.Join(root, "buffer.c"), "--", "main.c")), live: true},
			{dir: "r", args: cat(fugitive, w("blame", "-L", "2,5", "-S", filepath.Join(root, "revlist"), "-s", "--show-number", "--", "main.c"))},
			{dir: "r", args: cat(fugitive, w("blame", "--show-number", "HEAD~2", "--", "main.c"))},
			{dir: "r", args: cat(fugitive, w("blame", "--show-number", "--reverse", "HEAD~4..HEAD", "--", "main.c"))},
			// Emacs vc-git: vc-git-annotate-command, with the switches
			// users add.
			{dir: "r", args: w("--no-pager", "blame", "--date=short", "HEAD", "--", "main.c")},
			{dir: "r", args: w("--no-pager", "blame", "--date=short", "-C", "-C", "HEAD", "--", "helper.c")},
			{dir: "r/sub", args: w("--no-pager", "blame", "--date=short", "-w", "HEAD", "--", "list.txt")},
			// Magit: the visible window first, then the whole file;
			// reverse blame.
			{dir: "r", args: cat(magit, w("blame", "--incremental", "-w", "-L", "3,6", "HEAD", "--", "main.c"))},
			{dir: "r", args: cat(magit, w("blame", "--incremental", "-w", "HEAD", "--", "main.c"))},
			{dir: "r", args: cat(magit, w("blame", "--incremental", "-M", "-C", "HEAD", "--", "helper.c"))},
			{dir: "r", args: cat(magit, w("blame", "--incremental", "--reverse", "HEAD~4..HEAD", "--", "main.c"))},
			// JetBrains git4idea.
			{dir: "r", args: cat(jetbrains, w("blame", "--porcelain", "-l", "-t", "-w", "--encoding=UTF-8", "HEAD", "--", "main.c"))},
			{dir: "r", args: cat(jetbrains, w("blame", "--porcelain", "-l", "-t", "-w", "--encoding=UTF-8", "HEAD~3", "--", "sub/notes.txt"))},
			// Zed: the buffer on standard input, no "--".
			{dir: "r", args: w("blame", "--incremental", "--contents", "-", "main.c"), stdin: dirtyBuffer, live: true},
			{dir: "r", args: w("blame", "--incremental", "--contents", "-", "sub/list.txt"), stdin: []byte("alpha\nBETA\nGAMMA\ndelta\nepsilon\nzeta\n"), live: true},
			// lazygit: which commit a fixup belongs to.
			{dir: "r", args: w("blame", "-l", "-L5,+2", "HEAD", "--", "main.c")},
			// tig: the blame view, with -C, and blaming the parent.
			{dir: "r", args: w("blame", "--encoding=UTF-8", "-p", "HEAD", "--", "main.c")},
			{dir: "r", args: w("blame", "--encoding=UTF-8", "-C", "-p", "HEAD", "--", "helper.c")},
			{dir: "r", args: w("blame", "--encoding=UTF-8", "-p", "HEAD~2", "--", "sub/notes.txt")},
			// gitsigns.nvim: the cursor's line of the buffer, with and
			// without ignore-revs, with -C, at a revision.
			{dir: "r", args: cat(gitsigns, w("blame", "--contents", "-", "--incremental", "-w", "-L", "6,+1", "--ignore-revs-file", ignoreRevs, "--", "main.c")), stdin: dirtyBuffer, live: true},
			{dir: "r", args: cat(gitsigns, w("blame", "--contents", "-", "--incremental", "-L", "2,+1", "--", "main.c")), stdin: dirtyBuffer, live: true},
			{dir: "r", args: cat(gitsigns, w("blame", "--contents", "-", "--incremental", "-w", "-C", "-L", "3,+1", "--", "helper.c")), stdin: []byte("static int helper(void)\n{\n    printf(\"hello, world\\n\");\n    return 2;\n}\n"), live: true},
			{dir: "r", args: cat(gitsigns, w("blame", "--contents", "-", "--incremental", "-L", "1,+1", "HEAD~1", "--", "sub/list.txt")), stdin: []byte("alpha\nBETA\ngamma\ndelta\nepsilon\n"), live: true},
		}
		for _, c := range cases {
			compareThroughShim(t, in, root, format, c)
		}
	}
}

// TestShimGlobalOptions runs git's global options before blame through
// the shim and through git: -C (twice, empty, missing), -c (no '=', a
// quote and '!' in the value, appended to GIT_CONFIG_PARAMETERS from the
// environment), --config-env, --git-dir and --work-tree (relative to
// -C), --bare, the pathspec and lock options, --no-replace-objects, the
// pager options, annotate and pickaxe, and blame's own -h and errors.
// show.env's textconv filter prints the variables the options set.
func TestShimGlobalOptions(t *testing.T) {
	in := installShim(t)
	testgit.Golden(t)
	for _, format := range testgit.Formats {
		root := shimFixture(t, format)
		w := func(s ...string) []string { return s }
		cases := []shimCase{
			{dir: "r", args: w("-C", "sub", "blame", "list.txt")},
			{dir: "r", args: w("-C", "sub", "-C", "..", "blame", "main.c")},
			{dir: ".", args: w("-C", "r", "-C", "sub", "blame", "-L", "2,3", "list.txt")},
			{dir: "r", args: w("-C", "", "blame", "main.c")},
			{dir: "r", args: w("-C", "nosuch", "blame", "main.c")},
			{dir: "r", args: w("-C", "sub", "-C", "nosuch", "blame", "main.c")},
			{dir: "r", args: w("-C", "main.c", "blame", "main.c")},
			{dir: "r", args: w("-c", "blame.showEmail", "blame", "main.c")},
			{dir: "r", args: w("-c", "blame.date", "blame", "main.c")},
			{dir: "r", args: w("-c", "foo", "blame", "main.c")},
			{dir: "r", args: w("-c", "", "blame", "main.c")},
			{dir: "r", args: w("-c", "blame.date=short", "-c", "blame.date=relative", "-c", "core.abbrev=12", "blame", "main.c")},
			{dir: "r", args: w("-c", "x.y=it's a!b", "-c", "foo.bar", "-c", "a.b=", "-c", "s.sub=a=b.key=v", "blame", "show.env")},
			{dir: "r", args: w("-c", "x.y=1", "blame", "show.env"), env: w("GIT_CONFIG_PARAMETERS='a.b'='c'")},
			{dir: "r", args: w("-c", "blame.showEmail=true", "blame", "main.c"), env: w("GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=blame.date", "GIT_CONFIG_VALUE_0=short")},
			{dir: "r", args: w("--config-env=blame.date=BLAME_DATE", "blame", "main.c"), env: w("BLAME_DATE=short")},
			{dir: "r", args: w("--config-env", "x.y=BLAME_DATE", "blame", "show.env"), env: w("BLAME_DATE=it's")},
			{dir: "r", args: w("--config-env=x.a=b=BLAME_DATE", "blame", "show.env"), env: w("BLAME_DATE=v")},
			{dir: "r", args: w("--git-dir=.git", "--config-env=x.y=GIT_DIR", "blame", "show.env")},
			{dir: ".", args: w("-C", "r", "--git-dir", ".git", "blame", "main.c")},
			{dir: ".", args: w("--git-dir=r/.git", "--work-tree=r", "blame", "main.c")},
			{dir: ".", args: w("--git-dir=r/.git", "--work-tree", "r", "-C", "r", "blame", "main.c")},
			{dir: "r/sub", args: w("--git-dir=../.git", "--work-tree=..", "blame", "list.txt")},
			{dir: "r/sub", args: w("--git-dir=../.git", "blame", "HEAD", "--", "main.c")},
			{dir: ".", args: w("--git-dir=r/.git", "blame", "main.c")},
			{dir: ".", args: w("-C", "bare.git", "--bare", "blame", "HEAD", "--", "main.c")},
			{dir: ".", args: w("-C", "bare.git", "--bare", "blame", "HEAD", "--", "show.env")},
			{dir: "bare.git", args: w("--bare", "blame", "main.c")},
			{dir: ".", args: w("--git-dir=bare.git", "--bare", "blame", "HEAD", "--", "main.c")},
			{dir: "r", args: w("--no-replace-objects", "blame", "sub/list.txt")},
			{dir: "r", args: w("blame", "sub/list.txt")},
			{dir: "r", args: w("--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "blame", "show.env")},
			{dir: "r", args: w("--no-literal-pathspecs", "blame", "show.env")},
			{dir: "r", args: w("--icase-pathspecs", "blame", "MAIN.C")},
			{dir: "r", args: w("--glob-pathspecs", "blame", "main.*")},
			{dir: "r", args: w("-P", "blame", "show.env"), env: w("GIT_PAGER=")},
			{dir: "r", args: w("--no-pager", "-p", "blame", "show.env"), env: w("GIT_PAGER=")},
			{dir: "r", args: w("-p", "-P", "blame", "show.env"), env: w("GIT_PAGER=")},
			{dir: "r", args: w("--paginate", "blame", "show.env"), env: w("GIT_PAGER=")},
			{dir: "r", args: w("-c", "alias.blame=log", "blame", "main.c")},
			{dir: "r", args: w("annotate", "main.c")},
			{dir: "r", args: w("-C", "sub", "annotate", "list.txt")},
			{dir: "r", args: w("pickaxe", "-L", "1,2", "main.c")},
			{dir: "r", args: w("blame", "-h")},
			{dir: ".", args: w("blame", "-h")},
			{dir: "r", args: w("annotate", "-h")},
			{dir: "r", args: w("blame", "--version")},
			{dir: "r", args: w("blame", "--generate-bash-completion")},
			{dir: "r", args: w("blame")},
			{dir: "r", args: w("blame", "nosuch")},
			{dir: ".", args: w("blame", "r/main.c")},
			{dir: "r", args: w("blame", "--", "--help")},
			{dir: "r", args: w("blame", "--simplify-by-decoration", "HEAD", "--", "main.c")},
			{dir: "r", args: w("blame", "--alternate-refs", "main.c")},
		}
		for _, c := range cases {
			compareThroughShim(t, in, root, format, c)
		}
	}
}

// TestShimDelegates checks the command lines the shim must leave to the
// real git: through the shim (finding git on PATH) they give what git
// gives, and with the tripwire as the real git they reach it.
func TestShimDelegates(t *testing.T) {
	in := installShim(t)
	if _, err := testgit.Version(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	root := shimFixture(t, oid.SHA1)
	w := func(s ...string) []string { return s }
	cases := []shimCase{
		{dir: "r", args: w("--super-prefix=x/", "blame", "main.c")},
		{dir: "r", args: w("--super-prefix", "x/", "blame", "main.c")},
		{dir: "r", args: w("--namespace=ns", "blame", "main.c")},
		{dir: "r", args: w("--namespace", "a..b", "blame", "main.c")},
		{dir: "r", args: w("blame", "main.c"), env: w("GIT_NAMESPACE=a..b")},
		{dir: "r", args: w("-c", "help.format=bogus", "blame", "--help")},
		{dir: "r", args: w("-c", "help.format=bogus", "annotate", "--help")},
		{dir: "r", args: w("--shallow-file", "nosuch", "blame", "main.c")},
		{dir: "r", args: w("--bogus", "blame", "main.c")},
		{dir: "r", args: w("-cblame.date=short", "blame", "main.c")},
		{dir: "r", args: w("--git-dir")},
		{dir: "r", args: w("--config-env=x.y=GIT_DIR", "--git-dir=.git", "blame", "show.env")},
		{dir: "r", args: w("-C")},
		{dir: "r", args: w("-c")},
		{dir: "r", args: w("--config-env=blame.date", "blame", "main.c")},
		{dir: "r", args: w("--config-env=blame.date=", "blame", "main.c")},
		{dir: "r", args: w("--config-env=blame.date=NO_SUCH_VARIABLE", "blame", "main.c")},
		{dir: "r", args: w("--exec-path=/nonexistent", "blame", "main.c")},
		{dir: "r", args: w("--list-cmds=nohelpers", "blame")},
		{dir: "r", args: w("-v", "blame", "main.c")},
		{dir: "r", args: w("--help", "blame")},
		{dir: "r", args: w("--blame", "main.c")},
		{dir: "r", args: w("Blame", "main.c")},
		{dir: "r", args: w("", "blame", "main.c")},
		{dir: ".", args: w("-C", "worktree.git", "--bare", "blame", "main.c")},
		{dir: ".", args: w("--git-dir=worktree.git", "--bare", "blame", "main.c")},
		{dir: ".", args: w("-C", "bogus.git", "--bare", "blame", "HEAD", "--", "main.c")},
		{dir: ".", args: w("--bare", "-C", "bare.git", "blame", "HEAD", "--", "main.c")},
		{dir: "r", args: w("blame", "--date=auto:human", "HEAD", "--", "main.c"), env: w("GIT_PAGER_IN_USE=true")},
		{dir: "r", args: w("blame", "HEAD", "--", "main.c"), env: w("GIT_PAGER_IN_USE=maybe")},
	}
	for _, c := range cases {
		dir := filepath.Join(root, c.dir)
		want, err := testgit.Run(dir, oid.SHA1, c.stdin, c.env, "git", c.args...)
		if err != nil {
			t.Fatal(err)
		}
		got := in.run(t, dir, oid.SHA1, c.stdin, c.env, "", c.args...)
		what := "git (the shim) " + strings.Join(shellArgs(c.args), " ")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s (in %s, env %q):\n%s", what, c.dir, c.env, describeDiff(got, want))
		}
		if got := in.run(t, dir, oid.SHA1, c.stdin, c.env, in.tripwire, c.args...); got.ExitCode != 99 || !bytes.HasPrefix(got.Stderr, []byte("tripwire: ")) {
			t.Errorf("%s (in %s, env %q) did not run the real git: exit %d, stderr %q", what, c.dir, c.env, got.ExitCode, got.Stderr)
		}
	}
	// Tracing: git's traces are git's to write.
	dir := filepath.Join(root, "r")
	for _, env := range [][]string{w("GIT_TRACE=1"), w("GIT_TRACE_SETUP=true"), w("GIT_TRACE2_PERF=/dev/null"), w("GIT_TRACE2_EVENT=1")} {
		if got := in.run(t, dir, oid.SHA1, nil, env, in.tripwire, "blame", "main.c"); got.ExitCode != 99 {
			t.Errorf("git blame with %s: exit %d, stderr %q; want the real git to run", env, got.ExitCode, got.Stderr)
		}
	}
	for _, env := range [][]string{w("GIT_TRACE=0"), w("GIT_TRACE=false"), w("GIT_TRACE="), w("GIT_TRACE2_CONFIG_PARAMS=core.*"),
		w("GIT_TRACE_BARE=1"), w("GIT_TRACE_REDACT=0"), w("GIT_TRACE_CURL_NO_DATA=1")} {
		if got := in.run(t, dir, oid.SHA1, nil, env, in.tripwire, "blame", "main.c"); got.ExitCode != 0 {
			t.Errorf("git blame with %s: exit %d, stderr %q; want goblame to blame", env, got.ExitCode, got.Stderr)
		}
	}
}

// TestShimPassesThrough runs other commands through the shim and straight
// to git: the same output, errors and exit status.
func TestShimPassesThrough(t *testing.T) {
	in := installShim(t)
	if _, err := testgit.Version(); err != nil {
		t.Skipf("skipping: %v", err)
	}
	// A copy of the fixture: git status may refresh the index.
	root := t.TempDir()
	if out, err := exec.Command("cp", "-a", shimFixture(t, oid.SHA1)+"/.", root).CombinedOutput(); err != nil {
		t.Fatalf("copying the fixture: %v\n%s", err, out)
	}
	w := func(s ...string) []string { return s }
	cases := []shimCase{
		{dir: "r", args: w("status")},
		{dir: "r", args: w("status", "--porcelain=v2", "--branch")},
		{dir: "r", args: w("rev-parse", "HEAD")},
		{dir: "r", args: w("-C", "sub", "rev-parse", "--show-prefix", "--show-toplevel")},
		{dir: "r", args: w("log", "-1")},
		{dir: "r", args: w("--no-pager", "log", "--oneline", "--", "main.c")},
		{dir: "r", args: w("--version")},
		{dir: "r", args: w("version")},
		{dir: "r", args: w("rev-parse", "nosuchref")},
		{dir: "r", args: w("rev-parse", "--verify", "-q", "nosuchref")},
		{dir: "r", args: w("diff", "--no-index", "--exit-code", "main.c", "helper.c")},
		{dir: "r", args: w("-c", "x.y=z", "config", "x.y")},
		{dir: "r", args: w("config", "--get-regexp", "^shimtest"), env: w("GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=shimtest.key", "GIT_CONFIG_VALUE_0=from the environment")},
		{dir: "r", args: w("hash-object", "--stdin"), stdin: []byte("blob on standard input\x00\xff\n")},
		{dir: "r", args: w("cat-file", "--batch-check"), stdin: []byte("HEAD\nHEAD:main.c\nnosuch\n")},
		{dir: "r", args: w("show", ":main.c")},
		{dir: "r", args: w("nosuchcommand")},
		{dir: "r", args: w()},
		{dir: "r", args: w("-C", "nosuch", "status")},
		{dir: "r", args: w("--exec-path")},
		{dir: ".", args: w("status")},
	}
	for _, c := range cases {
		dir := filepath.Join(root, c.dir)
		want, err := testgit.Run(dir, oid.SHA1, c.stdin, c.env, "git", c.args...)
		if err != nil {
			t.Fatal(err)
		}
		got := in.run(t, dir, oid.SHA1, c.stdin, c.env, "", c.args...)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("git (the shim) %s (in %s):\n%s", strings.Join(shellArgs(c.args), " "), c.dir, describeDiff(got, want))
		}
	}
}

// TestShimHandsOverUnchanged checks that the real git gets the shim's
// arguments (odd ones included), environment, standard input and working
// directory untouched, and that its exit status is the shim's: the
// recorder, a "real git" that writes them down, is run through the shim
// (found on PATH, and named by GOBLAME_GIT) and straight.
func TestShimHandsOverUnchanged(t *testing.T) {
	in := installShim(t)
	dir := t.TempDir()
	stdin := []byte("standard input\x00with a NUL\nand no final newline")
	argLists := [][]string{
		{"status", "", " spaced ", "new\nline", "--", "-C", "x"},
		{"-C", "sub", "-c", "a.b=c", "--no-pager", "log", "--oneline"},
		{"--git-dir=/nonexistent", "rev-parse"},
		{"-c", "x", "show"},
		{"blame", "--help"},
		{"-p", "blame", "--help"},
		{"--exec-path"},
		{},
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	type record struct{ args, env, stdin, cwd []byte }
	read := func(prefix string) record {
		var r record
		for _, f := range []struct {
			suffix string
			dst    *[]byte
		}{{".args", &r.args}, {".env", &r.env}, {".stdin", &r.stdin}, {".cwd", &r.cwd}} {
			b, err := os.ReadFile(prefix + f.suffix)
			if err != nil {
				t.Fatal(err)
			}
			*f.dst = b
		}
		return r
	}
	recorderPath := filepath.Dir(in.recorder)
	for i, args := range argLists {
		for _, how := range []string{"PATH", "GOBLAME_GIT"} {
			prefix := filepath.Join(dir, fmt.Sprintf("run%d-%s", i, how))
			env := []string{
				"PATH=" + in.shimDir + string(os.PathListSeparator) + recorderPath + string(os.PathListSeparator) + os.Getenv("PATH"),
				"SHIM_RECORD=" + prefix + "-direct", "ODD=a\nb", "GIT_DIR=/nonexistent/from/the/environment",
			}
			if how == "GOBLAME_GIT" {
				env[0] = "PATH=" + in.shimDir + string(os.PathListSeparator) + os.Getenv("PATH")
				env = append(env, "GOBLAME_GIT="+in.recorder)
			}
			runOne := func(name string) int {
				cmd := exec.Command(name, args...)
				cmd.Args[0] = "git"
				cmd.Dir = dir
				cmd.Env = env
				cmd.Stdin = bytes.NewReader(stdin)
				err := cmd.Run()
				if exit, ok := err.(*exec.ExitError); ok {
					return exit.ExitCode()
				}
				if err != nil {
					t.Fatal(err)
				}
				return 0
			}
			if code := runOne(in.recorder); code != 7 {
				t.Fatalf("the recorder exited %d", code)
			}
			want := read(prefix + "-direct") // the shim's run, in the same environment, writes over it
			if code := runOne(in.shim); code != 7 {
				t.Errorf("git (the shim) %q, real git by %s: exit %d, want the real git's 7", args, how, code)
			}
			got := read(prefix + "-direct")
			if !bytes.Equal(got.args, want.args) {
				t.Errorf("git (the shim) %q, real git by %s: the real git got arguments %q, want %q", args, how, got.args, want.args)
			}
			if !bytes.Equal(got.env, want.env) {
				t.Errorf("git (the shim) %q, real git by %s: the real git got environment\n%q\nwant\n%q", args, how, got.env, want.env)
			}
			if !bytes.Equal(got.stdin, stdin) || !bytes.Equal(got.cwd, want.cwd) {
				t.Errorf("git (the shim) %q, real git by %s: standard input %q in %q, want %q in %q", args, how, got.stdin, got.cwd, stdin, want.cwd)
			}
		}
	}
}

// TestShimFindsRealGit checks how the shim finds the real git: past its
// own directory on PATH, past copies and links of itself, GOBLAME_GIT
// (a path or a name), GOBLAME_GIT naming the shim, and no git at all.
func TestShimFindsRealGit(t *testing.T) {
	in := installShim(t)
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	dir := t.TempDir()
	copyDir := filepath.Join(dir, "copy")
	linkDir := filepath.Join(dir, "link")
	for _, d := range []string{copyDir, linkDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(in.goblame)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(copyDir, "git"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(in.shim, filepath.Join(linkDir, "git")); err != nil {
		t.Fatal(err)
	}
	version, err := exec.Command(realGit, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	sep := string(os.PathListSeparator)
	gitDir := filepath.Dir(realGit)
	cases := []struct {
		name, shim string
		env        []string
		code       int
		stdout     string
	}{
		{"shim first on PATH", in.shim, []string{"PATH=" + in.shimDir + sep + gitDir}, 0, string(version)},
		{"shim twice, link and copy before git", in.shim, []string{"PATH=" + in.shimDir + sep + linkDir + sep + in.shimDir + sep + copyDir + sep + gitDir}, 0, string(version)},
		{"a copy named git", filepath.Join(copyDir, "git"), []string{"PATH=" + copyDir + sep + in.shimDir + sep + gitDir}, 0, string(version)},
		{"shim not on PATH", in.shim, []string{"PATH=" + gitDir}, 0, string(version)},
		{"GOBLAME_GIT the real git", in.shim, []string{"PATH=" + in.shimDir, "GOBLAME_GIT=" + realGit}, 0, string(version)},
		{"GOBLAME_GIT a name", in.shim, []string{"PATH=" + in.shimDir + sep + gitDir, "GOBLAME_GIT=git"}, 0, string(version)},
		{"GOBLAME_GIT the shim", in.shim, []string{"PATH=" + in.shimDir + sep + gitDir, "GOBLAME_GIT=" + in.shim}, 0, string(version)},
		{"GOBLAME_GIT the link", in.shim, []string{"PATH=" + in.shimDir + sep + gitDir, "GOBLAME_GIT=" + filepath.Join(linkDir, "git")}, 0, string(version)},
		{"no other git", in.shim, []string{"PATH=" + in.shimDir + sep + linkDir + sep + in.shimDir}, 127, ""},
		{"GOBLAME_GIT the shim, no other git", in.shim, []string{"PATH=" + in.shimDir, "GOBLAME_GIT=" + in.shim}, 127, ""},
		{"GOBLAME_GIT missing", in.shim, []string{"PATH=" + in.shimDir + sep + gitDir, "GOBLAME_GIT=" + filepath.Join(dir, "nosuch")}, 127, ""},
	}
	for _, c := range cases {
		cmd := exec.Command(c.shim, "--version")
		cmd.Args[0] = "git"
		cmd.Env = append([]string{"HOME=" + dir}, c.env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || stdout.String() != c.stdout || (code == 0) != (stderr.Len() == 0) {
			t.Errorf("%s: git --version gave exit %d, %q, %q; want exit %d, %q", c.name, code, stdout.String(), stderr.String(), c.code, c.stdout)
		}
	}
}

// TestShimSignals checks that the real git replaces the shim's process
// (the same process id, ended by the signal sent to it) and finds the
// signals ignored that the shim's parent ignored, as when run straight.
func TestShimSignals(t *testing.T) {
	in := installShim(t)
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skipf("skipping: no /proc: %v", err)
	}
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	root := shimFixture(t, oid.SHA1)
	dir := filepath.Join(root, "r")

	cmd := exec.Command(in.shim, "cat-file", "--batch-check")
	cmd.Args[0] = "git"
	cmd.Dir = dir
	cmd.Env = in.shimEnv(testgit.Env(oid.SHA1), "")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := stdin.Write([]byte("HEAD\n")); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.Contains(line, " commit ") {
		t.Errorf("git cat-file --batch-check through the shim answered %q, %v", line, err)
	}
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", cmd.Process.Pid))
	if want, _ := filepath.EvalSymlinks(realGit); err != nil || exe != want {
		t.Errorf("process %d runs %q (%v), want the real git %q", cmd.Process.Pid, exe, err, want)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("git cat-file through the shim, sent SIGTERM: %v (%v), want killed by SIGTERM", cmd.ProcessState, err)
	}

	// Ignored signals: what a command git runs finds ignored.
	sigIgn := func(git string) string {
		c := exec.Command("sh", "-c", `trap '' QUIT PIPE TERM USR1; exec "$0" -c alias.sigs='!grep ^SigIgn /proc/self/status' sigs`, git)
		c.Dir = dir
		c.Env = in.shimEnv(testgit.Env(oid.SHA1), "")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", git, err, out)
		}
		return string(out)
	}
	if got, want := sigIgn(in.shim), sigIgn(realGit); got != want {
		t.Errorf("through the shim git's commands find %q, straight %q", got, want)
	}
}

// TestPlanShim checks how the shim reads git's global options: what it
// does itself and what it leaves to git (the cases above compare the
// effects with git's).
func TestPlanShim(t *testing.T) {
	terminal := func() bool { return true }
	cases := []struct {
		args    []string
		env     []string
		handled bool
		effects []shimEffect
		command string
		rest    []string
	}{
		{args: []string{"blame", "f"}, handled: true, command: "blame", rest: []string{"f"}},
		{args: []string{"-C", "a", "-C", "", "-C", "b", "annotate"}, handled: true, command: "annotate",
			effects: []shimEffect{{kind: effectChdir, value: "a"}, {kind: effectChdir, value: "b"}}},
		{args: []string{"-c", "a.b=c=d", "-c", "e", "pickaxe", "--help"}, handled: false},
		{args: []string{"-c", "a.b=c=d", "-c", "e", "pickaxe", "-h"}, handled: true, command: "pickaxe", rest: []string{"-h"},
			effects: []shimEffect{{kind: effectConfig, name: "a.b", value: "c=d", hasValue: true}, {kind: effectConfig, name: "e"}}},
		{args: []string{"--config-env=a.b=c=V", "blame"}, env: []string{"V=1"}, handled: true, command: "blame",
			effects: []shimEffect{{kind: effectConfigEnv, name: "a.b=c", value: "V"}}},
		{args: []string{"--config-env", "a.b=GIT_DIR", "blame"}, handled: false},
		{args: []string{"--git-dir=x", "--config-env", "a.b=GIT_DIR", "blame"}, handled: true, command: "blame",
			effects: []shimEffect{{kind: effectSetenv, name: "GIT_DIR", value: "x"}, {kind: effectConfigEnv, name: "a.b", value: "GIT_DIR"}}},
		{args: []string{"--bare", "--config-env", "a.b=GIT_IMPLICIT_WORK_TREE", "blame"}, handled: true, command: "blame",
			effects: []shimEffect{{kind: effectBare}, {kind: effectConfigEnv, name: "a.b", value: "GIT_IMPLICIT_WORK_TREE"}}},
		{args: []string{"-P", "--work-tree", "w", "--no-optional-locks", "blame"}, handled: true, command: "blame",
			effects: []shimEffect{{kind: effectSetenv, name: "GIT_WORK_TREE", value: "w"}, {kind: effectSetenv, name: "GIT_OPTIONAL_LOCKS", value: "0"}, {kind: effectSetenv, name: "GIT_PAGER", value: "cat"}}},
		{args: []string{"-p", "blame"}, handled: false}, // standard output on a terminal
		{args: []string{"-p", "-P", "blame"}, handled: true, command: "blame", effects: []shimEffect{{kind: effectSetenv, name: "GIT_PAGER", value: "cat"}}},
		{args: []string{"--namespace=", "blame"}, handled: true, command: "blame", effects: []shimEffect{{kind: effectSetenv, name: "GIT_NAMESPACE"}}},
		{args: []string{"--namespace=n", "blame"}, handled: false},
		{args: []string{"blame"}, env: []string{"GIT_NAMESPACE=n"}, handled: false},
		{args: []string{"blame"}, env: []string{"GIT_TRACE=1"}, handled: false},
		{args: []string{"blame"}, env: []string{"GIT_TRACE=0", "GIT_TRACE2_BRIEF=1"}, handled: true, command: "blame"},
		{args: []string{"blame"}, env: []string{"GIT_PAGER_IN_USE="}, handled: false},
		{args: []string{"--exec-pathx", "blame"}, handled: false},
		{args: []string{"--git-dir"}, handled: false},
		{args: []string{"status"}, handled: false},
		{args: []string{}, handled: false},
	}
	for _, c := range cases {
		p := planShim(c.args, c.env, terminal)
		if p.delegate == c.handled {
			t.Errorf("%q: delegate %v (%s), want %v", c.args, p.delegate, p.reason, !c.handled)
			continue
		}
		if !c.handled {
			continue
		}
		if p.command != c.command || !reflect.DeepEqual(p.effects, c.effects) || len(p.args) != len(c.rest) || (len(c.rest) > 0 && !reflect.DeepEqual(p.args, c.rest)) {
			t.Errorf("%q: %s %q, effects %+v; want %s %q, %+v", c.args, p.command, p.args, p.effects, c.command, c.rest, c.effects)
		}
	}
}
