package cli

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// ancestryScript makes a history with two side branches merged, an
// annotated tag and a light one on the same main commit, and a
// working-tree change: every line of "file" is changed by one commit,
// on main, on a side branch or by the merges' parents.
//
//	R - A ------ B - C --- M - D ---- N - E   (main; B tagged tB and lB)
//	     \            /           /
//	      S1 ---- S2 -            /           (side1)
//	                 B - T1 -----             (side2, from B)
//
// Beside r: bare.git, a bare clone; bisect and terms, clones in the middle
// of a bisection (refs/bisect/bad and good-1; BISECT_TERMS new and old;
// terms' HEAD reflog names an object it lacks); shared, a clone that
// borrows r's objects (an alternate).
const ancestryScript = `git init -q r && cd r
seq 1 24 | sed 's/^/line /' >file
commit_all R
sed -i 's/^line 2$/line 2 A/' file
commit_all A
git checkout -q -b side1
sed -i 's/^line 5$/line 5 S1/' file
commit_all S1
sed -i 's/^line 8$/line 8 S2/' file
commit_all S2
git checkout -q main
sed -i 's/^line 11$/line 11 B/' file
commit_all B
git tag -a -m "tag B" tB
git tag lB
git checkout -q -b side2
sed -i 's/^line 14$/line 14 T1/' file
commit_all T1
git checkout -q main
sed -i 's/^line 17$/line 17 C/' file
commit_all C
test_tick
git merge -q --no-edit side1
sed -i 's/^line 20$/line 20 D/' file
commit_all D
test_tick
git merge -q --no-edit side2
sed -i 's/^line 23$/line 23 E/' file
commit_all E
sed -i 's/^line 24$/line 24 uncommitted/' file
git clone -q --bare . ../bare.git
cd .. && git clone -q r bisect && cd bisect
git update-ref refs/bisect/bad HEAD && git update-ref refs/bisect/good-1 HEAD~3
cd .. && git clone -q r terms && cd terms
printf 'new\nold\n' >.git/BISECT_TERMS
git update-ref refs/bisect/new HEAD~1 && git update-ref refs/bisect/old-x HEAD~3 && git update-ref refs/bisect/old-y origin/side1
printf '%s %s A U Thor <author@example.com> 1112912900 -0700\tpruned\n' $(git rev-parse HEAD) $(echo pruned | git hash-object --stdin) >>.git/logs/HEAD
cd .. && git clone -q --shared r shared
`

