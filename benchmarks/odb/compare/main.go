// Command compare measures goblame's object database against git on the
// same repository and prints a Markdown table of medians (see package
// odbbench):
//
//	go run ./benchmarks/odb/compare [-repo PATH] [-file PATH] [-runs N] [-delta-cache MiB] [-modes all,unordered,history,trees]
//
// Without -repo (or GOBLAME_ODB_REPO) it uses the generated CI-sized
// repository.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/goblame/goblame/benchmarks/odb"
)

func main() {
	repo := flag.String("repo", os.Getenv("GOBLAME_ODB_REPO"), "repository to read (default: the generated one)")
	file := flag.String("file", os.Getenv("GOBLAME_ODB_FILE"), "file whose history to read")
	runs := flag.Int("runs", 5, "runs of each side")
	deltaCache := flag.Int64("delta-cache", 0, "goblame's delta-base cache in MiB (0: odb's default)")
	modes := flag.String("modes", "all,unordered,history,trees", "what to read")
	quiet := flag.Bool("q", false, "no progress lines")
	flag.Parse()
	if *repo == "" {
		r, err := odbbench.Generated()
		if err != nil {
			fail(err)
		}
		*repo = r
		if *file == "" {
			*file = odbbench.GeneratedFile
		}
	}
	tmp, err := os.MkdirTemp("", "odbbench-bin-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)
	catall := filepath.Join(tmp, "catall")
	build := exec.Command("go", "build", "-o", catall, "github.com/goblame/goblame/benchmarks/odb/catall")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fail(err)
	}
	var ms []string
	for _, m := range strings.Split(*modes, ",") {
		if m == "history" && *file == "" {
			fmt.Fprintln(os.Stderr, "compare: no -file given, skipping the history measurement")
			continue
		}
		ms = append(ms, m)
	}
	cfg := odbbench.Config{Repo: *repo, File: *file, Runs: *runs, Catall: catall, DeltaCacheMiB: *deltaCache, Modes: ms}
	progress := os.Stderr
	if *quiet {
		progress = nil
	}
	results, err := odbbench.Compare(cfg, progress)
	if err != nil {
		fail(err)
	}
	fmt.Printf("repository %s, %d runs each, medians; delta-base cache %s\n\n", *repo, *runs, cacheName(*deltaCache))
	fmt.Print(odbbench.Table(results))
}

func cacheName(mib int64) string {
	if mib == 0 {
		return "default"
	}
	return fmt.Sprintf("%d MiB", mib)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "compare:", err)
	os.Exit(1)
}
