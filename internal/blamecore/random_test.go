package blamecore_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// randomHistory generates a git fast-import stream of a random history:
// edits (inserts, deletes, replacements, duplicated and moved blocks),
// branches, merges (with evil lines), renames with and without edits,
// and, unless distinctDates, equal commit dates and clock skew.
type randomHistory struct {
	r             *rand.Rand
	distinctDates bool
	out           strings.Builder
	mark          int
	date          int64
	branches      map[string]*branchState
	names         []string
}

type branchState struct {
	mark  int
	files map[string][]string
}

var vocabulary = []string{"", "{", "}", "\treturn x;", "\t}", "else {", "int i;", "// comment", "  indented", "\tx++;", "end"}

func (h *randomHistory) line() string {
	if h.r.Intn(3) == 0 {
		return vocabulary[h.r.Intn(len(vocabulary))]
	}
	return fmt.Sprintf("line %d %s", h.r.Intn(1000), strings.Repeat("w", h.r.Intn(4)))
}

func (h *randomHistory) edit(lines []string) []string {
	ops := 1 + h.r.Intn(3)
	for ; ops > 0; ops-- {
		n := len(lines)
		switch op := h.r.Intn(6); {
		case op == 0 || n == 0: // insert
			pos := h.r.Intn(n + 1)
			k := 1 + h.r.Intn(4)
			var ins []string
			for i := 0; i < k; i++ {
				ins = append(ins, h.line())
			}
			lines = append(lines[:pos:pos], append(ins, lines[pos:]...)...)
		case op == 1: // delete
			pos := h.r.Intn(n)
			k := min(1+h.r.Intn(3), n-pos)
			lines = append(lines[:pos:pos], lines[pos+k:]...)
		case op == 2: // replace
			pos := h.r.Intn(n)
			lines[pos] = h.line()
		case op == 3: // duplicate a block elsewhere
			pos := h.r.Intn(n)
			k := min(1+h.r.Intn(4), n-pos)
			block := append([]string(nil), lines[pos:pos+k]...)
			at := h.r.Intn(n + 1)
			lines = append(lines[:at:at], append(block, lines[at:]...)...)
		case op == 4: // move a block
			pos := h.r.Intn(n)
			k := min(1+h.r.Intn(4), n-pos)
			block := append([]string(nil), lines[pos:pos+k]...)
			rest := append(lines[:pos:pos], lines[pos+k:]...)
			at := h.r.Intn(len(rest) + 1)
			lines = append(rest[:at:at], append(block, rest[at:]...)...)
		default: // whitespace-only change
			pos := h.r.Intn(n)
			lines[pos] = "  " + strings.TrimSpace(lines[pos]) + " "
		}
	}
	return lines
}

func (h *randomHistory) tick() int64 {
	switch {
	case h.distinctDates:
		h.date += 60
	case h.r.Intn(6) == 0: // same date
	case h.r.Intn(10) == 0:
		h.date -= 3600 // clock skew
	default:
		h.date += 60
	}
	return h.date
}

// commitHeader starts a commit on branch in the stream: its mark, the
// next date, the message and the parents.
func (h *randomHistory) commitHeader(branch string, parents []int, msg string) {
	h.mark++
	d := h.tick()
	fmt.Fprintf(&h.out, "commit refs/heads/%s\nmark :%d\n", branch, h.mark)
	fmt.Fprintf(&h.out, "author A U Thor <author@example.com> %d -0700\n", d)
	fmt.Fprintf(&h.out, "committer C O Mitter <committer@example.com> %d -0700\n", d)
	fmt.Fprintf(&h.out, "data %d\n%s\n", len(msg), msg)
	for i, p := range parents {
		if i == 0 {
			fmt.Fprintf(&h.out, "from :%d\n", p)
		} else {
			fmt.Fprintf(&h.out, "merge :%d\n", p)
		}
	}
}

