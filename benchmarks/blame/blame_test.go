// Package blame holds the end-to-end benchmarks of goblame against git
// blame: compare.sh times both commands side by side with hyperfine on a
// repository given by path; BenchmarkBlameFile runs goblame in-process
// (for profiling: go test ./benchmarks/blame -bench . -cpuprofile cpu.out)
// on GOBLAME_BENCH_REPO and GOBLAME_BENCH_FILE, with the revisions of
// GOBLAME_BENCH_REV (HEAD when unset) and the options of GOBLAME_BENCH_ARGS.
package blame

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/goblame/goblame/cli"
)

func BenchmarkBlameFile(b *testing.B) {
	repo, file := os.Getenv("GOBLAME_BENCH_REPO"), os.Getenv("GOBLAME_BENCH_FILE")
	if repo == "" || file == "" {
		b.Skip("set GOBLAME_BENCH_REPO and GOBLAME_BENCH_FILE")
	}
	revs := strings.Fields(os.Getenv("GOBLAME_BENCH_REV"))
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	args := append(append(strings.Fields(os.Getenv("GOBLAME_BENCH_ARGS")), revs...), "--", file)
	env := cli.Environ{
		Dir: repo, Getenv: os.Getenv, LookupEnv: os.LookupEnv, Env: os.Environ(),
		Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: os.Stderr, Now: time.Now,
	}
	b.ReportAllocs()
	for b.Loop() {
		if code := cli.Main(args, env); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
