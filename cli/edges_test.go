package cli

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// edgesScript is a short linear history for edge cases of the command
// line that git answers in its own way.
const edgesScript = `git init -q r && cd r
for i in 1 2 3 4; do seq 1 $((i*3)) >f; commit_all c$i; done
seq 1 20000 >big && commit_all big
`

// TestUnparsableSinceIsNow: git's setup_revisions takes approxidate()'s
// answer without its error flag, so --since=garbage (and an empty date)
// means "now" and every commit is a boundary, with exit 0.
func TestUnparsableSinceIsNow(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-edges", f, edgesScript), "r")
		for _, arg := range []string{"--since=garbage", "--since=", "--after=garbage", "--since=2.weeks.ago", "--max-age=garbage"} {
			if arg == "--since=2.weeks.ago" {
				compareWithGit(t, dir, f, nil, nil, arg, "f")
			} else {
				// The working tree's pseudo commit is dated now too: when
				// the clock ticks between the two, git makes it a boundary
				// (^0000000 Not Committed Yet), so these need git 2.39.x
				// itself (and the retry of a time-dependent output).
				compareWithLiveGit(t, dir, f, nil, nil, arg, "f")
			}
			compareWithGit(t, dir, f, nil, nil, arg, "-p", "HEAD", "--", "f")
		}
	}
}

// TestInsideGitDir: run inside .git of a repository with a work tree,
// git refuses a working-tree blame and blames a named revision; with
// GIT_DIR set and empty it finds no repository.
func TestInsideGitDir(t *testing.T) {
	testgit.Golden(t) // skips without git
	f := oid.SHA1
	dir := filepath.Join(testgit.Fixture(t, "cli-edges", f, edgesScript), "r", ".git")
	compareWithGit(t, dir, f, nil, nil, "f")
	compareWithGit(t, dir, f, nil, nil, "HEAD", "--", "f")
	compareWithGit(t, filepath.Join(dir, "objects"), f, nil, nil, "HEAD", "--", "f")
	// GIT_DIR set and empty: git asks the root directory ("/HEAD"),
	// not the git directory it runs in, and finds none.
	compareWithGit(t, dir, f, nil, []string{"GIT_DIR="}, "HEAD", "--", "f")
	compareWithGit(t, filepath.Dir(dir), f, nil, []string{"GIT_DIR="}, "HEAD", "--", "f")
}

// TestPagerQuitsEarly: when the pager exits before reading everything
// ("q" in less), git dies of SIGPIPE silently: status 141, no message.
func TestPagerQuitsEarly(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	f := oid.SHA1
	dir := filepath.Join(testgit.Fixture(t, "cli-edges", f, edgesScript), "r")
	goldens.RequireFixture(dir)
	var stdout, stderr bytes.Buffer
	env := testEnviron(dir, testgit.Env(f, "GIT_PAGER=exit 0"), nil, &stdout, &stderr)
	env.StdoutIsTerminal = true
	// Megabytes of output: more than a pipe holds, so the writes meet
	// the pager's exit.
	code := Main([]string{"--line-porcelain", "big"}, env)
	if code != 141 || stderr.Len() != 0 {
		t.Errorf("pager gone: exit %d, stderr %q; want 141 and nothing", code, stderr.String())
	}
}

// slashScript writes trees by hand whose one entry is named "x/y" (git's
// tools never write a slash into a name; git blame still finds it).
const slashScript = `git init -q r && cd r
raw() { printf "$(echo $1 | sed 's/../\\x&/g')"; }
b1=$(printf 'one\n' | git hash-object -w --stdin)
b2=$(printf 'one\ntwo\n' | git hash-object -w --stdin)
t1=$({ printf '100644 x/y\0'; raw $b1; } | git hash-object -t tree -w --literally --stdin)
t2=$({ printf '100644 x/y\0'; raw $b2; } | git hash-object -t tree -w --literally --stdin)
test_tick; c1=$(echo c1 | git commit-tree $t1)
test_tick; c2=$(echo c2 | git commit-tree -p $c1 $t2)
git update-ref refs/heads/main $c2
`