// TestAncestryPathMatchesGit: --ancestry-path keeps, of a range's
// commits, those that are a bottom's descendants or ancestors (the rest
// are boundaries); --ancestry-path=<commit> makes bottoms of its own,
// with its ancestors off the path when it names a tag; without a bottom
// git dies.
func TestAncestryPathMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "ancestry", ancestryScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, args := range [][]string{
			{"--ancestry-path", "side1~1..main", "--", "file"},
			{"--ancestry-path", "-s", "--root", "main~5..main", "--", "file"},
			{"--ancestry-path", "side2..main", "--", "file"},
			{"--ancestry-path", "side1~1..main", "^side2", "--", "file"},
			{"--ancestry-path", "--first-parent", "side1~1..main", "--", "file"},
			{"--ancestry-path", "-p", "tB..main", "--", "file"},
			{"--ancestry-path", "--reverse", "side1~1..main", "--", "file"},
			{"--ancestry-path", "--reverse", "-p", "tB..main", "--", "file"},
			{"--ancestry-path", "--since=1112912300", "side1~1..main", "--", "file"},
			{"--ancestry-path=lB", "--root", "main", "--", "file"},
			{"--ancestry-path=tB", "--root", "main", "--", "file"},
			{"--ancestry-path=tB^{commit}", "--root", "main", "--", "file"},
			{"--ancestry-path=side1", "main", "--", "file"},
			{"--ancestry-path=side2", "--ancestry-path=side1~1", "-p", "main", "--", "file"},
			{"--ancestry-path=lB", "--ancestry-path", "side1..main", "--", "file"},
			{"--ancestry-path=side1", "--reverse", "main~4..main", "--", "file"},
			{"--ancestry-path=side1", "--incremental", "main", "--", "file"},
			// Without a bottom git dies.
			{"--ancestry-path", "main", "--", "file"},
			{"--ancestry-path", "--", "file"},
			{"--ancestry-path", "file"},
			// "--reverse ONE" makes ONE..HEAD, but ONE is no bottom.
			{"--ancestry-path", "--reverse", "main~4", "--", "file"},
			{"--ancestry-path=side1", "--reverse", "main~4", "--", "file"},
			{"--reverse", "--simplify-by-decoration", "main~4", "--", "file"},
			// --no-walk: git prepares no walk, so no ancestry path is
			// made, nor a --reverse blame's children (its lines stay on
			// the start); a range's bottom after it ends it.
			{"--no-walk", "--ancestry-path", "main", "--", "file"},
			{"--ancestry-path", "--no-walk=unsorted", "-p", "main", "--", "file"},
			{"--no-walk", "--ancestry-path", "side1~1..main", "--", "file"},
			{"--no-walk", "--reverse", "main~4", "--", "file"},
			{"--no-walk", "--reverse", "-p", "side1~1..main", "--", "file"},
			{"--ancestry-path", "--reverse", "--no-walk", "main~4", "--", "file"},
			// With --first-parent git lists the children itself, down
			// the parents of the commits it has parsed: main~2 parsed
			// main and main~1; lB names a commit it has not parsed
			// the children of.
			{"--no-walk", "--reverse", "--first-parent", "main~2", "--", "file"},
			{"--no-walk", "--reverse", "--first-parent", "lB", "--", "file"},
			// "--reverse TAG": git flags the tag's commit, and the tag
			// stays a revision of its own.
			{"--reverse", "--first-parent", "tB", "--", "file"},
			{"--ancestry-path", "--reverse", "tB", "--", "file"},
			// ONE at HEAD: HEAD, the same object, is flagged too.
			{"--reverse", "--first-parent", "main", "--", "file"},
			{"--no-walk", "--reverse", "--first-parent", "main", "--", "file"},
			{"--reverse", "--first-parent", "main..main", "--", "file"},
			// HEAD, added for "--reverse ONE", is uninteresting when it
			// is ONE: an exclusion after --no-walk, which it ends.
			{"--reverse", "--no-walk", "--ancestry-path", "main", "--", "file"},
		} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
		// The working tree's pseudo commit is a tip of the walk too
		// (uncommitted lines are dated now: git 2.39.x itself only).
		compareWithLiveGit(t, dir, format, nil, nil, "--ancestry-path=lB", "file")
		compareWithLiveGit(t, dir, format, nil, nil, "--ancestry-path=tB", "--root", "file")
	}
}

// reverseTagScript: two commits, an annotated tag on each (tH at HEAD).
const reverseTagScript = `git init -q r && cd r
seq 1 6 | sed 's/^/line /' >file
commit_all P
git tag -a -m "tag P" tP
sed -i 's/^line 3$/line 3 H/' file
commit_all H
git tag -a -m "tag H" tH
`

// TestReverseTagMatchesGit: "--reverse TAG" flags the tag's commit, not
// the tag, and the HEAD git adds is that commit's own object when the
// tag is on HEAD: --first-parent then finds the tag alone for its latest
// commit, and the added HEAD ends --no-walk.
func TestReverseTagMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "reversetag", reverseTagScript)
	for _, format := range testgit.Formats {
		for _, args := range [][]string{
			{"--reverse", "--first-parent", "tH", "--", "file"},
			{"--reverse", "--first-parent", "tP", "--", "file"},
			{"--reverse", "tH", "--", "file"},
			{"--reverse", "--no-walk", "--ancestry-path", "tH", "--", "file"},
			{"--reverse", "--no-walk", "--ancestry-path", "tP", "--", "file"},
		} {
			compareWithGit(t, dirs[format], format, nil, nil, args...)
		}
	}
}

