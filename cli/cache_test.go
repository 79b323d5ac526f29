package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// cacheScript is historyScript with two commits that share a date and one
// dated before its parent (so some walks are not ordered by date, and
// their entries may not answer --incremental), and uncommitted edits.
const cacheScript = historyScript + `
sed -i 's/^two$/two (same date)/' file
GIT_COMMITTER_DATE='1112912053 -0700' git commit -q -a -m "same date 1"
sed -i 's/^four$/four (same date)/' file
GIT_COMMITTER_DATE='1112912053 -0700' git commit -q -a -m "same date 2"
sed -i 's/^six$/six (skewed)/' file
GIT_COMMITTER_DATE='1112900000 -0700' git commit -q -a -m "clock skew"
test_tick
sed -i 's/^seven$/seven (after the skew)/' file
commit_all "after the skew"
sed -i 's/^five$/five (edited)/' file
printf 'delta\nepsilon\n' >>moved.txt
`

// cacheOutputFormats and cacheOptionSets are what the cache test runs.
var (
	cacheOutputFormats = [][]string{nil, {"--porcelain"}, {"--incremental"}, {"-c", "-s", "-n", "-f"}}
	cacheOptionSets    = [][]string{nil, {"-w"}, {"--root"}, {"-L", "2,5"}}
)

// TestCacheMatchesGit is the proof that the blame cache changes nothing
// but the time: for every commit of the fixture, oldest first, and every
// file, each option set and output format blames twice with one cache
// directory per option set and format — the first blame takes over the
// entries of the commits before it (the newer-commit case), the second
// reads its own (the repeated blame) — and both must print exactly what
// git blame prints without a cache. Then dirty buffers (--contents -) and
// the working tree are blamed over the cached HEAD, twice each. The
// caches must hold entries afterwards, so the test cannot pass by not
// caching.
func TestCacheMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "cache", cacheScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		g := testgit.Golden(t)
		g.RequireFixture(dir)
		revs := strings.Fields(string(g.Run(testgit.Case{Dir: dir, Format: format, Args: []string{"rev-list", "--reverse", "HEAD"}}).Stdout))
		caches := map[string]string{}
		cacheFor := func(opt, outf []string) string {
			k := strings.Join(opt, " ") + "|" + strings.Join(outf, " ")
			if caches[k] == "" {
				caches[k] = t.TempDir()
			}
			return caches[k]
		}
		for _, rev := range revs {
			files := strings.Fields(string(g.Run(testgit.Case{Dir: dir, Format: format, Args: []string{"ls-tree", "--name-only", rev}}).Stdout))
			for _, file := range files {
				if file == ".mailmap" {
					continue
				}
				for _, opt := range cacheOptionSets {
					if len(opt) > 0 && opt[0] == "-L" && file != "file" {
						continue
					}
					for _, outf := range cacheOutputFormats {
						args := append(append(append([]string{}, opt...), outf...), rev, "--", file)
						want := g.Run(testgit.Case{Dir: dir, Format: format, Args: append([]string{"blame"}, args...)})
						env := []string{"GOBLAME_CACHE=" + cacheFor(opt, outf)}
						for _, round := range []string{"over older entries", "from its own entry"} {
							got := runGoblame(dir, format, nil, env, args...)
							if !bytes.Equal(got.Stdout, want.Stdout) || !bytes.Equal(got.Stderr, want.Stderr) || got.ExitCode != want.ExitCode {
								t.Errorf("%v: goblame %s (%s):\n%s", format, strings.Join(shellArgs(args), " "), round, describeDiff(got, want))
							}
						}
					}
				}
			}
		}
		// Dirty buffers and the working tree over the cached HEAD.
		head, _ := os.ReadFile(filepath.Join(dir, "file"))
		dirty := append([]byte("a new first line\n"), bytes.Replace(head, []byte("eight\n"), []byte("EIGHT\n"), 1)...)
		for _, opt := range cacheOptionSets {
			for _, outf := range cacheOutputFormats {
				for _, c := range []struct {
					stdin []byte
					args  []string
				}{
					{dirty, []string{"--contents", "-", "--", "file"}},
					{nil, []string{"--", "file"}},
					{nil, []string{"--", "moved.txt"}},
				} {
					args := append(append(append([]string{}, opt...), outf...), c.args...)
					env := []string{"GOBLAME_CACHE=" + cacheFor(opt, outf)}
					for round := 0; round < 2; round++ {
						compareLiveWithEnv(t, dir, format, c.stdin, env, args...)
					}
				}
			}
		}
		// The counts: a repeated blame of HEAD takes every line from the
		// cache, a blame of the working tree all but the edited ones.
		for _, c := range []struct {
			args []string
			min  int
		}{{[]string{"HEAD", "--", "file"}, 13}, {[]string{"--", "file"}, 12}} {
			env := []string{"GOBLAME_CACHE=" + cacheFor(nil, nil), "GOBLAME_TRACE_STATS=1"}
			got := runGoblame(dir, format, nil, env, c.args...)
			_, stats, _ := strings.Cut(string(got.Stderr), "Spliced:")
			n := 0
			fmt.Sscanf(stats, "%d", &n)
			if n < c.min {
				t.Errorf("%v: goblame %s took %d lines from the cache, want %d or more (stderr %q)", format, strings.Join(c.args, " "), n, c.min, got.Stderr)
			}
		}
		entries := 0
		for _, c := range caches {
			filepath.Walk(c, func(p string, info os.FileInfo, err error) error {
				if err == nil && info.Mode().IsRegular() && len(info.Name()) == format.HexSize() {
					entries++
				}
				return nil
			})
		}
		if entries == 0 {
			t.Errorf("%v: the caches hold no entries: nothing was cached", format)
		}
	}
}