// TestSlashInTreeEntryName: an entry named "x/y" is found as git's
// find_tree_entry finds it.
func TestSlashInTreeEntryName(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-slash-entry", f, slashScript), "r")
		for _, args := range [][]string{{"main", "--", "x/y"}, {"-p", "main", "--", "x/y"}, {"--incremental", "main", "--", "x/y"}, {"main", "--", "x"}} {
			compareWithGit(t, dir, f, nil, nil, args...)
		}
	}
}

// TestReflogRevisions: <ref>@{n} and @{n} read the reflog as git's
// read_ref_at does, its errors included.
func TestReflogRevisions(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-edges", f, edgesScript), "r")
		// five commits: the reflog of main has five entries
		for _, rev := range []string{"HEAD@{1}", "main@{2}", "main@{0}", "@{0}", "@{1}", "@{4}", "main@{5}", "main@{6}", "HEAD@{99}", "nosuch@{1}", "main@{1}~1"} {
			compareWithGit(t, dir, f, nil, nil, rev, "--", "f")
		}
		compareWithGit(t, dir, f, nil, nil, "-p", "main@{1}..main@{0}", "--", "f")
	}
}

// TestAnnotate: "goblame annotate ..." prints what git annotate prints,
// its usage and errors included.
func TestAnnotate(t *testing.T) {
	g := testgit.Golden(t)
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-edges", f, edgesScript), "r")
		for _, args := range [][]string{{"f"}, {"-h"}, {"-L", "2,3", "f"}, {"HEAD~1", "--", "f"}, {"-p", "f"}, {"--incremental", "f"}, {"-L", "x", "f"}, {"-e", "-w", "f"}, {"nosuch"}} {
			want := g.Run(testgit.Case{Dir: dir, Format: f, Args: append([]string{"annotate"}, args...)})
			got := runGoblame(dir, f, nil, nil, append([]string{"annotate"}, args...)...)
			if got.ExitCode != want.ExitCode || !bytes.Equal(got.Stdout, want.Stdout) || !bytes.Equal(got.Stderr, want.Stderr) {
				t.Errorf("annotate %v: exit %d (git %d)\n%s", args, got.ExitCode, want.ExitCode, describeDiff(got, want))
			}
		}
	}
}

// TestMessageSearchRevisions: rev^{/re} and :/re find the newest commit
// whose message matches (an extended regex; "!-" negates, "!!" is "!").
func TestMessageSearchRevisions(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-edges", f, edgesScript), "r")
		for _, rev := range []string{"HEAD^{/c2}", "HEAD^{/c[34]}", "HEAD^{/!-big}", "HEAD^{/nomatch}", "HEAD~2^{/c}", "HEAD^{/!x}",
			":/c3", ":/c[12]", ":/!-big", ":/nomatch", ":/!!x", "HEAD^{/c3}~1", ":/c2..HEAD"} {
			compareWithGit(t, dir, f, nil, nil, rev, "--", "f")
		}
	}
}

// refsScript has branches, an annotated and a light tag, and a remote.
const refsScript = `git init -q r && cd r
for i in 1 2 3 4; do seq 1 $((i*3)) >f; commit_all c$i; done
git branch side HEAD~2 && git tag -a -m tagged v1 HEAD~1 && git tag v2 HEAD~3
git update-ref refs/remotes/origin/main HEAD~1
cd .. && git init -q one && cd one && seq 1 3 >f && commit_all only && git tag t1
`

