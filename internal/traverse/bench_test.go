package traverse_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/benchmarks/walk"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// benchRepo is the generated repository of benchmarks/walk (about 5,000
// commits here, to keep setup short), opened with its graph.
type benchRepo struct {
	gitDir string
	db     *odb.DB
	graph  *traverse.Graph
	ids    []oid.ID // every commit, newest first
	head   oid.ID
}

func openBench(b *testing.B) *benchRepo {
	b.Helper()
	testgit.RequireGit(b)
	dir, err := walk.Generated(5000, true)
	if err != nil {
		b.Fatal(err)
	}
	r := &benchRepo{gitDir: filepath.Join(dir, ".git")}
	r.db, err = odb.Open(filepath.Join(r.gitDir, "objects"), oid.SHA1, odb.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.db.Close() })
	var warnings []string
	r.graph, warnings, err = traverse.OpenGraph(r.db.ObjectDirs(), oid.SHA1)
	if err != nil || len(warnings) > 0 || r.graph == nil {
		b.Fatal(err, warnings)
	}
	b.Cleanup(func() { r.graph.Close() })
	for _, line := range strings.Fields(testgit.Git(b, dir, oid.SHA1, "rev-list", "HEAD")) {
		id, err := oid.ParseHex(oid.SHA1, line)
		if err != nil {
			b.Fatal(err)
		}
		r.ids = append(r.ids, id)
	}
	r.head = r.ids[0]
	return r
}

// BenchmarkOpenGraph: mapping and validating the graph file.
func BenchmarkOpenGraph(b *testing.B) {
	r := openBench(b)
	b.ReportAllocs()
	for b.Loop() {
		g, _, err := traverse.OpenGraph(r.db.ObjectDirs(), oid.SHA1)
		if err != nil || g == nil {
			b.Fatal(err)
		}
		g.Close()
	}
}

// BenchmarkParseCommits parses every commit, from the graph and from the
// objects; reported per commit.
func BenchmarkParseCommits(b *testing.B) {
	r := openBench(b)
	for _, useGraph := range []bool{true, false} {
		name := "graph"
		g := r.graph
		if !useGraph {
			name, g = "objects", nil
		}
		b.Run(name, func(b *testing.B) {
			rd := r.db.NewReader()
			b.ReportAllocs()
			for b.Loop() {
				cs := traverse.NewCommits(rd, g, oid.SHA1, traverse.CommitOptions{})
				for _, id := range r.ids {
					if _, err := cs.Get(id); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(r.ids)), "ns/commit")
		})
	}
}

// BenchmarkMaybeChanged: one Bloom query per commit of the history.
func BenchmarkMaybeChanged(b *testing.B) {
	r := openBench(b)
	cs := traverse.NewCommits(r.db.NewReader(), r.graph, oid.SHA1, traverse.CommitOptions{})
	commits := make([]*traverse.Commit, len(r.ids))
	for i, id := range r.ids {
		commits[i], _ = cs.Get(id)
	}
	key := traverse.NewBloomKey([]byte(walk.TargetPath))
	b.ReportAllocs()
	no := 0
	for b.Loop() {
		for _, c := range commits {
			if !cs.MaybeChangedKey(c, &key) {
				no++
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(commits)), "ns/query")
}

// BenchmarkLookup resolves the target path in every commit's root tree
// (each root read once; deeper levels mostly from the cache).
func BenchmarkLookup(b *testing.B) {
	r := openBench(b)
	rd := r.db.NewReader()
	cs := traverse.NewCommits(rd, r.graph, oid.SHA1, traverse.CommitOptions{})
	trees := make([]oid.ID, len(r.ids))
	for i, id := range r.ids {
		c, _ := cs.Get(id)
		trees[i] = cs.Tree(c)
	}
	path := []byte(walk.TargetPath)
	b.ReportAllocs()
	for b.Loop() {
		ts := traverse.NewTrees(rd, oid.SHA1)
		for _, tr := range trees {
			if _, _, _, err := ts.Lookup(tr, path); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(trees)), "ns/lookup")
}

// BenchmarkDiffTrees diffs consecutive root trees of the first 200
// commits (full recursive diffs, as rename detection needs).
func BenchmarkDiffTrees(b *testing.B) {
	r := openBench(b)
	rd := r.db.NewReader()
	cs := traverse.NewCommits(rd, r.graph, oid.SHA1, traverse.CommitOptions{})
	var pairs [][2]oid.ID
	for _, id := range r.ids[:200] {
		c, _ := cs.Get(id)
		if len(c.Parents) > 0 {
			cs.Parse(c.Parents[0])
			pairs = append(pairs, [2]oid.ID{cs.Tree(c.Parents[0]), cs.Tree(c)})
		}
	}
	ts := traverse.NewTrees(rd, oid.SHA1)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, p := range pairs {
			if err := ts.DiffTrees(p[0], p[1], func(*traverse.Change) error { n++; return nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLimit marks a range of about a thousand commits (main~1000..main).
func BenchmarkLimit(b *testing.B) {
	r := openBench(b)
	rd := r.db.NewReader()
	tips := []traverse.Tip{{ID: r.ids[1000], Uninteresting: true}, {ID: r.head}}
	b.ReportAllocs()
	for b.Loop() {
		cs := traverse.NewCommits(rd, r.graph, oid.SHA1, traverse.CommitOptions{})
		if _, err := traverse.Limit(cs, tips, traverse.LimitOptions{Children: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQueue pushes and pops 10,000 commits.
func BenchmarkQueue(b *testing.B) {
	commits := make([]traverse.Commit, 10000)
	for i := range commits {
		commits[i].Time = uint64((i * 7919) % 5000)
	}
	var q traverse.Queue
	b.ReportAllocs()
	for b.Loop() {
		for i := range commits {
			q.Push(&commits[i])
		}
		for q.Len() > 0 {
			q.Pop()
		}
	}
}
