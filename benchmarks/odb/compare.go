package odbbench

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/goblame/goblame/oid"
)

// Config describes a side-by-side measurement.
type Config struct {
	Repo          string   // repository to read
	File          string   // file whose history the "history" measurement reads
	Runs          int      // runs of each side (interleaved)
	Catall        string   // path of the catall binary
	DeltaCacheMiB int64    // catall's -delta-cache (0: odb's default)
	Modes         []string // any of "all", "unordered", "history", "trees"
}

// Sample is one process run.
type Sample struct {
	Wall, CPU time.Duration
	MaxRSS    int64 // bytes
	Output    int64 // bytes written to stdout
	Sum       [32]byte
}

// Measurement holds the runs of one mode.
type Measurement struct {
	Mode         string
	Objects      int
	Git, Goblame []Sample
	SameOutput   bool // byte-identical output (size only for "unordered")
}

// Compare runs git and catall alternately cfg.Runs times for each mode.
func Compare(cfg Config, progress io.Writer) ([]Measurement, error) {
	if cfg.Runs <= 0 {
		cfg.Runs = 5
	}
	if len(cfg.Modes) == 0 {
		cfg.Modes = []string{"all", "unordered", "history", "trees"}
	}
	tmp, err := os.MkdirTemp("", "odbbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	var results []Measurement
	for _, mode := range cfg.Modes {
		gitArgs := []string{"-C", cfg.Repo, "cat-file", "--batch", "--batch-all-objects"}
		ourArgs := []string{"-repo", cfg.Repo, "-delta-cache", fmt.Sprint(cfg.DeltaCacheMiB)}
		var stdin string
		m := Measurement{Mode: mode}
		switch mode {
		case "all":
		case "unordered":
			gitArgs = append(gitArgs, "--unordered")
			ourArgs = append(ourArgs, "-unordered")
		case "history", "trees":
			format := repoFormat(cfg.Repo)
			var ids []oid.ID
			var err error
			if mode == "history" {
				ids, err = HistoryBlobs(cfg.Repo, cfg.File, format)
			} else {
				ids, err = HistoryTrees(cfg.Repo, format)
			}
			if err != nil {
				return nil, err
			}
			var b strings.Builder
			for _, id := range ids {
				b.WriteString(id.String())
				b.WriteByte('\n')
			}
			stdin = filepath.Join(tmp, "ids")
			if err := os.WriteFile(stdin, []byte(b.String()), 0o644); err != nil {
				return nil, err
			}
			gitArgs = []string{"-C", cfg.Repo, "cat-file", "--batch"}
			ourArgs = append(ourArgs, "-ids", stdin)
			m.Objects = len(ids)
		default:
			return nil, fmt.Errorf("unknown mode %q", mode)
		}
		for run := 0; run < cfg.Runs; run++ {
			// Alternate which side goes first, so that neither always
			// benefits from a warmer page cache.
			order := []bool{true, false}
			if run%2 == 1 {
				order = []bool{false, true}
			}
			for _, isGit := range order {
				var s Sample
				var err error
				if isGit {
					s, err = runOnce("git", gitArgs, stdin)
					m.Git = append(m.Git, s)
				} else {
					s, err = runOnce(cfg.Catall, ourArgs, "")
					m.Goblame = append(m.Goblame, s)
				}
				if err != nil {
					return nil, err
				}
			}
			if progress != nil {
				fmt.Fprintf(progress, "%s run %d: git %v cpu %v, goblame %v cpu %v\n", mode, run+1,
					m.Git[run].Wall.Round(time.Millisecond), m.Git[run].CPU.Round(time.Millisecond),
					m.Goblame[run].Wall.Round(time.Millisecond), m.Goblame[run].CPU.Round(time.Millisecond))
			}
		}
		g, o := m.Git[0], m.Goblame[0]
		if mode == "unordered" {
			m.SameOutput = g.Output == o.Output
		} else {
			m.SameOutput = g.Sum == o.Sum
		}
		results = append(results, m)
	}
	return results, nil
}

// gnuTime is GNU time, used (when installed) to read a child's peak RSS:
// a process started from Go reports at least its parent's peak RSS as its
// own (Go starts children with vfork semantics, and Linux carries the
// parent's high-water mark into the child's rusage at exec), so the peak
// of a small process is only measurable from a small parent.
var gnuTime, _ = exec.LookPath("/usr/bin/time")

// runOnce runs a command with stdout hashed (and counted), and measures it.
func runOnce(name string, args []string, stdinFile string) (Sample, error) {
	var rssFile string
	if gnuTime != "" {
		f, err := os.CreateTemp("", "odbbench-rss-")
		if err != nil {
			return Sample{}, err
		}
		f.Close()
		rssFile = f.Name()
		defer os.Remove(rssFile)
		args = append([]string{"-f", "%M", "-o", rssFile, name}, args...)
		name = gnuTime
	}
	cmd := exec.Command(name, args...)
	h := sha256.New()
	cw := &countingWriter{h: h}
	cmd.Stdout = cw
	cmd.Stderr = os.Stderr
	if stdinFile != "" {
		f, err := os.Open(stdinFile)
		if err != nil {
			return Sample{}, err
		}
		defer f.Close()
		cmd.Stdin = f
	}
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return Sample{}, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	s := Sample{Wall: time.Since(start), Output: cw.n}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// With GNU time in between, its children's times are included.
		s.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.MaxRSS = ru.Maxrss * 1024
	}
	if rssFile != "" {
		b, err := os.ReadFile(rssFile)
		if err != nil {
			return Sample{}, err
		}
		fields := strings.Fields(string(b))
		if len(fields) == 0 {
			return Sample{}, fmt.Errorf("no peak RSS from %s", gnuTime)
		}
		kb, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
		if err != nil {
			return Sample{}, fmt.Errorf("peak RSS %q: %w", b, err)
		}
		s.MaxRSS = kb * 1024
	}
	copy(s.Sum[:], h.Sum(nil))
	return s, nil
}

