package traverse

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// gitCommit is what "git log" says about a commit.
type gitCommit struct {
	id      oid.ID
	tree    oid.ID
	parents []oid.ID
	time    uint64
}

func gitCommits(t testing.TB, dir string, format oid.Format) []gitCommit {
	t.Helper()
	var out []gitCommit
	for _, line := range gitLines(t, dir, format, "log", "--all", "--format=%H %T %ct %P") {
		f := strings.Fields(line)
		c := gitCommit{id: parseID(t, format, f[0]), tree: parseID(t, format, f[1])}
		ts, err := strconv.ParseUint(f[2], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		c.time = ts
		for _, p := range f[3:] {
			c.parents = append(c.parents, parseID(t, format, p))
		}
		out = append(out, c)
	}
	return out
}

// TestCommitsMatchGit reads every commit of every fixture variant (graph,
// no graph, split chains) and compares tree, parents and commit time with
// git log.
func TestCommitsMatchGit(t *testing.T) {
	for _, format := range testgit.Formats {
		for _, v := range graphVariants {
			t.Run(format.String()+"/"+v.name, func(t *testing.T) {
				dir := historyFixture(t, v.name, format)
				rd := loadObjects(t, dir, format)
				var g *Graph
				if v.graph {
					g = openGraph(t, dir, format)
					if g == nil {
						t.Fatal("no graph opened")
					}
					if g.NumLayers() != v.layers {
						t.Errorf("layers = %d, want %d", g.NumLayers(), v.layers)
					}
					if g.HasBloom() != v.bloom {
						t.Errorf("HasBloom = %v, want %v", g.HasBloom(), v.bloom)
					}
				} else if g2 := openGraph(t, dir, format); g2 != nil {
					t.Fatal("graph found in a fixture without one")
				}
				want := gitCommits(t, dir, format)
				if v.graph && g.Len() != len(want) {
					t.Errorf("graph holds %d commits, git log --all lists %d", g.Len(), len(want))
				}
				cs := NewCommits(rd, g, format, CommitOptions{})
				for _, w := range want {
					c, err := cs.Get(w.id)
					if err != nil {
						t.Fatal(err)
					}
					if got, exp := describe(cs, c), describeGit(w); got != exp {
						t.Errorf("commit %s:\n got %s\nwant %s", w.id, got, exp)
					}
				}
				st := cs.Stats()
				if v.graph {
					if st.FromObject != 0 || st.FromGraph != len(want) {
						t.Errorf("stats %+v: want every commit from the graph", st)
					}
				} else if st.FromGraph != 0 || st.FromObject != len(want) {
					t.Errorf("stats %+v: want every commit from objects", st)
				}
				if len(cs.Warnings()) != 0 {
					t.Errorf("warnings: %q", cs.Warnings())
				}
				// Generation numbers grow from parents to children.
				if v.graph {
					for _, w := range want {
						c := cs.Lookup(w.id)
						gen := cs.Generation(c)
						if gen == GenerationInfinity {
							t.Fatalf("%s: no generation", cs.ID(c))
						}
						for _, p := range c.Parents {
							if pg := cs.Generation(p); pg >= gen {
								t.Errorf("%s: generation %d not above parent %s's %d", cs.ID(c), gen, cs.ID(p), pg)
							}
						}
					}
				}
			})
		}
	}
}

func describe(cs *Commits, c *Commit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tree %s time %d parents", cs.Tree(c), c.Time)
	for _, p := range c.Parents {
		fmt.Fprintf(&b, " %s", cs.ID(p))
	}
	return b.String()
}

func describeGit(c gitCommit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "tree %s time %d parents", c.tree, c.time)
	for _, p := range c.parents {
		fmt.Fprintf(&b, " %s", p)
	}
	return b.String()
}