func (h *randomHistory) commit(branch string, files map[string][]string, parents []int, msg string) int {
	h.commitHeader(branch, parents, msg)
	fmt.Fprintf(&h.out, "deleteall\n")
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		content := strings.Join(files[p], "\n")
		if len(files[p]) > 0 && h.r.Intn(8) != 0 {
			content += "\n"
		}
		fmt.Fprintf(&h.out, "M 100644 inline %s\ndata %d\n%s\n", p, len(content), content)
	}
	return h.mark
}

func copyFiles(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = append([]string(nil), v...)
	}
	return out
}

func generateHistory(seed int64, commits int, distinctDates bool) string {
	h := &randomHistory{r: rand.New(rand.NewSource(seed)), distinctDates: distinctDates, date: 1112911993, branches: map[string]*branchState{}}
	files := map[string][]string{}
	for _, name := range []string{"a.txt", "b.c"} {
		var lines []string
		for i := 0; i < 5+h.r.Intn(20); i++ {
			lines = append(lines, h.line())
		}
		files[name] = lines
	}
	m := h.commit("main", files, nil, "initial")
	h.branches["main"] = &branchState{mark: m, files: files}
	h.names = []string{"main"}
	for i := 1; i < commits; i++ {
		bname := h.names[h.r.Intn(len(h.names))]
		b := h.branches[bname]
		switch op := h.r.Intn(20); {
		case op < 2: // new branch
			nb := fmt.Sprintf("b%d", i)
			h.branches[nb] = &branchState{mark: b.mark, files: copyFiles(b.files)}
			h.names = append(h.names, nb)
			continue
		case op < 5 && len(h.names) > 1: // merge another branch into b
			oname := h.names[h.r.Intn(len(h.names))]
			if oname == bname {
				continue
			}
			o := h.branches[oname]
			merged := copyFiles(b.files)
			// In path order: the history must be a function of the seed.
			var opaths []string
			for p := range o.files {
				opaths = append(opaths, p)
			}
			sort.Strings(opaths)
			for _, p := range opaths {
				lines := o.files[p]
				mine, ok := merged[p]
				switch {
				case !ok:
					merged[p] = append([]string(nil), lines...)
				case h.r.Intn(3) == 0:
					merged[p] = append([]string(nil), lines...)
				default:
					half := len(mine) / 2
					oh := len(lines) / 2
					merged[p] = append(append([]string(nil), mine[:half]...), lines[oh:]...)
				}
				if h.r.Intn(4) == 0 && len(merged[p]) > 0 {
					merged[p][h.r.Intn(len(merged[p]))] = "evil " + h.line()
				}
			}
			m := h.commit(bname, merged, []int{b.mark, o.mark}, fmt.Sprintf("merge %s into %s", oname, bname))
			b.mark, b.files = m, merged
		case op < 7: // rename a file, maybe with an edit
			nf := copyFiles(b.files)
			var paths []string
			for p := range nf {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			old := paths[h.r.Intn(len(paths))]
			nn := fmt.Sprintf("d%d/%s", i, filepath.Base(old))
			if h.r.Intn(2) == 0 {
				nn = fmt.Sprintf("r%d_%s", i, filepath.Base(old))
			}
			nf[nn] = nf[old]
			delete(nf, old)
			if h.r.Intn(2) == 0 {
				nf[nn] = h.edit(nf[nn])
			}
			m := h.commit(bname, nf, []int{b.mark}, "rename "+old)
			b.mark, b.files = m, nf
		default: // edit one or two files
			nf := copyFiles(b.files)
			var paths []string
			for p := range nf {
				paths = append(paths, p)
			}
			sort.Strings(paths)
			for k := 0; k < 1+h.r.Intn(2); k++ {
				p := paths[h.r.Intn(len(paths))]
				nf[p] = h.edit(nf[p])
			}
			m := h.commit(bname, nf, []int{b.mark}, fmt.Sprintf("edit %d", i))
			b.mark, b.files = m, nf
		}
	}
	return h.out.String()
}

// randomSeeds is how many seeds the random-history tests run:
// GOBLAME_RANDOM_SEEDS, else 6.
func randomSeeds() int {
	if s := os.Getenv("GOBLAME_RANDOM_SEEDS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	return 6
}

// randomRepository builds seed's history with git fast-import (distinct
// dates for even seeds, the object formats in turn) and opens its object
// database for the test.
func randomRepository(t *testing.T, seed int64) (dir string, format oid.Format, db *odb.DB, distinct bool) {
	t.Helper()
	dir, format, db = buildRandomRepository(t, seed, "random", "")
	return dir, format, db, seed%2 == 0
}

// randomGraphRepository is randomRepository with a commit-graph (with
// changed-path Bloom filters) written by git, and the graph opened.
func randomGraphRepository(t *testing.T, seed int64) (dir string, format oid.Format, db *odb.DB, g *traverse.Graph) {
	t.Helper()
	dir, format, db = buildRandomRepository(t, seed, "random-graph", "git commit-graph write --reachable --changed-paths\n")
	g, warnings, err := traverse.OpenGraph(db.ObjectDirs(), format)
	if err != nil || g == nil || len(warnings) > 0 {
		t.Fatalf("seed %d: opening the commit-graph: %v %q", seed, err, warnings)
	}
	return dir, format, db, g
}

// buildRandomRepository builds seed's history as the fixture name-seed,
// running after within the repository once it is imported, and opens
// its object database for the test.
func buildRandomRepository(t *testing.T, seed int64, name, after string) (dir string, format oid.Format, db *odb.DB) {
	t.Helper()
	format = testgit.Formats[int(seed)%len(testgit.Formats)]
	stream := generateHistory(seed, 40, seed%2 == 0)
	script := "git init -q r && cd r && echo " + base64.StdEncoding.EncodeToString([]byte(stream)) + " | base64 -d | git fast-import --quiet\n" + after
	dir = filepath.Join(testgit.Fixture(t, fmt.Sprintf("%s-%d", name, seed), format, script), "r")
	db, err := odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return dir, format, db
}

// TestRandomHistoriesMatchGit builds seeded random histories with git
// fast-import and compares goblame's per-line attribution with git's
// for every file at every branch tip and a sample of older commits.
// GOBLAME_RANDOM_SEEDS=n runs n seeds instead of the short default;
// a failure names its seed, and the history is rebuilt from it.
func TestRandomHistoriesMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for seed := int64(1); seed <= int64(randomSeeds()); seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			dir, format, db, distinct := randomRepository(t, seed)
			flagSets := [][]string{nil, {"-w"}, {"--minimal"}, {"--no-indent-heuristic"}, {"--first-parent"}}
			if distinct {
				// git itself is not deterministic under -M/-C when two
				// commits share a timestamp, so only distinct dates here.
				flagSets = append(flagSets, []string{"-M"}, []string{"-C"}, []string{"-C", "-C"})
			}
			revs := strings.Fields(testgit.Git(t, dir, format, "for-each-ref", "--format=%(objectname)", "refs/heads"))
			all := strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all"))
			// Ignore a few commits of the history, one at a time and
			// together, as --ignore-rev users do with reformatting commits.
			ig1, ig2 := all[len(all)/3], all[len(all)/2]
			flagSets = append(flagSets,
				[]string{"--ignore-rev", ig1},
				[]string{"--ignore-rev", ig2, "--ignore-rev", ig1},
				[]string{"-w", "--ignore-rev", ig2})
			for i := 0; i < len(all); i += 7 {
				revs = append(revs, all[i])
			}
			for _, rev := range revs {
				files := strings.Fields(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev))
				for _, file := range files {
					for _, flags := range flagSets {
						// The default seeds' blames without options have
						// goldens; the other cases are too many to keep.
						compareWithGit(t, db, nil, dir, format, rev, file, flags, fmt.Sprintf("seed %d", seed), seed <= 6 && len(flags) == 0)
					}
				}
			}
		})
	}
}

