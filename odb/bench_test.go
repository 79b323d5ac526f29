package odb

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// Benchmarks run on a generated repository by default. Set
// GOBLAME_ODB_REPO to a repository (or its objects directory) and
// GOBLAME_ODB_FILE to a path in it to measure a real one, e.g.
//
//	GOBLAME_ODB_REPO=/path/to/gitoxide.git GOBLAME_ODB_FILE=README.md \
//	    go test ./odb -run '^$' -bench . -benchtime 5x

// benchRepo returns the objects directory and format of the benchmark
// repository, and a file path whose history the history benchmark reads.
func benchRepo(b *testing.B) (objects string, format oid.Format, repoDir, file string) {
	b.Helper()
	if repo := os.Getenv("GOBLAME_ODB_REPO"); repo != "" {
		objects = repo
		if _, err := os.Stat(filepath.Join(repo, "objects")); err == nil {
			objects = filepath.Join(repo, "objects")
		} else if _, err := os.Stat(filepath.Join(repo, ".git", "objects")); err == nil {
			objects = filepath.Join(repo, ".git", "objects")
		}
		format = oid.SHA1
		if out, err := exec.Command("git", "-C", repo, "rev-parse", "--show-object-format").Output(); err == nil && strings.TrimSpace(string(out)) == "sha256" {
			format = oid.SHA256
		}
		return objects, format, repo, os.Getenv("GOBLAME_ODB_FILE")
	}
	var fx = layoutFixtures[0]
	for _, f := range layoutFixtures {
		if f.name == "deep" {
			fx = f
		}
	}
	testgit.RequireGit(b)
	dir := testgit.Fixture(b, "odb-"+fx.name, oid.SHA1, historyScript+fx.script)
	return filepath.Join(dir, ".git", "objects"), oid.SHA1, dir, "big.txt"
}

// historyBlobs lists the blob ids of every version of file, newest first
// (the order blame reads them).
func historyBlobs(b *testing.B, repoDir, file string, format oid.Format) []oid.ID {
	b.Helper()
	out, err := exec.Command("git", "-C", repoDir, "log", "--format=", "--raw", "--no-abbrev", "--all", "--", file).Output()
	if err != nil {
		b.Fatalf("git log: %v", err)
	}
	var ids []oid.ID
	seen := map[oid.ID]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		id, err := oid.ParseHex(format, f[3])
		if err != nil || id.IsNull() || seen[id] {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		b.Fatalf("no history for %s", file)
	}
	return ids
}

func allObjects(b *testing.B, db *DB) []oid.ID {
	var ids []oid.ID
	if err := db.ForEachObjectUnordered(func(id oid.ID) error {
		ids = append(ids, id)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	return ids
}

// openBenchDB opens the benchmarks' object directory, closed when the
// benchmark ends.
func openBenchDB(b *testing.B, objects string, format oid.Format) *DB {
	b.Helper()
	db, err := Open(objects, format, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkReadAllObjects reads every object in pack order (the order of
// git cat-file --batch-all-objects --unordered) with one Reader.
func BenchmarkReadAllObjects(b *testing.B) {
	objects, format, _, _ := benchRepo(b)
	db := openBenchDB(b, objects, format)
	ids := allObjects(b, db)
	b.ReportAllocs()
	cpu := startCPU()
	var total int64
	var buf []byte
	for b.Loop() {
		r := db.NewReader()
		total = 0
		for _, id := range ids {
			_, data, err := r.Read(id, buf)
			if err != nil {
				b.Fatal(err)
			}
			buf = data
			total += int64(len(data))
		}
	}
	b.SetBytes(total)
	cpu.report(b, len(ids), "object")
}

// BenchmarkReadFileHistory reads every version of one file, newest first,
// as blame does, with delta-base caches of several sizes.
func BenchmarkReadFileHistory(b *testing.B) {
	objects, format, repoDir, file := benchRepo(b)
	if file == "" {
		b.Skip("set GOBLAME_ODB_FILE")
	}
	db := openBenchDB(b, objects, format)
	ids := historyBlobs(b, repoDir, file, format)
	for _, size := range []struct {
		name  string
		bytes int64
	}{{"nocache", -1}, {"1MiB", 1 << 20}, {"16MiB", 16 << 20}, {"96MiB", 96 << 20}} {
		b.Run(size.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := startCPU()
			var total int64
			var buf []byte
			var st Stats
			for b.Loop() {
				r := db.newReader(size.bytes, -1)
				total = 0
				for _, id := range ids {
					_, data, err := r.Read(id, buf)
					if err != nil {
						b.Fatal(err)
					}
					buf = data
					total += int64(len(data))
				}
				st = r.Stats()
			}
			b.SetBytes(total)
			cpu.report(b, len(ids), "version")
			b.ReportMetric(float64(len(ids)), "versions")
			b.ReportMetric(float64(st.DeltasApplied)/float64(len(ids)), "deltas/version")
		})
	}
}

// BenchmarkReadCached is a by-ID cache hit.
func BenchmarkReadCached(b *testing.B) {
	objects, format, _, _ := benchRepo(b)
	db := openBenchDB(b, objects, format)
	ids := allObjects(b, db)
	r := db.NewReader()
	id := ids[len(ids)/2]
	if _, _, err := r.ReadCached(id); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := r.ReadCached(id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHas asks whether the repository has each of its objects in
// turn (blame asks it of the trees of commits reached without a read,
// see blamecore's lookUp); reported per object.
func BenchmarkHas(b *testing.B) {
	objects, format, _, _ := benchRepo(b)
	db := openBenchDB(b, objects, format)
	ids := allObjects(b, db)
	r := db.NewReader()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if !r.Has(ids[i]) {
			b.Fatalf("%s: not found", ids[i])
		}
		if i++; i == len(ids) {
			i = 0
		}
	}
}
