package cli

import (
	"fmt"
	"io"
	"strconv"

	"golang.org/x/sys/unix"
)

// phaseMarks times the phases of a run for benchmarks/startup/phases.py
// (GOBLAME_TRACE_PHASES): the variable holds the launcher's
// CLOCK_MONOTONIC reading, in nanoseconds, taken just before it started
// goblame, and the run prints on standard error, at its end, how many
// milliseconds after that reading each phase ended. The process's start
// is in the first mark (the Go runtime's start and the package inits
// come before it). A nil *phaseMarks marks nothing: the run pays one
// nil check per mark when the variable is unset.
type phaseMarks struct {
	t0    int64
	names []string
	at    []int64
}

// newPhaseMarks reads GOBLAME_TRACE_PHASES; nil when it is unset or not
// a number. started is phaseClock's reading at the start of the run.
func newPhaseMarks(getenv func(string) string, started int64) *phaseMarks {
	v := getenv("GOBLAME_TRACE_PHASES")
	if v == "" {
		return nil // (and nothing allocated: see process.go)
	}
	t0, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil
	}
	return &phaseMarks{t0: t0, names: []string{"start"}, at: []int64{started}}
}

// phaseClock reads CLOCK_MONOTONIC, in nanoseconds (0 if it cannot),
// allocating nothing.
func phaseClock() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
		return 0
	}
	return ts.Nano()
}

// mark records that the phase name ended now.
func (p *phaseMarks) mark(name string) {
	if p == nil {
		return
	}
	p.names = append(p.names, name)
	p.at = append(p.at, phaseClock())
}

// print writes a "phase NAME MS" line per mark.
func (p *phaseMarks) print(w io.Writer) {
	if p == nil {
		return
	}
	for i, name := range p.names {
		fmt.Fprintf(w, "phase %s %.3f\n", name, float64(p.at[i]-p.t0)/1e6)
	}
}
