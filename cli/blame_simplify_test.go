package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// simplifyScript makes a history for --simplify-by-decoration: tags
// (annotated, light, a tag of a tag) and branches on some commits, merged
// branches with and without a ref on their commits, an unrelated history
// merged, a root with an empty tree merged with -s ours, an octopus, a
// remote-tracking ref, a notes ref, and a last commit that changes
// another file (so its changed-path filter says "file" did not change
// from its first parent, which the simplification rewrites). Every line
// of "file" is changed by one commit. Beside r: graph (r with a
// commit-graph and changed-path filters), replaced (a commit replaced),
// shallow (a shallow clone), odd (a ref to a missing object, a replace
// ref that names no object, info/grafts), missing (a side branch's
// commit deleted) and trap, a history with a commit-graph where the
// filters' answers for rewritten first parents pass a newer version of a
// path down to commits whose trees hold another version (a change
// reverted), none (a file added late) or a directory, where git then
// dies (a file deleted and added again), and where git's filter test of
// the path alone says "maybe" and its leading directory's would say "no"
// (deep: the file f2-0.txt sets the bits of dir/file but not of dir),
// and where a version 1 filter holds é.txt's bits as hashed with bytes
// unsigned but not as git on x86-64 hashes them, signed (utf: g25.txt);
// and emptied, r with its index emptied by git read-tree --empty (which
// keeps the empty tree as its cache tree).
const simplifyScript = `git init -q r && cd r
seq 1 32 | sed 's/^/line /' >file
echo base >other.txt
commit_all R
edit () { sed -i "s/^line $1\$/line $1 $2/" file; commit_all "$2"; }
edit 2 A
edit 4 B
git tag -a -m "tag B" vB
git checkout -q -b topic
edit 6 T1
edit 8 T2
git tag t2
edit 10 T3
git checkout -q main
edit 12 C
test_tick
git merge -q --no-edit topic
edit 14 D
git branch keep-d
git checkout -q -b side2 vB
edit 16 S1
edit 18 S2
git checkout -q main
edit 20 E
test_tick
git merge -q --no-edit side2
git checkout -q --orphan other
git rm -rq --cached .
rm -f file other.txt
echo x >o.txt
commit_all O1
git tag o1
git checkout -q -f main
test_tick
git merge -q --no-edit --allow-unrelated-histories other
git checkout -q --orphan empty
git rm -rq --cached .
commit_all Z
git checkout -q -f main
test_tick
git merge -q --no-edit --allow-unrelated-histories -s ours empty
git checkout -q -b oct1 main
edit 22 O1x
git checkout -q -b oct2 main~1
edit 24 O2x
git checkout -q main
edit 26 P
test_tick
git merge -q --no-edit oct1 oct2
git tag -a -m "outer" vOuter $(git rev-parse vB)
git tag -a -m "tag of tag" vNested vOuter
edit 28 F
edit 30 F2
git branch -q -D topic side2 oct2 empty other
git update-ref refs/remotes/origin/main HEAD~1
echo change >>other.txt
commit_all G
git notes add -m note HEAD~2
sed -i 's/^line 32$/line 32 wt/' file
cd .. && cp -a r graph && git -C graph commit-graph write --reachable --changed-paths
cp -a r replaced && cd replaced && git replace $(git rev-parse main~2) $(git rev-parse main~3) && cd ..
git clone -q --depth 4 file://$PWD/r shallow
cp -a r odd && cd odd
git rev-parse HEAD | sed 's/./1/g' >.git/refs/heads/zz-dangling
mkdir -p .git/refs/replace && git rev-parse main~1 >.git/refs/replace/not-hex
echo "$(git rev-parse main~4) $(git rev-parse keep-d)" >.git/info/grafts
cd .. && cp -a r missing && cd missing
s1=$(git rev-parse main~7^2^)
rm .git/objects/$(echo $s1 | cut -c1-2)/$(echo $s1 | cut -c3-)
cd ..
git init -q trap && cd trap
seq 1 10 | sed 's/^/line /' >file
echo a >other.txt
commit_all R
git tag vR
sed -i 's/^line 2$/line 2 x/' file
commit_all Q0
sed -i 's/^line 2 x$/line 2/' file
commit_all Q
git tag vQ
sed -i 's/^line 5$/line 5 P/' file
echo new >added.txt
commit_all P
echo b >o2.txt
commit_all X
git checkout -q -b del vR
sed -i 's/^line 3$/line 3 y/' file
commit_all D0
git rm -q file
commit_all D1
git tag vD
seq 1 10 | sed 's/^/line /' >file
commit_all D2
echo c >o1.txt
commit_all D3
git checkout -q -b dir vR
mkdir sub && echo 1 >sub/a && echo 2 >sub/b
commit_all E0
git tag vE0
echo 3 >sub/b
commit_all E1
git tag vE
echo 4 >sub/a
commit_all E2
git rm -rq sub && echo "sub file" >sub
commit_all E3
echo d >o2.txt
commit_all E4
git checkout -q --orphan deep
git rm -rq --cached .
rm -rf file other.txt o1.txt o2.txt added.txt sub
mkdir dir && seq 1 10 | sed 's/^/line /' >dir/file
commit_all K0
git tag vK
sed -i 's/^line 5$/line 5 K1/' dir/file
commit_all K1
echo x >f2-0.txt
commit_all K2
git checkout -q --orphan utf
git rm -rq --cached .
rm -rf dir f2-0.txt
seq 1 10 | sed 's/^/line /' >é.txt
commit_all U0
git tag vU
sed -i 's/^line 5$/line 5 U1/' é.txt
commit_all U1
echo x >g25.txt
commit_all U2
git checkout -q -f main
git commit-graph write --reachable --changed-paths
cd ..
cp -a r emptied && git -C emptied read-tree --empty
`

