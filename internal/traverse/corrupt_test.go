package traverse

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// graphChunks returns the [start, end) offsets of each chunk of a graph
// file, by ID, from its table of contents.
func graphChunks(t testing.TB, data []byte) map[string][2]int {
	t.Helper()
	n := int(data[6])
	out := map[string][2]int{}
	for i := 0; i < n; i++ {
		e := data[8+12*i:]
		out[string(e[:4])] = [2]int{int(binary.BigEndian.Uint64(e[4:])), int(binary.BigEndian.Uint64(e[16:]))}
	}
	return out
}

// tocEntry returns the offset of the TOC row of chunk id.
func tocEntry(t testing.TB, data []byte, id string) int {
	t.Helper()
	for i := 0; i < int(data[6]); i++ {
		if string(data[8+12*i:12+12*i]) == id {
			return 8 + 12*i
		}
	}
	t.Fatalf("no chunk %s", id)
	return 0
}

// snapshot renders everything a walk can observe of a repository's
// history: every commit's tree, parents and time; the date-ordered walk
// from HEAD; for every commit, parent and path of interest whether the
// path changed (Bloom filters first); and Limit's list, boundary marks and
// children for a range. Graph damage must not change a byte of it, but
// where git dies (see walkSnapshot).
func snapshot(t testing.TB, dir string, format oid.Format, rd ObjectReader, g *Graph) (string, []string) {
	t.Helper()
	s, warnings, err := walkSnapshot(t, dir, format, rd, g)
	if err != nil {
		t.Fatal(err)
	}
	return s, warnings
}

// walkSnapshot is snapshot, failing with the first error the walks meet
// (a *GraphDeath where git dies of the graph).
func walkSnapshot(t testing.TB, dir string, format oid.Format, rd ObjectReader, g *Graph) (string, []string, error) {
	t.Helper()
	cs := NewCommits(rd, g, format, CommitOptions{})
	cs2 := NewCommits(rd, g, format, CommitOptions{})
	warnings := func() []string { return append(cs.Warnings(), cs2.Warnings()...) }
	ts := NewTrees(rd, format)
	var b strings.Builder
	all := gitCommits(t, dir, format)
	for _, gc := range all {
		c, err := cs.Get(gc.id)
		if err != nil {
			return "", warnings(), err
		}
		fmt.Fprintf(&b, "%s %s\n", cs.ID(c), describe(cs, c))
	}
	w := NewWalk(cs)
	if err := w.Push(revParse(t, dir, format, "HEAD")); err != nil {
		return "", warnings(), err
	}
	for {
		c, err := w.Next()
		if err != nil {
			return "", warnings(), err
		}
		if c == nil {
			break
		}
		fmt.Fprintf(&b, "walk %s:", cs.ID(c))
		for _, path := range pathsOfInterest {
			key := NewBloomKey([]byte(path))
			for i := range max(1, len(c.Parents)) {
				ch, err := PathChanged(cs, ts, c, i, &key)
				if err != nil {
					return "", warnings(), err
				}
				if ch {
					fmt.Fprintf(&b, " %s@%d", path, i)
				}
			}
		}
		b.WriteByte('\n')
	}
	m, err := Limit(cs2, resolveTips(t, dir, format, []string{"main~12..main"}), LimitOptions{Children: true})
	if err != nil {
		return "", warnings(), err
	}
	for _, c := range m.List() {
		fmt.Fprintf(&b, "list %s %v children %v\n", cs2.ID(c), m.Uninteresting(c), ids(cs2, m.Children(c)))
		for _, p := range c.Parents {
			fmt.Fprintf(&b, "  parent %s %v\n", cs2.ID(p), m.Uninteresting(p))
		}
	}
	return b.String(), warnings(), nil
}

type damage struct {
	name string
	// modify changes the copied objects directory (layout as in the
	// fixture: info/commit-graph or info/commit-graphs/).
	modify func(t testing.TB, objdir string, format oid.Format)
	// noWarning: damage git itself ignores silently (the results must
	// still equal those without a graph).
	noWarning bool
	// used: git 2.39.5 reads the damaged bytes as they are, without a
	// word (TestDamagedCommitGraphMatchesGit compares that with git):
	// the results may differ from a walk without graph, nothing may
	// fail.
	used bool
	// dies: git 2.39.5 dies of the damage when it parses the commit
	// (insert_parent_or_die): the walk fails with a *GraphDeath of this
	// message, without a warning.
	dies string
	// layers the damaged graph keeps (-1: don't check)
	layers int
}