// worktreesScript: r's history c1-c3, a linked worktree w2 at c2 with a
// commit of its own (w2c) and refs of its own (refs/worktree/mine,
// refs/bisect/bad; r has refs/worktree/rmine), another (w3) detached at
// c1, and a stale entry
// (worktrees/gone, without a gitdir file) git passes over; r is then
// reset to c1, so that w2c and c3 are reachable only from w2's HEAD and
// the reflogs; r also has a reflog git cannot resolve the ref of (a bad
// name) and ones it passes over (.hidden, x.lock). In s, the index holds a blob the repository lacks; in t,
// whose index has nothing, a linked worktree's index is cut short. b has
// refs git lists but cannot resolve (a garbled file, a name it refuses)
// and a symbolic ref that leads nowhere (left out), and a bisection
// whose good ref is garbled.
const worktreesScript = `git init -q r && cd r
for i in 1 2 3; do echo "l$i" >>f; commit_all c$i; done
git worktree add -q ../w2 HEAD~1
(cd ../w2 && echo "w2 line" >>f && commit_all w2c && git update-ref refs/worktree/mine HEAD~1 && git update-ref refs/bisect/bad HEAD)
git update-ref refs/worktree/rmine HEAD
git worktree add -q --detach ../w3 HEAD~2
mkdir .git/worktrees/gone
git reset -q --hard HEAD~2
cp .git/logs/HEAD ".git/logs/refs/heads/bad name"
cp .git/logs/HEAD .git/logs/refs/heads/.hidden && cp .git/logs/HEAD .git/logs/refs/heads/x.lock
cd .. && git init -q s && cd s
echo a >f && commit_all s1
git update-index --add --info-only --cacheinfo 100644,` + "`" + `printf '%0*d' $(git rev-parse HEAD | wc -c | tr -d ' ') 0 | sed 's/0$//; s/^0/1/'` + "`" + `,a0
cd .. && git init -q t && cd t
echo a >f && commit_all t1
git worktree add -q ../t2
printf garbage >.git/worktrees/t2/index
git rm -q --cached f
cd .. && git init -q b && cd b
echo a >f && commit_all b1 && git branch side
echo garbage >.git/refs/heads/garbled
git rev-parse HEAD >".git/refs/heads/bad name"
echo "ref: refs/heads/nowhere" >.git/refs/heads/dangling
mkdir -p .git/refs/bisect && git rev-parse HEAD >.git/refs/bisect/bad && echo garbage >.git/refs/bisect/good-x
`

// TestOtherWorktreesMatchGit: --all lists the other worktrees' HEADs too
// ("main-worktree/HEAD", "worktrees/<id>/HEAD"), --reflog their reflogs
// (and the shared ones again for each linked worktree, with git's "bad
// ref" error for each that does not resolve, named as each worktree's
// store names it), --indexed-objects their indexes, whose objects are not
// read (a blob the repository lacks is git's "Non commit ?", not "bad
// object"); every ref listing lists the refs git cannot resolve ("bad
// object <name>"); and another worktree's HEAD's reflog is read where it
// lives ("worktrees/<id>/HEAD@{1}", "main-worktree/HEAD@{1}").
func TestOtherWorktreesMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "cli-worktrees", f, worktreesScript)
		for _, c := range []struct {
			dir  string
			args []string
		}{
			{"r", []string{"--all"}},
			{"r", []string{"--reflog"}},
			{"r", []string{"worktrees/w2/HEAD", "--not", "--all"}},
			{"r", []string{"worktrees/w2/HEAD", "--not", "--reflog"}},
			{"r", []string{"worktrees/w2/HEAD", "--not", "--indexed-objects"}},
			{"r", []string{"--exclude=worktrees/*", "--all"}},
			{"r", []string{"-p", "worktrees/w2/HEAD", "--not", "--exclude=worktrees/w2/HEAD", "--all"}},
			{"w2", []string{"--all"}},
			{"w2", []string{"main-worktree/HEAD~0", "--not", "--all"}},
			{"w2", []string{"HEAD", "--not", "--reflog"}},
			{"w2", []string{"--indexed-objects"}},
			{"w3", []string{"--all"}},
			// A worktree's own refs (refs/worktree/, refs/bisect/)
			// are its git directory's, not the main worktree's.
			{"w2", []string{"--glob=refs/worktree/*"}},
			{"w2", []string{"HEAD", "--not", "--glob=refs/*"}},
			{"w3", []string{"--glob=refs/worktree/*"}},
			{"r", []string{"--glob=refs/worktree/*"}},
			// Another worktree's HEAD's reflog, by count.
			{"r", []string{"worktrees/w2/HEAD@{1}"}},
			{"w2", []string{"main-worktree/HEAD@{1}"}},
			{"w2", []string{"-p", "main-worktree/HEAD@{2}..worktrees/w2/HEAD@{0}"}},
			{"s", []string{"--indexed-objects"}},
			{"s", []string{"HEAD", "--not", "--indexed-objects"}},
			{"t", []string{"--indexed-objects"}},
			{"b", []string{"--all"}},
			{"b", []string{"--branches"}},
			{"b", []string{"HEAD", "--not", "--glob=refs/heads/*"}},
			{"b", []string{"--exclude=garbled", "--branches"}},
			{"b", []string{"--exclude=garbled", "--exclude=bad?name", "--branches"}},
			{"b", []string{"--ignore-missing", "--branches=s*"}},
			{"b", []string{"--ignore-missing", "--branches"}},
			{"b", []string{"nosuch", "--all"}},
			{"b", []string{"--bisect"}},
			{"b", []string{"--ignore-missing", "--bisect"}},
		} {
			compareWithGit(t, filepath.Join(root, c.dir), f, nil, nil, append(c.args, "--", "f")...)
		}
		// GIT_REF_PARANOIA off leaves the refs git cannot resolve out;
		// a value that is no boolean is git's death at the first
		// listing.
		b := filepath.Join(root, "b")
		for _, v := range []string{"false", "maybe"} {
			compareWithGit(t, b, f, nil, []string{"GIT_REF_PARANOIA=" + v}, "--exclude=main", "--branches", "--", "f")
			compareWithGit(t, b, f, nil, []string{"GIT_REF_PARANOIA=" + v}, "HEAD", "--", "f")
		}
	}
}

