package blamecore_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"math/rand"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// generateCopyHistory is a fast-import stream of a history in which
// lines travel between files, as in a repository of many changelogs
// released together: releases add the same notes to several files at
// once, blocks are copied from one file into another, files are edited
// alone, on a few branches merged back. Dates are distinct (git is
// deterministic under -M/-C only then).
func generateCopyHistory(seed int64, commits int) string {
	h := &randomHistory{r: rand.New(rand.NewSource(seed)), distinctDates: true, date: 1112911993, branches: map[string]*branchState{}}
	files := map[string][]string{}
	nfiles := 4 + h.r.Intn(4)
	for i := 0; i < nfiles; i++ {
		var lines []string
		for k := 0; k < 4+h.r.Intn(8); k++ {
			lines = append(lines, h.line())
		}
		files[fmt.Sprintf("f%d/CHANGELOG.md", i)] = lines
	}
	m := commitChanged(h, "main", nil, files, nil, "initial")
	h.branches["main"] = &branchState{mark: m, files: files}
	h.names = []string{"main"}
	note := 0
	for i := 1; i < commits; i++ {
		bname := h.names[h.r.Intn(len(h.names))]
		b := h.branches[bname]
		nf := copyFiles(b.files)
		paths := slices.Sorted(maps.Keys(nf))
		parents := []int{b.mark}
		switch op := h.r.Intn(10); {
		case op < 1: // a new branch
			nb := fmt.Sprintf("b%d", i)
			h.branches[nb] = &branchState{mark: b.mark, files: copyFiles(b.files)}
			h.names = append(h.names, nb)
			continue
		case op < 3 && len(h.names) > 1: // merge another branch, each file from one side
			oname := h.names[h.r.Intn(len(h.names))]
			if oname == bname {
				continue
			}
			o := h.branches[oname]
			for _, p := range slices.Sorted(maps.Keys(o.files)) {
				if _, ok := nf[p]; !ok || h.r.Intn(2) == 0 {
					nf[p] = append([]string(nil), o.files[p]...)
				}
			}
			parents = append(parents, o.mark)
		case op < 6: // a release: the same notes at the top of several files
			// A version line, then lines every release repeats, as
			// changelogs do: -C finds them in the other files the
			// release changed, and in earlier releases of the same one.
			note++
			notes := []string{fmt.Sprintf("## v0.%d.0", note)}
			for k := 0; k < 2+h.r.Intn(4); k++ {
				notes = append(notes, releaseLines[h.r.Intn(len(releaseLines))])
			}
			for _, p := range paths {
				if h.r.Intn(3) != 0 {
					at := h.r.Intn(min(3, len(nf[p])) + 1)
					nf[p] = append(nf[p][:at:at], append(append([]string(nil), notes...), nf[p][at:]...)...)
				}
			}
		case op < 8: // copy a block from one file into another
			from, to := paths[h.r.Intn(len(paths))], paths[h.r.Intn(len(paths))]
			src := nf[from]
			if len(src) == 0 {
				continue
			}
			pos := h.r.Intn(len(src))
			k := min(2+h.r.Intn(5), len(src)-pos)
			at := h.r.Intn(len(nf[to]) + 1)
			nf[to] = append(nf[to][:at:at], append(append([]string(nil), src[pos:pos+k]...), nf[to][at:]...)...)
			if h.r.Intn(2) == 0 {
				nf[from] = h.edit(nf[from])
			}
		default: // edit one file
			p := paths[h.r.Intn(len(paths))]
			nf[p] = h.edit(nf[p])
		}
		for p := range nf {
			// Old releases fall off the end: the script that imports
			// the history must fit in one argument.
			nf[p] = nf[p][:min(len(nf[p]), 36)]
		}
		b.mark = commitChanged(h, bname, b.files, nf, parents, fmt.Sprintf("change %d", i))
		b.files = nf
	}
	return h.out.String()
}

// commitChanged writes a commit of files on branch to h's stream, with
// only the files that differ from the first parent's (from): the whole
// tree in every commit makes a script too long for one argument.
func commitChanged(h *randomHistory, branch string, from, files map[string][]string, parents []int, msg string) int {
	h.commitHeader(branch, parents, msg)
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if old, ok := from[p]; ok && strings.Join(old, "\n") == strings.Join(files[p], "\n") {
			continue
		}
		content := strings.Join(files[p], "\n") + "\n"
		fmt.Fprintf(&h.out, "M 100644 inline %s\ndata %d\n%s\n", p, len(content), content)
	}
	return h.mark
}

// releaseLines are what changelog releases repeat.
var releaseLines = []string{
	"### Commit Statistics",
	"<csr-read-only-do-not-edit/>",
	" - 2 commits contributed to the release.",
	" - 0 commits were understood as conventional.",
	" - Update changelogs prior to release",
	"### Bug Fixes",
	"### New Features",
	"",
	"}",
}

// incrementalOrder is the order in which git blame --incremental wrote
// its entries: one "commit source-line final-line lines path" line each.
func incrementalOrder(out []byte) []string {
	var order []string
	var head string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 4 && len(f[0]) >= 40 && head == "":
			head = sc.Text()
		case strings.HasPrefix(sc.Text(), "filename ") && head != "":
			order = append(order, head+" "+strings.TrimPrefix(sc.Text(), "filename "))
			head = ""
		}
	}
	return order
}

