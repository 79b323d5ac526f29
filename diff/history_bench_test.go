package diff

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// historyVersions returns the blobs of path's history in repo (newest
// first), read with git; nil if the repository is absent.
func historyVersions(tb testing.TB, repo, path string) [][]byte {
	if _, err := os.Stat(repo); err != nil {
		return nil
	}
	out, err := exec.Command("git", "--git-dir", repo, "log", "--format=%H", "--", path).Output()
	if err != nil {
		tb.Fatal(err)
	}
	var in strings.Builder
	for _, c := range strings.Fields(string(out)) {
		in.WriteString(c + ":" + path + "\n")
	}
	cmd := exec.Command("git", "--git-dir", repo, "cat-file", "--batch")
	cmd.Stdin = strings.NewReader(in.String())
	data, err := cmd.Output()
	if err != nil {
		tb.Fatal(err)
	}
	var versions [][]byte
	for len(data) > 0 {
		nl := strings.IndexByte(string(data[:min(len(data), 200)]), '\n')
		hdr := strings.Fields(string(data[:nl]))
		data = data[nl+1:]
		if len(hdr) != 3 || hdr[1] != "blob" {
			continue // "missing" (deleted at that commit)
		}
		var size int
		for _, c := range hdr[2] {
			size = size*10 + int(c-'0')
		}
		versions = append(versions, data[:size])
		data = data[size+1:]
	}
	return versions
}

// BenchmarkHistory runs blame's diff workload over every version of a
// long-lived file (git's diff.c, from a local mirror of git/git): newest
// to oldest, each version prepared once near its child and diffed
// against it. One op is the whole history.
//
//	go test ./diff -run '^$' -bench History -benchtime 5x
func BenchmarkHistory(b *testing.B) {
	repo := os.Getenv("GOBLAME_DIFF_BENCH_REPO")
	if repo == "" {
		repo = "/work/.mirror/git+git/repo"
	}
	for _, path := range []string{"diff.c", "Makefile"} {
		versions := historyVersions(b, repo, path)
		if len(versions) < 2 {
			b.Skip("no repository with history (set GOBLAME_DIFF_BENCH_REPO)")
		}
		total := 0
		for _, v := range versions {
			total += len(v)
		}
		b.Run(path, func(b *testing.B) {
			opts := Options{IndentHeuristic: true}
			d := NewDiffer()
			files := make([]*File, len(versions))
			var dst []Hunk
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				d.Reset()
				var err error
				if files[0], err = d.Prepare(files[0], versions[0], opts); err != nil {
					b.Fatal(err)
				}
				for i := 1; i < len(versions); i++ {
					files[i], _ = d.PrepareNear(files[i], versions[i], files[i-1], opts)
					dst, _ = d.BlameDiffFiles(dst, files[i], files[i-1], opts)
				}
			}
			b.ReportMetric(float64(len(versions)-1), "pairs")
		})
		// The same through the byte-slice API, as a caller that keeps no
		// Files would run it.
		b.Run(path+"/bytes", func(b *testing.B) {
			opts := Options{IndentHeuristic: true}
			d := NewDiffer()
			var dst []Hunk
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				d.Reset()
				for i := 1; i < len(versions); i++ {
					dst = d.BlameDiff(dst, versions[i], versions[i-1], opts)
				}
			}
			b.ReportMetric(float64(len(versions)-1), "pairs")
		})
	}
}
