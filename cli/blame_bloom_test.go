package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// bloomScript is the history fixture with a commit-graph and changed-path
// Bloom filters, written after the uncommitted changes of worktreeScript.
const bloomScript = worktreeScript + "git commit-graph write --reachable --changed-paths\n"

// TestUncommittedBlameUsesBloom compares the blames editors run on the
// working tree and on dirty buffers (--contents -) over a history with
// changed-path Bloom filters, and checks that the walk below the pseudo
// commit consulted the filters as git does: an uncommitted final version
// costs one diff more than HEAD, not a walk without filters. The
// comparisons need git 2.39.x itself (their output is dated now); the
// filter counts are checked with any git.
func TestUncommittedBlameUsesBloom(t *testing.T) {
	dirs := fixtureDirs(t, "worktree-bloom", bloomScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		if _, err := os.Stat(filepath.Join(dir, ".git", "objects", "info", "commit-graph")); err != nil {
			t.Fatalf("fixture has no commit-graph: %v", err)
		}
		testgit.Golden(t).RequireFixture(dir)
		files := strings.Fields(testgit.Git(t, dir, format, "ls-tree", "--name-only", "HEAD"))
		for _, f := range files {
			head := testgit.Git(t, dir, format, "show", "HEAD:"+f)
			buffer := []byte("inserted first line\n" + head + "\nappended line\n")
			for _, args := range [][]string{
				{"--", f},
				{"--show-number", "--", f},
				{"--root", "--incremental", "-w", "--", f},
				{"--contents", "-", "--", f},
				{"--root", "--incremental", "-w", "--contents", "-", "--", f},
				{"--incremental", "--contents", "-", "-L", "2,+2", "--", f},
				{"-M", "--contents", "-", "--", f},
			} {
				// Every one shows lines not committed yet, which git
				// dates now: they need git 2.39.x itself.
				compareWithLiveGit(t, dir, format, buffer, nil, args...)
			}
			// The same walk, committed and uncommitted, asks the filters
			// the same number of times.
			committed := bloomQueries(t, runGoblame(dir, format, nil, []string{"GOBLAME_TRACE_STATS=1"}, "HEAD", "--", f))
			uncommitted := bloomQueries(t, runGoblame(dir, format, []byte(head), []string{"GOBLAME_TRACE_STATS=1"}, "--contents", "-", "--", f))
			if uncommitted != committed {
				t.Errorf("%s %s: %d Bloom queries under --contents, %d at HEAD", format, f, uncommitted, committed)
			}
		}
		// file's history has several commits below HEAD: the filters
		// must have been asked at all.
		if n := bloomQueries(t, runGoblame(dir, format, nil, []string{"GOBLAME_TRACE_STATS=1"}, "--", "file")); n == 0 {
			t.Errorf("%s: working-tree blame of file asked no Bloom filter", format)
		}
	}
}

var bloomQueriesRE = regexp.MustCompile(`BloomQueries:(\d+)`)

// bloomQueries reads the Bloom query count from GOBLAME_TRACE_STATS output.
func bloomQueries(t *testing.T, res testgit.Result) int {
	t.Helper()
	if res.ExitCode != 0 {
		t.Fatalf("goblame exited %d: %s", res.ExitCode, res.Stderr)
	}
	m := bloomQueriesRE.FindSubmatch(res.Stderr)
	if m == nil {
		t.Fatalf("no stats in %q", res.Stderr)
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}
