package cli

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// mergeBaseScript makes a criss-cross history (A and B each merged into
// the other's branch: M1 and M2 have two merge bases), with commits of
// equal dates on each side, and copies of it:
//   - graph, graph-levels: with a commit-graph of corrected commit dates
//     (git's default), and one of topological levels
//     (commitGraph.generationVersion=1): the merge-base walk takes its
//     commits by generation first with the former only;
//   - below-base, below-base-graph: the loose object of the commit just
//     below the merge bases deleted, without and with a commit-graph
//     (git parses the commit from the graph there, object or not);
//   - base: the object of the merge base B deleted (a parent the walk
//     reaches from M1 and M2);
//   - corrupt-below: the object of the commit below the bases damaged
//     (git's walk dies reading it).
const mergeBaseScript = `git init -q r && cd r
seq 1 12 >f; echo 1 >g; commit_all c1; git tag c1
sed -i 's/^3$/three/' f; commit_all c2; git tag c2
sed -i 's/^5$/five/' f; echo 2 >>g; commit_all c3; git tag c3
git checkout -q -b side
sed -i 's/^9$/nine/' f; commit_all B; git tag B
git checkout -q main
sed -i 's/^1$/one/' f; commit_all A; git tag A
git merge -q --no-edit -m M1 B; git tag M1
git checkout -q side
git merge -q --no-edit -m M2 A; git tag M2
sed -i 's/^11$/eleven/' f; commit_all s1
# two commits of one date on each side
git commit -q --allow-empty -m s2
git checkout -q main
sed -i 's/^2$/two/' f; commit_all m1
git commit -q --allow-empty -m m2
cd ..
cp -r r graph && git -C graph commit-graph write --reachable
cp -r r graph-levels && git -C graph-levels -c commitGraph.generationVersion=1 commit-graph write --reachable
obj () { id=$(git -C r rev-parse "$1") && echo .git/objects/${id%${id#??}}/${id#??}; }
cp -r r below-base && rm -f below-base/$(obj c3)
cp -r graph below-base-graph && rm -f below-base-graph/$(obj c3)
cp -r r base && rm -f base/$(obj B)
# the same commit's object damaged past its header: git's walk dies
# reading it (OBJECT_INFO_DIE_IF_CORRUPT)
cp -r r corrupt-below && f=corrupt-below/$(obj c3) && chmod u+w $f && size=$(wc -c <$f) &&
	printf '\377\377\377\377' | dd of=$f bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
`

// TestSymmetricDifferenceMatchesGit blames A...B ranges, whose merge
// bases git finds by painting down from both ends (commit-reach.c),
// against git: two bases, one base that is an end, the ends in either
// order, the walk in date order and in generation order, and histories
// missing a commit where the walk reaches it (git's "error: Could not
// read X", then no merge base at all: both ends stay, and blame finds
// more than one commit to dig from) or where a commit-graph stands in
// for it.
func TestSymmetricDifferenceMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-merge-base", format, mergeBaseScript)
		args := [][]string{
			{"M1...M2", "--", "f"},
			{"M2...M1", "--", "f"},
			{"main...side", "--", "f"},
			{"side...", "--", "f"},
			{"...side", "--", "g"},
			{"A...B", "--", "f"},
			{"B...M1", "--", "f"},
			{"M1...B", "--", "f"},
			{"c3...M2", "--", "f"},
			{"--porcelain", "A...M2", "--", "f"},
			{"--reverse", "c2...A", "--", "f"},
			{"M1...M2", "^c1", "--", "f"},
		}
		for _, dir := range []string{"r", "graph", "graph-levels", "below-base", "below-base-graph", "base", "corrupt-below"} {
			for _, a := range args {
				compareWithGit(t, filepath.Join(root, dir), format, nil, nil, a...)
			}
		}
	}
}
