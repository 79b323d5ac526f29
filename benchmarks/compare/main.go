package main

import (
	"bytes"
	"debug/buildinfo"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	os.Exit(run())
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// envBool: set, and neither empty nor 0.
func envBool(name string) bool {
	v := os.Getenv(name)
	return v != "" && v != "0"
}

func run() int {
	workloads := flag.String("workloads", envOr("WORKLOADS", "benchmarks/workloads/go-git.txt"), "workload file (env WORKLOADS)")
	name := flag.String("name", os.Getenv("RESULTS"), "results name: writes OUT/NAME.md, .svg, .json (env RESULTS; default: the workload file's base name, -nograph appended under NO_GRAPH)")
	outDir := flag.String("out", envOr("RESULTS_DIR", "benchmarks/results"), "results folder (env RESULTS_DIR)")
	runs := flag.Int("runs", envInt("RUNS", 10), "hyperfine runs per command (env RUNS)")
	warmup := flag.Int("warmup", envInt("WARMUP", 2), "hyperfine warm-up runs (env WARMUP)")
	rssRuns := flag.Int("rss-runs", envInt("RSS_RUNS", 3), "runs for peak RSS; --incremental workloads use max(RUNS, this) for the first entry (env RSS_RUNS)")
	gitBin := flag.String("git", "git", "the reference git")
	goblame := flag.String("goblame", envOr("GOBLAME", "./goblame"), "the goblame binary (env GOBLAME)")
	bestGit := flag.String("best-git", os.Getenv("BEST_GIT"), "another git to time too, as a third column (env BEST_GIT)")
	config := flag.String("config", os.Getenv("CONFIG"), "key=value pairs for every command, as git -c (env CONFIG)")
	noGraph := flag.Bool("no-graph", envBool("NO_GRAPH"), "ignore commit-graphs: core.commitGraph=false for every command (env NO_GRAPH=1)")
	goals := flag.String("goals", envOr("GOALS", "0.33,0.40"), "ratios goblame/git to draw as goals (env GOALS)")
	only := flag.String("only", os.Getenv("ONLY"), "regular expression: run only the workloads whose \"NAME ARGS\" match (env ONLY)")
	checkOnly := flag.Bool("check-only", envBool("CHECK_ONLY"), "only check that the outputs are identical; time nothing, write no table (env CHECK_ONLY=1)")
	hyperfine := flag.String("hyperfine", envOr("HYPERFINE", "hyperfine"), "the hyperfine binary (env HYPERFINE)")
	render := flag.String("render", "", "rewrite NAME.md and NAME.svg from a NAME.json this program wrote, measuring nothing")
	flag.Parse()
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "bench-compare: "+format+"\n", a...)
		return 2
	}

	if *render != "" {
		if err := rerender(*render); err != nil {
			return fail("%v", err)
		}
		return 0
	}
	cfg, err := parseConfig(*config)
	if err != nil {
		return fail("CONFIG: %v", err)
	}
	if *noGraph {
		cfg = append(cfg, "core.commitGraph=false")
	}
	var goalList []float64
	for _, g := range strings.Split(*goals, ",") {
		if g = strings.TrimSpace(g); g == "" {
			continue
		}
		v, err := strconv.ParseFloat(g, 64)
		if err != nil || v <= 0 {
			return fail("GOALS: bad ratio %q", g)
		}
		goalList = append(goalList, v)
	}
	var filter *regexp.Regexp
	if *only != "" {
		if filter, err = regexp.Compile(*only); err != nil {
			return fail("ONLY: %v", err)
		}
	}
	if *name == "" {
		*name = strings.TrimSuffix(filepath.Base(*workloads), filepath.Ext(*workloads))
		if *noGraph {
			*name += "-nograph"
		}
	}
	if *runs < 2 || *warmup < 0 || *rssRuns < 1 {
		return fail("RUNS must be at least 2, WARMUP at least 0, RSS_RUNS at least 1")
	}

	rn := &runner{runs: *runs, warmup: *warmup, rssRuns: *rssRuns, config: cfg, log: os.Stderr, checkOnly: *checkOnly}
	if rn.git, err = exec.LookPath(*gitBin); err != nil {
		return fail("%v", err)
	}
	if rn.goblame, err = filepath.Abs(*goblame); err != nil {
		return fail("%v", err)
	}
	if _, err := os.Stat(rn.goblame); err != nil {
		return fail("no goblame binary at %s (make build at the repository root)", rn.goblame)
	}
	if *bestGit != "" {
		if rn.bestGit, err = exec.LookPath(*bestGit); err != nil {
			return fail("BEST_GIT: %v", err)
		}
		if rn.bestGit, err = filepath.Abs(rn.bestGit); err != nil {
			return fail("%v", err)
		}
	}
	if rn.hyperfine, err = exec.LookPath(*hyperfine); err != nil && !*checkOnly {
		return fail("hyperfine is not installed (apt-get install -y hyperfine): %v", err)
	}

	f, err := os.Open(*workloads)
	if err != nil {
		return fail("%v", err)
	}
	base, _ := filepath.Abs(filepath.Dir(*workloads))
	lookup := func(v string) (string, bool) {
		if s, ok := os.LookupEnv(v); ok {
			return s, true
		}
		if v == "REPOS" {
			return "/work/scratch", true
		}
		return "", false
	}
	list, err := parseWorkloads(f, base, lookup)
	f.Close()
	if err != nil {
		return fail("%s: %v", *workloads, err)
	}
	if filter != nil {
		kept := list[:0]
		for _, w := range list {
			if filter.MatchString(w.Name + " " + w.Args) {
				kept = append(kept, w)
			}
		}
		list = kept
	}
	if len(list) == 0 {
		return fail("%s: no workloads", *workloads)
	}

	if rn.tmp, err = os.MkdirTemp("", "bench-compare-"); err != nil {
		return fail("%v", err)
	}
	defer os.RemoveAll(rn.tmp)

	m := meta{
		Name:       *name,
		Workloads:  *workloads,
		Date:       time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		CPU:        cpuModel(),
		CPUs:       runtime.NumCPU(),
		LoadStart:  loadAverage(),
		Kernel:     kernel(),
		GitVersion: version(rn.git, "--version"),
		Goblame:    goblameVersion(rn.goblame),
		Hyperfine:  version(rn.hyperfine, "--version"),
		Runs:       *runs,
		Warmup:     *warmup,
		RSSRuns:    *rssRuns,
		Config:     cfg,
		Goals:      goalList,
		Command:    reproduce(*workloads, *name, *outDir, *runs, *warmup, *rssRuns, *bestGit, *config, *noGraph, *only),
	}
	if rn.bestGit != "" {
		m.BestGit, m.BestGitVersion = rn.bestGit, version(rn.bestGit, "--version")
	}
	seen := map[string]bool{}
	for _, w := range list {
		if !seen[w.Dir] {
			seen[w.Dir] = true
			m.Repos = append(m.Repos, describeRepo(w.Dir, cfg))
		}
	}

	var results []result
	bad := 0
	for i, w := range list {
		fmt.Fprintf(os.Stderr, "\n=== [%d/%d] %s (%s): blame %s\n", i+1, len(list), w.Name, filepath.Base(w.Dir), w.Args)
		r := rn.run(w)
		switch r.Status {
		case statusOK:
			if *checkOnly {
				fmt.Fprintf(os.Stderr, "=== identical\n")
			} else {
				fmt.Fprintf(os.Stderr, "=== goblame/git %.2f\n", ratio(r, 1, 0))
			}
		case statusSkipped:
			fmt.Fprintf(os.Stderr, "=== %s: %s\n", r.Status, r.Detail)
		default:
			bad++
			fmt.Fprintf(os.Stderr, "=== %s: %s\n", r.Status, r.Detail)
		}
		results = append(results, r)
	}
	m.LoadEnd = loadAverage()
	m.HarnessPeakKB = harnessPeakKB()
	if *checkOnly {
		fmt.Println()
		for _, r := range results {
			fmt.Printf("%-8s line %-3d %s (%s): blame %s", r.Status, r.Line, r.Name, filepath.Base(r.Dir), r.Args)
			if r.Stdin != "" {
				fmt.Printf(" < %s", filepath.Base(r.Stdin))
			}
			if r.Attempts > 1 {
				fmt.Printf(" (%d attempts)", r.Attempts)
			}
			if r.Detail != "" {
				fmt.Printf("\n         %s", r.Detail)
			}
			fmt.Println()
		}
	}

	if err := os.MkdirAll(*outDir, 0o777); err != nil {
		return fail("%v", err)
	}
	stem := filepath.Join(*outDir, *name)
	for _, r := range results {
		if r.outputs == nil {
			continue
		}
		dir := stem + ".diffs"
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return fail("%v", err)
		}
		for suffix, d := range r.outputs {
			if err := d.writeTo(filepath.Join(dir, fmt.Sprintf("line%d.%s", r.Line, suffix))); err != nil {
				return fail("%v", err)
			}
		}
	}
	if *checkOnly {
		if bad > 0 {
			fmt.Fprintf(os.Stderr, "bench-compare: %d workload(s) not identical to git or failing (outputs in %s.diffs/)\n", bad, stem)
			return 1
		}
		return 0
	}
	md := markdown(m, results, *name+".svg")
	summary, err := json.MarshalIndent(summaryFile{m, results}, "", "  ")
	if err != nil {
		return fail("%v", err)
	}
	for _, out := range []struct {
		path string
		data []byte
	}{
		{stem + ".md", []byte(md)},
		{stem + ".svg", []byte(svgChart(m, results))},
		{stem + ".json", append(summary, '\n')},
	} {
		if err := os.WriteFile(out.path, out.data, 0o666); err != nil {
			return fail("%v", err)
		}
	}
	fmt.Println()
	fmt.Print(md)
	fmt.Printf("\nwrote %s.md, %s.svg, %s.json\n", stem, stem, stem)
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "bench-compare: %d workload(s) not identical to git or failing (outputs in %s.diffs/)\n", bad, stem)
		return 1
	}
	return 0
}

