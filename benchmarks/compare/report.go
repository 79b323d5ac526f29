package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
)

// meta describes the machine and the programs a table was measured with.
type meta struct {
	Name           string     `json:"name"`
	Workloads      string     `json:"workloads"`
	Date           string     `json:"date"`
	CPU            string     `json:"cpu"`
	CPUs           int        `json:"cpus"`
	LoadStart      string     `json:"load_start"`
	LoadEnd        string     `json:"load_end"`
	Kernel         string     `json:"kernel"`
	GitVersion     string     `json:"git_version"`
	BestGitVersion string     `json:"best_git_version,omitempty"`
	BestGit        string     `json:"best_git,omitempty"`
	Goblame        string     `json:"goblame"`
	Hyperfine      string     `json:"hyperfine"`
	Runs           int        `json:"runs"`
	Warmup         int        `json:"warmup"`
	RSSRuns        int        `json:"rss_runs"`
	HarnessPeakKB  int64      `json:"harness_peak_kb,omitempty"`
	Config         []string   `json:"config,omitempty"`
	Goals          []float64  `json:"goals"`
	Repos          []repoInfo `json:"repos"`
	Command        string     `json:"command"`
}

type repoInfo struct {
	Dir         string `json:"dir"`
	Head        string `json:"head"`
	CommitGraph string `json:"commit_graph"`
}

// ratio of two sides' median wall times (0 when either is missing).
func ratio(r result, num, den int) float64 {
	if r.Status != statusOK || num >= len(r.Sides) || den >= len(r.Sides) {
		return 0
	}
	a, b := r.Sides[num].Time, r.Sides[den].Time
	if a == nil || b == nil || b.Median == 0 {
		return 0
	}
	return a.Median / b.Median
}

func cpuRatio(r result, num, den int) float64 {
	if r.Status != statusOK {
		return 0
	}
	a, b := r.Sides[num].Time, r.Sides[den].Time
	if a == nil || b == nil || b.User+b.System == 0 {
		return 0
	}
	return (a.User + a.System) / (b.User + b.System)
}

func geomean(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range v {
		s += math.Log(x)
	}
	return math.Exp(s / float64(len(v)))
}

func fmtSeconds(s float64) string {
	switch {
	case s <= 0:
		return "–"
	case s < 1:
		return fmt.Sprintf("%.1f ms", s*1000)
	default:
		return fmt.Sprintf("%.3f s", s)
	}
}

func fmtRatio(x float64) string {
	if x <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", x)
}

func fmtMiB(kb int64) string {
	mib := float64(kb) / 1024
	if mib < 10 {
		return fmt.Sprintf("%.1f", mib)
	}
	return fmt.Sprintf("%.0f", mib)
}

func mdCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// argsCell is the blame arguments as a code span, with the stdin file.
func argsCell(r result) string {
	s := "`" + mdCell(r.Args) + "`"
	if r.Stdin != "" {
		s += " < " + mdCell(filepath.Base(r.Stdin))
	}
	if len(r.Config) > 0 {
		s += " (" + mdCell(strings.Join(r.Config, " ")) + ")"
	}
	return s
}

