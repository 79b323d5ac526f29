package traverse

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// emptyReader has no objects: commits not answered by the graph fail to
// parse, which is what a fuzzed graph's walk must survive.
type emptyReader struct{}

func (emptyReader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	return 0, nil, errMissing
}

// FuzzParseGraph feeds arbitrary bytes to the commit-graph parser and,
// when a graph comes out, reads every commit, generation and filter of it
// and walks it: nothing may panic or loop, whatever the file says.
// Seeds are the graph files in testdata (version 1 and 2 filters, both
// object formats). Run: go test ./traverse -run '^$' -fuzz FuzzParseGraph
func FuzzParseGraph(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.graph"))
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, len(data) > 5 && data[5] == 2)
	}
	f.Fuzz(func(t *testing.T, data []byte, sha256 bool) {
		format := oid.SHA1
		if sha256 {
			format = oid.SHA256
		}
		g, _, err := ParseGraph("fuzz", data, format)
		if err != nil || g == nil {
			return
		}
		g.SettleBloom()
		n := min(g.Len(), 2000)
		key := NewBloomKey([]byte("src/lib/a.c"))
		hi := NewBloomKey([]byte("Bücher/Märchen"))
		for pos := uint32(0); pos < uint32(n); pos++ {
			id, ok := g.ID(pos)
			if !ok {
				t.Fatalf("no ID at position %d of %d", pos, g.Len())
			}
			if p, ok := g.Position(id); !ok || p >= uint32(g.Len()) {
				// Unsorted OID lists make lookups miss; that is allowed.
				_ = p
			}
			g.entry(pos, nil)
			g.Generation(pos)
			if filter, s, ok, _ := g.bloomFilter(pos); ok {
				key.mayContain(filter, s)
				hi.mayContain(filter, s)
			}
			g.rawContains(pos, &key.components[0])
			g.rawContains(pos, &hi.components[0])
		}
		cs := NewCommits(emptyReader{}, g, format, CommitOptions{})
		for pos := uint32(0); pos < uint32(n); pos++ {
			id, _ := g.ID(pos)
			c := cs.Lookup(id)
			if cs.Parse(c) == nil {
				cs.MaybeChangedKey(c, &key)
				for _, p := range c.Parents {
					cs.Parse(p)
				}
			}
		}
		// The path look-ahead over the same graph, run to its end (its
		// bound above the lookups the file can ask for) and stopped
		// once it waits for the walk, through trees that all hold "a".
		for _, from := range []uint32{0, uint32(n / 2), uint32(max(n-1, 0))} {
			if from >= uint32(g.Len()) {
				continue
			}
			for _, bloom := range []bool{true, false} {
				pa := newPathAhead([]byte("a"), len(data)/4+16)
				go pa.run(NewTrees(oneEntryTrees{format}, format), g, from, PathEntry{}, bloom, false)
				select {
				case <-pa.done:
				case <-pa.idle:
				}
				close(pa.stop)
				<-pa.done
			}
		}
		g.Close()
	})
}

// oneEntryTrees answers every object as a tree with one file, "a", whose
// ID is the tree's own: each commit's version differs from its parents'.
type oneEntryTrees struct{ format oid.Format }

func (r oneEntryTrees) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	dst = append(append(dst[:0], "100644 a\x00"...), id.Bytes()...)
	return object.Tree, dst, nil
}
