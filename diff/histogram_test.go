package diff

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// chainPair builds a pair on which xdiff's histogram index puts k distinct
// lines into one hash chain: A holds 8300 distinct lines (xdiff numbers
// them 0..8299 in order), a separator, then k of those lines again, chosen
// so that their numbers collide in the 128-bucket table a 65-line range
// gets. B is the separator and one new line, so the histogram recursion
// reaches the last range of A on its own.
func chainPair(k int) (a, b []byte) {
	var sb strings.Builder
	for i := 0; i < 8300; i++ {
		fmt.Fprintf(&sb, "f%d\n", i)
	}
	sb.WriteString("SEP\n")
	for j := 0; j < k; j++ {
		fmt.Fprintf(&sb, "f%d\n", 128*j+(128-j)%128)
	}
	// Pad to 65 lines so that the table size is the same for every k.
	for j := k; j < 65; j++ {
		fmt.Fprintf(&sb, "pad%d\n", j)
	}
	return []byte(sb.String()), []byte("SEP\nX\n")
}

// TestHistogramChainOverflow checks the one way a diff fails: git dies
// ("unable to generate diff") when 65 distinct lines share a chain, and
// succeeds with 64; goblame reports ErrHistogramOverflow for the first
// and git's hunks for the second.
func TestHistogramChainOverflow(t *testing.T) {
	d := NewDiffer()
	opts := Options{Algorithm: Histogram, IndentHeuristic: true}
	for _, k := range []int{64, 65} {
		a, b := chainPair(k)
		got := d.BlameDiff(nil, a, b, opts)
		err := d.Err()
		fa, _ := d.Prepare(nil, a, opts)
		fb, _ := d.Prepare(nil, b, opts)
		_, ferr := d.DiffFiles(nil, fa, fb, opts)
		if k == 65 {
			if !errors.Is(err, ErrHistogramOverflow) || !errors.Is(ferr, ErrHistogramOverflow) {
				t.Errorf("k=65: got errors %v, %v; want ErrHistogramOverflow", err, ferr)
			}
			if _, err := d.DiffFiles(nil, fa, fb, Options{Algorithm: Myers}); err != nil {
				t.Errorf("k=65 with Myers: %v", err)
			}
		} else if err != nil || ferr != nil {
			t.Errorf("k=64: unexpected errors %v, %v", err, ferr)
		}

		if v, _ := testgit.Version(); !strings.HasPrefix(v, testgit.TargetVersion) {
			continue
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "a"), a, 0o644)
		os.WriteFile(filepath.Join(dir, "b"), b, 0o644)
		cmd := exec.Command("git", "diff", "--no-index", "-U0", "--histogram", "a", "b")
		cmd.Dir = dir
		cmd.Env = testgit.Env(oid.SHA1)
		out, _ := cmd.Output()
		code := cmd.ProcessState.ExitCode()
		if k == 65 {
			if code != 128 {
				t.Errorf("k=65: git exited %d, expected it to fail with 128", code)
			}
			continue
		}
		want := parseGitDiff(t, []byte(strings.Replace(string(out), "diff --git a/a b/b", "diff --git a/0 b/0", 1)), 1)[0]
		if code != 1 || !hunksEqual(got, want) {
			t.Errorf("k=64: git exit %d\ngot:\n%swant:\n%s", code, formatHunks(got), formatHunks(want))
		}
	}
}
