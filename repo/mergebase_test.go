package repo

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// mergeBaseRepoScript makes histories with several merge bases: A and B
// merged into each other's branch (M1, M2: bases A and B), then a third
// commit C on a branch from c1 merged into both sides (N1, N2: bases M1
// or M2's ancestors and C), commits of one date, and a root of its own
// (orphan: no merge base with the rest). Copies: with a commit-graph of
// corrected commit dates and one of topological levels.
const mergeBaseRepoScript = `git init -q r && cd r
echo 1 >f; commit_all c1; git tag c1
echo 2 >>f; commit_all c2; git tag c2
git checkout -q -b side
echo b >b; commit_all B; git tag B
git checkout -q main
echo a >a; commit_all A; git tag A
git merge -q --no-edit -m M1 B; git tag M1
git checkout -q side
git merge -q --no-edit -m M2 A; git tag M2
git checkout -q -b third c1
echo c >c; commit_all C; git tag C
git commit -q --allow-empty -m C2; git tag C2
git checkout -q main
git merge -q --no-edit -m N1 C; git tag N1
git checkout -q side
git merge -q --no-edit -m N2 C2; git tag N2
git commit -q --allow-empty -m S; git tag S
git checkout -q --orphan lone
git rm -q -rf . && echo z >z && commit_all L; git tag L
git checkout -q main
cd ..
cp -r r graph && git -C graph commit-graph write --reachable
cp -r r levels && git -C levels -c commitGraph.generationVersion=1 commit-graph write --reachable
`

// TestMergeBasesMatchGit compares the merge bases A...B excludes, in
// their order, with git merge-base --all A B, which lists them as
// get_merge_bases finds them: several bases, an end that is the other's
// ancestor, none (unrelated roots), with no commit-graph, one with
// corrected commit dates (the walk then takes generation order) and
// one of topological levels.
func TestMergeBasesMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	names := []string{"c1", "c2", "A", "B", "M1", "M2", "C", "C2", "N1", "N2", "S", "L"}
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "merge-bases", f, mergeBaseRepoScript)
		for _, d := range []string{"r", "graph", "levels"} {
			dir := filepath.Join(root, d)
			r, err := Discover(EnvFromList(dir, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			rd := r.Objects.NewReader()
			for _, a := range names {
				for _, b := range names {
					res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: []string{"merge-base", "--all", a, b}})
					want := strings.Fields(string(res.Stdout))
					revs, err := r.ParseRevisionArgs(rd, []string{a + "..." + b})
					if err != nil {
						t.Errorf("%s %s %s...%s: %v", f, d, a, b, err)
						continue
					}
					var got []string
					for _, rv := range revs {
						if rv.Negative {
							got = append(got, rv.ID.String())
						}
					}
					if !slices.Equal(got, want) {
						t.Errorf("%s %s %s...%s: bases %v, git merge-base --all %v", f, d, a, b, got, want)
					}
				}
			}
			r.Objects.Close()
		}
	}
}

// TestMergeBasesReadFewCommits: the merge-base walk of A...B stops a few
// commits below the bases, as git's does, however long the history
// below them (a walk of every ancestor took 10 s for HEAD~5...HEAD on
// git/git's 80,000 commits): in a 300-commit line, HEAD~3...HEAD parses
// HEAD, HEAD~3 and what lies between, and HEAD~3's parent.
func TestMergeBasesReadFewCommits(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "merge-bases-line", f, `git init -q r && cd r
for i in $(seq 1 300); do echo $i >f; commit_all c$i; done`)
		r, err := Discover(EnvFromList(filepath.Join(root, "r"), testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		revs, parsed, err := r.ParseRevisionArgsParsed(r.Objects.NewReader(), []string{"HEAD~3...HEAD"}, CommandParents{})
		r.Objects.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(revs) != 3 || !revs[0].Negative {
			t.Errorf("%s: HEAD~3...HEAD gives %+v, want the base and both ends", f, revs)
		}
		if len(parsed) > 6 {
			t.Errorf("%s: HEAD~3...HEAD parsed %d commits, want at most 6", f, len(parsed))
		}
	}
}
