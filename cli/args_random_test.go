package cli

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// randomArgsTokens are the pieces random command lines are made of:
// options in their various spellings, values, separators and words.
var randomArgsTokens = []string{
	"-f", "-n", "-l", "-s", "-w", "-e", "-t", "-b", "-c", "-p", "-fnl", "-sw", "-fp", "-C", "-C40", "-CC",
	"-M", "-M20", "-L1,3", "-L", "1,2", "-L2", "-S", "grafts", "--porcelain", "--porc", "--line-porcelain",
	"--no-porcelain", "--incremental", "--incr", "--root", "--no-root", "--show-stats", "--progress",
	"--no-progress", "--score-debug", "--show-name", "--show-number", "--show-email", "--no-show-email",
	"--ignore-rev", "--ignore-revs-file", "ignorelist", "--no-ignore-revs-file", "--color-lines",
	"--color-by-age", "--minimal", "--contents", "contents.txt", "--no-contents", "--abbrev",
	"--abbrev=10", "--abbrev=0", "--abbrev=x", "--no-abbrev", "--abb=6", "--reverse", "--first-parent",
	"--since=2005-04-07 22:16:00 +0000", "--max-age=1112912160", "--date=short", "--date=relative",
	"--date", "raw", "--date=bogus", "--relative-date", "--pretty=reference", "--format=email",
	"--encoding=none", "--no-follow", "--follow", "--find-copies-harder", "--find-copies", "--no-textconv",
	"--indent-heuristic", "--no-indent-heuristic", "--max-count=2", "-3", "--author", "x", "--graph",
	"-U3", "-U", "--stat", "--name-only", "--name-status", "--not", "--all", "--branches=s*", "--no-walk",
	"--", "--", "--end-of-options", "-h", "-Z", "--bogus", "--show", "--col", "-fZ", "-fu", "-fWZ", "-root",
	"-", "--git-completion-helper", "--cc", "--combined-all-paths", "--children", "--parents", "-g",
	"--simplify-merges", "--topo-order", "--left-only", "--right-only", "--default", "--output-indicator-new=",
	"", "-I", "(", "--diff-filter=Q", "--find-copies", "--no-renames", "--find-renames", "-B", "-Xfiles",
	"--stat=1,x", "-G", "--pickaxe-all", "--pickaxe-regex", "--find-object=HEAD", "--pretty=ref", "--exclude-first-parent-only",
	"--ancestry-path=v1", "--simplify-by-decoration", "--cherry-pick", "--boundary", "--do-walk",
	"--show-linear-break", "-m", "-W", "-R", "--textconv", "--exit-code", "-z", "-fS", "--ignore-rev=v1",
	"--until=2005-04-07", "-fnW", "-fC20", "-Cf", "--no-", "--no-show", "--no-line-porcelain", "--abbrev=4",
	"--abbrev=-3", "--merges", "--reverse", "--first-parent", "--since", "--no-root", "-ef", "--walk-reflogs",
	"--relative", "--no-walk=unsorted", "--exclude=x", "--tags", "--help", "-hf", "--root=x", "--line-p",
}

var randomArgsConfig = []string{
	"blame.showRoot=true", "blame.blankBoundary=true", "blame.showEmail=true", "blame.date=short",
	"blame.date=iso-local", "blame.ignoreRevsFile=ignorelist", "core.abbrev=12", "core.abbrev=no",
	"pretty.mine=reference",
}

var randomArgsWords = []string{"file", "HEAD", "v1", "v1..", "HEAD~1", "nosuch", "other2", "sub/f", "v2", "side", "^v1", "v1...side"}

// TestArgsRandomAgainstGit compares random command lines with git, like
// TestArgsAgainstGit. GOBLAME_ARGS_RANDOM sets how many (default 150),
// GOBLAME_ARGS_SEED the seed (default 1); a failing subtest's name is the
// command line that reproduces it.
//
//	GOBLAME_ARGS_RANDOM=20000 GOBLAME_ARGS_SEED=$RANDOM go test ./cli -run TestArgsRandomAgainstGit
func TestArgsRandomAgainstGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	n, seed := 150, uint64(1)
	if v := os.Getenv("GOBLAME_ARGS_RANDOM"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("GOBLAME_ARGS_SEED"); v != "" {
		seed, _ = strconv.ParseUint(v, 10, 64)
	}
	// The goldens hold the default run's command lines; others are
	// compared with git 2.39.x only.
	liveOnly := n != 150 || seed != 1
	if liveOnly {
		testgit.RequireGit(t)
	}
	t.Logf("%d command lines, seed %d", n, seed)
	rng := rand.New(rand.NewPCG(seed, 0x601b1a4e))
	seen := map[string]bool{}
	var cases []argsCase
	for len(cases) < n {
		var c argsCase
		for k := rng.IntN(7); k > 0; k-- {
			if rng.IntN(10) < 7 {
				c.args = append(c.args, randomArgsTokens[rng.IntN(len(randomArgsTokens))])
			} else {
				c.args = append(c.args, randomArgsWords[rng.IntN(len(randomArgsWords))])
			}
		}
		if rng.IntN(10) < 7 {
			c.args = append(c.args, "file")
		}
		if len(c.args) > 0 && c.args[0] == "--help" {
			continue // git runs "git help blame" for this, before blame starts
		}
		c.annotate = rng.IntN(10) == 0
		c.liveOnly = liveOnly
		if rng.IntN(8) == 0 {
			c.config = []string{randomArgsConfig[rng.IntN(len(randomArgsConfig))]}
		}
		if rng.IntN(10) == 0 {
			c.bare = true
		}
		if !seen[c.name()] {
			seen[c.name()] = true
			cases = append(cases, c)
		}
	}
	for _, format := range testgit.Formats {
		t.Run(format.String(), func(t *testing.T) {
			r := argsFixtureRepo(t, format)
			for _, c := range cases {
				t.Run(c.name(), func(t *testing.T) {
					t.Parallel()
					runArgsCase(t, r, c)
				})
			}
		})
	}
}