// compareLiveWithEnv compares goblame, with extra in its environment
// only, and git 2.39.x itself (blames of uncommitted lines, which name
// the current time; a mismatch that straddles a second is retried).
func compareLiveWithEnv(t *testing.T, dir string, format oid.Format, stdin []byte, extra []string, args ...string) {
	t.Helper()
	g := testgit.Golden(t)
	for attempt := 0; ; attempt++ {
		want, ok := g.Live(testgit.Case{Dir: dir, Format: format, Stdin: stdin, Args: append([]string{"blame"}, args...)})
		if !ok {
			return
		}
		got := runGoblame(dir, format, stdin, extra, args...)
		if bytes.Equal(got.Stdout, want.Stdout) && bytes.Equal(got.Stderr, want.Stderr) && got.ExitCode == want.ExitCode {
			return
		}
		if attempt < 3 && bytes.Contains(want.Stdout, []byte("ot.committed.yet")) || attempt < 3 && bytes.Contains(want.Stdout, []byte("Not Committed Yet")) {
			continue
		}
		t.Errorf("%v: goblame %s (env %q):\n%s", format, strings.Join(shellArgs(args), " "), extra, describeDiff(got, want))
		return
	}
}

// TestExactCacheMatchesGit checks the cache's exact entries, which keep
// the final result of a blame under -M, -C or ignored revisions for the
// same blame again: on the moves fixture (lines moved within a file,
// copied from changed, unchanged and new files, a reformatting commit to
// ignore), every option set and output format blames twice with one
// cache per option set, the second answered from the first's entry
// without a walk, and both print what git prints. A blame of other line
// ranges, or the whole file, with the same options is not answered from
// a range's entry.
func TestExactCacheMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "moves", movesScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		reformat := strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD~1"))
		optionSets := [][]string{
			{"-M"}, {"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}, {"-C30", "-M50"}, {"-w", "-C"},
			{"--ignore-rev", reformat}, {"--ignore-revs-file", "revs"}, {"--ignore-rev", reformat, "-C"},
			{"-M", "-L", "3,12"}, {"-C", "-C", "-L", "15,20", "-L", "/utility/,+3"},
		}
		outputFormats := [][]string{nil, {"--porcelain"}, {"--incremental"}, {"-c", "-s", "-n", "-f"}}
		marks := []string{"GIT_CONFIG_PARAMETERS='blame.markIgnoredLines'='true' 'blame.markUnblamableLines'='true'"}
		spliced := regexp.MustCompile(`Spliced:(\d+)`)
		for _, file := range []string{"main.c", "util.c", "copy.c"} {
			for _, opt := range optionSets {
				cache := t.TempDir()
				for i, outf := range outputFormats {
					args := append(append(append([]string{}, opt...), outf...), "HEAD", "--", file)
					var extra []string
					if opt[0] == "--ignore-rev" && i == 3 {
						extra = marks
					}
					want := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: format, Env: extra, Args: append([]string{"blame"}, args...)})
					for round := 0; round < 2; round++ {
						env := append([]string{"GOBLAME_CACHE=" + cache, "GOBLAME_TRACE_STATS=1"}, extra...)
						got := runGoblame(dir, format, nil, env, args...)
						stats, _, _ := strings.Cut(string(got.Stderr), "goblame stats:")
						if !bytes.Equal(got.Stdout, want.Stdout) || stats != string(want.Stderr) || got.ExitCode != want.ExitCode {
							got.Stderr = []byte(stats)
							t.Errorf("%v: goblame %s (round %d):\n%s", format, strings.Join(shellArgs(args), " "), round, describeDiff(got, want))
						}
						// (--incremental prints no stats.)
						m := spliced.FindSubmatch(got.Stderr)
						if got.ExitCode == 0 && (i > 0 || round > 0) && !slices.Contains(outf, "--incremental") && (m == nil || string(m[1]) == "0") {
							t.Errorf("%v: goblame %s (round %d) did not take its cache entry: %q", format, strings.Join(shellArgs(args), " "), round, got.Stderr)
						}
					}
				}
				// The whole file with the ranges' entry in the cache.
				if !slices.Contains(opt, "-L") {
					continue
				}
				whole := []string{opt[0], "HEAD", "--", file}
				if opt[1] == "-C" {
					whole = append([]string{"-C"}, whole...)
				}
				want := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: format, Args: append([]string{"blame"}, whole...)})
				got := runGoblame(dir, format, nil, []string{"GOBLAME_CACHE=" + cache}, whole...)
				if !bytes.Equal(got.Stdout, want.Stdout) || got.ExitCode != want.ExitCode {
					t.Errorf("%v: goblame %s over a cached range:\n%s", format, strings.Join(shellArgs(whole), " "), describeDiff(got, want))
				}
			}
			// One cache for every option set, twice over: an entry is
			// never served to options it does not stand for (an option
			// missing from the key would hand one set another's lines).
			shared := t.TempDir()
			for round := 0; round < 2; round++ {
				for _, opt := range optionSets {
					args := append(append([]string{}, opt...), "HEAD", "--", file)
					want := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: format, Args: append([]string{"blame"}, args...)})
					got := runGoblame(dir, format, nil, []string{"GOBLAME_CACHE=" + shared}, args...)
					if !bytes.Equal(got.Stdout, want.Stdout) || got.ExitCode != want.ExitCode {
						t.Errorf("%v: goblame %s with every option set's entries in one cache (round %d):\n%s", format, strings.Join(shellArgs(args), " "), round, describeDiff(got, want))
					}
				}
			}
		}
	}
}

