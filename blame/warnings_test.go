package blame_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/testpack"
	"github.com/goblame/goblame/oid"
)

// TestConcurrentBlamesEachReportDamage: blames sharing one Repository on
// a damaged multi-pack-index — damage found when the repository is
// opened (the file does not parse) or by the first read that meets it (a
// pack id out of range) — each report it through their own Options.Warn,
// once, whichever blame's read found it, and each gives the blame of the
// repository without the multi-pack-index (git 2.39.5's, from the goldens
// without it). The CLI prints that same one line (cli/damage_midx_test.go).
// Run with -race (make test does).
func TestConcurrentBlamesEachReportDamage(t *testing.T) {
	goldens := testgit.Golden(t) // skips without git
	f := oid.SHA1
	src := filepath.Join(testgit.Fixture(t, "blame-damaged-midx", f, testpack.MultiPackIndexScript), "r")
	want := goldens.Run(testgit.Case{Dir: src, Format: f, Args: []string{"-c", "core.multiPackIndex=false", "blame", "--porcelain", "HEAD", "--", "f"}})
	if want.ExitCode != 0 {
		t.Fatalf("git without the multi-pack-index: %s", want)
	}
	for _, kind := range testpack.MultiPackIndexDamage {
		t.Run(kind, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "r")
			if out, err := exec.Command("cp", "-r", src, dir).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v %s", err, out)
			}
			testpack.DamageMultiPackIndex(t, filepath.Join(dir, ".git", "objects", "pack", "multi-pack-index"), kind)
			r, err := blame.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()

			blameOnce := func() (string, []string, error) {
				var mu sync.Mutex
				var warnings []string
				res, err := r.File(context.Background(), "HEAD", "f", blame.Options{Warn: func(line string) {
					mu.Lock()
					warnings = append(warnings, line)
					mu.Unlock()
				}})
				if err != nil {
					return "", nil, err
				}
				return render(t, res), warnings, nil
			}
			check := func(who string, got string, warnings []string) string {
				if got != string(want.Stdout) {
					t.Errorf("%s: blame differs from git's without the multi-pack-index\ngot:\n%s\nwant:\n%s", who, got, want.Stdout)
				}
				if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "warning: ") || !strings.Contains(warnings[0], "multi-pack-index") {
					t.Errorf("%s: warnings %q, want one line about the multi-pack-index", who, warnings)
					return ""
				}
				return warnings[0]
			}

			const workers, rounds = 8, 2
			type outcome struct {
				out      string
				warnings []string
				err      error
			}
			outcomes := make([][]outcome, workers)
			var wg sync.WaitGroup
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range rounds {
						out, warnings, err := blameOnce()
						outcomes[w] = append(outcomes[w], outcome{out, warnings, err})
					}
				}()
			}
			wg.Wait()
			var line string
			for w, os := range outcomes {
				for k, o := range os {
					who := fmt.Sprintf("worker %d, blame %d", w, k)
					if o.err != nil {
						t.Fatalf("%s: %v", who, o.err)
					}
					l := check(who, o.out, o.warnings)
					if line == "" {
						line = l
					} else if l != "" && l != line {
						t.Errorf("%s: warning %q, another blame's %q", who, l, line)
					}
				}
			}
			// One more blame after the others: the damage is still there,
			// so it is still reported.
			out, warnings, err := blameOnce()
			if err != nil {
				t.Fatal(err)
			}
			if l := check("a later blame", out, warnings); line != "" && l != "" && l != line {
				t.Errorf("a later blame: warning %q, the others' %q", l, line)
			}
		})
	}
}
