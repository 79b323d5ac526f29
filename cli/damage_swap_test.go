package cli

import (
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// damageSwapScript makes copies of a repository of loose objects in which
// one object's file holds another object (the other's file copied over
// it): what git's parse_object finds by hashing what it read ("hash
// mismatch"), and what its other reads take as they find it. s01-s05
// have no commit-graph: HEAD~2 holding HEAD~4 (a range's end, an
// ancestor's name), HEAD's root tree holding the final version of f (a
// working-tree blame's diff with the index, a peel to the tree), HEAD
// holding HEAD~1 (the working tree's parent), HEAD~1's root tree holding
// HEAD~3's, HEAD~3 holding a blob (a parent git takes for a commit, named
// alone or with ^@ and ^!, which the walk's setup parses), HEAD~1 holding
// a blob (the parent of a commit two refs name, which a message search
// parses twice). g01-g04 have one: HEAD~1 holding a blob (the commit comes
// from the graph, its path through its object), HEAD holding HEAD~3 (the
// final version is the older commit's), HEAD's root tree holding a blob,
// HEAD's file cut short (a second revision refused before the first's
// object is read), HEAD holding a tree without f and its root tree a blob
// (no path through the object, before any read of the graph's tree).
const damageSwapScript = `git init -q r && cd r
for i in 1 2 3 4 5 6; do seq 1 $((i*3)) | sed "s/^/line $i /" >f; echo "x$i" >g; commit_all c$i; done
cd ..
# swap COPY TARGET SOURCE: TARGET's loose file holds SOURCE's object.
swap () {
	t=$(git -C r rev-parse "$2"); s=$(git -C r rev-parse "$3")
	tp=$1/.git/objects/${t%${t#??}}/${t#??}; sp=$1/.git/objects/${s%${s#??}}/${s#??}
	chmod u+w $tp; cp $sp $tp
}
n=0
for pair in "HEAD~2 HEAD~4" "HEAD^{tree} HEAD:f" "HEAD HEAD~1" "HEAD~1^{tree} HEAD~3^{tree}" "HEAD~3 HEAD:g" "HEAD~1 HEAD:g"; do
	n=$((n+1)); d=$(printf 's%02d' $n); cp -r r $d; swap $d $pair
done
git -C r commit-graph write --reachable --changed-paths
n=0
for pair in "HEAD~1 HEAD:g" "HEAD HEAD~3" "HEAD^{tree} HEAD:f"; do
	n=$((n+1)); d=$(printf 'g%02d' $n); cp -r r $d; swap $d $pair
done
# g05: HEAD's loose file holds a tree without f, HEAD's root tree's a blob:
# git finds no path through the object before it reads the graph's tree.
cp -r r g05; t=$(printf '100644 blob %s\tg\n' $(git -C r rev-parse HEAD:g) | git -C g05 mktree)
mv g05/.git/objects/${t%${t#??}}/${t#??} g05/t; swap g05 "HEAD^{tree}" HEAD:f
h=$(git -C r rev-parse HEAD); p=g05/.git/objects/${h%${h#??}}/${h#??}; chmod u+w $p; mv g05/t $p
# m01: HEAD~3's loose file gone (a parent ^@ names).
cp -r r m01; t=$(git -C r rev-parse HEAD~3); rm -f m01/.git/objects/${t%${t#??}}/${t#??}
# g04: HEAD's loose file cut short (git takes HEAD from the graph).
cp -r r g04; t=$(git -C r rev-parse HEAD); p=g04/.git/objects/${t%${t#??}}/${t#??}
chmod u+w $p && head -c 20 $p >t && mv t $p
`

// TestSwappedLooseObjectsMatchGit blames through objects whose files
// hold other objects and compares goblame with git byte for byte: the
// "hash mismatch" lines of parse_object where git parses a range's ends
// (handle_dotdot), a peel (^{tree}), the commit a name's ~ and ^ start
// from, a working-tree blame's parent and the root tree its diff with
// the index reads (diff_cache's "bad tree object"); get_reference's
// refusal of a commit's parent that is another type; the walk's parse of
// the parents ^@ and ^! name (one of them missing: m01); and, with a
// commit-graph, the final version found through the commit's object
// (get_tree_entry) while the walk takes the commit from the graph.
func TestSwappedLooseObjectsMatchGit(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-damage-swap", format, damageSwapScript)
		goldens.RequireFiles(root, "*/.git/objects/??/*")
		args := [][]string{
			{"f"}, {"HEAD", "--", "f"}, {"-p", "HEAD~1", "--", "f"}, {"HEAD~2", "--", "g"},
			{"HEAD~2..HEAD", "--", "f"}, {"--reverse", "HEAD~3..HEAD~1", "--", "f"},
			{"HEAD^{tree}", "--", "f"}, {"-s", "HEAD~1^{tree}..HEAD", "--", "f"},
			{"--incremental", "HEAD~1", "--", "f"}, {"HEAD~3", "--", "f"}, {"HEAD~2^@", "--", "f"},
			{"HEAD", "^HEAD~2^!", "--", "f"}, {"--reverse", "HEAD~2^!", "--", "f"},
			{"-s", ":/c2", "--", "f"}, {"-s", ":/c4", "--", "f"}, {"-s", "HEAD^{/c1}", "--", "f"},
			{"HEAD", "^HEAD~3^!", "--", "f"}, {"HEAD~2^@", "--", "g"},
		}
		compareEachCopy(t, root, "s%02d", 6, format, args)
		compareEachCopy(t, root, "m%02d", 1, format, args)
		compareEachCopy(t, root, "g%02d", 5, format, args)
	}
}