// TestWalkReflogsAndFiltersMatchGit: under -g (--walk-reflogs) git hands
// the commits the revisions name to its reflog walk, so blame does not see
// them (the work tree is blamed; a tag stays; an excluded commit dies);
// --since-as-filter leaves old commits out of the list a --reverse blame
// takes children from, and out of the merges' simplification; --ignore-missing passes over revisions that name
// nothing; --bisect, --reflog, --indexed-objects and --alternate-refs
// list what git lists.
func TestWalkReflogsAndFiltersMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "ancestry", ancestryScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, args := range [][]string{
			// (-s: the uncommitted line's time is not shown.)
			{"-g", "-s", "HEAD~1", "--", "file"},
			{"-g", "-s", "lB", "--", "file"},
			{"-g", "tB", "--", "file"},
			{"--walk-reflogs", "-s", "--all", "--", "file"},
			{"-g", "^HEAD~1", "HEAD", "--", "file"},
			{"-g", "side1~1..main", "--", "file"},
			{"-g", "--not", "--branches", "--", "file"},
			{"-g", "HEAD", "^HEAD~1", "nosuch", "--", "file"},
			{"-g", "--reverse", "HEAD~2..HEAD", "--", "file"},
			{"--reverse", "--since-as-filter=1112912250", "side1~1..main", "--", "file"},
			{"--reverse", "-p", "--since-as-filter=1112912250", "--until=1112912500", "main~4..main", "--", "file"},
			{"--since-as-filter=1112912250", "main~4..main", "--", "file"},
			// With merges simplified: git's simplify_merges reaches the
			// filtered commits' parents a generation a round, which a
			// real history never gets through (realrepo_test.go's
			// withoutGitHangs); this one it does.
			{"--simplify-by-decoration", "--since-as-filter=1112912250", "main", "--", "file"},
			{"--simplify-merges", "--since-as-filter=1112912500", "-p", "main", "--", "file"},
			{"--simplify-merges", "--since-as-filter=1112912250", "--first-parent", "main", "--", "file"},
			// --ignore-missing passes over the words that name nothing.
			{"--ignore-missing", "nosuch", "main~2", "--", "file"},
			{"--ignore-missing", "nosuch..main", "^main~3", "main", "--", "file"},
			{"--ignore-missing", "main~3..nosuch", "nosuch^@", "main~1", "--", "file"},
			{"--ignore-missing", "--not", "nosuch", "--not", "main", "--", "file"},
			{"--ignore-missing", "-g", "-s", "main", "nosuch", "--", "file"},
		} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
		compareWithGit(t, dir, format, []byte("buffer\n"), nil, "-g", "-s", "--contents", "-", "HEAD", "--", "file")
		// --reflog and --indexed-objects: every object the reflogs name
		// (git's warning, once a reflog, for one the repository lacks),
		// the index's objects, each named "".
		for _, repo := range []string{"r", "terms", "bare.git"} {
			for _, args := range [][]string{
				{"--reflog", "--", "file"}, {"HEAD", "--reflog", "--", "file"}, {"--not", "--reflog", "HEAD", "--", "file"},
				{"--reverse", "--not", "--reflog", "HEAD", "--", "file"}, {"--indexed-objects", "--", "file"},
				{"HEAD", "--indexed-objects", "--", "file"}, {"--not", "--indexed-objects", "HEAD", "--", "file"},
				{"--reverse", "--not", "--indexed-objects", "HEAD", "--", "file"}, {"--alternate-refs", "HEAD", "--", "file"},
				// A bare repository's revisions get HEAD only when
				// there are none: ^A alone wants a work tree there.
				{"^HEAD~1", "--", "file"}, {"--reverse", "--not", "HEAD~2", "--", "file"},
			} {
				// (-s: r's uncommitted line is dated now.)
				compareWithGit(t, filepath.Join(filepath.Dir(dir), repo), format, nil, nil, append([]string{"-s"}, args...)...)
			}
		}
		// --bisect: the bad term's refs, then the good term's as
		// exclusions (BISECT_TERMS names the terms).
		for _, repo := range []string{"r", "bisect", "terms"} {
			for _, args := range [][]string{
				// (-s: r's uncommitted line is dated now.)
				{"-s", "--bisect", "--", "file"}, {"--bisect", "HEAD", "--", "file"}, {"-s", "--not", "--bisect", "HEAD", "--", "file"},
				{"--reverse", "--bisect", "--", "file"}, {"--exclude=refs/bisect/*", "--bisect", "HEAD", "--", "file"},
			} {
				compareWithGit(t, filepath.Join(filepath.Dir(dir), repo), format, nil, nil, args...)
			}
		}
		bare := filepath.Join(filepath.Dir(dir), "bare.git")
		for _, args := range [][]string{{"-g", "HEAD", "--", "file"}, {"-g", "--", "file"}, {"-g", "tB", "--", "file"}} {
			compareWithGit(t, bare, format, nil, nil, args...)
		}
	}
}