// TestRefListingRevisions: --all, --branches, --tags, --remotes, --glob,
// --exclude and --exclude-hidden list refs as setup_revisions does: one tip blames, more
// are git's "More than one commit to dig from" with git's names.
func TestRefListingRevisions(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "cli-ref-listing", f, refsScript)
		for _, repo := range []string{"r", "one"} {
			dir := filepath.Join(root, repo)
			for _, args := range [][]string{
				{"--all"}, {"--branches"}, {"--tags"}, {"--remotes"}, {"--glob=refs/heads/*"}, {"--glob=heads/*"},
				{"--branches=ma*"}, {"--tags=v*"}, {"--exclude=refs/tags/*", "--all"}, {"--exclude=v1", "--tags"},
				{"--exclude=*/v1", "--tags"}, {"--not", "--branches=side"}, {"--exclude=side", "--branches"},
				{"--remotes=origin"}, {"--glob", "refs/remotes/*"}, {"-p", "--tags=t*"},
			} {
				compareWithGit(t, dir, f, nil, nil, append(args, "--", "f")...)
			}
			// --exclude-hidden=<section>: the refs <section>.hideRefs
			// and transfer.hideRefs hide, left out of the next --all or
			// --glob; an "error:" line and the word left out before
			// --branches, --tags and --remotes.
			hide := func(kv ...string) []string {
				env := []string{fmt.Sprintf("GIT_CONFIG_COUNT=%d", len(kv)/2)}
				for i := 0; i < len(kv); i += 2 {
					env = append(env, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", i/2, kv[i]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", i/2, kv[i+1]))
				}
				return env
			}
			for _, c := range []struct {
				env  []string
				args []string
			}{
				{nil, []string{"--exclude-hidden=receive", "--all"}},
				{nil, []string{"--exclude-hidden=uploadpack", "HEAD"}},
				{nil, []string{"--exclude-hidden=fetch", "--all"}},
				{nil, []string{"--exclude-hidden=", "HEAD"}},
				{nil, []string{"--exclude-hidden=receive", "--exclude-hidden=receive", "--all"}},
				{nil, []string{"--exclude-hidden=receive", "--all", "--exclude-hidden=receive", "--not", "--all"}},
				{nil, []string{"--exclude-hidden=receive", "--branches", "HEAD"}},
				{nil, []string{"--exclude-hidden=receive", "--not", "--tags=v*", "HEAD"}},
				{nil, []string{"--exclude-hidden=uploadpack", "--remotes=origin"}},
				{nil, []string{"--exclude-hidden", "receive", "HEAD"}},
				{hide("transfer.hideRefs", "refs/tags/", "receive.hideRefs", "HEAD"), []string{"--exclude-hidden=receive", "--all"}},
				{hide("transfer.hideRefs", "refs/tags/", "receive.hideRefs", "HEAD"), []string{"--exclude-hidden=uploadpack", "--all"}},
				{hide("transfer.hideRefs", "refs", "receive.hideRefs", "!refs/heads/main"), []string{"--exclude-hidden=receive", "--glob=refs/*"}},
				{hide("transfer.hideRefs", "refs", "transfer.hideRefs", "!^refs/heads/main", "transfer.hideRefs", "HEAD"), []string{"--exclude-hidden=receive", "--all"}},
				{[]string{"GIT_CONFIG_PARAMETERS='receive.hideRefs'"}, []string{"--exclude-hidden=receive", "HEAD"}},
				{[]string{"GIT_CONFIG_PARAMETERS='receive.hideRefs'"}, []string{"--exclude-hidden=uploadpack", "HEAD"}},
			} {
				compareWithGit(t, dir, f, nil, c.env, append(c.args, "--", "f")...)
			}
		}
	}
}