// compareWithGit blames file at rev with the options flags name and
// compares the per-line attribution with git blame --porcelain
// (g, when set, is the commit-graph to walk with; label names the case
// in failures).
// With golden set, the case keeps git 2.39.5's output in the goldens;
// without, it is compared with git 2.39.x itself only (for cases too many
// to keep).
func compareWithGit(t *testing.T, db *odb.DB, g *traverse.Graph, dir string, format oid.Format, rev, file string, flags []string, label string, golden bool) (blamecore.Stats, bool) {
	return compareWithGitLagging(t, db, g, dir, format, rev, file, flags, label, golden, false)
}

// compareWithGitLagging is compareWithGit; with lag set, the walk's
// reader waits a little at each object, so that the look-ahead is ahead
// of it (and the walk takes its answers) on any machine.
func compareWithGitLagging(t *testing.T, db *odb.DB, g *traverse.Graph, dir string, format oid.Format, rev, file string, flags []string, label string, golden, lag bool) (blamecore.Stats, bool) {
	t.Helper()
	c := testgit.Case{Dir: dir, Format: format, Args: porcelainBlameArgs(rev, file, flags)}
	res, ok := goldenOrLive(t, c, golden)
	if !ok {
		return blamecore.Stats{}, false
	}
	if res.ExitCode != 0 {
		t.Fatalf("git %v: %s", c.Args, res)
	}
	return compareAttributionLagging(t, db, g, format, rev, file, flags, label, res.Stdout, lag), true
}