func editFile(t testing.TB, path string, fn func(data []byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, fn(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func editGraph(fn func(t testing.TB, data []byte, h int) []byte) func(testing.TB, string, oid.Format) {
	return func(t testing.TB, objdir string, format oid.Format) {
		editFile(t, filepath.Join(objdir, "info", "commit-graph"), func(d []byte) []byte { return fn(t, d, format.Size()) })
	}
}

// cdatRow returns the offset of commit row i in CDAT.
func cdatRow(t testing.TB, data []byte, h, i int) int {
	return graphChunks(t, data)["CDAT"][0] + i*(h+16)
}

// octopusRow finds a CDAT row whose second parent uses the EDGE chunk.
func octopusRow(t testing.TB, data []byte, h int) int {
	c := graphChunks(t, data)["CDAT"]
	for off := c[0]; off < c[1]; off += h + 16 {
		if binary.BigEndian.Uint32(data[off+h+4:])&graphExtraEdges != 0 && binary.BigEndian.Uint32(data[off+h+4:]) != graphParentNone {
			return off
		}
	}
	t.Fatal("no octopus merge in the graph")
	return 0
}

// mergeRow finds a CDAT row with two parents.
func mergeRow(t testing.TB, data []byte, h int) int {
	c := graphChunks(t, data)["CDAT"]
	for off := c[0]; off < c[1]; off += h + 16 {
		if binary.BigEndian.Uint32(data[off+h+4:]) != graphParentNone {
			return off
		}
	}
	t.Fatal("no merge in the graph")
	return 0
}

var singleFileDamages = []damage{
	{name: "truncated-half", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { return d[:len(d)/2] })},
	{name: "too-small", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { return d[:200] })},
	{name: "empty", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { return nil })},
	{name: "bad-signature", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { d[0] = 'X'; return d })},
	{name: "bad-version", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { d[4] = 2; return d })},
	{name: "wrong-hash-version", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { d[5] ^= 3; return d })},
	{name: "chunk-offset-beyond-file", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		binary.BigEndian.PutUint64(d[tocEntry(t, d, "CDAT")+4:], uint64(len(d)+100))
		return d
	})},
	{name: "chunk-offsets-decreasing", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		e := tocEntry(t, d, "OIDL")
		binary.BigEndian.PutUint64(d[e+4:], binary.BigEndian.Uint64(d[e+16:])+8)
		return d
	})},
	{name: "chunk-count-too-high", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { d[6]++; return d })},
	{name: "chunk-count-too-low", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { d[6]--; return d })},
	{name: "chunk-count-huge", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { d[6] = 255; return d })},
	{name: "duplicate-chunk-id", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		copy(d[tocEntry(t, d, "OIDL"):], "OIDF")
		return d
	})},
	{name: "missing-OIDF", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { copy(d[tocEntry(t, d, "OIDF"):], "XXXX"); return d })},
	{name: "missing-OIDL", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { copy(d[tocEntry(t, d, "OIDL"):], "XXXX"); return d })},
	{name: "missing-CDAT", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { copy(d[tocEntry(t, d, "CDAT"):], "XXXX"); return d })},
	{name: "missing-EDGE", modify: editGraph(func(t testing.TB, d []byte, h int) []byte { copy(d[tocEntry(t, d, "EDGE"):], "XXXX"); return d })},
	{name: "CDAT-wrong-size", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		// move the boundary after CDAT four bytes down
		c := graphChunks(t, d)["CDAT"]
		for i := 0; i <= int(d[6]); i++ {
			e := 8 + 12*i
			if int(binary.BigEndian.Uint64(d[e+4:])) == c[1] {
				binary.BigEndian.PutUint64(d[e+4:], uint64(c[1]-4))
			}
		}
		return d
	})},
	{name: "fanout-out-of-order", noWarning: true, modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		f := graphChunks(t, d)["OIDF"][0]
		binary.BigEndian.PutUint32(d[f+4*10:], 0xffff)
		return d
	})},
	{name: "fanout-count-mismatch", noWarning: true, modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		f := graphChunks(t, d)["OIDF"][0]
		binary.BigEndian.PutUint32(d[f+4*255:], binary.BigEndian.Uint32(d[f+4*255:])+1)
		return d
	})},
	{name: "parent-out-of-range", dies: "invalid parent position 1000", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		r := cdatRow(t, d, h, 7)
		binary.BigEndian.PutUint32(d[r+h:], 1000)
		return d
	})},
	{name: "second-parent-out-of-range", dies: "invalid parent position 1879048191", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		r := mergeRow(t, d, h)
		binary.BigEndian.PutUint32(d[r+h+4:], 0x6fffffff)
		return d
	})},
	{name: "self-parent", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		r := cdatRow(t, d, h, 11)
		binary.BigEndian.PutUint32(d[r+h:], 11)
		return d
	})},
	{name: "edge-index-out-of-range", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		r := octopusRow(t, d, h)
		binary.BigEndian.PutUint32(d[r+h+4:], graphExtraEdges|0x7ffffff0)
		return d
	})},
	{name: "edge-parent-out-of-range", dies: "invalid parent position 5000", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		e := graphChunks(t, d)["EDGE"][0]
		binary.BigEndian.PutUint32(d[e:], 5000)
		return d
	})},
	{name: "edge-without-last-mark", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		c := graphChunks(t, d)["EDGE"]
		for off := c[0]; off < c[1]; off += 4 {
			binary.BigEndian.PutUint32(d[off:], binary.BigEndian.Uint32(d[off:])&graphEdgeMask)
		}
		return d
	})},
	{name: "bloom-data-truncated", used: true, modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		b := graphChunks(t, d)["BIDX"]
		binary.BigEndian.PutUint32(d[b[1]-4:], 1<<30)
		return d
	})},
	{name: "bloom-index-decreasing", used: true, modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		b := graphChunks(t, d)["BIDX"]
		for i := 5; i < 15; i++ {
			binary.BigEndian.PutUint32(d[b[0]+4*i:], 1)
		}
		return d
	})},
	{name: "bloom-too-many-hashes", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		b := graphChunks(t, d)["BDAT"]
		binary.BigEndian.PutUint32(d[b[0]+4:], 1<<31)
		return d
	})},
	{name: "bloom-unknown-version", noWarning: true, modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		b := graphChunks(t, d)["BDAT"]
		binary.BigEndian.PutUint32(d[b[0]:], 3)
		return d
	})},
	{name: "bloom-data-missing", noWarning: true, modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		copy(d[tocEntry(t, d, "BDAT"):], "XXXX")
		return d
	})},
	{name: "bloom-index-missing", noWarning: true, modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		copy(d[tocEntry(t, d, "BIDX"):], "XXXX")
		return d
	})},
	{name: "generation-overflow-missing", dies: "commit-graph requires overflow generation data but has none", modify: editGraph(func(t testing.TB, d []byte, h int) []byte {
		g, ok := graphChunks(t, d)["GDA2"]
		if !ok {
			t.Skip("the installed git wrote no generation data chunk (GDA2, written since git 2.36)")
		}
		binary.BigEndian.PutUint32(d[g[0]+12:], genOffsetOverflw|77)
		return d
	})},
}