// unformattableDateScript commits on top of a normal history a commit
// whose author time is too large to format (written with hash-object:
// git commit refuses it).
const unformattableDateScript = `git init -q r && cd r
seq 1 3 >f && commit_all first
seq 1 5 >f && git add f
tree=$(git write-tree)
id=$(printf 'tree %s\nparent %s\nauthor Big <b@x> 18446744073709551615 +0100\ncommitter C <c@x> 1112912000 +0100\n\nbig\n' $tree $(git rev-parse HEAD) |
  git hash-object -t commit -w --literally --stdin)
git update-ref refs/heads/main $id
git reset -q --hard
`

// TestUnformattableDateMatchesGit: git formats a line's date only where
// it shows it, after it has printed the start of the line: a date it
// cannot format dies with that start on standard output, and blames that
// show no date (-s, porcelain, -t) print every line.
func TestUnformattableDateMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-unformattable-date", f, unformattableDateScript), "r")
		for _, args := range [][]string{
			{"f"}, {"-c", "f"}, {"-s", "f"}, {"-s", "-n", "-f", "f"}, {"-n", "-f", "f"}, {"-t", "f"},
			{"-p", "f"}, {"--incremental", "f"}, {"--date=relative", "f"}, {"-e", "-L", "4,5", "f"},
		} {
			compareWithGit(t, dir, f, nil, nil, args...)
		}
	}
}

// excludesScript has a committed file changed in the work tree, a
// directory d, and an xdg directory whose git/ignore is a directory.
const excludesScript = `git init -q r && cd r
printf 'one\ntwo\n' >f
commit_all one
printf 'one\ntwo\nthree\n' >f
mkdir -p d xdg/git/ignore
touch d/x xdg/git/ignore/x
`

// excludesLoopScript has a commit on a side branch named by MERGE_HEAD,
// a file added to the index, and an exclude file that is a loop of
// symbolic links.
const excludesLoopScript = `git init -q r && cd r
printf 'one\ntwo\n' >f
commit_all one
git checkout -q -b side
printf 'side\n' >s
commit_all side
git checkout -q -
git rev-parse side >.git/MERGE_HEAD
printf 'one\ntwo\nthree\n' >f
printf 'new\n' >new && git add new
ln -s loop2 loop1 && ln -s loop1 loop2
`