// renameDriverScript renames a file whose lines lose their CRs (as
// renameCRLFScript) under a diff driver that the configuration can call
// binary (diff.crlf.binary), then changes it once more: whether the
// rename is followed depends on the configuration, not on the history.
const renameDriverScript = `git init -q r && cd r
for i in 1 2 3 4 5 6 7 8 9 10; do printf 'x%d\n' $i; done >a
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do printf 'y%d\r\n' $i; done >>a
printf '* diff=crlf\n' >.gitattributes
commit_all one
git mv a d && tr -d '\r' <d >t && mv t d
commit_all two
printf 'z\n' >>d
commit_all three
`

// TestCacheFollowsDiffDrivers: a cached blame is answered again only
// while the diff drivers its rename scoring asked give the same binary
// verdicts. One cache goes through blames of two commits with the
// rename's driver text, then binary, then text again (each change would
// hand an entry recorded under the other verdict to the next blame,
// which git attributes otherwise), and each blame prints what git prints
// with that configuration. The lines each takes from the cache are
// counted: an entry whose verdicts hold is taken (all 31 lines of HEAD's
// own, or the 30 of HEAD~1's under it), and one that was passed over is
// replaced by the blame that walked instead, so the test cannot pass by
// not caching.
func TestCacheFollowsDiffDrivers(t *testing.T) {
	dirs := fixtureDirs(t, "rename-driver", renameDriverScript)
	binary := []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=diff.crlf.binary", "GIT_CONFIG_VALUE_0=true"}
	spliced := regexp.MustCompile(`Spliced:(\d+)`)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		g := testgit.Golden(t)
		if text, bin := g.Run(testgit.Case{Dir: dir, Format: format, Args: []string{"blame", "HEAD", "--", "d"}}),
			g.Run(testgit.Case{Dir: dir, Format: format, Env: binary, Args: []string{"blame", "HEAD", "--", "d"}}); bytes.Equal(text.Stdout, bin.Stdout) {
			t.Fatalf("%v: git attributes the lines alike with either verdict: the fixture tests nothing", format)
		}
		cache := t.TempDir()
		for i, step := range []struct {
			env     []string
			rev     string
			spliced string // lines taken from the cache
		}{
			{nil, "HEAD~1", "0"},
			{binary, "HEAD", "0"},   // HEAD~1's entry is text's
			{nil, "HEAD", "30"},     // HEAD's is binary's: HEAD~1's
			{nil, "HEAD", "31"},     // its own, replaced by the blame before
			{binary, "HEAD~1", "0"}, // replaces HEAD~1's
			{binary, "HEAD", "30"},
			{nil, "HEAD~1", "0"},
			{binary, "HEAD", "31"},
		} {
			args := []string{step.rev, "--", "d"}
			want := g.Run(testgit.Case{Dir: dir, Format: format, Env: step.env, Args: append([]string{"blame"}, args...)})
			env := append([]string{"GOBLAME_CACHE=" + cache, "GOBLAME_TRACE_STATS=1"}, step.env...)
			got := runGoblame(dir, format, nil, env, args...)
			stats, _, _ := strings.Cut(string(got.Stderr), "goblame stats:")
			if !bytes.Equal(got.Stdout, want.Stdout) || stats != string(want.Stderr) || got.ExitCode != want.ExitCode {
				got.Stderr = []byte(stats)
				t.Errorf("%v: step %d, goblame %s (env %q):\n%s", format, i, strings.Join(args, " "), step.env, describeDiff(got, want))
				continue
			}
			if m := spliced.FindSubmatch(got.Stderr); m == nil || string(m[1]) != step.spliced {
				t.Errorf("%v: step %d, goblame %s (env %q) took other lines from the cache than %s: %q", format, i, strings.Join(args, " "), step.env, step.spliced, got.Stderr)
			}
		}
	}
}
