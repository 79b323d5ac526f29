package repo

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/oid"
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

// testGraphRows is a commit-graph as the blame package gives it to the
// merge-base walk.
type testGraphRows struct{ *traverse.Graph }

func (g testGraphRows) Row(pos uint32, parents []uint32) (date, gen uint64, out []uint32, found bool, err error) {
	date, gen, out, err = g.Graph.Row(pos, parents)
	return date, gen, out, err == nil, nil
}

// withGraph sets r's commit-graph hooks to the graph in dir.
func withGraph(t *testing.T, r *Repository, dir string, f oid.Format) {
	t.Helper()
	g, _, err := traverse.OpenGraph([]string{filepath.Join(dir, ".git", "objects")}, f)
	if err != nil || g == nil {
		t.Fatalf("%s: commit-graph: %v", dir, err)
	}
	r.CommitGraphRows = func() GraphRows { return testGraphRows{g} }
	r.InCommitGraph = func(id oid.ID) bool { _, ok := g.PositionAsGit(id); return ok }
	r.CommitGraphParents = func(id oid.ID) ([]oid.ID, bool, error) { return g.Parents(id) }
}

// TestMergeBasesByRow: a merge-base walk that keeps its commits, and the
// resolution its marks, by commit-graph row (as walks over more than
// byRowAfter commits do) gives what the walk keyed by name gives: the
// bases git merge-base --all lists, and for command lines where a range
// comes before words that read what it parsed (a parent of a painted
// commit, the same range again, a negated end), the same revisions.
func TestMergeBasesByRow(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	names := []string{"c1", "c2", "A", "B", "M1", "M2", "C", "C2", "N1", "N2", "S", "L"}
	started := 0
	byRowStarted = func() { started++ }
	defer func(n int) { byRowAfter, byRowStarted = n, nil }(byRowAfter)
	resolve := func(r *Repository, after int, args []string) string {
		byRowAfter = after
		rd := r.Objects.NewReader()
		revs, err := r.ParseRevisionArgs(rd, args)
		return fmt.Sprintf("%+v %v", revs, err)
	}
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "merge-bases", f, mergeBaseRepoScript)
		for _, d := range []string{"graph", "levels"} {
			dir := filepath.Join(root, d)
			r, err := Discover(EnvFromList(dir, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			withGraph(t, r, dir, f)
			for _, a := range names {
				for _, b := range names {
					before := started
					byRowAfter = 1
					revs, err := r.ParseRevisionArgs(r.Objects.NewReader(), []string{a + "..." + b})
					if err != nil {
						t.Errorf("%s %s %s...%s: %v", f, d, a, b, err)
						continue
					}
					if a != b && started == before {
						t.Fatalf("%s %s %s...%s: the walk did not keep its commits by row", f, d, a, b)
					}
					var got []string
					for _, rv := range revs {
						if rv.Negative {
							got = append(got, rv.ID.String())
						}
					}
					res := goldens.Run(testgit.Case{Dir: dir, Format: f, Args: []string{"merge-base", "--all", a, b}})
					if want := strings.Fields(string(res.Stdout)); !slices.Equal(got, want) {
						t.Errorf("%s %s %s...%s by row: bases %v, git merge-base --all %v", f, d, a, b, got, want)
					}
					for _, more := range [][]string{{a + "~1"}, {a + "..." + b}, {"^" + b, b + "^2"}, {"C2^{commit}", "N1^@"}} {
						args := append([]string{a + "..." + b}, more...)
						if byRow, byName := resolve(r, 1, args), resolve(r, 1<<30, args); byRow != byName {
							t.Errorf("%s %s %v: by row\n%s\nby name\n%s", f, d, args, byRow, byName)
						}
					}
				}
			}
			r.Objects.Close()
		}
	}
}

// longLineScript makes a line of 3,000 commits with a commit-graph, far
// the tenth.
const longLineScript = `git init -q r && cd r
for i in $(seq 1 3000); do
	printf 'commit refs/heads/main\ncommitter C O Mitter <c@example.com> %d +0000\ndata 2\nc\n' $((1112911993 + i))
done | git fast-import --quiet
git tag far HEAD~2990
git commit-graph write --reachable
`

// TestLongMergeBaseWalkAllocates: a merge-base walk over thousands of
// commits of a commit-graph keeps its commits and marks by row, not in
// maps keyed by name that grow with the walk (git/git's v2.0.0...HEAD
// took 272 ms in them, git 116). far...HEAD in a 3,000-commit line
// allocated 2.4 MB with them, 1.3 MB now (the first byRowAfter commits
// are still keyed by name); the budget is 1.6 MB.
func TestLongMergeBaseWalkAllocates(t *testing.T) {
	for _, f := range testgit.Formats {
		revs, want, alloc := resolveInLongLine(t, f, "far", "far...HEAD")
		if len(revs) != 3 || !revs[0].Negative || revs[0].ID.String() != want {
			t.Fatalf("%s: far...HEAD gives %+v, want the base %s and both ends", f, revs, want)
		}
		if alloc > 1600<<10 {
			t.Errorf("%s: far...HEAD allocated %d KB, budget 1,600 KB", f, alloc>>10)
		}
	}
}

// resolveInLongLine resolves arg in longLineScript's line of 3,000
// commits with its commit-graph, and returns the revisions, what git
// rev-parse says of gitRev, and the bytes the resolution allocated. It
// skips without git.
func resolveInLongLine(t *testing.T, f oid.Format, gitRev, arg string) (revs []Revision, want string, allocated uint64) {
	t.Helper()
	testgit.SkipUnderRace(t)
	goldens := testgit.Golden(t) // skips without git
	root := testgit.Fixture(t, "merge-bases-long-line", f, longLineScript)
	dir := filepath.Join(root, "r")
	r, err := Discover(EnvFromList(dir, testgit.Env(f)))
	if err != nil {
		t.Fatal(err)
	}
	withGraph(t, r, dir, f)
	res := goldens.Run(testgit.Case{Dir: dir, Format: f, Args: []string{"rev-parse", gitRev}})
	rd := r.Objects.NewReader()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	revs, err = r.ParseRevisionArgs(rd, []string{arg})
	runtime.ReadMemStats(&after)
	r.Objects.Close()
	if err != nil {
		t.Fatal(err)
	}
	return revs, strings.TrimSpace(string(res.Stdout)), after.TotalAlloc - before.TotalAlloc
}