// summaryFile is NAME.json.
type summaryFile struct {
	Meta    meta     `json:"meta"`
	Results []result `json:"results"`
}

func rerender(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var sf summaryFile
	if err := json.Unmarshal(data, &sf); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	stem := strings.TrimSuffix(path, ".json")
	if err := os.WriteFile(stem+".md", []byte(markdown(sf.Meta, sf.Results, filepath.Base(stem)+".svg")), 0o666); err != nil {
		return err
	}
	return os.WriteFile(stem+".svg", []byte(svgChart(sf.Meta, sf.Results)), 0o666)
}

func reproduce(workloads, name, outDir string, runs, warmup, rssRuns int, bestGit, config string, noGraph bool, only string) string {
	s := fmt.Sprintf("make bench-compare WORKLOADS=%s RESULTS=%s RUNS=%d WARMUP=%d", shellQuote(workloads), shellQuote(name), runs, warmup)
	if rssRuns != 3 {
		s += fmt.Sprintf(" RSS_RUNS=%d", rssRuns)
	}
	if outDir != "benchmarks/results" {
		s += " RESULTS_DIR=" + shellQuote(outDir)
	}
	if bestGit != "" {
		s += " BEST_GIT=" + shellQuote(bestGit)
	}
	if noGraph {
		s += " NO_GRAPH=1"
	}
	if config != "" {
		s += " CONFIG=" + shellQuote(config)
	}
	if only != "" {
		s += " ONLY=" + shellQuote(only)
	}
	return s
}