// TestGraphDirectory: a commit-graph that is a directory is what git
// opens and maps: smaller than a graph's minimum (an empty directory on
// some file systems), git's "too small" error and no graph; else git's
// death of the failed mapping.
func TestGraphDirectory(t *testing.T) {
	for _, format := range testgit.Formats {
		dir := historyFixture(t, "graph", format)
		objdir := copyInfo(t, dir)
		p := filepath.Join(objdir, "info", "commit-graph")
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, entries := range []int{0, 100} {
			for i := range entries {
				if err := os.WriteFile(filepath.Join(p, fmt.Sprintf("entry-%04d", i)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			g, warnings, err := OpenGraph([]string{objdir}, format)
			if st.Size() >= int64(graphMinSize(format)) {
				if err == nil || err.Error() != "mmap failed: No such device" {
					t.Errorf("%v: a directory of %d bytes: %v, want git's mmap failure", format, st.Size(), err)
				}
			} else if err != nil || g != nil || len(warnings) != 1 || warnings[0] != "error: commit-graph file is too small" {
				t.Errorf("%v: a directory of %d bytes: graph %v, %q, %v; want git's too small error", format, st.Size(), g, warnings, err)
			}
		}
	}
}

// chainPaths returns the chain file and the layer files, base first.
func chainPaths(t testing.TB, objdir string) (string, []string) {
	t.Helper()
	chain := filepath.Join(objdir, "info", "commit-graphs", "commit-graph-chain")
	data, err := os.ReadFile(chain)
	if err != nil {
		t.Fatal(err)
	}
	var layers []string
	for _, l := range strings.Fields(string(data)) {
		layers = append(layers, filepath.Join(objdir, "info", "commit-graphs", "graph-"+l+".graph"))
	}
	return chain, layers
}

var chainDamages = []damage{
	{name: "missing-middle-layer", layers: 1, modify: func(t testing.TB, objdir string, format oid.Format) {
		_, layers := chainPaths(t, objdir)
		os.Remove(layers[1])
	}},
	{name: "missing-base-layer", layers: 0, modify: func(t testing.TB, objdir string, format oid.Format) {
		_, layers := chainPaths(t, objdir)
		os.Remove(layers[0])
	}},
	{name: "chain-line-not-hex", layers: 2, modify: func(t testing.TB, objdir string, format oid.Format) {
		chain, _ := chainPaths(t, objdir)
		editFile(t, chain, func(d []byte) []byte {
			lines := strings.Split(string(d), "\n")
			lines[2] = "x" + lines[2][1:]
			return []byte(strings.Join(lines, "\n"))
		})
	}},
	{name: "chain-line-names-a-path", layers: 2, modify: func(t testing.TB, objdir string, format oid.Format) {
		chain, layers := chainPaths(t, objdir)
		// a copy of the top layer where the hostile name would lead
		copyFile(t, layers[2], filepath.Join(objdir, "x.graph"))
		editFile(t, chain, func(d []byte) []byte {
			lines := strings.Split(string(d), "\n")
			lines[2] += "/../../../x"
			return []byte(strings.Join(lines, "\n"))
		})
	}},
	{name: "chain-order-swapped", layers: 1, modify: func(t testing.TB, objdir string, format oid.Format) {
		chain, _ := chainPaths(t, objdir)
		editFile(t, chain, func(d []byte) []byte {
			lines := strings.Split(string(d), "\n")
			lines[1], lines[2] = lines[2], lines[1]
			return []byte(strings.Join(lines, "\n"))
		})
	}},
	{name: "base-chunk-mismatch", layers: 2, modify: func(t testing.TB, objdir string, format oid.Format) {
		_, layers := chainPaths(t, objdir)
		editFile(t, layers[2], func(d []byte) []byte {
			b := graphChunks(t, d)["BASE"]
			d[b[0]+3] ^= 0xff
			return d
		})
	}},
	{name: "base-chunk-missing", layers: 1, modify: func(t testing.TB, objdir string, format oid.Format) {
		_, layers := chainPaths(t, objdir)
		editFile(t, layers[1], func(d []byte) []byte {
			copy(d[tocEntry(t, d, "BASE"):], "XXXX")
			return d
		})
	}},
	{name: "layer-wrong-hash-version", layers: 2, modify: func(t testing.TB, objdir string, format oid.Format) {
		_, layers := chainPaths(t, objdir)
		editFile(t, layers[2], func(d []byte) []byte { d[5] ^= 3; return d })
	}},
	{name: "base-layer-parent-above-it", layers: -1, dies: "invalid parent position 13", modify: func(t testing.TB, objdir string, format oid.Format) {
		_, layers := chainPaths(t, objdir)
		editFile(t, layers[0], func(d []byte) []byte {
			n := int(binary.BigEndian.Uint32(d[graphChunks(t, d)["OIDF"][0]+4*255:]))
			r := cdatRow(t, d, format.Size(), n-1)
			binary.BigEndian.PutUint32(d[r+format.Size():], uint32(n+2))
			return d
		})
	}},
	{name: "top-layer-truncated", layers: 2, modify: func(t testing.TB, objdir string, format oid.Format) {
		_, layers := chainPaths(t, objdir)
		editFile(t, layers[2], func(d []byte) []byte { return d[:len(d)-40] })
	}},
	{name: "chain-empty", layers: 0, noWarning: true, modify: func(t testing.TB, objdir string, format oid.Format) {
		chain, _ := chainPaths(t, objdir)
		editFile(t, chain, func([]byte) []byte { return nil })
	}},
}

// copyInfo copies objects/info of a fixture into a new objects directory.
func copyInfo(t testing.TB, dir string) string {
	t.Helper()
	objdir := filepath.Join(t.TempDir(), "objects")
	src := filepath.Join(objectsDir(dir), "info")
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		dst := filepath.Join(objdir, "info", rel)
		if fi.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return objdir
}

// TestCorruptGraph damages the commit-graph in every way listed above and
// checks that the damage is reported as a warning and that every result
// equals the result without a graph.
func TestCorruptGraph(t *testing.T) {
	for _, format := range testgit.Formats {
		base := historyFixture(t, "nograph", format)
		rd := loadObjects(t, base, format)
		want, _ := snapshot(t, base, format, rd, nil)
		run := func(t *testing.T, variant string, d damage) {
			dir := historyFixture(t, variant, format)
			objdir := copyInfo(t, dir)
			d.modify(t, objdir, format)
			g, warnings, err := OpenGraph([]string{objdir}, format)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			got, walkWarnings, err := walkSnapshot(t, dir, format, rd, g)
			all := append(warnings, walkWarnings...)
			if d.dies != "" {
				var death *GraphDeath
				if !errors.As(err, &death) || death.Msg != d.dies {
					t.Fatalf("walk error %v, want git's death %q", err, d.dies)
				}
				if len(all) != 0 {
					t.Errorf("warnings %q before git's death", all)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.used {
				if len(all) != 0 {
					t.Errorf("warnings %q where git says nothing", all)
				}
				return
			}
			if got != want {
				t.Errorf("results differ from a walk without graph")
			}
			if !d.noWarning && len(all) == 0 {
				t.Errorf("no warning (graph: %d layers)", g.NumLayers())
			}
			if d.layers >= 0 && variant == "split" && g.NumLayers() != d.layers {
				t.Errorf("kept %d layers, want %d (warnings %q)", g.NumLayers(), d.layers, all)
			}
			t.Logf("warnings: %q", all)
		}
		for _, d := range singleFileDamages {
			t.Run(format.String()+"/"+d.name, func(t *testing.T) { run(t, "graph", d) })
		}
		for _, d := range chainDamages {
			t.Run(format.String()+"/chain-"+d.name, func(t *testing.T) { run(t, "split", d) })
		}
	}
}

// TestGraphInAlternates checks the choice of graph across object
// directories: layers of a chain may live in an alternate, and a graph in
// an alternate is used when the main directory has none.
func TestGraphInAlternates(t *testing.T) {
	for _, format := range testgit.Formats {
		dir := historyFixture(t, "split", format)
		rd := loadObjects(t, dir, format)
		want, _ := snapshot(t, historyFixture(t, "nograph", format), format, rd, nil)

		mainDir := copyInfo(t, dir)
		alt := filepath.Join(t.TempDir(), "alt")
		_, layers := chainPaths(t, mainDir)
		if err := os.MkdirAll(filepath.Join(alt, "info", "commit-graphs"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(layers[0], filepath.Join(alt, "info", "commit-graphs", filepath.Base(layers[0]))); err != nil {
			t.Fatal(err)
		}
		g, warnings, _ := OpenGraph([]string{mainDir, alt}, format)
		if len(warnings) != 0 || g.NumLayers() != 3 {
			t.Fatalf("layer in alternate: %d layers, warnings %q", g.NumLayers(), warnings)
		}
		if got, _ := snapshot(t, dir, format, rd, g); got != want {
			t.Error("results differ with a layer in an alternate")
		}
		g.Close()

		single := historyFixture(t, "graph", format)
		altOnly := copyInfo(t, single)
		empty := filepath.Join(t.TempDir(), "objects")
		g, warnings, _ = OpenGraph([]string{empty, altOnly}, format)
		if len(warnings) != 0 || g.NumLayers() != 1 {
			t.Fatalf("graph in alternate: %v, warnings %q", g, warnings)
		}
		if got, _ := snapshot(t, single, format, rd, g); got != want {
			t.Error("results differ with the graph in an alternate")
		}
		g.Close()
		// The first directory with a graph wins, even if the next has
		// one too.
		full := copyInfo(t, dir)
		g, _, _ = OpenGraph([]string{full, altOnly}, format)
		if g.NumLayers() != 3 {
			t.Errorf("first directory's chain not chosen: %d layers", g.NumLayers())
		}
		g.Close()
		// A directory whose chain yields no layer is passed over.
		g, warnings, _ = OpenGraph([]string{mainDir, altOnly}, format)
		if g.NumLayers() != 1 || len(warnings) == 0 {
			t.Errorf("broken chain then single file: %d layers, warnings %q", g.NumLayers(), warnings)
		}
		g.Close()
	}
}
