package repo

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// TestAncestorsByRow: a "~N" that goes its first parents by commit-graph
// row (firstParentsByRow, as a "~N" with byRowChain or more to go does)
// names the commit git rev-parse names, and leaves the marks the walk by
// name leaves: the revisions of command lines where words after it read
// what it parsed (a parent list, a range, a peel, the same name again)
// are the same. A root reached before N (no such ancestor) is no
// revision either way.
func TestAncestorsByRow(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	defer func(n int) { byRowChain = n }(byRowChain)
	resolve := func(r *Repository, chain int, args []string) string {
		byRowChain = chain
		revs, err := r.ParseRevisionArgs(r.Objects.NewReader(), args)
		return fmt.Sprintf("%+v %v", revs, err)
	}
	names := []string{"c2", "M1", "M2", "N1", "N2", "S", "C2"}
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "merge-bases", f, mergeBaseRepoScript)
		for _, d := range []string{"graph", "levels"} {
			dir := filepath.Join(root, d)
			r, err := Discover(EnvFromList(dir, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			withGraph(t, r, dir, f)
			for _, name := range names {
				for n := 2; n <= 6; n++ {
					x := fmt.Sprintf("%s~%d", name, n)
					byRowChain = 1
					revs, err := r.ParseRevisionArgs(r.Objects.NewReader(), []string{x})
					res := goldens.Run(testgit.Case{Dir: dir, Format: f, Args: []string{"rev-parse", "--verify", "-q", x}})
					want := strings.TrimSpace(string(res.Stdout))
					got := ""
					if err == nil && len(revs) == 1 {
						got = revs[0].ID.String()
					}
					if got != want {
						t.Errorf("%s %s %s by row: %q (%v), git rev-parse %q", f, d, x, got, err, want)
					}
					for _, more := range [][]string{{name + "^@"}, {x + "...S"}, {"^" + x + "^{commit}"}, {x, name + "~1"}, {"S~3..." + name}} {
						args := append([]string{x}, more...)
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

// TestLongAncestorChainAllocates: a "~N" thousands of first parents long
// goes them by commit-graph row, with no map keyed by name growing per
// commit (vim's HEAD~5000..HEAD spent 4.5 ms of its 12 in them, git took
// 7.4 in all). HEAD~2995 in a 3,000-commit line allocated 1.3 MB by
// name; by row it allocates 87 KB, the budget is 256 KB.
func TestLongAncestorChainAllocates(t *testing.T) {
	for _, f := range testgit.Formats {
		revs, want, alloc := resolveInLongLine(t, f, "HEAD~2995", "HEAD~2995")
		if len(revs) != 1 || revs[0].ID.String() != want {
			t.Fatalf("%s: HEAD~2995 gave %+v, git %s", f, revs, want)
		}
		if alloc > 256<<10 {
			t.Errorf("%s: HEAD~2995 allocated %d bytes, budget 256 KB", f, alloc)
		}
	}
}