// TestCopyHistoriesIncrementalOrderMatchesGit compares the order in
// which goblame finds its entries (--incremental writes them in that
// order) with git's, under -M and -C of every level, on histories whose
// lines travel between files. The order is the order in which a
// commit's origins are worked on, which follows the order git keeps them
// in: an origin git frees (nothing refers to it) and later makes again
// goes to the front of its commit's list, where one kept and found again
// would have stayed in place (gitoxide's changelogs: a -C --incremental
// blame wrote two groups of entries the other way round, and so did
// every one of 20 of its changelogs). Seed 140 is one of the two in 300
// where the scoreboard went wrong before it unlinked the origins git
// frees (with -C and -C -C on one file); it and seed 1 keep goldens.
// Each case also compares --show-stats' count of blobs read, live only
// (git 2.39.x): a -C candidate whose blob was dropped while git kept its
// origin was read again and counted (seed 140: 21 against git's 20,
// before a23136f).
func TestCopyHistoriesIncrementalOrderMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	flagSets := [][]string{{"-M"}, {"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}}
	seeds := []int64{140}
	for seed := int64(1); seed <= int64(2*randomSeeds()); seed++ {
		if seed != 140 {
			seeds = append(seeds, seed)
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			format := testgit.Formats[int(seed)%len(testgit.Formats)]
			stream := generateCopyHistory(seed, 40)
			script := "git init -q r && cd r && echo " + base64.StdEncoding.EncodeToString([]byte(stream)) + " | base64 -d | git fast-import --quiet\n"
			dir := filepath.Join(testgit.Fixture(t, fmt.Sprintf("copy-history-%d", seed), format, script), "r")
			db, err := odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			revs := strings.Fields(testgit.Git(t, dir, format, "for-each-ref", "--format=%(objectname)", "refs/heads"))
			for _, rev := range revs {
				for _, file := range strings.Fields(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev)) {
					for _, flags := range flagSets {
						args := append(append([]string{"blame", "--incremental"}, flags...), rev, "--", file)
						c := testgit.Case{Dir: dir, Format: format, Args: args}
						res, ok := goldenOrLive(t, c, seed == 1 || seed == 140)
						if !ok {
							continue
						}
						if res.ExitCode != 0 {
							t.Fatalf("git %v: %s", args, res)
						}
						want := incrementalOrder(res.Stdout)
						got, stats := libraryIncrementalOrder(t, db, format, rev, file, flags)
						if d := diffOrder(want, got); d != "" {
							t.Errorf("seed %d: git blame --incremental %s %s -- %s: %s", seed, strings.Join(flags, " "), rev, file, d)
						}
						// The blobs read, as --show-stats counts them
						// (git 2.39.x only: not kept in the goldens).
						sc := testgit.Case{Dir: dir, Format: format, Args: append(append([]string{"blame", "-s", "--show-stats"}, flags...), rev, "--", file)}
						if res, ok := goldenOrLive(t, sc, false); ok {
							if n := readBlobs(res.Stdout); n != stats.ReadBlobs {
								t.Errorf("seed %d: git blame --show-stats %s %s -- %s: num read blob %d, goblame %d", seed, strings.Join(flags, " "), rev, file, n, stats.ReadBlobs)
							}
						}
					}
				}
			}
		})
	}
}

// readBlobs is the "num read blob" that git blame --show-stats printed.
func readBlobs(out []byte) int {
	_, after, ok := bytes.Cut(out, []byte("\nnum read blob: "))
	if !ok {
		return -1
	}
	n, _ := strconv.Atoi(string(after[:bytes.IndexByte(after, '\n')]))
	return n
}

// libraryIncrementalOrder blames file at rev with -M/-C flags and
// returns its entries in the order OnGuilty saw them, as
// incrementalOrder reads git's, and its counts.
func libraryIncrementalOrder(t *testing.T, db *odb.DB, format oid.Format, rev, file string, flags []string) ([]string, blamecore.Stats) {
	t.Helper()
	opts := optionsFor(t, format, flags)
	var order []string
	opts.OnGuilty = func(e blamecore.Entry) {
		order = append(order, fmt.Sprintf("%s %d %d %d %s", e.Commit.ID, e.SLno+1, e.Lno+1, e.NumLines, e.Path))
	}
	id, err := oid.ParseHex(format, rev)
	if err != nil {
		t.Fatal(err)
	}
	hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{
		NewReader: func() blamecore.ObjectReader { return db.NewReader() },
	})
	res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: file, Final: id, FinalName: rev}, opts)
	if err != nil {
		t.Fatalf("blame %v %s %s: %v", flags, rev, file, err)
	}
	return order, res.Stats
}

// diffOrder describes the first difference between two entry orders.
func diffOrder(want, got []string) string {
	for i := 0; i < max(len(want), len(got)); i++ {
		w, g := "(none)", "(none)"
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("entry %d of %d: git %q, goblame %q", i+1, len(want), w, g)
		}
	}
	return ""
}