// TestExcludeFilesMatchGit: comparing a work-tree blame's uncommitted
// version with HEAD, git reads the standard exclude files
// (setup_standard_excludes in unpack_trees) and dies of one that is a
// directory: core.excludesFile, its default under XDG_CONFIG_HOME, and
// info/exclude (a fixture of its own). A missing or empty name is
// skipped; a blame of a commit, or one that fails before the walk, never
// reads them. -s leaves out the dates of the uncommitted lines.
func TestExcludeFilesMatchGit(t *testing.T) {
	excludes := func(v string) []string {
		return []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.excludesFile", "GIT_CONFIG_VALUE_0=" + v}
	}
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-excludes", format, excludesScript), "r")
		for _, c := range []struct {
			env  []string
			args []string
		}{
			{excludes("d"), []string{"-s", "f"}},
			{excludes("d"), []string{"-s", "--incremental", "-L", "2,3", "f"}},
			{excludes("d"), []string{"-s", "-L", "7,8", "f"}},
			{excludes("d"), []string{"-s", "HEAD", "--", "f"}},
			{excludes(""), []string{"-s", "f"}},
			{excludes("nonexistent"), []string{"-s", "f"}},
			{excludes("d/x"), []string{"-s", "f"}},
			{[]string{"XDG_CONFIG_HOME=" + filepath.Join(dir, "xdg")}, []string{"-s", "f"}},
			{[]string{"XDG_CONFIG_HOME=xdg"}, []string{"-s", "f"}},
		} {
			compareWithGit(t, dir, format, nil, c.env, c.args...)
		}
		// A MERGE_HEAD that is a directory: git opens it and reads no
		// merge parent.
		merge := filepath.Join(testgit.Fixture(t, "cli-merge-head-dir", format, excludesScript+"mkdir .git/MERGE_HEAD\n"), "r")
		compareWithGit(t, merge, format, nil, nil, "-s", "f")
		// An exclude file git cannot access (a loop of symbolic
		// links): git's warning at each comparison with a parent —
		// with HEAD, with MERGE_HEAD's commit, in the search for a
		// new file's origin.
		loop := filepath.Join(testgit.Fixture(t, "cli-excludes-loop", format, excludesLoopScript), "r")
		for _, args := range [][]string{{"-s", "f"}, {"-s", "new"}, {"-s", "-C", "f"}} {
			compareWithGit(t, loop, format, nil, excludes("loop1"), args...)
		}
		// git found from outside the work tree (GIT_DIR and
		// GIT_WORK_TREE relative to it): a work-tree blame names the
		// repository's files from the top of the work tree, where it
		// went, and reads a relative exclude file from there.
		outside := filepath.Dir(dir)
		env := []string{"GIT_DIR=r/.git", "GIT_WORK_TREE=r"}
		compareWithGit(t, outside, format, nil, append(env, excludes("d")...), "-s", "f")
		info := filepath.Join(testgit.Fixture(t, "cli-excludes-info", format, excludesScript+"rm -f .git/info/exclude && mkdir .git/info/exclude\n"), "r")
		for _, gitDir := range []string{"r/.git", "./r/.git", "r/.git/../.git", "r//.git"} {
			// (named as git's chdir_notify reparents the name: the
			// top taken off the front where it textually is)
			compareWithGit(t, filepath.Dir(info), format, nil, []string{"GIT_DIR=" + gitDir, "GIT_WORK_TREE=r"}, "-s", "f")
		}
		compareWithGit(t, info, format, nil, nil, "-s", "f")
		compareWithGit(t, info, format, nil, nil, "-s", "HEAD", "--", "f")
	}
}

// attrDirsScript puts directories where attribute files are read: a
// .gitattributes whose committed copy (in the index) would name a
// textconv driver, info/attributes, and adir for core.attributesFile.
const attrDirsScript = `git init -q r && cd r
mkdir sub
printf 'f diff=up\n' >sub/.gitattributes
printf 'a\n' >sub/f
commit_all one
git config diff.up.textconv 'tr a-z A-Z <'
rm sub/.gitattributes && mkdir sub/.gitattributes && touch sub/.gitattributes/x
mkdir -p .git/info/attributes adir
`

