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
// format, skipping the test without git 2.39.
func fixture(t testing.TB, name string, format oid.Format, extra string) string {
	t.Helper()
	testgit.RequireGit(t)
	return testgit.Fixture(t, "odb-"+name, format, historyScript+extra)
}

// Fixture recipes, each a variation of the object store layout.
var layoutFixtures = []struct {
	name   string
	script string
	sha1   bool // only SHA-1 (the recipe needs something sha256 lacks)
}{
	{name: "loose", script: ""},
	{name: "packed", script: `
git gc -q
echo "after gc" >> log.txt
commit_all "loose after gc"
`},
	{name: "deep", script: `
for i in $(seq 41 160); do
	seq $i $((i + 400)) > numbers.txt
	commit_all "deep $i"
done
git repack -adfq --depth=250 --window=250
`},
	{name: "refdelta", script: `
git -c repack.useDeltaBaseOffset=false repack -adfq
`},
	{name: "idxv1", script: `
git -c pack.indexVersion=1 repack -adq
`},
	{name: "largeoffsets", script: `
git repack -adq
p=$(ls .git/objects/pack/*.pack)
git index-pack --index-version=2,1000 -o big.idx "$p" >/dev/null
mv -f big.idx "${p%.pack}.idx"
`},
	{name: "midx", script: `
git repack -dq
for i in $(seq 1 30); do echo "second pack $i" >> log.txt; seq $i 99 > n2.txt; commit_all "second $i"; done
git repack -dq
for i in $(seq 1 5); do echo "third $i" >> log.txt; commit_all "third $i"; done
git repack -dq
git multi-pack-index write
echo "loose after midx" >> log.txt
commit_all "loose after midx"
`},
	{name: "worktree", script: `
git gc -q
git worktree add -q ../wt
cd ../wt
echo "from the worktree" > wt.txt
commit_all "worktree commit"
`},
}
