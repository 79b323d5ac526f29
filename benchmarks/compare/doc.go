// Command compare times goblame against git blame, side by side, on a
// list of workloads, and publishes the figures: a Markdown table, an SVG
// bar chart and a JSON summary under benchmarks/results/. It is what
// `make bench-compare` runs (see README.md in this folder for usage).
//
// For each workload it first runs git blame and goblame once each, with
// the same arguments, directory and standard input, and compares their
// stdout bytes and exit status: a benchmark of a wrong answer is
// worthless, so a workload that differs is reported as DIFFERS, its two
// outputs kept under NAME.diffs/, and not timed (and the command exits 1
// at the end). Lines blamed on the uncommitted pseudo-commit carry the
// current time in git's output, which can tick between two runs, so when
// git's output has such lines a differing pair is rerun back to back up to
// three more times and any identical pair passes.
//
// Then it measures, per workload:
//
//   - wall time: hyperfine, git then goblame (then BEST_GIT), RUNS runs
//     after WARMUP warm-ups, stdout a pipe hyperfine drains; shell-free
//     (-N) unless a file must be redirected to stdin (hyperfine 1.15 has
//     no --input), then through sh, whose start-up hyperfine subtracts;
//     the medians, and the ratio goblame/git;
//   - CPU: hyperfine's mean user+system time, as a ratio (less disturbed
//     by a busy machine than wall time);
//   - peak RSS: the kernel's accounting of each child (wait4 rusage,
//     ru_maxrss), the median of RSS_RUNS runs, no GNU time needed. The
//     kernel counts the harness's own peak in it (a child started with
//     vfork, as os/exec starts them, inherits its parent's high-water
//     mark at exec), so the harness keeps the outputs it compares in
//     files and reports its own peak (a few MiB) as the floor;
//   - for --incremental workloads, the time to the first byte of stdout
//     (the first entry an editor can paint), the median of max(RUNS,
//     RSS_RUNS) runs; the sides alternate run by run, each round
//     starting one side further on.
//
// # Workload files
//
// One workload per line, fields separated by "|":
//
//	DIR|ARGS[|STDIN-FILE[|NAME[|CONFIG]]]
//
// Blank lines and lines starting with # are ignored.
//
//   - DIR is the directory both commands run in. $VAR and ${VAR} are
//     expanded from the environment (an unset variable is an error;
//     REPOS defaults to /work/scratch). A relative DIR is taken from the
//     workload file's folder.
//   - ARGS is everything after "blame" (goblame takes the same words):
//     "HEAD -- diff.c", "--incremental --contents - -- README.md". It is
//     split into words as sh would, without expansions: '...' and "..."
//     quote, a backslash escapes.
//   - STDIN-FILE, if not empty, is fed on standard input to both (for
//     --contents -, an editor's dirty buffer); relative to the workload
//     file's folder, $VARs expanded. Without it stdin is /dev/null.
//   - NAME labels the row (default: DIR's base name).
//   - CONFIG is key=value pairs, separated by blanks, added to the
//     command-line config scope of both commands, as "git -c" would, e.g.
//     core.commitGraph=false. goblame's command line is blame's alone, so
//     the pairs go through GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n> and
//     GIT_CONFIG_VALUE_<n>, which git and goblame both read.
//
// # Settings
//
// Flags, each with an environment variable as its default (make passes
// its command-line variables through the environment): WORKLOADS,
// RESULTS (the name of the outputs), RESULTS_DIR, RUNS (10), WARMUP (2),
// RSS_RUNS (3), BEST_GIT (a third column: another git binary, run as
// "$BEST_GIT blame ARGS"; its output is compared with git's and a
// difference is footnoted, not fatal), NO_GRAPH=1 (core.commitGraph=false
// for every command, and -nograph appended to the default name), CONFIG
// (key=value pairs for every command), GOALS (ratios to draw, 0.33,0.40),
// ONLY (a regular expression on "NAME ARGS"), GOBLAME (./goblame),
// HYPERFINE.
//
// The table records the machine (CPU, count, load average at the start
// and at the end), the versions of git, goblame (the commit its binary was
// built from, from Go's build information) and hyperfine, and for each
// repository its HEAD and whether a commit-graph with Bloom filters is
// there: figures without those are not comparable.
package main
