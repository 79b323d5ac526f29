package diff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Benchmark inputs, deterministic: source-like text of 10,000 lines
// (indented statements with varied identifiers, braces, blank lines;
// about 30 bytes a line).

func sourceLine(g *pairGen) string {
	depth := g.n(4)
	ind := strings.Repeat("\t", depth)
	switch g.n(10) {
	case 0:
		return "\n"
	case 1:
		return ind + "}\n"
	case 2:
		return ind + "if " + g.word(5000) + " != nil {\n"
	case 3:
		return ind + "return " + g.word(5000) + ", nil\n"
	default:
		return ind + g.word(20000) + " := " + g.word(20000) + "(" + g.word(3000) + ")\n"
	}
}

// benchScattered is a 10,000-line file and a copy with 1% of its lines
// changed at scattered places (replaced, inserted or deleted).
func benchScattered() (a, b []byte) {
	g := newPairGen(10000)
	mk := func() string { return sourceLine(g) }
	la := g.lines(10000, mk)
	lb := append([]string(nil), la...)
	for k := 0; k < 100; k++ {
		pos := g.n(len(lb))
		switch g.n(3) {
		case 0:
			lb[pos] = mk()
		case 1:
			lb = append(lb[:pos], append([]string{mk()}, lb[pos:]...)...)
		default:
			lb = append(lb[:pos], lb[pos+1:]...)
		}
	}
	return join(la), join(lb)
}

// benchBlocks is a 10,000-line file and a version rewritten in blocks:
// of 200 blocks of 50 lines, every third is replaced by new text and
// every seventh moved elsewhere.
func benchBlocks() (a, b []byte) {
	g := newPairGen(20000)
	mk := func() string { return sourceLine(g) }
	la := g.lines(10000, mk)
	var blocks [][]string
	for i := 0; i < len(la); i += 50 {
		blocks = append(blocks, la[i:i+50])
	}
	var lb []string
	var moved [][]string
	for i, blk := range blocks {
		switch {
		case i%3 == 0:
			lb = append(lb, g.lines(40+g.n(20), mk)...)
		case i%7 == 0:
			moved = append(moved, blk)
		default:
			lb = append(lb, blk...)
		}
	}
	for _, blk := range moved {
		pos := g.n(len(lb))
		lb = append(lb[:pos], append(append([]string(nil), blk...), lb[pos:]...)...)
	}
	return join(la), join(lb)
}

var benchInputs = []struct {
	name string
	gen  func() ([]byte, []byte)
}{
	{"scattered1pct", benchScattered},
	{"blocks", benchBlocks},
}

// BenchmarkBlameDiff is one blame diff of the pair, three ways:
//
//   - repeat: BlameDiff on the same bytes again (the byte API remembers
//     both blobs, so this is the diff plus two comparisons of the bytes);
//   - prepare: both files prepared line by line (every line hashed and
//     looked up, as git does for every diff) and diffed;
//   - near: the old file prepared next to the new one (PrepareNear, as
//     blame does) and diffed.
func BenchmarkBlameDiff(b *testing.B) {
	for _, in := range benchInputs {
		x, y := in.gen()
		opts := Options{IndentHeuristic: true}
		b.Run("repeat/"+in.name, func(b *testing.B) {
			d := NewDiffer()
			var dst []Hunk
			b.SetBytes(int64(len(x) + len(y)))
			b.ReportAllocs()
			for b.Loop() {
				dst = d.BlameDiff(dst, x, y, opts)
			}
		})
		b.Run("prepare/"+in.name, func(b *testing.B) {
			d := NewDiffer()
			var fx, fy File
			var dst []Hunk
			b.SetBytes(int64(len(x) + len(y)))
			b.ReportAllocs()
			for b.Loop() {
				d.Prepare(&fx, x, opts)
				d.Prepare(&fy, y, opts)
				dst, _ = d.BlameDiffFiles(dst, &fx, &fy, opts)
			}
		})
		b.Run("near/"+in.name, func(b *testing.B) {
			d := NewDiffer()
			var fx File
			fy, _ := d.Prepare(nil, y, opts)
			var dst []Hunk
			b.SetBytes(int64(len(x) + len(y)))
			b.ReportAllocs()
			for b.Loop() {
				d.PrepareNear(&fx, x, fy, opts)
				dst, _ = d.BlameDiffFiles(dst, &fx, fy, opts)
			}
		})
	}
}

