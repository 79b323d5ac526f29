package cli

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// workTreeParentsScript makes a repository with a side branch and an
// uncommitted line, and copies whose working-tree pseudo-commit git
// makes from unusual parents: HEAD a symbolic ref to an annotated tag
// (tagged-head), MERGE_HEAD naming an annotated tag, a blob, a missing
// object, a commit and then a blob (merge-*), and a file in neither HEAD
// nor the index whose clean filter writes to standard error, or whose
// working-tree encoding is unknown (filtered).
const workTreeParentsScript = `git init -q r && cd r
printf '1\n2\n3\n' >a.txt && commit_all c1
printf '1\n2\nx\n' >a.txt && commit_all c2
git checkout -q -b side HEAD~1 && printf '0\n2\n3\n' >a.txt && commit_all s1 && git checkout -q main
git tag -a -m ann v2 HEAD~1
git tag -a -m t2 tside side
echo y >>a.txt
cd ..
cp -r r tagged-head && echo "ref: refs/tags/v2" >tagged-head/.git/HEAD
for m in tag blob missing two; do cp -r r merge-$m; done
git -C r rev-parse tside >merge-tag/.git/MERGE_HEAD
git -C r rev-parse HEAD:a.txt >merge-blob/.git/MERGE_HEAD
echo 0000000000000000000000000000000000000000000000000000000000000001 | cut -c1-$(git -C r rev-parse HEAD | tr -d '\n' | wc -c) >merge-missing/.git/MERGE_HEAD
( git -C r rev-parse side && git -C r rev-parse HEAD:a.txt ) >merge-two/.git/MERGE_HEAD
cp -r r filtered && cd filtered
printf 'untr.txt filter=n\nbad.txt working-tree-encoding=NOPE-ENC\n' >.gitattributes
git config filter.n.clean 'echo CLEAN-RAN >&2; cat'
echo y >untr.txt && echo z >bad.txt
`

// TestWorkTreeParentsMatchGit: the working tree's pseudo-commit takes
// HEAD and each MERGE_HEAD line through lookup_commit_reference (tags
// peeled; another type "error: object X is a T, not a commit", then "no
// such commit X", as a missing object), and checks that the path is in
// a parent or the index before it reads and converts the file (no clean
// filter runs, no encoding fails, for a path git refuses).
func TestWorkTreeParentsMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-worktree-parents", format, workTreeParentsScript)
		for _, c := range []struct {
			dir  string
			args []string
		}{
			{"merge-blob", []string{"a.txt"}}, {"merge-missing", []string{"a.txt"}}, {"merge-two", []string{"a.txt"}},
			{"merge-blob", []string{"--contents", "a.txt", "a.txt"}},
			{"filtered", []string{"untr.txt"}}, {"filtered", []string{"--contents", "a.txt", "untr.txt"}},
			{"filtered", []string{"bad.txt"}},
		} {
			compareWithGit(t, filepath.Join(root, c.dir), format, nil, nil, c.args...)
		}
		// Blames of the pseudo-commit, which git dates now.
		for _, c := range []struct {
			dir  string
			args []string
		}{
			{"tagged-head", []string{"a.txt"}}, {"tagged-head", []string{"--porcelain", "a.txt"}},
			{"merge-tag", []string{"a.txt"}},
		} {
			compareWithLiveGit(t, filepath.Join(root, c.dir), format, nil, nil, c.args...)
		}
	}
}