// TestAlternateRefsMatchGit: --alternate-refs takes the object names a
// command run for each alternate's repository prints (git for-each-ref,
// core.alternateRefsPrefixes' refs, or core.alternateRefsCommand), each a
// revision named ".alternate"; a line that is no object name ends the list
// with git's warning, a command that fails or is missing gives git's
// lines. The git shim answers it too.
func TestAlternateRefsMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "ancestry", ancestryScript)
	cfg := func(k, v string) []string {
		return []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=" + k, "GIT_CONFIG_VALUE_0=" + v}
	}
	for _, format := range testgit.Formats {
		shared := filepath.Join(filepath.Dir(dirs[format]), "shared")
		for _, c := range []struct {
			env  []string
			args []string
		}{
			{nil, []string{"--alternate-refs", "HEAD", "--", "file"}},
			{nil, []string{"-s", "--alternate-refs", "--", "file"}},
			{nil, []string{"--not", "--alternate-refs", "--not", "HEAD", "--", "file"}},
			{nil, []string{"^HEAD~2", "--alternate-refs", "--", "file"}},
			{cfg("core.alternateRefsPrefixes", "refs/heads/side1"), []string{"-s", "--alternate-refs", "--", "file"}},
			{cfg("core.alternateRefsPrefixes", "refs/heads/side1 refs/tags"), []string{"--alternate-refs", "--", "file"}},
			{cfg("core.alternateRefsCommand", `git --git-dir="$1" rev-parse side2 #`), []string{"-s", "--alternate-refs", "--", "file"}},
			{cfg("core.alternateRefsCommand", "echo garbage"), []string{"--alternate-refs", "HEAD", "--", "file"}},
			{cfg("core.alternateRefsCommand", "nosuchcommand"), []string{"--alternate-refs", "HEAD", "--", "file"}},
			{cfg("core.alternateRefsCommand", "exit 3 #"), []string{"--alternate-refs", "HEAD", "--", "file"}},
			{cfg("core.alternateRefsCommand", "kill -TERM $$ #"), []string{"--alternate-refs", "HEAD", "--", "file"}},
		} {
			compareWithGit(t, shared, format, nil, c.env, c.args...)
		}
	}
	if p := planShim([]string{"blame", "--alternate-refs", "HEAD", "--", "file"}, nil, func() bool { return false }); p.delegate {
		t.Errorf("git blame --alternate-refs through the shim: left to git (%s)", p.reason)
	}
}

// topoScript makes a history where a side branch forks three commits
// below a range's bottom (bot) and is merged above it, taking back a
// line the main line changed below the bottom, with a commit-graph; and
// rev, a side branch merged back whose commits keep a line the main line
// deletes (one authored earlier than it was committed), where the order
// of a commit's children decides a --reverse blame.
const topoScript = `git init -q r && cd r
seq 1 12 | sed 's/^/line /' >f
commit_all R
sed -i 's/^line 1$/line 1 A/' f
commit_all A
sed -i 's/^line 2$/line 2 X/' f
commit_all X
git branch side
for i in 3 4 5; do sed -i "s/^line $i\$/line $i B/" f; commit_all B$i; done
git tag bot
sed -i 's/^line 10$/line 10 C/' f
commit_all C
git checkout -q side
sed -i 's/^line 12$/line 12 S1/' f
commit_all S1
git checkout -q main
test_tick
git merge -q --no-commit side >/dev/null 2>&1 || :
sed -i 's/^line 3 B$/line 3/' f
git add f
git commit -q -m M
git commit-graph write --reachable
cd .. && git init -q rev && cd rev
seq 1 12 | sed 's/^/line /' >f
commit_all R
git tag base
git checkout -q -b side
sed -i 's/^line 12$/line 12 S1/' f
commit_all S1
sed -i 's/^line 11$/line 11 S2/' f
test_tick
GIT_AUTHOR_DATE="1112911000 -0700" git commit -q -am S2
git checkout -q main
sed -i '/^line 9$/d' f
commit_all C1
sed -i 's/^line 1$/line 1 C2/' f
commit_all C2
test_tick
git merge -q --no-edit side >/dev/null 2>&1
sed -i 's/^line 5$/line 5 E/' f
commit_all E
git commit-graph write --reachable
`

