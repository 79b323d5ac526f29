package cli

import (
	"regexp"
	"runtime"
	"strconv"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// TestBuiltBinaryProcessors: the goblame make build builds, whose
// runtime starts the scheduler on one processor (tools/runtimepatch),
// gives a walk that reads commits ahead (no commit-graph) the runtime's
// default number of processors back (useProcs), and keeps to what
// GOMAXPROCS in the environment says.
func TestBuiltBinaryProcessors(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skipf("one processor here (%d)", runtime.NumCPU())
	}
	in := installShim(t)
	dir := fixtureDirs(t, "history", historyScript)[oid.SHA1]
	line := regexp.MustCompile(`(?m)^goblame processors: (\d+)$`)
	procs := func(extra ...string) int {
		t.Helper()
		res, err := testgit.Run(dir, oid.SHA1, nil, append([]string{"GOBLAME_TRACE_STATS=1"}, extra...), in.goblame, "file")
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("goblame file (%v): %v, exit %d: %s", extra, err, res.ExitCode, res.Stderr)
		}
		m := line.FindSubmatch(res.Stderr)
		if m == nil {
			t.Fatalf("goblame file (%v): no processors line in %q", extra, res.Stderr)
		}
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	if n := procs(); n < 2 {
		t.Errorf("a walk that reads commits ahead ended on %d processors, want the runtime's default (at least 2 of %d)", n, runtime.NumCPU())
	}
	for _, want := range []int{1, 3} {
		if n := procs("GOMAXPROCS=" + strconv.Itoa(want)); n != want {
			t.Errorf("with GOMAXPROCS=%d: ended on %d processors", want, n)
		}
	}
}
