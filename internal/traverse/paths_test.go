package traverse

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// changedTruth maps commit ID -> parent index -> the paths "git diff-tree
// -r --name-only" lists between that parent and the commit (index 0 for
// a root commit means "against the empty tree").
type changedTruth map[oid.ID][][][]byte

var (
	truthMu    sync.Mutex
	truthCache = map[string]changedTruth{}
)

// diffTruth runs git diff-tree for every commit of the history fixture
// against each parent. The history is the same in every variant, so the
// nograph fixture serves all.
func diffTruth(t testing.TB, format oid.Format) changedTruth {
	t.Helper()
	return diffTruthOf(t, historyFixture(t, "nograph", format), format)
}

// diffTruthOf runs git diff-tree for every commit of the repository at
// dir against each parent.
func diffTruthOf(t testing.TB, dir string, format oid.Format) changedTruth {
	t.Helper()
	truthMu.Lock()
	defer truthMu.Unlock()
	if tr := truthCache[goldenFile(t)+"\x00"+dir]; tr != nil {
		return tr
	}
	tr := changedTruth{}
	for _, c := range gitCommits(t, dir, format) {
		if len(c.parents) == 0 {
			tr[c.id] = [][][]byte{splitNUL(gitRaw(t, dir, format, "diff-tree", "-r", "-z", "--name-only", "--root", c.id.String()))[1:]}
			continue
		}
		for _, p := range c.parents {
			names := splitNUL(gitRaw(t, dir, format, "diff-tree", "-r", "-z", "--name-only", p.String(), c.id.String()))
			tr[c.id] = append(tr[c.id], names)
		}
	}
	truthCache[goldenFile(t)+"\x00"+dir] = tr
	return tr
}

// touches reports whether a path set from diff-tree includes path or
// something below it.
func touches(names [][]byte, path string) bool {
	for _, n := range names {
		if string(n) == path || strings.HasPrefix(string(n), path+"/") {
			return true
		}
	}
	return false
}

// TestPathChangedMatchesDiffTree asks, for every commit of every variant,
// every parent and every path of interest, whether the path changed, and
// compares with git diff-tree. Bloom filters answer first where there are
// any; they must never say "no" for a changed path, and must say it for
// some unchanged ones (otherwise the test would not exercise them).
func TestPathChangedMatchesDiffTree(t *testing.T) {
	for _, format := range testgit.Formats {
		for _, v := range graphVariants {
			t.Run(format.String()+"/"+v.name, func(t *testing.T) {
				dir := historyFixture(t, v.name, format)
				var g *Graph
				if v.graph {
					g = openGraph(t, dir, format)
				}
				st := checkPathChanged(t, dir, format, g, diffTruth(t, format), pathsOfInterest)
				if v.bloom && st.BloomNo == 0 {
					t.Error("Bloom filters never answered \"no\"")
				}
				if !v.bloom && (st.BloomNo != 0 || st.BloomQueries != 0) {
					t.Errorf("Bloom answers without filters: %+v", st)
				}
			})
		}
	}
}

// checkPathChanged compares PathChanged (and MaybeChanged) with git's
// diff-tree for every commit, parent and path, and returns the counters.
func checkPathChanged(t *testing.T, dir string, format oid.Format, g *Graph, truth changedTruth, paths []string) CommitStats {
	t.Helper()
	rd := loadObjects(t, dir, format)
	cs := NewCommits(rd, g, format, CommitOptions{})
	ts := NewTrees(rd, format)
	keys := make([]BloomKey, len(paths))
	for i, p := range paths {
		keys[i] = NewBloomKey([]byte(p))
	}
	checked := 0
	for id, perParent := range truth {
		c, err := cs.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Parents {
			if err := cs.Parse(p); err != nil {
				t.Fatal(err)
			}
		}
		for pi, names := range perParent {
			for ki := range keys {
				path := paths[ki]
				want := touches(names, path)
				got, err := PathChanged(cs, ts, c, pi, &keys[ki])
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("commit %s parent %d path %q: changed=%v, git diff-tree says %v", id, pi, path, got, want)
				}
				if pi == 0 && len(c.Parents) > 0 && want && !cs.MaybeChangedKey(c, &keys[ki]) {
					t.Errorf("commit %s path %q: Bloom filter says unchanged but git diff-tree lists it", id, path)
				}
				if pi == 0 && len(c.Parents) > 0 && want && !cs.MaybeChanged(c, [][]byte{[]byte(path)}) {
					t.Errorf("commit %s path %q: MaybeChanged says unchanged but git diff-tree lists it", id, path)
				}
				checked++
			}
		}
	}
	if w := cs.Warnings(); len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	st := cs.Stats()
	t.Logf("%d comparisons; stats %+v; trees %+v", checked, st, ts.Stats())
	return st
}