// TestRandomHistoriesLookAhead compares goblame's attribution with git's
// on the seeded random histories with a commit-graph, where walks past
// sixteen commits look the path up ahead on a second goroutine
// (traverse.Trees.LookAhead): for every file at every branch tip and a
// sample of older commits, with the options that change where the walk
// goes. The look-ahead changes when trees and blobs are read, never an
// answer; the test checks that it ran.
func TestRandomHistoriesLookAhead(t *testing.T) {
	testgit.Golden(t) // skips without git
	var started, hits, blobs, compared atomic.Int64
	t.Cleanup(func() {
		// Some histories' walks are all short: over all the seeds, some
		// must have been long enough, and the lagging walk must have
		// taken answers of the look-ahead, and blobs it read with the
		// walk's reader once it had looked the path up to its end.
		if runtime.GOMAXPROCS(0) < 2 {
			return // no look-ahead on one processor
		}
		if compared.Load() > 0 && (started.Load() == 0 || hits.Load() == 0 || blobs.Load() == 0) {
			t.Errorf("%d blames started %d look-aheads and took %d of their answers and %d of their blobs", compared.Load(), started.Load(), hits.Load(), blobs.Load())
		}
	})
	for seed := int64(1); seed <= int64(randomSeeds()); seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			dir, format, db, g := randomGraphRepository(t, seed)
			revs := strings.Fields(testgit.Git(t, dir, format, "for-each-ref", "--format=%(objectname)", "refs/heads"))
			all := strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all"))
			for i := 0; i < len(all); i += 7 {
				revs = append(revs, all[i])
			}
			flagSets := [][]string{nil, {"-w"}, {"--first-parent"}}
			if seed%2 == 0 {
				// Distinct dates: git is deterministic under -M/-C.
				flagSets = append(flagSets, []string{"-M"}, []string{"-C"})
			}
			for _, rev := range revs {
				for _, file := range strings.Fields(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev)) {
					for _, flags := range flagSets {
						st, ok := compareWithGitLagging(t, db, g, dir, format, rev, file, flags, fmt.Sprintf("seed %d (look-ahead)", seed), len(flags) == 0, true)
						if ok {
							compared.Add(1)
							started.Add(int64(st.Trees.AheadStarts))
							hits.Add(int64(st.Trees.AheadHits))
							blobs.Add(int64(st.Trees.BlobsAhead))
						}
					}
				}
			}
		})
	}
}