// TestGraftsAndShallow checks that grafts and shallow boundaries replace
// parents, that they switch the graph off, and that Lookup and Get agree
// with git when git is given the same grafts (git log with an
// info/grafts file).
func TestGraftsAndShallow(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir := historyFixture(t, "graph", format)
			rd := loadObjects(t, dir, format)
			g := openGraph(t, dir, format)
			head := revParse(t, dir, format, "HEAD")
			mid := revParse(t, dir, format, "HEAD~3")
			root := revParse(t, dir, format, "main~8")
			grafts := map[oid.ID][]oid.ID{mid: {root}}
			shallow := map[oid.ID]bool{root: true}
			cs := NewCommits(rd, g, format, CommitOptions{Grafts: grafts, Shallow: shallow})
			if cs.Graph() != nil {
				t.Fatal("graph in use despite grafts")
			}
			c, err := cs.Get(mid)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Parents) != 1 || cs.ID(c.Parents[0]) != root {
				t.Fatalf("grafted parents = %v", describe(cs, c))
			}
			r, err := cs.Get(root)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Parents) != 0 {
				t.Fatalf("shallow commit has parents: %s", describe(cs, r))
			}
			// Shallow wins over a graft for the same commit.
			cs2 := NewCommits(rd, nil, format, CommitOptions{Grafts: map[oid.ID][]oid.ID{root: {head}}, Shallow: shallow})
			r2, err := cs2.Get(root)
			if err != nil {
				t.Fatal(err)
			}
			if len(r2.Parents) != 0 {
				t.Fatalf("graft beat shallow: %s", describe(cs2, r2))
			}
			// The walk over the grafted history equals git's rev-list
			// with the same grafts in info/grafts (git then also
			// ignores the commit-graph).
			w := NewWalk(cs)
			if err := w.Push(head); err != nil {
				t.Fatal(err)
			}
			var got []string
			for {
				c, err := w.Next()
				if err != nil {
					t.Fatal(err)
				}
				if c == nil {
					break
				}
				got = append(got, cs.ID(c).String())
			}
			// The same history with those grafts, written by its script.
			var script string
			for _, v := range graphVariants {
				if v.name == "graph" {
					script = v.script
				}
			}
			grafted := testgit.Fixture(t, "traverse-graph-grafts", format, script+
				"printf '%s %s\\n%s\\n' $(git rev-parse HEAD~3 main~8 main~8) >.git/info/grafts\n")
			want := gitLines(t, grafted, format, "rev-list", head.String())
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("walk with grafts:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestShallowClone walks a real shallow clone (git clone --depth) with
// the commits of its shallow file as CommitOptions.Shallow, and compares
// the walk and a limited range crossing the boundary with git rev-list in
// that clone.
func TestShallowClone(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			src := historyFixture(t, "graph", format)
			dir := testgit.Fixture(t, "traverse-shallow", format, fmt.Sprintf("git clone -q --depth 4 --no-single-branch \"file://%s\" c\n", src)) + "/c"
			shallow := map[oid.ID]bool{}
			for _, s := range strings.Fields(readFileString(t, dir+"/.git/shallow")) {
				shallow[parseID(t, format, s)] = true
			}
			if len(shallow) == 0 {
				t.Fatal("clone is not shallow")
			}
			rd := loadObjects(t, dir, format)
			cs := NewCommits(rd, nil, format, CommitOptions{Shallow: shallow})
			head := revParse(t, dir, format, "HEAD")
			diffLists(t, "shallow walk", ids(cs, walkAll(t, cs, head, false)), gitLines(t, dir, format, "rev-list", "HEAD"))
			for s := range shallow {
				c, err := cs.Get(s)
				if err != nil {
					t.Fatal(err)
				}
				if len(c.Parents) != 0 {
					t.Errorf("shallow commit %s has parents", s)
				}
			}
			cs2 := NewCommits(rd, nil, format, CommitOptions{Shallow: shallow})
			side := revParse(t, dir, format, "origin/o1")
			m, err := Limit(cs2, []Tip{{ID: side, Uninteresting: true}, {ID: head}}, LimitOptions{Children: true})
			if err != nil {
				t.Fatal(err)
			}
			var shown []*Commit
			for _, c := range m.List() {
				if !m.Uninteresting(c) {
					shown = append(shown, c)
				}
			}
			diffLists(t, "shallow range", ids(cs2, shown), gitLines(t, dir, format, "rev-list", "origin/o1..HEAD", "--"))
		})
	}
}

func readFileString(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