// TestDisableBloom: with filters disabled every answer still matches git
// and no filter is consulted.
func TestDisableBloom(t *testing.T) {
	format := oid.SHA1
	dir := historyFixture(t, "graph", format)
	rd := loadObjects(t, dir, format)
	cs := NewCommits(rd, openGraph(t, dir, format), format, CommitOptions{DisableBloom: true})
	ts := NewTrees(rd, format)
	key := NewBloomKey([]byte("a/b/c.txt"))
	truth := diffTruth(t, format)
	for id, perParent := range truth {
		c, err := cs.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Parents {
			cs.Parse(p)
		}
		for i, names := range perParent {
			got, err := PathChanged(cs, ts, c, i, &key)
			if err != nil {
				t.Fatal(err)
			}
			if got != touches(names, "a/b/c.txt") {
				t.Errorf("%s parent %d: %v", id, i, got)
			}
		}
	}
	if st := cs.Stats(); st.BloomQueries != 0 || st.FromGraph == 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestBloomV1SignedChar checks the version 1 quirk on the filters git
// 2.39.5 wrote on this x86-64 machine: for each commit where a path with
// bytes >= 0x80 changed, the sign-extended hash finds all its bits, while
// true murmur3 misses at least once over the fixture (so the quirk is
// really needed to read these files).
func TestBloomV1SignedChar(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir := historyFixture(t, "graph", format)
			truth := diffTruth(t, format)
			rd := loadObjects(t, dir, format)
			g := openGraph(t, dir, format)
			g.SettleBloom() // a version 1 index gives its filters once checked
			cs := NewCommits(rd, g, format, CommitOptions{})
			pairs, unsignedMisses := 0, 0
			for id, perParent := range truth {
				c, err := cs.Get(id)
				if err != nil {
					t.Fatal(err)
				}
				if len(c.Parents) == 0 {
					continue
				}
				filter, s, ok, err := g.bloomFilter(c.GraphPos)
				if err != nil || !ok {
					t.Fatalf("commit %s: no filter (%v)", id, err)
				}
				if s.version != 1 || s.numHashes != 7 || s.bitsPer != 10 {
					t.Fatalf("settings %+v", s)
				}
				for _, name := range perParent[0] {
					// every changed path and each leading directory
					for p := name; len(p) > 0; {
						if bytes.IndexFunc(p, func(r rune) bool { return r >= 0x80 }) >= 0 {
							bh := newBloomHash(p)
							pairs++
							if !filterHas(filter, s.numHashes, bh.s0, bh.s1) {
								t.Errorf("commit %s: sign-extended hash of %q not in the filter", id, p)
							}
							if !filterHas(filter, s.numHashes, bh.h0, bh.h1) {
								unsignedMisses++
							}
						} else if bh := newBloomHash(p); !filterHas(filter, s.numHashes, bh.h0, bh.h1) {
							t.Errorf("commit %s: ASCII path %q not in the filter", id, p)
						}
						i := bytes.LastIndexByte(p, '/')
						if i < 0 {
							break
						}
						p = p[:i]
					}
				}
			}
			t.Logf("%d non-ASCII (commit, path) pairs, %d missed by unsigned murmur3", pairs, unsignedMisses)
			if pairs < 4 {
				t.Fatalf("fixture has only %d non-ASCII changes", pairs)
			}
			if unsignedMisses == 0 {
				t.Error("true murmur3 found every non-ASCII key: the fixture does not tell the variants apart")
			}
		})
	}
}

// TestMurmur3 pins the hash on the reference vectors of MurmurHash3_x86_32
// and on the sign-extension rule for high bytes.
func TestMurmur3(t *testing.T) {
	for _, tc := range []struct {
		seed uint32
		in   string
		want uint32
	}{
		{0, "", 0},
		{1, "", 0x514e28b7},
		{0xffffffff, "", 0x81f16f39},
		{0, "\xff\xff\xff\xff", 0x76293b50},
		{0, "!Ce\x87", 0xf55b516b},
		{0x5082edee, "!Ce\x87", 0x2362f9de},
		{0, "!Ce", 0x7e4a8634},
		{0, "!C", 0xa0f7b07a},
		{0, "!", 0x72661cf4},
		{0, "\x00\x00\x00\x00", 0x2362f9de},
		{0x9747b28c, "aaaa", 0x5a97808a},
		{0x9747b28c, "Hello, world!", 0x24884cba},
		{0x9747b28c, "The quick brown fox jumps over the lazy dog", 0x2fa826cd},
	} {
		if got := murmur3(tc.seed, []byte(tc.in), false); got != tc.want {
			t.Errorf("murmur3(%#x, %q) = %#x, want %#x", tc.seed, tc.in, got, tc.want)
		}
	}
	// ASCII input: both variants agree.
	if murmur3(bloomSeed0, []byte("a/b/c.txt"), true) != murmur3(bloomSeed0, []byte("a/b/c.txt"), false) {
		t.Error("variants differ on ASCII input")
	}
	// Sign extension: a high byte equals the unsigned hash of the same
	// word with all higher bits set, for a block...
	if murmur3(0, []byte{0x80, 0, 0, 0}, true) != murmur3(0, []byte{0x80, 0xff, 0xff, 0xff}, false) {
		t.Error("sign-extended block byte 0 does not spill into bytes 1-3")
	}
	// ...and in the tail.
	if murmur3(0, []byte{0xc3}, true) == murmur3(0, []byte{0xc3}, false) {
		t.Error("sign extension does not change a one-byte tail")
	}
}