// TestSimplifyByDecorationMatchesGit: --simplify-by-decoration makes git
// rewrite the parents its blame follows to the nearest commits a ref
// names (git's merge simplification, with a ref as the only change); the
// changed-path filters answer for the rewritten first parent as git asks
// them (but not under -C); a commit the simplification cannot parse is
// git's death, and so is one that a limited walk cannot parse; under
// --no-walk nothing is rewritten.
func TestSimplifyByDecorationMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "simplify", simplifyScript)
	all := [][]string{
		{"-s", "file"},
		{"HEAD", "--", "file"},
		{"-s", "--root", "file"},
		{"HEAD~1", "--", "file"},
		{"HEAD~3", "--", "file"},
		{"keep-d", "--", "file"},
		{"t2", "--", "file"},
		{"--first-parent", "HEAD", "--", "file"},
		{"--sparse", "HEAD", "--", "file"},
		{"--sparse", "--dense", "HEAD", "--", "file"},
		{"--sparse", "--first-parent", "HEAD", "--", "file"},
		{"vB..HEAD", "--", "file"},
		{"t2..HEAD", "--", "file"},
		{"^keep-d", "HEAD", "--", "file"},
		{"--since=1112912500", "HEAD", "--", "file"},
		{"-p", "HEAD", "--", "file"},
		{"--incremental", "HEAD", "--", "file"},
		{"-L", "10,20", "HEAD", "--", "file"},
		{"-M", "HEAD", "--", "file"},
		{"-C", "-C", "HEAD", "--", "file"},
		{"--reverse", "vB..HEAD", "--", "file"},
		{"--reverse", "keep-d..HEAD", "--", "file"},
		{"--reverse", "--first-parent", "vB..HEAD", "--", "file"},
		{"--ancestry-path", "vB..HEAD", "--", "file"},
		{"HEAD", "--", "o.txt"},
		{"--all", "--", "file"},
		{"oct1", "--", "file"},
		{"-w", "--porcelain", "HEAD", "--", "file"},
		{"--contents", "file", "HEAD", "--", "file"},
		// --no-walk: prepare_revision_walk returns before the merges'
		// simplification (--do-walk, or an exclusion, undoes it).
		{"--no-walk", "HEAD", "--", "file"},
		{"--no-walk", "--do-walk", "HEAD", "--", "file"},
		{"--no-walk", "vB..HEAD", "--", "file"},
	}
	few := [][]string{
		{"HEAD", "--", "file"},
		{"-s", "file"},
		{"--first-parent", "HEAD", "--", "file"},
		{"vB..HEAD", "--", "file"},
		{"--all", "--", "file"},
		{"-C", "HEAD", "--", "file"},
	}
	trap := [][]string{
		{"HEAD", "--", "file"},
		{"HEAD", "--", "added.txt"},
		{"-M", "HEAD", "--", "file"},
		{"-C", "HEAD", "--", "file"},
		{"--incremental", "HEAD", "--", "file"},
		{"del", "--", "file"},
		{"dir", "--", "sub"},
		{"-p", "dir", "--", "sub"},
		{"deep", "--", "dir/file"},
		{"utf", "--", "é.txt"},
	}
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, args := range trap {
			compareWithGit(t, filepath.Join(filepath.Dir(dir), "trap"), format, nil, nil, append([]string{"--simplify-by-decoration"}, args...)...)
		}
		for _, repo := range []string{"r", "graph", "replaced", "shallow", "odd", "missing"} {
			list := few
			if repo == "r" || repo == "graph" {
				list = all
			}
			at := filepath.Join(filepath.Dir(dir), repo)
			for _, args := range list {
				compareWithGit(t, at, format, nil, nil, append([]string{"--simplify-by-decoration"}, args...)...)
			}
		}
		// A limiting walk that cannot read a commit: a range's, and
		// the whole history's where an option makes git's walk limited
		// (--simplify-merges, --cherry-pick, --topo-order without a
		// commit-graph), which otherwise change nothing for blame.
		missing := filepath.Join(filepath.Dir(dir), "missing")
		for _, args := range [][]string{
			{"^vB", "HEAD", "--", "file"},
			{"--simplify-merges", "HEAD", "--", "file"},
			{"--cherry-pick", "HEAD", "--", "file"},
			{"--topo-order", "HEAD", "--", "file"},
			{"--date-order", "-L", "1,3", "HEAD", "--", "file"},
		} {
			compareWithGit(t, missing, format, nil, nil, args...)
		}
		compareWithGit(t, filepath.Join(filepath.Dir(dir), "r"), format, nil, nil, "--simplify-merges", "HEAD", "--", "file")
		compareWithGit(t, filepath.Join(filepath.Dir(dir), "r"), format, nil, nil, "--topo-order", "--since=1112912500", "HEAD", "--", "file")
	}
}