// TestAttributeDirectoriesMatchGit: git opens an attribute file that is
// a directory and reads nothing from it, without a warning and without
// taking the index's copy instead (goblame warns of a FIFO, which git
// would block on). A graft file that is a directory (info/grafts,
// GIT_GRAFT_FILE, -S) is one git's fopen cannot read: "Is a directory",
// the file named as git names it.
func TestAttributeDirectoriesMatchGit(t *testing.T) {
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-attr-dirs", format, attrDirsScript), "r")
		compareWithGit(t, dir, format, nil, nil, "-s", "HEAD", "--", "sub/f")
		compareWithGit(t, dir, format, nil, []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.attributesFile", "GIT_CONFIG_VALUE_0=adir"}, "-s", "HEAD", "--", "sub/f")
		compareWithGit(t, dir, format, nil, []string{"GIT_GRAFT_FILE=adir"}, "-s", "HEAD", "--", "sub/f")
		compareWithGit(t, dir, format, nil, nil, "-s", "-S", "adir", "HEAD", "--", "sub/f")
		grafts := filepath.Join(testgit.Fixture(t, "cli-grafts-dir", format, attrDirsScript+"mkdir .git/info/grafts\n"), "r")
		compareWithGit(t, grafts, format, nil, nil, "-s", "HEAD", "--", "sub/f")
		// From outside the work tree: a blame of a commit names the
		// file from there, a work-tree blame from the top, where it
		// went before reading a commit (and a relative GIT_GRAFT_FILE
		// is taken from there too).
		for _, env := range [][]string{
			{"GIT_DIR=r/.git", "GIT_WORK_TREE=r"}, {"GIT_DIR=./r/.git", "GIT_WORK_TREE=r"},
			{"GIT_DIR=r/.git", "GIT_WORK_TREE=r", "GIT_GRAFT_FILE=.git/info/grafts"},
		} {
			compareWithGit(t, filepath.Dir(grafts), format, nil, env, "-s", "HEAD", "--", "sub/f")
			compareWithGit(t, filepath.Dir(grafts), format, nil, env, "-s", "sub/f")
		}
	}
}