// optionsFor is the blamecore options of git blame's flags (those the
// random-history tests use).
func optionsFor(t *testing.T, format oid.Format, flags []string) blamecore.Options {
	t.Helper()
	opts := blamecore.DefaultOptions()
	for i, f := range flags {
		switch f {
		case "--ignore-rev":
			id, err := oid.ParseHex(format, flags[i+1])
			if err != nil {
				t.Fatal(err)
			}
			opts.Ignore = append(opts.Ignore, id)
		case "-w":
			opts.Diff.IgnoreWhitespace = true
		case "--minimal":
			opts.Diff.Minimal = true
		case "--no-indent-heuristic":
			opts.Diff.IndentHeuristic = false
		case "--root":
			opts.ShowRoot = true
		case "--first-parent":
			opts.FirstParent = true
		case "-M":
			opts.Move = true
		case "-C":
			opts.Move = true
			opts.CopyLevel++
		default:
			if n, err := strconv.Atoi(strings.TrimPrefix(f, "-M")); err == nil && strings.HasPrefix(f, "-M") {
				opts.Move = true
				opts.MoveScore = n
			}
			if n, err := strconv.Atoi(strings.TrimPrefix(f, "-C")); err == nil && strings.HasPrefix(f, "-C") {
				opts.Move = true
				opts.CopyLevel++
				opts.CopyScore = n
			}
		}
	}
	return opts
}

// goldenOrLive is git's result for c: kept in the goldens when golden
// is set, else from git 2.39.x itself only (false without it), for cases
// too many to keep.
func goldenOrLive(t *testing.T, c testgit.Case, golden bool) (testgit.Result, bool) {
	goldens := testgit.Golden(t)
	if golden {
		return goldens.Run(c), true
	}
	return goldens.Live(c)
}

// porcelainBlameArgs is the git blame --porcelain command whose output
// compareAttribution reads (the attribution of every line, details
// printed once a commit), as the golden files keep it.
func porcelainBlameArgs(rev, file string, flags []string) []string {
	args := append([]string{"blame", "--porcelain"}, flags...)
	return append(args, rev, "--", file)
}

// compareAttribution blames file at rev with the options flags name and
// compares the per-line attribution with gitOut, git blame
// --line-porcelain's output for the same case.
func compareAttribution(t *testing.T, db *odb.DB, g *traverse.Graph, format oid.Format, rev, file string, flags []string, label string, gitOut []byte) blamecore.Stats {
	return compareAttributionLagging(t, db, g, format, rev, file, flags, label, gitOut, false)
}

// lagReader delays every read of the walk (compareWithGitLagging).
type lagReader struct{ blamecore.ObjectReader }

func (r lagReader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	time.Sleep(200 * time.Microsecond)
	return r.ObjectReader.Read(id, dst)
}

func compareAttributionLagging(t *testing.T, db *odb.DB, g *traverse.Graph, format oid.Format, rev, file string, flags []string, label string, gitOut []byte, lag bool) blamecore.Stats {
	t.Helper()
	want := parseLinePorcelain(t, gitOut)
	opts := optionsFor(t, format, flags)
	id, err := oid.ParseHex(format, rev)
	if err != nil {
		t.Fatal(err)
	}
	var rd blamecore.ObjectReader = db.NewReader()
	if lag {
		rd = lagReader{rd}
	}
	hist := blamecore.NewHistory(rd, format, blamecore.HistoryOptions{
		Graph:           g,
		NewReader:       func() blamecore.ObjectReader { return db.NewReader() }, // -C reads ahead
		NewLookupReader: func() blamecore.ObjectReader { return db.NewReader() }, // the path look-ahead
	})
	opts.UseBloom = g != nil
	got, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: file, Final: id, FinalName: rev}, opts)
	if err != nil {
		t.Fatalf("%s: blame %v %s %s: %v", label, flags, rev, file, err)
	}
	if d := diffAttrs(skeleton(got), want); d != "" {
		t.Errorf("%s: git blame %s %s -- %s: %s", label, strings.Join(flags, " "), rev, file, d)
	}
	return got.Stats
}