func version(bin string, arg string) string {
	out, err := exec.Command(bin, arg).Output()
	if err != nil {
		return filepath.Base(bin) + " (version unknown)"
	}
	return strings.TrimSpace(firstLine(out))
}

// goblameVersion names the commit the binary was built from (Go records
// it, with whether the tree had uncommitted changes).
func goblameVersion(bin string) string {
	info, err := buildinfo.ReadFile(bin)
	if err != nil {
		return "(unknown build)"
	}
	rev, modified := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		// Built with -buildvcs=false (GOFLAGS may say so): name the
		// tree the binary sits in, as it is now, which make bench-compare
		// has just built from.
		dir := filepath.Dir(bin)
		out, err := exec.Command("git", "-C", dir, "rev-parse", "--short=12", "HEAD").Output()
		if err != nil {
			return "(no VCS stamp)"
		}
		rev = strings.TrimSpace(string(out))
		st, _ := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=no").Output()
		if len(bytes.TrimSpace(st)) > 0 {
			rev += " (tree with uncommitted changes)"
		}
		return rev
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += " (tree with uncommitted changes)"
	}
	return rev
}

func cpuModel() string {
	data, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return runtime.GOARCH
}

// harnessPeakKB is this process's peak resident set (VmHWM), which the
// kernel counts in the peak of every child it starts (see outcome); 0
// where it cannot be read.
func harnessPeakKB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func kernel() string {
	data, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return runtime.GOOS
	}
	return runtime.GOOS + " " + strings.TrimSpace(string(data))
}

