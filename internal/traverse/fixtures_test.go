package traverse

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// The history the differential tests run on, in three parts so that the
// split-graph fixture can write a layer after each. It has: nested
// directories, renames, a non-ASCII file name (Märchen) and directory,
// a symlink, a mode change, merges (one with clock skew on a side
// branch), an octopus merge (EDGE chunk), commits with equal dates,
// a file becoming a directory and back, a gitlink, and a commit touching
// more than 512 paths (a truncated "always maybe" filter).
const historyPart1 = `
git init -q .
mkdir -p a/b d
echo one > a/b/c.txt
echo top > top.txt
echo x > d/x
commit_all root
echo two >> a/b/c.txt
commit_all c2
git mv top.txt top2.txt
commit_all rename
printf 'M\n' > 'Märchen'
commit_all nonascii
mkdir -p 'café'
printf 'e\n' > 'café/été'
commit_all nonascii-dir
ln -s a/b/c.txt link
commit_all symlink
chmod +x d/x
commit_all modechange
git checkout -q -b side HEAD~2
echo side >> a/b/c.txt
commit_all side1
echo s2 > side.txt
commit_all side2
git checkout -q main
echo main >> top2.txt
commit_all main1
test_tick
git merge -q --no-edit side
`

const historyPart2 = `
git checkout -q -b o1 main
echo o1 > o1
commit_all o1
git checkout -q -b o2 main
echo o2 > o2
commit_all o2
git checkout -q -b o3 main
echo o3 > o3
commit_all o3
git checkout -q main
test_tick
git merge -q --no-edit o1 o2 o3
# equal dates: no test_tick between these
echo same1 >> a/b/c.txt
git add -A
git commit -q -m same1
echo same2 >> a/b/c.txt
git add -A
git commit -q -m same2
printf 'M2\n' >> 'Märchen'
git add -A
git commit -q -m same3
# a side branch with clock skew (its commits are dated in the past)
git checkout -q -b skew HEAD~1
echo skew1 > skew.txt
git add -A
GIT_COMMITTER_DATE="1112900000 -0700" git commit -q -m skew1
echo skew2 >> skew.txt
git add -A
GIT_COMMITTER_DATE="1112800000 -0700" git commit -q -m skew2
git checkout -q main
test_tick
git merge -q --no-edit skew
`

const historyPart3 = `
git rm -q d/x
mkdir -p d/x
echo inner > d/x/y
commit_all file2dir
rm -rf a/b
echo nowfile > a/b
commit_all dir2file
git update-index --add --cacheinfo 160000,$(git rev-parse HEAD~1),sub
commit_all gitlink
mkdir big
for i in $(seq 1 600); do echo $i > big/f$i; done
commit_all big
echo more >> big/f7
printf 'M3\n' >> 'Märchen'
commit_all small-after-big
git checkout -q -b late HEAD~3
echo late > late.txt
commit_all late1
git checkout -q main
test_tick
git merge -q --no-edit late
echo tail >> top2.txt
commit_all tail
`

const history = historyPart1 + historyPart2 + historyPart3

// Fixture variants of the same history.
var graphVariants = []struct {
	name   string
	script string
	graph  bool // a commit-graph is present
	bloom  bool // ... with changed-path filters
	layers int
}{
	{"nograph", history, false, false, 0},
	{"graph", history + "git commit-graph write --reachable --changed-paths\n", true, true, 1},
	{"graph-nobloom", history + "git commit-graph write --reachable\n", true, false, 1},
	{"split", historyPart1 + "git commit-graph write --reachable --changed-paths\n" +
		historyPart2 + "git commit-graph write --reachable --changed-paths --split=no-merge\n" +
		historyPart3 + "git commit-graph write --reachable --changed-paths --split=no-merge\n", true, true, 3},
	// Chains where one layer has filters and the other has none.
	{"split-mixed", historyPart1 + historyPart2 + "git commit-graph write --reachable --changed-paths\n" +
		historyPart3 + "git commit-graph write --reachable --split=no-merge --no-changed-paths\n", true, true, 2},
	{"split-mixed2", historyPart1 + historyPart2 + "git commit-graph write --reachable --no-changed-paths\n" +
		historyPart3 + "git commit-graph write --reachable --split=no-merge --changed-paths\n", true, true, 2},
}

func historyFixture(t testing.TB, variant string, format oid.Format) string {
	t.Helper()
	testgit.RequireAnyGit(t) // builds it; git's answers come from gitMemo
	for _, v := range graphVariants {
		if v.name == variant {
			return testgit.Fixture(t, "traverse-"+v.name, format, v.script)
		}
	}
	t.Fatalf("no variant %q", variant)
	return ""
}

// pathsOfInterest are the paths the per-commit comparisons ask about.
var pathsOfInterest = []string{
	"a/b/c.txt", "a/b", "a", "top.txt", "top2.txt", "Märchen", "café/été", "café",
	"link", "d/x", "d/x/y", "d", "side.txt", "o1", "o2", "o3", "skew.txt", "sub",
	"big/f7", "big/f8", "big", "late.txt", "missing", "a/b/missing", "Märchen/x",
}