type countingWriter struct {
	h hash.Hash
	n int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.h.Write(p)
	w.n += int64(len(p))
	return len(p), nil
}

func median(samples []Sample, f func(Sample) float64) float64 {
	v := make([]float64, len(samples))
	for i, s := range samples {
		v[i] = f(s)
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// Table formats measurements as a Markdown table of medians.
func Table(ms []Measurement) string {
	var b strings.Builder
	b.WriteString("| read | git wall | git CPU | git max RSS | goblame wall | goblame CPU | goblame max RSS | CPU ratio | wall ratio | output |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	wall := func(s Sample) float64 { return s.Wall.Seconds() }
	cpu := func(s Sample) float64 { return s.CPU.Seconds() }
	rss := func(s Sample) float64 { return float64(s.MaxRSS) / (1 << 20) }
	for _, m := range ms {
		name := map[string]string{
			"all":       "all objects (cat-file --batch-all-objects)",
			"unordered": "all objects, pack order (--unordered)",
			"history":   fmt.Sprintf("every version of one file (%d blobs)", m.Objects),
			"trees":     fmt.Sprintf("root trees of HEAD's history (%d trees)", m.Objects),
		}[m.Mode]
		same := "identical"
		if !m.SameOutput {
			same = "DIFFERENT"
		} else if m.Mode == "unordered" {
			same = "same size"
		}
		fmt.Fprintf(&b, "| %s | %.3f s | %.3f s | %.0f MB | %.3f s | %.3f s | %.0f MB | %.2f | %.2f | %s |\n", name,
			median(m.Git, wall), median(m.Git, cpu), median(m.Git, rss),
			median(m.Goblame, wall), median(m.Goblame, cpu), median(m.Goblame, rss),
			median(m.Goblame, cpu)/median(m.Git, cpu), median(m.Goblame, wall)/median(m.Git, wall), same)
	}
	return b.String()
}
