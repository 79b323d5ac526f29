package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// A side is one program blaming: git, goblame, or another git.
type side struct {
	Label string   // "git", "goblame", "best git"
	Argv  []string // the full command line
}

// timing is hyperfine's summary of one command, in seconds.
type timing struct {
	Median float64 `json:"median"`
	Mean   float64 `json:"mean"`
	Stddev float64 `json:"stddev"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	User   float64 `json:"user"`   // mean user CPU
	System float64 `json:"system"` // mean system CPU
	Runs   int     `json:"runs"`
}

// sideResult is what was measured of one side on one workload.
type sideResult struct {
	Label     string  `json:"label"`
	Command   string  `json:"command"`
	Time      *timing `json:"time,omitempty"`
	PeakRSSKB int64   `json:"peak_rss_kb,omitempty"`  // median of the runs' maximum resident set
	FirstByte float64 `json:"first_byte_s,omitempty"` // median time to the first byte of stdout (--incremental only)
}

// Workload statuses.
const (
	statusOK      = "ok"
	statusDiffers = "DIFFERS" // stdout or exit status not identical: not timed
	statusFails   = "FAILS"   // identical, but both exit non-zero: not timed
	statusSkipped = "SKIPPED" // directory or stdin file missing
	statusError   = "ERROR"   // the harness could not run something
)

type result struct {
	Line        int                  `json:"line"`
	Name        string               `json:"name"`
	Dir         string               `json:"dir"`
	Args        string               `json:"args"`
	Stdin       string               `json:"stdin,omitempty"`
	Config      []string             `json:"config,omitempty"`
	Status      string               `json:"status"`
	Detail      string               `json:"detail,omitempty"`
	Attempts    int                  `json:"check_attempts"`
	BestDiffers bool                 `json:"best_git_output_differs,omitempty"`
	Sides       []sideResult         `json:"sides"`
	Hyperfine   json.RawMessage      `json:"hyperfine,omitempty"`
	Incremental bool                 `json:"incremental"`
	env         []string             // the environment the commands ran with
	sides       []side               // the commands
	outputs     map[string]diagnosis // diagnosis of a DIFFERS
}

// diagnosis is one output of a DIFFERS kept for NAME.diffs/: a file of
// the check's (path) or bytes.
type diagnosis struct {
	path string
	data []byte
}

// runner measures workloads.
type runner struct {
	git, goblame, bestGit string   // absolute paths
	config                []string // key=value for every workload
	runs, warmup, rssRuns int
	hyperfine             string
	checkOnly             bool   // stop after the identity check
	tmp                   string // scratch folder for hyperfine's JSON
	log                   io.Writer
}

func (rn *runner) sidesFor(w workload) []side {
	s := []side{
		{"git", append([]string{rn.git, "blame"}, w.Argv...)},
		{"goblame", append([]string{rn.goblame}, w.Argv...)},
	}
	if rn.bestGit != "" {
		s = append(s, side{"best git", append([]string{rn.bestGit, "blame"}, w.Argv...)})
	}
	return s
}

func (rn *runner) run(w workload) result {
	res := result{Line: w.Line, Name: w.Name, Dir: w.Dir, Args: w.Args, Stdin: w.Stdin,
		Config: append(slices.Clone(rn.config), w.Config...), Incremental: slices.Contains(w.Argv, "--incremental")}
	res.env = environ(configEnv(res.Config))
	res.sides = rn.sidesFor(w)
	for _, s := range res.sides {
		res.Sides = append(res.Sides, sideResult{Label: s.Label, Command: rn.command(s, w)})
	}
	if fi, err := os.Stat(w.Dir); err != nil || !fi.IsDir() {
		res.Status, res.Detail = statusSkipped, "no directory "+w.Dir
		return res
	}
	if w.Stdin != "" {
		if _, err := os.Stat(w.Stdin); err != nil {
			res.Status, res.Detail = statusSkipped, "no stdin file "+w.Stdin+" (make the buffers first)"
			return res
		}
	}
	if !rn.check(&res, w) {
		return res
	}
	if rn.checkOnly {
		res.Status = statusOK
		return res
	}
	if err := rn.measure(&res, w); err != nil {
		res.Status, res.Detail = statusError, err.Error()
		return res
	}
	if err := rn.hyperfineRun(&res, w); err != nil {
		res.Status, res.Detail = statusError, err.Error()
		return res
	}
	res.Status = statusOK
	return res
}

// once runs a side once, its standard output to a temporary file (see
// outcome), which the caller removes.
func (rn *runner) once(s side, w workload, env []string) (outcome, error) {
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir = w.Dir
	cmd.Env = env
	out, err := os.CreateTemp("", "bench-compare-*.out")
	if err != nil {
		return outcome{}, err
	}
	done := false
	defer func() {
		out.Close()
		if !done {
			os.Remove(out.Name())
		}
	}()
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errb
	if w.Stdin != "" {
		f, err := os.Open(w.Stdin)
		if err != nil {
			return outcome{}, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	err = cmd.Run()
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return outcome{}, err
	}
	size, err := out.Seek(0, io.SeekCurrent)
	if err != nil {
		return outcome{}, err
	}
	done = true
	return outcome{stdout: out.Name(), size: size, stderr: errb.Bytes(), exit: cmd.ProcessState.ExitCode()}, nil
}

// check runs git and goblame once each and compares stdout and exit
// status. The only legitimate difference is the time git prints for lines
// of the uncommitted pseudo-commit (the current second, when the process
// starts), so the two run at the same moment, and when git's output has
// such lines a differing pair is rerun up to three more times, started
// together just after a second ticks; any identical pair passes.
func (rn *runner) check(res *result, w workload) bool {
	var g, b outcome
	var err error
	same := false
	defer func() { g.remove(); b.remove() }()
	for attempt := 1; attempt <= 4; attempt++ {
		res.Attempts = attempt
		if attempt > 1 {
			g.remove()
			b.remove()
			now := time.Now()
			time.Sleep(now.Truncate(time.Second).Add(time.Second + 20*time.Millisecond).Sub(now))
		}
		if g, b, err = rn.pair(res.sides[0], res.sides[1], w, res.env); err == nil {
			same, err = sameOutput(g, b)
		}
		if err != nil {
			res.Status, res.Detail = statusError, err.Error()
			return false
		}
		if g.exit == b.exit && same {
			break
		}
		if !uncommittedLines(g) {
			break
		}
	}
	if g.exit != b.exit || !same {
		res.Status = statusDiffers
		res.Detail = describeDiff(g, b, same)
		res.outputs = map[string]diagnosis{
			"git.out": {path: g.stdout}, "git.err": {data: g.stderr},
			"goblame.out": {path: b.stdout}, "goblame.err": {data: b.stderr},
		}
		g.stdout, b.stdout = "", "" // kept for the diagnosis
		return false
	}
	if g.exit != 0 {
		res.Status = statusFails
		res.Detail = fmt.Sprintf("both exit %d: %s", g.exit, firstLine(g.stderr))
		return false
	}
	if len(res.sides) > 2 {
		o, o2, err := rn.pair(res.sides[2], res.sides[0], w, res.env)
		defer func() { o.remove(); o2.remove() }()
		if err != nil {
			res.Status, res.Detail = statusError, err.Error()
			return false
		}
		if o.exit != 0 {
			res.Status = statusFails
			res.Detail = fmt.Sprintf("best git exits %d: %s", o.exit, firstLine(o.stderr))
			return false
		}
		// Another git version may print something else: noted, still
		// timed.
		same, err := sameOutput(o, g)
		res.BestDiffers = err != nil || !same
	}
	return true
}

// pair runs two sides at the same time.
func (rn *runner) pair(a, b side, w workload, env []string) (outcome, outcome, error) {
	var ob outcome
	var errb error
	done := make(chan struct{})
	go func() {
		ob, errb = rn.once(b, w, env)
		close(done)
	}()
	oa, erra := rn.once(a, w, env)
	<-done
	return oa, ob, errors.Join(erra, errb)
}

// sample is one run of one side under the harness's own clock.
type sample struct {
	firstByte time.Duration // to the first byte of stdout (or the exit, if none)
	rssKB     int64
}

// spawn runs a side once with stdout on a pipe it drains, timing the
// first byte, and takes the peak RSS from the kernel's accounting of the
// child (wait4 rusage, kilobytes on Linux).
func (rn *runner) spawn(s side, w workload, env []string) (sample, error) {
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir = w.Dir
	cmd.Env = env
	cmd.Stderr = io.Discard
	if w.Stdin != "" {
		f, err := os.Open(w.Stdin)
		if err != nil {
			return sample{}, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return sample{}, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	r := bufio.NewReaderSize(pipe, 64*1024)
	var first time.Duration
	if _, err := r.ReadByte(); err == nil {
		first = time.Since(start)
	}
	if _, err := io.Copy(io.Discard, r); err != nil {
		return sample{}, err
	}
	if err := cmd.Wait(); err != nil {
		return sample{}, fmt.Errorf("%s: %w", s.Label, err)
	}
	if first == 0 {
		first = time.Since(start)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = int64(ru.Maxrss)
	}
	return sample{first, rss}, nil
}

// measure takes peak RSS (median of rssRuns runs) and, for --incremental
// workloads, the median time to the first byte of output over runs runs;
// the sides alternate so a noisy neighbour spreads over all of them,
// each round starting one side further on (roundOrder), so that no side
// always runs first or always right after the same other one (whose exit
// may still be tearing down memory on the other processor).
func (rn *runner) measure(res *result, w workload) error {
	n := rn.rssRuns
	if res.Incremental && rn.runs > n {
		n = rn.runs
	}
	samples := make([][]sample, len(res.sides))
	for round := 0; round < n; round++ {
		for k := range res.sides {
			i := roundOrder(round, k, len(res.sides))
			sm, err := rn.spawn(res.sides[i], w, res.env)
			if err != nil {
				return err
			}
			samples[i] = append(samples[i], sm)
		}
	}
	for i := range res.sides {
		var rss []int64
		var first []time.Duration
		for _, sm := range samples[i] {
			rss = append(rss, sm.rssKB)
			first = append(first, sm.firstByte)
		}
		res.Sides[i].PeakRSSKB = median(rss)
		if res.Incremental {
			res.Sides[i].FirstByte = median(first).Seconds()
		}
	}
	return nil
}

// roundOrder is the side that runs k-th of n in round round: the listed
// order rotated by round (two sides swap places every round).
func roundOrder(round, k, n int) int { return (k + round) % n }

func median[T int64 | time.Duration](v []T) T {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// command is the command line hyperfine runs for a side, its stdout a
// pipe hyperfine drains (as an editor reads blame): shell-free (-N)
// unless a file must be redirected to stdin (hyperfine 1.15, Debian 12's,
// has no --input), then through sh, whose start-up hyperfine measures and
// subtracts.
func (rn *runner) command(s side, w workload) string {
	c := shellJoin(s.Argv)
	if w.Stdin != "" {
		c += " < " + shellQuote(w.Stdin)
	}
	return c
}

func (rn *runner) hyperfineRun(res *result, w workload) error {
	jsonPath := filepath.Join(rn.tmp, fmt.Sprintf("line%d.json", w.Line))
	args := []string{"--warmup", fmt.Sprint(rn.warmup), "--runs", fmt.Sprint(rn.runs), "--export-json", jsonPath, "--style", "basic", "--output", "pipe"}
	if w.Stdin == "" {
		args = append(args, "-N")
	}
	for _, s := range res.Sides {
		args = append(args, "--command-name", s.Label, s.Command)
	}
	cmd := exec.Command(rn.hyperfine, args...)
	cmd.Dir = w.Dir
	cmd.Env = res.env
	cmd.Stdout, cmd.Stderr = rn.log, rn.log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("hyperfine: %w", err)
	}
	raw, err := os.ReadFile(jsonPath)
	if err != nil {
		return err
	}
	var export struct {
		Results []struct {
			timing
			Times []float64 `json:"times"`
		} `json:"results"`
	}
	if err := json.Unmarshal(raw, &export); err != nil {
		return fmt.Errorf("hyperfine's JSON: %w", err)
	}
	if len(export.Results) != len(res.Sides) {
		return fmt.Errorf("hyperfine's JSON has %d results for %d commands", len(export.Results), len(res.Sides))
	}
	for i := range res.Sides {
		t := export.Results[i].timing
		t.Runs = len(export.Results[i].Times)
		res.Sides[i].Time = &t
	}
	res.Hyperfine = raw
	return nil
}