// TestTopoOrderRangesMatchGit: under --topo-order (and its kin, and
// --graph) with the commit-graph's generation numbers git prepares its
// topological walk instead of limiting the walk for a range, and marks
// UNINTERESTING only down to the lowest generation of the revisions:
// blame goes past the bottom where a side branch forked below it leads
// (here to the root), which the limiting pass (without the graph, or
// without --topo-order) makes a boundary. A limited walk's list is sorted
// in the order asked, which orders the children of a --reverse blame.
func TestTopoOrderRangesMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "topo", topoScript)
	noGraph := []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.commitGraph", "GIT_CONFIG_VALUE_0=false"}
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, env := range [][]string{nil, noGraph} {
			for _, args := range [][]string{
				{"bot..HEAD", "--", "f"},
				{"--topo-order", "bot..HEAD", "--", "f"},
				{"--date-order", "-p", "bot..HEAD", "--", "f"},
				{"--author-date-order", "--incremental", "^bot", "HEAD", "--", "f"},
				{"--graph", "bot..HEAD", "--", "f"},
				{"--topo-order", "--first-parent", "bot..HEAD", "--", "f"},
				{"--topo-order", "bot~1..HEAD", "--", "f"},
				{"--topo-order", "--since=1112912200", "bot..HEAD", "--", "f"},
			} {
				compareWithGit(t, dir, format, nil, env, args...)
			}
			// A --reverse blame passes lines to a commit's children in
			// the order of the limited list, which the order sorts.
			rev := filepath.Join(filepath.Dir(dir), "rev")
			for _, order := range []string{"--topo-order", "--date-order", "--author-date-order", "--first-parent"} {
				compareWithGit(t, rev, format, nil, env, "--reverse", order, "base..HEAD", "--", "f")
			}
		}
	}
}

// remergeScript makes a side branch that main merges and that merges
// main back: X (on main) merges S, and H (on the side, after S2) merges
// X. S is an ancestor of the bottom X through X's second parent, and of
// H through its first parent, S2.
const remergeScript = `git init -q r && cd r
seq 1 6 | sed 's/^/line /' >file
commit_all base
git checkout -q -b side
sed -i 's/^line 2$/line 2 S/' file
commit_all S
git checkout -q main
sed -i 's/^line 4$/line 4 A/' file
commit_all A
test_tick
git merge -q --no-edit side
git tag X
git checkout -q side
sed -i 's/^line 6$/line 6 S2/' file
commit_all S2
test_tick
git merge -q --no-edit main
`

// TestExcludeFirstParentOnlyMatchesGit: --exclude-first-parent-only
// spreads a bottom's UNINTERESTING along first parents only (git's
// mark_parents_uninteresting and process_parents), so S, which the
// bottom X reaches through its second parent, is still blamed where H
// (side) reaches it through S2; without the option it is a boundary.
func TestExcludeFirstParentOnlyMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "remerge", remergeScript)
	for _, format := range testgit.Formats {
		for _, args := range [][]string{
			{"--exclude-first-parent-only", "X..side", "--", "file"},
			{"X..side", "--", "file"},
			{"--exclude-first-parent-only", "-p", "side", "^X", "--", "file"},
			{"--exclude-first-parent-only", "--reverse", "X..side", "--", "file"},
			{"--exclude-first-parent-only", "--first-parent", "X..side", "--", "file"},
			{"--exclude-first-parent-only", "--incremental", "side~1..side", "--", "file"},
		} {
			compareWithGit(t, dirs[format], format, nil, nil, args...)
		}
	}
}