// markdown renders the table of results.
func markdown(m meta, results []result, svgName string) string {
	best := m.BestGit != ""
	var b strings.Builder
	fmt.Fprintf(&b, "# goblame against git blame: %s\n\n", m.Name)
	fmt.Fprintf(&b, "Measured %s on %s (%d CPUs, load average %s at the start, %s at the end), %s.\n", m.Date, m.CPU, m.CPUs, m.LoadStart, m.LoadEnd, m.Kernel)
	fmt.Fprintf(&b, "%s", m.GitVersion)
	if best {
		fmt.Fprintf(&b, ", best git `%s` (%s)", m.BestGit, m.BestGitVersion)
	}
	fmt.Fprintf(&b, ", goblame %s, %s.\n\n", m.Goblame, m.Hyperfine)
	fmt.Fprintf(&b, "Wall times are hyperfine medians of %d runs after %d warm-up runs (fresh processes, stdout a pipe); ", m.Runs, m.Warmup)
	fmt.Fprintf(&b, "CPU is the ratio of mean user+system times; peak RSS is the median of the maximum resident set over %d runs (wait4 rusage", m.RSSRuns)
	if m.HarnessPeakKB > 0 {
		// See outcome: the kernel counts the harness's peak in every
		// child's.
		fmt.Fprintf(&b, "; a figure under the harness's own peak, %s MiB, would read as that", fmtMiB(m.HarnessPeakKB))
	}
	b.WriteString("); ")
	fmt.Fprintf(&b, "first entry is the median time to the first byte of stdout over %d runs, for `--incremental` workloads. ", max(m.Runs, m.RSSRuns))
	b.WriteString("Every workload's stdout and exit status were checked identical to git's before it was timed.")
	if len(m.Config) > 0 {
		fmt.Fprintf(&b, " Configuration for every command: `%s` (through GIT_CONFIG_COUNT).", strings.Join(m.Config, " "))
	}
	fmt.Fprintf(&b, "\n\nWorkloads: `%s`. Reproduce with `%s`.\n\n", m.Workloads, m.Command)

	b.WriteString("| workload | repository | blame arguments | git |")
	if best {
		b.WriteString(" best git |")
	}
	b.WriteString(" goblame | goblame/git |")
	if best {
		b.WriteString(" goblame/best git |")
	}
	b.WriteString(" CPU goblame/git | peak RSS MiB git")
	if best {
		b.WriteString(" / best")
	}
	b.WriteString(" / goblame | first entry git / goblame |\n")
	b.WriteString("|---|---|---|--:|")
	if best {
		b.WriteString("--:|")
	}
	b.WriteString("--:|--:|")
	if best {
		b.WriteString("--:|")
	}
	b.WriteString("--:|--:|--:|\n")

	var ratios, bestRatios, cpus, firsts []float64
	var failed []result
	for _, r := range results {
		fmt.Fprintf(&b, "| %s | %s | %s |", mdCell(r.Name), mdCell(filepath.Base(r.Dir)), argsCell(r))
		if r.Status != statusOK {
			n := 5
			if best {
				n += 2
			}
			fmt.Fprintf(&b, " **%s** |%s\n", r.Status, strings.Repeat(" |", n))
			failed = append(failed, r)
			continue
		}
		g, o := r.Sides[0], r.Sides[1]
		fmt.Fprintf(&b, " %s |", fmtSeconds(g.Time.Median))
		if best {
			fmt.Fprintf(&b, " %s |", fmtSeconds(r.Sides[2].Time.Median))
		}
		x := ratio(r, 1, 0)
		ratios = append(ratios, x)
		fmt.Fprintf(&b, " %s | %s |", fmtSeconds(o.Time.Median), fmtRatio(x))
		if best {
			y := ratio(r, 1, 2)
			bestRatios = append(bestRatios, y)
			note := ""
			if r.BestDiffers {
				note = " ¹"
			}
			fmt.Fprintf(&b, " %s%s |", fmtRatio(y), note)
		}
		c := cpuRatio(r, 1, 0)
		cpus = append(cpus, c)
		fmt.Fprintf(&b, " %s | %s", fmtRatio(c), fmtMiB(g.PeakRSSKB))
		if best {
			fmt.Fprintf(&b, " / %s", fmtMiB(r.Sides[2].PeakRSSKB))
		}
		fmt.Fprintf(&b, " / %s |", fmtMiB(o.PeakRSSKB))
		if r.Incremental && g.FirstByte > 0 {
			fmt.Fprintf(&b, " %s / %s (%.2f) |\n", fmtSeconds(g.FirstByte), fmtSeconds(o.FirstByte), o.FirstByte/g.FirstByte)
			firsts = append(firsts, o.FirstByte/g.FirstByte)
		} else {
			b.WriteString(" – |\n")
		}
	}
	if len(ratios) > 0 {
		fmt.Fprintf(&b, "| **geometric mean** (%d timed) | | | |", len(ratios))
		if best {
			b.WriteString(" |")
		}
		fmt.Fprintf(&b, " | **%s** |", fmtRatio(geomean(ratios)))
		if best {
			fmt.Fprintf(&b, " **%s** |", fmtRatio(geomean(bestRatios)))
		}
		fmt.Fprintf(&b, " %s | |", fmtRatio(geomean(cpus)))
		if len(firsts) > 0 {
			fmt.Fprintf(&b, " (%.2f) |\n", geomean(firsts))
		} else {
			b.WriteString(" |\n")
		}
	}
	if best {
		for _, r := range results {
			if r.BestDiffers {
				b.WriteString("\n¹ the best git's output is not identical to git 2.39.5's on this workload (a newer git may print differently); it was timed anyway.\n")
				break
			}
		}
	}
	fmt.Fprintf(&b, "\nRatios below 1 mean goblame is faster; the goals are ")
	for i, g := range m.Goals {
		if i > 0 {
			b.WriteString(" and ")
		}
		fmt.Fprintf(&b, "%.2f (%.1fx faster)", g, 1/g)
	}
	b.WriteString(".\n\n")
	if svgName != "" {
		fmt.Fprintf(&b, "![goblame/git per workload](%s)\n\n", svgName)
	}
	if len(failed) > 0 {
		b.WriteString("## Not timed\n\n")
		for _, r := range failed {
			fmt.Fprintf(&b, "- line %d, %s (%s) %s: **%s** — %s\n", r.Line, mdCell(r.Name), filepath.Base(r.Dir), argsCell(r), r.Status, r.Detail)
		}
		b.WriteString("\n")
	}
	b.WriteString("## Repositories\n\n| directory | HEAD | commit-graph |\n|---|---|---|\n")
	for _, ri := range m.Repos {
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", ri.Dir, ri.Head, ri.CommitGraph)
	}
	return b.String()
}
