package cli

import (
	"runtime"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// TestOutputIndependentOfCores compares blames that read commits (no
// commit-graph) and -C candidates ahead on a second goroutine with git,
// on one core and on two: the read-ahead changes when work is done, never
// what is printed.
func TestOutputIndependentOfCores(t *testing.T) {
	dirs := fixtureDirs(t, "history", historyScript)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		for _, format := range testgit.Formats {
			for _, args := range [][]string{
				{"file"}, {"--porcelain", "file"}, {"--incremental", "moved.txt"},
				{"-C", "-C", "file"}, {"--first-parent", "file"}, {"--reverse", "HEAD~3..", "--", "file"},
			} {
				compareWithGit(t, dirs[format], format, nil, nil, args...)
			}
		}
	}
}
