package odb

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// historyScript makes a repository with enough edits to produce deltas:
// files that grow, shrink and change every commit, directories, an
// annotated tag and a tag of a tag.
const historyScript = `
git init -q
for i in $(seq 1 40); do
	seq 1 $((i * 13)) > numbers.txt
	seq $i 300 | sed "s/^/line /" > lines.txt
	echo "version $i" >> log.txt
	mkdir -p dir$((i % 4))
	echo "file $i" > dir$((i % 4))/f$((i % 7))
	if test $((i % 9)) = 0; then git rm -q -r --cached dir1 >/dev/null 2>&1 || true; rm -rf dir1; fi
	commit_all "commit $i"
done
git tag -a v1 -m "annotated tag"
git tag -a v1-outer -m "tag of a tag" v1
`

// fixture builds a named fixture (historyScript followed by extra) for the
// format, skipping the test without git. Any git builds it: the tests on
// it compare object contents, which their hashes name (see catFileAll),
// or the layout the script made.
func fixture(t testing.TB, name string, format oid.Format, extra string) string {
	t.Helper()
	testgit.RequireAnyGit(t)
	return testgit.Fixture(t, "odb-"+name, format, historyScript+extra)
}

// Fixture recipes, each a variation of the object store layout.
var layoutFixtures = []struct {
	name   string
	script string
	dir    string // repository relative to the fixture directory ("" = itself)
	check  func(t *testing.T, l layout)
}{
	{name: "loose", script: "", check: func(t *testing.T, l layout) {
		expect(t, l.packs == 0, "no packs", l)
	}},
	{name: "packed", script: `
git gc -q
echo "after gc" >> log.txt
commit_all "loose after gc"
`, check: func(t *testing.T, l layout) {
		expect(t, l.packs == 1 && l.ofs > 0, "one pack with OFS_DELTA entries", l)
	}},
	{name: "deep", script: `
seq 1 2000 | sed "s/^/a long line of text number /" > big.txt
for i in $(seq 41 200); do
	sed -i "s/^a long line of text number $((i * 7))\$/changed in $i/" big.txt
	echo "appended $i" >> big.txt
	commit_all "deep $i"
done
git repack -adfq --depth=250 --window=250
`, check: func(t *testing.T, l layout) {
		expect(t, l.maxDepth > 100, "delta chains deeper than 100", l)
	}},
	{name: "refdelta", script: `
git -c repack.useDeltaBaseOffset=false repack -adfq
`, check: func(t *testing.T, l layout) {
		expect(t, l.ref > 50 && l.ofs == 0, "only REF_DELTA entries", l)
	}},
	{name: "idxv1", script: `
git -c pack.indexVersion=1 repack -adq
`, check: func(t *testing.T, l layout) {
		expect(t, l.idxV1 == 1, "an index v1", l)
	}},
	{name: "largeoffsets", script: `
git repack -adq
p=$(ls .git/objects/pack/*.pack)
git index-pack --index-version=2,1000 -o big.idx "$p" >/dev/null
mv -f big.idx "${p%.pack}.idx"
`, check: func(t *testing.T, l layout) {
		expect(t, l.largeOffsets > 200, "most offsets in the 64-bit table", l)
	}},
	{name: "midx", script: `
git repack -dq
for i in $(seq 1 30); do echo "second pack $i" >> log.txt; seq $i 99 > n2.txt; commit_all "second $i"; done
git repack -dq
for i in $(seq 1 5); do echo "third $i" >> log.txt; commit_all "third $i"; done
git repack -dq
git multi-pack-index write
echo "loose after midx" >> log.txt
commit_all "loose after midx"
`, check: func(t *testing.T, l layout) {
		expect(t, l.midxs == 1 && l.midxPacks == 3, "a MIDX over three packs", l)
	}},
	{name: "worktree", script: `
git gc -q
git worktree add -q ../wt
cd ../wt
echo "from the worktree" > wt.txt
commit_all "worktree commit"
`, check: func(t *testing.T, l layout) {
		expect(t, l.packs == 1, "one pack plus the worktree's loose objects", l)
	}},
	{name: "fetched", script: `
cd ..
git clone -q w clone
cd w
for i in $(seq 1 60); do
	seq $((i * 3)) $((i * 3 + 500)) > numbers.txt
	echo "upstream $i" > dir2/up$((i % 10))
	commit_all "upstream $i"
done
cd ../clone
git fetch -q origin
git update-ref refs/heads/main origin/main
`, dir: "../clone", check: func(t *testing.T, l layout) {
		expect(t, l.packs == 1 && l.refBaseAfter > 0, "a fetched thin pack with REF_DELTA bases appended after their deltas", l)
	}},
	{name: "extras", script: `
# Unreachable objects go to a cruft pack (.mtimes); the main pack gets a
# bitmap and a reverse index; a .keep and a .promisor file sit next to it.
git checkout -q -b side
echo "soon unreachable" > gone.txt
commit_all "unreachable commit"
git checkout -q main
git branch -D -q side
git reflog expire --expire=now --all
git -c pack.writeReverseIndex=true repack -adbq --cruft --cruft-expiration=1.year.ago
main=$(ls .git/objects/pack/*.bitmap)
main=${main%.bitmap}
test -f $main.rev
ls .git/objects/pack/*.mtimes > /dev/null
touch $main.keep $main.promisor
`, check: func(t *testing.T, l layout) {
		expect(t, l.packs == 2, "a main pack and a cruft pack", l)
	}},
	{name: "shallow", script: `
cd ..
git clone -q --depth 3 "file://$PWD/w" shallow
`, dir: "../shallow", check: func(t *testing.T, l layout) {
		expect(t, l.packs == 1, "one pack", l)
	}},
}

func expect(t *testing.T, ok bool, what string, l layout) {
	t.Helper()
	if !ok {
		t.Fatalf("fixture does not have %s: %+v", what, l)
	}
}
