package blame

import (
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// bigBaseScript: a file of 9.6 MB in two versions, repacked so that one
// is a delta on the other, whose 9.6 MB are more than the pooled
// readers' delta-base ceiling (deltaBaseCacheBytes).
const bigBaseScript = `git init -q
seq 1 800000 | sed "s/^/a line of the big file /" > big.txt
commit_all one
sed -i "s/^a line of the big file 400000$/changed/" big.txt
commit_all two
git repack -adfq --depth=10 --window=10
`

// readBigVersions reads both versions of bigBaseScript's big.txt with rd.
func readBigVersions(t *testing.T, dir string, format oid.Format, rd *odb.Reader) {
	t.Helper()
	for _, rev := range []string{"HEAD:big.txt", "HEAD~1:big.txt"} {
		id, err := oid.ParseHex(format, strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", rev)))
		if err != nil {
			t.Fatal(err)
		}
		if _, data, err := rd.Read(id, nil); err != nil || len(data) < deltaBaseCacheBytes {
			t.Fatalf("%s: reading %s: %d bytes, %v", format, rev, len(data), err)
		}
	}
}

// TestPooledReaderDropsOversizedBase: a reader given back to the pool
// (Repository.put) keeps no delta base larger than its cache's ceiling,
// however large the objects it read: pooled readers must stay within
// their cache's bound between blames.
func TestPooledReaderDropsOversizedBase(t *testing.T) {
	testgit.RequireAnyGit(t) // builds the fixture; nothing of git's output is compared
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "blame-bigbase", format, bigBaseScript)
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		rd := r.reader()
		// One version is a delta on the other (which one, git's
		// heuristics choose): reading both keeps the base.
		readBigVersions(t, dir, format, rd)
		if held := rd.Stats().DeltaBaseOversized; held <= deltaBaseCacheBytes {
			t.Fatalf("%s: %d bytes held outside the bound after reading a delta on a 9.6 MB base; the fixture no longer tests the drop", format, held)
		}
		r.put(rd)
		if held := rd.Stats().DeltaBaseOversized; held != 0 {
			t.Errorf("%s: a reader back in the pool holds %d bytes outside its cache's bound", format, held)
		}
		r.Close()
	}
}

// TestPooledReaderCeilingBack: a reader given back to the pool after a
// blame of a large file raised its delta-base ceiling (largeFileDeltaBases)
// comes back to the default bound, whatever it grew to.
func TestPooledReaderCeilingBack(t *testing.T) {
	testgit.RequireAnyGit(t) // builds the fixture; nothing of git's output is compared
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "blame-bigbase", format, bigBaseScript)
		r, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		rd := r.reader()
		rd.SetDeltaBaseCeiling(64 << 20)
		for range 3 { // the bound grows as the versions come back
			readBigVersions(t, dir, format, rd)
		}
		if b := rd.Stats().DeltaBaseCacheBound; b <= deltaBaseCacheBytes {
			t.Fatalf("%s: the bound stayed at %d under a 64 MiB ceiling; the fixture no longer tests the reset", format, b)
		}
		r.put(rd)
		if b := rd.Stats().DeltaBaseCacheBound; b > deltaBaseCacheBytes {
			t.Errorf("%s: a reader back in the pool has a delta-base bound of %d", format, b)
		}
		r.Close()
	}
}

// TestLargeFileDeltaBases: the delta-base ceiling of a blame grows with
// its file between the default and maxLargeFileDeltaBases, and not for a
// file larger than the default (the cache's place outside its bound
// holds its last base).
func TestLargeFileDeltaBases(t *testing.T) {
	for _, c := range []struct {
		size int
		want int64
	}{
		{0, deltaBaseCacheBytes},
		{1 << 20, deltaBaseCacheBytes},
		{deltaBaseCacheBytes / largeFileVersions, deltaBaseCacheBytes},
		{2 << 20, 10 << 20},
		{3261938, 3261938 * largeFileVersions},
		{7800000, maxLargeFileDeltaBases},
		{deltaBaseCacheBytes, maxLargeFileDeltaBases},
		{deltaBaseCacheBytes + 1, deltaBaseCacheBytes},
		{10 << 20, deltaBaseCacheBytes},
	} {
		if got := largeFileDeltaBases(c.size); got != c.want {
			t.Errorf("largeFileDeltaBases(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}
