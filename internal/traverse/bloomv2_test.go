package traverse

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// bloomV2Script is the history behind the version 2 filter fixtures in
// testdata/. git 2.39.5 cannot write version 2 filters, so the graphs were
// written once by git 2.49.1 over this exact history (fixed dates and
// identities make the commit IDs the same on every machine) and kept as
// binary files; testdata/README.md gives the commands. Changing this
// script makes the files stale, which TestBloomV2 reports.
const bloomV2Script = `
git init -q .
mkdir -p src/lib 'Bücher'
echo one > src/lib/a.c
echo top > README
printf 'x\n' > 'Bücher/Märchen'
commit_all root
echo two >> src/lib/a.c
commit_all two
printf 'y\n' > 'naïve.txt'
commit_all naive
git checkout -q -b side HEAD~1
printf 'z\n' >> 'Bücher/Märchen'
commit_all side
git checkout -q main
test_tick
git merge -q --no-edit side
echo three >> README
commit_all three
printf 'é\n' > 'src/été'
commit_all ete
`

var bloomV2Paths = []string{
	"src/lib/a.c", "src/lib", "src", "README", "Bücher/Märchen", "Bücher", "naïve.txt", "src/été", "nothere", "Bücher/nothere",
}

// installGraph copies a graph file from testdata into a fresh objects
// directory (as info/commit-graph, or as a chain when names has several
// files) and opens it.
func installGraph(t *testing.T, format oid.Format, files ...string) *Graph {
	t.Helper()
	objdir := filepath.Join(t.TempDir(), "objects")
	info := filepath.Join(objdir, "info")
	if len(files) == 1 {
		if err := os.MkdirAll(info, 0o755); err != nil {
			t.Fatal(err)
		}
		copyFile(t, filepath.Join("testdata", files[0]), filepath.Join(info, "commit-graph"))
	} else {
		dir := filepath.Join(info, "commit-graphs")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var chain bytes.Buffer
		for _, f := range files {
			data, err := os.ReadFile(filepath.Join("testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			name := oid.FromBytes(format, data[len(data)-format.Size():]).String()
			chain.WriteString(name + "\n")
			copyFile(t, filepath.Join("testdata", f), filepath.Join(dir, "graph-"+name+".graph"))
		}
		writeFile(t, filepath.Join(dir, "commit-graph-chain"), chain.String())
	}
	g, warnings, err := OpenGraph([]string{objdir}, format)
	if err != nil || len(warnings) > 0 || g == nil {
		t.Fatalf("opening %v: %v %q", files, err, warnings)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBloomV2 reads version 2 filters written by git 2.49 (a single file,
// and a chain whose base layer has version 1 filters written by git
// 2.39.5 and whose top layer has version 2 filters), checks that every
// commit of the fixture is in the graph, and compares PathChanged with git
// diff-tree for every commit and path. For the non-ASCII paths, true
// murmur3 must find every changed path in a v2 filter, and the v1
// sign-extended variant must miss at least once (so the test tells the
// hashes apart).
func TestBloomV2(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			testgit.Golden(t) // skips without git
			dir := testgit.Fixture(t, "traverse-bloomv2", format, bloomV2Script)
			truth := diffTruthOf(t, dir, format)
			for _, files := range [][]string{
				{"bloomv2-" + format.String() + ".graph"},
				{"bloomv1v2-" + format.String() + "-base.graph", "bloomv1v2-" + format.String() + "-top.graph"},
			} {
				g := installGraph(t, format, files...)
				if g.Len() != len(truth) {
					t.Fatalf("%v holds %d commits, the fixture has %d: testdata is stale (see bloomV2Script)", files, g.Len(), len(truth))
				}
				versions := map[uint32]bool{}
				for _, l := range g.layers {
					versions[l.bloom.version] = true
				}
				if !versions[2] || (len(files) == 2 && !versions[1]) {
					t.Fatalf("%v: filter versions %v", files, versions)
				}
				st := checkPathChanged(t, dir, format, g, truth, bloomV2Paths)
				if st.BloomNo == 0 || st.FromGraph != len(truth) {
					t.Errorf("%v: stats %+v", files, st)
				}
				// The hash variants, on the v2 layer.
				rd := loadObjects(t, dir, format)
				g.SettleBloom()
				cs := NewCommits(rd, g, format, CommitOptions{})
				pairs, signedMisses := 0, 0
				for id, perParent := range truth {
					c, err := cs.Get(id)
					if err != nil {
						t.Fatal(err)
					}
					filter, s, ok, err := g.bloomFilter(c.GraphPos)
					if err != nil || !ok || s.version != 2 || len(c.Parents) == 0 {
						continue
					}
					for _, name := range perParent[0] {
						if bytes.IndexFunc(name, func(r rune) bool { return r >= 0x80 }) < 0 {
							continue
						}
						bh := newBloomHash(name)
						pairs++
						if !filterHas(filter, s.numHashes, bh.h0, bh.h1) {
							t.Errorf("%v commit %s: murmur3 of %q not in the v2 filter", files, id, name)
						}
						if !filterHas(filter, s.numHashes, bh.s0, bh.s1) {
							signedMisses++
						}
					}
				}
				t.Logf("%v: %d non-ASCII pairs in v2 filters, %d missed by the v1 variant", files, pairs, signedMisses)
				if pairs == 0 || signedMisses == 0 {
					t.Errorf("%v: the fixture does not tell v1 from v2 hashing apart", files)
				}
			}
		})
	}
}
