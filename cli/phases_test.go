package cli

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPhaseMarks runs blames with GOBLAME_TRACE_PHASES: standard error
// gets a "phase NAME MS" line per phase, in the run's order, each at or
// after the one before, and nothing else changes; without the variable
// no line is added.
func TestPhaseMarks(t *testing.T) {
	dirs := fixtureDirs(t, "phases", "git init -q r && cd r && seq 1 5 >f && commit_all c1 && seq 1 7 >f && commit_all c2\n")
	for format, dir := range dirs {
		for _, args := range [][]string{{"HEAD", "--", "f"}, {"--incremental", "HEAD", "--", "f"}} {
			plain := runGoblame(dir, format, nil, nil, args...)
			var ts unix.Timespec
			if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
				t.Fatal(err)
			}
			traced := runGoblame(dir, format, nil, []string{"GOBLAME_TRACE_PHASES=" + strconv.FormatInt(ts.Nano(), 10)}, args...)
			if plain.ExitCode != 0 || traced.ExitCode != 0 || !bytes.Equal(plain.Stdout, traced.Stdout) || len(plain.Stderr) != 0 {
				t.Fatalf("%v: exit %d and %d, stdout equal %v, stderr without the variable %q", args, plain.ExitCode, traced.ExitCode, bytes.Equal(plain.Stdout, traced.Stdout), plain.Stderr)
			}
			var names []string
			last := -1.0
			for _, line := range strings.Split(strings.TrimSuffix(string(traced.Stderr), "\n"), "\n") {
				f := strings.Fields(line)
				if len(f) != 3 || f[0] != "phase" {
					t.Fatalf("%v: stderr line %q", args, line)
				}
				ms, err := strconv.ParseFloat(f[2], 64)
				if err != nil || ms < last || ms < 0 {
					t.Fatalf("%v: phase %s at %s ms, after %.3f", args, f[1], f[2], last)
				}
				last = ms
				names = append(names, f[1])
			}
			want := "start tuned discovered parsed prepared walked written end"
			if args[0] == "--incremental" {
				want = "start tuned discovered parsed prepared entry walked end"
			}
			if got := strings.Join(names, " "); got != want {
				t.Errorf("%v: phases %q, want %q", args, got, want)
			}
		}
	}
}