// TestBloomIndexCheckedWhenAsked: a version 1 Bloom index is not read
// whole at open. Until a walk's settleBloomAfter-th changed-path query
// the filters are read as git 2.39.5 reads every index (rawContains:
// bloomFilter gives none); that query checks the index, and an index in
// order gives its filters from then on, one out of order (two entries
// swapped) stays read as git reads it (its filters never through
// bloomFilter, whose answers may differ from git's there). On the index
// in order, before and after, no query says "no" for a path git
// diff-tree says changed against the first parent, and some say it.
func TestBloomIndexCheckedWhenAsked(t *testing.T) {
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			dir := historyFixture(t, "graph", format)
			truth := diffTruth(t, format)
			for _, damaged := range []bool{false, true} {
				objdir := copyInfo(t, dir)
				if damaged {
					editFile(t, filepath.Join(objdir, "info", "commit-graph"), func(d []byte) []byte {
						at := graphChunks(t, d)["BIDX"][0]
						a, b := binary.BigEndian.Uint32(d[at+4:]), binary.BigEndian.Uint32(d[at+8:])
						if a == b {
							t.Fatal("the fixture's second and third commits have filters of one length")
						}
						binary.BigEndian.PutUint32(d[at+4:], b)
						binary.BigEndian.PutUint32(d[at+8:], a)
						return d
					})
				}
				g, _, err := OpenGraph([]string{objdir}, format)
				if err != nil || g == nil {
					t.Fatalf("open: %v", err)
				}
				l := g.layers[len(g.layers)-1]
				if !l.bloomLazy || l.bloomOrder.Load() != bloomUnchecked {
					t.Fatalf("damaged=%v: layer lazy=%v order=%d at open", damaged, l.bloomLazy, l.bloomOrder.Load())
				}
				cs := NewCommits(loadObjects(t, dir, format), g, format, CommitOptions{})
				asked, nos := 0, 0
				for id, perParent := range truth {
					c, err := cs.Get(id)
					if err != nil {
						t.Fatal(err)
					}
					if len(c.Parents) == 0 {
						continue
					}
					for _, path := range pathsOfInterest {
						if asked == settleBloomAfter-1 {
							if got := l.bloomOrder.Load(); got != bloomUnchecked {
								t.Fatalf("damaged=%v: index checked after %d queries (%d)", damaged, asked, got)
							}
							if _, _, ok, _ := g.bloomFilter(c.GraphPos); ok {
								t.Fatalf("damaged=%v: a filter through bloomFilter before the check", damaged)
							}
						}
						key := NewBloomKey([]byte(path))
						maybe := cs.MaybeChangedKey(c, &key)
						asked++
						if !maybe {
							nos++
							if !damaged && touches(perParent[0], path) {
								t.Errorf("damaged=%v: commit %s: %q changed, the filter says no (query %d)", damaged, id, path, asked)
							}
						}
					}
				}
				want := bloomInOrder
				if damaged {
					want = bloomOutOfOrder
				}
				if got := l.bloomOrder.Load(); got != want {
					t.Errorf("damaged=%v: index state %d after %d queries, want %d", damaged, got, asked, want)
				}
				if g.anyRaw.Load() != damaged {
					t.Errorf("damaged=%v: the graph says some layer is read raw: %v", damaged, g.anyRaw.Load())
				}
				for pos := uint32(0); pos < uint32(g.Len()); pos++ {
					if _, _, ok, _ := g.bloomFilter(pos); ok == damaged {
						t.Fatalf("damaged=%v: bloomFilter gives a filter: %v (position %d)", damaged, ok, pos)
					}
				}
				if nos == 0 {
					t.Errorf("damaged=%v: no query said no", damaged)
				}
				g.Close()
			}
		})
	}
}