// BenchmarkBlameDiffFiles is the diff alone on prepared Files (in blame
// each version is prepared once and diffed twice).
func BenchmarkBlameDiffFiles(b *testing.B) {
	for _, alg := range []Algorithm{Myers, Histogram, Patience} {
		for _, in := range benchInputs {
			x, y := in.gen()
			b.Run(alg.String()+"/"+in.name, func(b *testing.B) {
				d := NewDiffer()
				opts := Options{IndentHeuristic: true, Algorithm: alg}
				fa, _ := d.Prepare(nil, x, opts)
				fb, _ := d.Prepare(nil, y, opts)
				var dst []Hunk
				b.SetBytes(int64(len(x) + len(y)))
				b.ReportAllocs()
				for b.Loop() {
					dst, _ = d.BlameDiffFiles(dst, fa, fb, opts)
				}
			})
		}
	}
}

// BenchmarkPrepare prepares a version from scratch (all lines known to
// the table, as when a blob is prepared again) and near its neighbour.
func BenchmarkPrepare(b *testing.B) {
	for _, in := range benchInputs {
		x, y := in.gen()
		d := NewDiffer()
		opts := Options{IndentHeuristic: true}
		fy, _ := d.Prepare(nil, y, opts)
		fx, _ := d.Prepare(nil, x, opts)
		b.Run("full/"+in.name, func(b *testing.B) {
			b.SetBytes(int64(len(x)))
			b.ReportAllocs()
			for b.Loop() {
				d.Prepare(fx, x, opts)
			}
		})
		b.Run("near/"+in.name, func(b *testing.B) {
			b.SetBytes(int64(len(x)))
			b.ReportAllocs()
			for b.Loop() {
				d.PrepareNear(fx, x, fy, opts)
			}
		})
	}
}

// BenchmarkSergiLineDiff is sergi/go-diff's line mode on the same inputs,
// for comparison (it is not git-compatible, see the package doc).
func BenchmarkSergiLineDiff(b *testing.B) {
	for _, in := range benchInputs {
		x, y := in.gen()
		b.Run(in.name, func(b *testing.B) {
			dmp := diffmatchpatch.New()
			b.SetBytes(int64(len(x) + len(y)))
			b.ReportAllocs()
			for b.Loop() {
				c1, c2, lines := dmp.DiffLinesToChars(string(x), string(y))
				dmp.DiffCharsToLines(dmp.DiffMain(c1, c2, false), lines)
			}
		})
	}
}

// TestWriteBenchFiles writes the benchmark inputs for timing git on them:
//
//	GOBLAME_DIFF_BENCH_DIR=/tmp/bench go test ./diff -run TestWriteBenchFiles
//
// It writes <dir>/<name>/{a,b}/<i> for i < 200 (the same pair 200 times,
// so one git diff --no-index a b runs 200 diffs) and <dir>/<name>/{a1,b1}.
func TestWriteBenchFiles(t *testing.T) {
	dir := os.Getenv("GOBLAME_DIFF_BENCH_DIR")
	if dir == "" {
		t.Skip("GOBLAME_DIFF_BENCH_DIR not set")
	}
	for _, in := range benchInputs {
		x, y := in.gen()
		for _, sub := range []string{"a", "b"} {
			if err := os.MkdirAll(filepath.Join(dir, in.name, sub), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 200; i++ {
			os.WriteFile(filepath.Join(dir, in.name, "a", fmt.Sprint(i)), x, 0o644)
			os.WriteFile(filepath.Join(dir, in.name, "b", fmt.Sprint(i)), y, 0o644)
		}
		os.WriteFile(filepath.Join(dir, in.name, "a1"), x, 0o644)
		os.WriteFile(filepath.Join(dir, in.name, "b1"), y, 0o644)
	}
}