// TestGraftsHintBeforeBadObjectMatchesGit: git reads info/grafts (and
// prints its hint) at the first revision it looks up, through the
// commit-graph's first use, whatever the object is, or with
// core.commitGraph off at the first commit it parses; a ref --branches
// lists is named as listed (the fixture's odd repository: grafts, a
// branch whose object is missing).
func TestGraftsHintBeforeBadObjectMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "simplify", simplifyScript)
	for _, format := range testgit.Formats {
		odd := filepath.Join(filepath.Dir(dirs[format]), "odd")
		missing := strings.Repeat("2", format.HexSize())
		for _, env := range [][]string{nil, {"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.commitGraph", "GIT_CONFIG_VALUE_0=false"}} {
			for _, args := range [][]string{
				{"--branches=zz*", "--", "file"},
				{"--branches", "--", "file"},
				{"refs/heads/keep-d", "refs/heads/zz-dangling", "--", "file"},
				{missing, "--", "file"},
				{"vB", "--", "file"},
			} {
				compareWithGit(t, odd, format, nil, env, args...)
			}
		}
	}
}

// TestIndexedObjectsCacheTreeMatchesGit: --indexed-objects lists the
// index's blobs, then its cache tree's trees: an index emptied by git
// read-tree --empty still gives the empty tree, which git's blame dies of
// (the fixture's emptied repository).
func TestIndexedObjectsCacheTreeMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "simplify", simplifyScript)
	for _, format := range testgit.Formats {
		emptied := filepath.Join(filepath.Dir(dirs[format]), "emptied")
		for _, args := range [][]string{
			{"--indexed-objects", "--", "file"},
			{"HEAD", "--indexed-objects", "--", "file"},
			{"-s", "--not", "--indexed-objects", "HEAD", "--", "file"},
		} {
			compareWithGit(t, emptied, format, nil, nil, args...)
		}
	}
}
