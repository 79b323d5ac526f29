package traverse

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// TestNamesFindRows: a graph git wrote has names that find their rows,
// one or two layers; names out of order, a fan-out that sends a name's
// search elsewhere, or a name repeated in an upper layer do not, and
// then Row keeps the parents' rows (parentPos) as git keeps them.
func TestNamesFindRows(t *testing.T) {
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "traverse-names", format, `git init -q r && cd r
for i in 1 2 3 4 5 6; do echo $i >f; commit_all c$i; done
git commit-graph write --reachable
cd .. && cp -r r split && cd split
for i in 7 8; do echo $i >f; commit_all c$i; done
git commit-graph write --reachable --split=no-merge
`)
		open := func(objdir string) *Graph {
			t.Helper()
			g, _, err := OpenGraph([]string{objdir}, format)
			if err != nil || g == nil {
				t.Fatalf("%s: %v", objdir, err)
			}
			return g
		}
		objdir := filepath.Join(dir, "r", ".git", "objects")
		if g := open(objdir); !g.NamesFindRows() {
			t.Errorf("%s: the graph git wrote: names do not find their rows", format)
		}
		if g := open(filepath.Join(dir, "split", ".git", "objects")); len(g.layers) != 2 || !g.NamesFindRows() {
			t.Errorf("%s: the split graph git wrote (%d layers): names do not find their rows", format, len(g.layers))
		}
		path := filepath.Join(objdir, "info", "commit-graph")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h := format.Size()
		chunks := graphChunks(t, data)
		oidl, oidf := chunks["OIDL"][0], chunks["OIDF"][0]
		damage := map[string]func(d []byte){
			// the first two names swapped
			"out of order": func(d []byte) {
				a := append([]byte(nil), d[oidl:oidl+h]...)
				copy(d[oidl:oidl+h], d[oidl+h:oidl+2*h])
				copy(d[oidl+h:oidl+2*h], a)
			},
			// the first name's fan-out bucket emptied: its search
			// looks nowhere
			"fan-out": func(d []byte) {
				b := int(d[oidl])
				copy(d[oidf+4*b:oidf+4*b+4], make([]byte, 4))
				if b > 0 {
					copy(d[oidf+4*b:oidf+4*b+4], d[oidf+4*(b-1):oidf+4*b])
				}
			},
		}
		for name, f := range damage {
			d := append([]byte(nil), data...)
			f(d)
			cp := filepath.Join(t.TempDir(), "objects")
			if err := os.MkdirAll(filepath.Join(cp, "info"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(cp, "info", "commit-graph"), d, 0o644); err != nil {
				t.Fatal(err)
			}
			g := open(cp)
			if g.NamesFindRows() {
				t.Errorf("%s: %s: names said to find their rows", format, name)
			}
			// Row then keeps each parent's row by its name.
			_, _, parents, err := g.Row(uint32(g.Len()-1), nil)
			if err != nil {
				t.Fatalf("%s: %s: %v", format, name, err)
			}
			for _, p := range parents {
				id, _ := g.ID(p)
				if pos, ok := g.PositionAsGit(id); !ok || pos != p {
					t.Errorf("%s: %s: parent row %d: PositionAsGit of its name gives %d, %v", format, name, p, pos, ok)
				}
			}
		}
		// A name repeated in an upper layer: the lower row is found
		// by none.
		base := open(objdir)
		dup := &Graph{format: base.format, hashLen: base.hashLen, layers: []*graphLayer{base.layers[0], base.layers[0]}}
		if dup.NamesFindRows() {
			t.Errorf("%s: a layer repeated: names said to find their rows", format)
		}
		var nilGraph *Graph
		if nilGraph.NamesFindRows() {
			t.Errorf("nil graph: names said to find their rows")
		}
	}
}