// TestLoneHelpReadsConfigAsGit: in a repository, git reads (and dies of)
// the configuration before it answers a lone -h with the usage; a
// configuration file that is a directory is one git's fopen cannot read,
// which a command dies of at its third reading, after a warning for each;
// an include of one fails the line that names it. Outside a repository,
// the same with the files git reads there.
func TestLoneHelpReadsConfigAsGit(t *testing.T) {
	cfg := func(k, v string) []string {
		return []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=" + k, "GIT_CONFIG_VALUE_0=" + v}
	}
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-excludes", format, excludesScript), "r")
		for _, env := range [][]string{
			nil,
			cfg("core.filemode", "maybe"),
			cfg("blame.date", "bogus"),
			cfg("core.abbrev", "bogus"),
			{"GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "d")},
			// Variables before any section: git's error for each as
			// it loads them, and it goes on.
			{"GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "f")},
			// A broken GIT_WORK_TREE or GIT_DIR: the gentle setup
			// of a lone -h dies of them too.
			{"GIT_WORK_TREE="}, {"GIT_DIR=f"},
		} {
			compareWithGit(t, dir, format, nil, env, "-h")
		}
		compareWithGit(t, dir, format, nil, []string{"GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "f")}, "-s", "HEAD", "--", "f")
		compareWithGit(t, dir, format, nil, []string{"GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "d")}, "-s", "HEAD", "--", "f")
		// An include of a directory: git's warning, and the line that
		// names it fails.
		compareWithGit(t, dir, format, nil, cfg("include.path", filepath.Join(dir, "d")), "-s", "HEAD", "--", "f")
		// Outside a repository git reads the system, global and
		// command-line files for -h as well, and the first two before
		// it finds there is no repository.
		outside := filepath.Dir(dir)
		for _, env := range [][]string{
			nil,
			cfg("blame.date", "bogus"),
			cfg("include.path", filepath.Join(dir, "d")),
			{"GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "d")},
			{"GIT_CONFIG_GLOBAL=" + filepath.Join(dir, "f")}, // not a configuration file
		} {
			compareWithGit(t, outside, format, nil, env, "-h")
			compareWithGit(t, outside, format, nil, env, "f")
		}
	}
}

// alternatesScript lists alternates that are not there: absolute, twice,
// relative through a missing directory, with a trailing slash, and one
// whose last component alone is missing.
const alternatesScript = `git init -q r && cd r
printf 'a\n' >f
commit_all one
mkdir -p .git/objects/info
printf '/nonexistent-goblame\n/nonexistent-goblame\n../x/../missing\n../missing/\n../missing\n' >.git/objects/info/alternates
`

// TestMissingAlternatesMatchGit: git's error line for each alternate it
// cannot link (link_alt_odb_entry: "unable to normalize" when its real
// path does not resolve, "does not exist" when it is no directory), for
// info/alternates and GIT_ALTERNATE_OBJECT_DIRECTORIES, and its warning
// for an info/alternates that is a directory; the blame goes on.
func TestMissingAlternatesMatchGit(t *testing.T) {
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-alternates-missing", format, alternatesScript), "r")
		compareWithGit(t, dir, format, nil, nil, "-s", "HEAD", "--", "f")
		compareWithGit(t, dir, format, nil, []string{"GIT_ALTERNATE_OBJECT_DIRECTORIES=rel//x/../y:/a/b/:f:rel"}, "-s", "HEAD", "--", "f")
		adir := filepath.Join(testgit.Fixture(t, "cli-alternates-dir", format, alternatesScript+"rm .git/objects/info/alternates && mkdir .git/objects/info/alternates\n"), "r")
		compareWithGit(t, adir, format, nil, nil, "-s", "HEAD", "--", "f")
	}
}

// bigDirScript replaces the index and the commit-graph by directories of
// a hundred entries each: larger than the smallest index or graph on any
// file system, so git opens them, maps them, and dies.
const bigDirScript = `git init -q r && cd r
printf 'a\n' >f
commit_all one
git commit-graph write --reachable
for d in .git/index .git/objects/info/commit-graph; do
	rm -f $d && mkdir $d
	for i in $(seq 100); do : >$d/entry-$(printf '%04d' $i); done
done
`

// packDirsScript packs a repository and makes two copies of it, one
// whose multi-pack-index and one whose pack index is a directory of a
// hundred entries.
const packDirsScript = `git init -q r && cd r
printf 'a\n' >f
commit_all one
git repack -qad
cd ..
cp -r r midx && mkdir midx/.git/objects/pack/multi-pack-index
cp -r r idx && i=$(ls idx/.git/objects/pack/*.idx) && rm -f $i && mkdir $i
for d in midx/.git/objects/pack/multi-pack-index idx/.git/objects/pack/*.idx; do
	for i in $(seq 100); do : >$d/entry-$(printf '%04d' $i); done
done
`

// TestMappedDirectoriesMatchGit: an index, commit-graph, multi-pack-index
// or pack index that is a directory is git's fatal mmap failure ("unable
// to map index file: No such device" for a work-tree blame, which reads
// the index; "mmap failed: No such device" for the others, at the first
// object or commit read).
func TestMappedDirectoriesMatchGit(t *testing.T) {
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-mapped-dirs", format, bigDirScript), "r")
		compareWithGit(t, dir, format, nil, nil, "-s", "f")
		compareWithGit(t, dir, format, nil, nil, "-s", "HEAD", "--", "f")
		compareWithGit(t, dir, format, nil, []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.commitGraph", "GIT_CONFIG_VALUE_0=false"}, "-s", "HEAD", "--", "f")
		root := testgit.Fixture(t, "cli-pack-dirs", format, packDirsScript)
		for _, copy := range []string{"midx", "idx"} {
			for _, args := range [][]string{{"-s", "f"}, {"-s", "HEAD", "--", "f"}, {"--incremental", "HEAD", "--", "f"}} {
				compareWithGit(t, filepath.Join(root, copy), format, nil, nil, args...)
			}
		}
	}
}

// TestEmptyAndMissingEnvironmentPathsMatchGit: an empty GIT_INDEX_FILE
// or GIT_GRAFT_FILE is a file git cannot open (no such file: an empty
// index, no grafts), not the working directory; a GIT_WORK_TREE that is
// missing or no directory is git's "this operation must be run in a work
// tree" for a work-tree blame (setup_work_tree cannot go there) and
// nothing for a blame of a commit.
func TestEmptyAndMissingEnvironmentPathsMatchGit(t *testing.T) {
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-excludes", format, excludesScript), "r")
		for _, env := range [][]string{
			{"GIT_INDEX_FILE="}, {"GIT_GRAFT_FILE="},
			{"GIT_WORK_TREE=nonexistent"}, {"GIT_WORK_TREE=f"},
		} {
			compareWithGit(t, dir, format, nil, env, "-s", "f")
			compareWithGit(t, dir, format, nil, env, "-s", "HEAD", "--", "f")
			compareWithGit(t, dir, format, []byte("one\n"), env, "-s", "--contents", "-", "--", "f")
		}
	}
}