// describeRepo reports the HEAD of a directory and whether a commit-graph
// (with changed-path Bloom filters) is there to be used, in the
// repository's object folder or an alternate.
func describeRepo(dir string, cfg []string) repoInfo {
	ri := repoInfo{Dir: dir}
	if _, err := os.Stat(dir); err != nil {
		ri.Head, ri.CommitGraph = "(missing)", "–"
		return ri
	}
	out, err := exec.Command("git", "-C", dir, "log", "-1", "--format=%h %cs").Output()
	if err != nil {
		ri.Head, ri.CommitGraph = "(not a repository)", "–"
		return ri
	}
	ri.Head = strings.TrimSpace(string(out))
	objects, err := exec.Command("git", "-C", dir, "rev-parse", "--path-format=absolute", "--git-path", "objects").Output()
	if err != nil {
		ri.CommitGraph = "?"
		return ri
	}
	dirs := []string{strings.TrimSpace(string(objects))}
	if alt, err := os.ReadFile(filepath.Join(dirs[0], "info", "alternates")); err == nil {
		for _, a := range strings.Split(string(alt), "\n") {
			if a = strings.TrimSpace(a); a != "" && !strings.HasPrefix(a, "#") {
				if !filepath.IsAbs(a) {
					a = filepath.Join(dirs[0], a)
				}
				dirs = append(dirs, a)
			}
		}
	}
	ri.CommitGraph = "no"
	for i, d := range dirs {
		file := filepath.Join(d, "info", "commit-graph")
		if chain, err := os.ReadFile(filepath.Join(d, "info", "commit-graphs", "commit-graph-chain")); err == nil {
			lines := strings.Fields(string(chain))
			if len(lines) > 0 {
				file = filepath.Join(d, "info", "commit-graphs", "graph-"+lines[len(lines)-1]+".graph")
			}
		}
		if _, err := os.Stat(file); err != nil {
			continue
		}
		ri.CommitGraph = "yes"
		if hasBloom(file) {
			ri.CommitGraph += ", with Bloom filters"
		}
		if i > 0 {
			ri.CommitGraph += " (in alternate " + d + ")"
		}
		break
	}
	for _, kv := range cfg {
		if k, v, _ := strings.Cut(kv, "="); strings.EqualFold(k, "core.commitGraph") && v == "false" {
			ri.CommitGraph += "; ignored (core.commitGraph=false)"
		}
	}
	return ri
}

// hasBloom reads a commit-graph file's chunk table (gitformat-commit-graph:
// an 8-byte header whose 7th byte counts the chunks, then 12-byte entries
// of chunk ID and offset) for the Bloom filter chunks.
func hasBloom(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 8)
	if _, err := f.ReadAt(head, 0); err != nil || string(head[:4]) != "CGPH" {
		return false
	}
	table := make([]byte, 12*(int(head[6])+1))
	if _, err := f.ReadAt(table, 8); err != nil {
		return false
	}
	found := 0
	for i := 0; i+12 <= len(table); i += 12 {
		id := binary.BigEndian.Uint32(table[i:])
		if bytes.Equal(table[i:i+4], []byte("BIDX")) || bytes.Equal(table[i:i+4], []byte("BDAT")) {
			found++
		}
		if id == 0 {
			break
		}
	}
	return found == 2
}
