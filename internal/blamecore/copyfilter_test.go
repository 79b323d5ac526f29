package blamecore_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// copyScoreScript copies runs of lines into target.c around the copy
// score's boundary, for the -C prefilter (copyfilter.go): a candidate is
// diffed only if it has a run of lines of the round's entries that scores
// above the copy score, so every way a candidate comes close matters.
// Each line's ASCII alphanumerics are counted; the default copy score is
// 40, and a run counts when 1 + its alphanumerics exceeds it.
const copyScoreScript = `git init -q r && cd r
L () { printf '(%s);\n' "$(printf "%${2}s" | tr ' ' "$1")"; }
{
	L b 20; L c 20     # 40: a copy (score 41)
	L d 19; L e 20     # 39: not one (score 40)
	L f 20; L g 20     # copied with a line between them: two runs of 20
	L h 30
	echo "}"; echo
	printf '(%s);' "$(printf '%20s' | tr ' ' z)"   # no newline at the end
} >src.c
{ L i 20; L j 20; echo "}"; } >ws.c
{ L k 20; L m 21; } >tie1.c
cp tie1.c tie2.c
{ echo "}"; echo; L n 20; echo "}"; } >noise.c
{ L p 20; L q 20; L r 20; } >untouched.c
for i in $(seq 1 300); do echo "static const char *never_copied_$i = \"a line no commit copies, $i\";"; done >big.c
printf '%s\n' "int main(void)" "{" "}" >target.c
commit_all initial
{
	echo "int main(void)"
	echo "{"
	sed -n 1,2p src.c
	echo "(here1);"
	sed -n 3,4p src.c
	echo "(here2);"
	sed -n 5p src.c; echo "(gap);"; sed -n 6p src.c
	echo "(here3);"
	sed -n 1,2p ws.c | sed 's/(/  ( /; s/;/ ;/'   # ws.c's, respaced (-w)
	cat tie1.c                                    # in tie1.c and tie2.c: a tie
	echo "}"
	echo
	sed -n 7p src.c                               # 30 alone (a copy under -C20)
	L z 20                                        # src.c's last line, there without a newline
	L n 20                                        # noise.c's, 20 (a copy under -C20)
	echo "}"
} >target.c.new
mv target.c.new target.c
for f in src.c ws.c tie1.c tie2.c noise.c; do echo "// changed" >>$f; done
commit_all "copies from changed files"
sed -n 1,2p untouched.c >created.c
commit_all "created from an untouched file"
sed -n 2,3p untouched.c >>target.c
commit_all "copied from an untouched file"
`

// TestCopyScoreBoundaryMatchesGit compares -C, -C -C, -C -C -C, -w -C and
// -C<num> with git on copyScoreScript's files at every commit: the
// prefilter must skip only candidates that could not change a line.
func TestCopyScoreBoundaryMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		dir, db := openScriptFixture(t, "blame-copyscore", format, copyScoreScript)
		for _, rev := range strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all")) {
			for _, file := range strings.Fields(testgit.Git(t, dir, format, "ls-tree", "--name-only", rev, "target.c", "created.c")) {
				for _, flags := range [][]string{{"-C"}, {"-C", "-C"}, {"-C", "-C", "-C"}, {"-w", "-C"}, {"-C20"}, {"-C21"}, {"-C", "-C30"}, {"-C1"}} {
					compareWithGit(t, db, nil, dir, format, rev, file, flags, "copyscore/"+format.String(), format == oid.SHA1)
				}
			}
		}
	}
}

// TestCopyPrefilterCounts is the work budget of the prefilter on
// copyScoreScript's target.c at the commit that copies into it. -C takes
// three rounds over the commit's 5 changed files: the first diffs src.c
// (b, c: score 41), tie1.c and tie2.c (k, m: 42; the later wins), not
// ws.c (its lines differ in whitespace) or noise.c (its n scores 21); the
// second and third diff src.c alone (the entries left hold f and g, which
// are adjacent there). -w diffs ws.c too and takes a round more; -C20
// diffs noise.c; -C1 every candidate sharing a line.
func TestCopyPrefilterCounts(t *testing.T) {
	format := oid.SHA1
	dir, db := openCopyScoreFixture(t, format)
	id, err := oid.ParseHex(format, strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD~2")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name               string
		ignoreWS           bool
		score              int
		candidates, diffed int
	}{
		{"-C", false, 0, 15, 5},
		{"-w -C", true, 0, 20, 8},
		{"-C20", false, 20, 25, 9},
		{"-C1", false, 1, 30, 9},
	} {
		opts := blamecore.DefaultOptions()
		opts.Move, opts.CopyLevel, opts.CopyScore = true, 1, c.score
		opts.Diff.IgnoreWhitespace = c.ignoreWS
		hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{})
		res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: "target.c", Final: id, FinalName: "HEAD~2"}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if s := res.Stats; s.CopyCandidates != c.candidates || s.CopyDiffed != c.diffed {
			t.Errorf("%s: %d candidates looked in, %d diffed; want %d, %d", c.name, s.CopyCandidates, s.CopyDiffed, c.candidates, c.diffed)
		}
	}
}

// TestCopyCandidatesHeldAsSummaries: under -C -C -C every file of every
// parent is a candidate again and again; each blob is read once, and a
// blob the prefilter rejects is kept only as its line summary, so the
// remembered candidates hold less than the candidate blobs themselves
// (big.c's 300 lines are never copied).
func TestCopyCandidatesHeldAsSummaries(t *testing.T) {
	format := oid.SHA1
	dir, db := openCopyScoreFixture(t, format)
	// The distinct blobs other than target.c's in any commit, and their
	// bytes: what remembering every candidate's blob would hold.
	blobs := map[string]int{}
	for _, rev := range strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all")) {
		for _, line := range strings.Split(strings.TrimSpace(testgit.Git(t, dir, format, "ls-tree", "-r", "-l", rev)), "\n") {
			f := strings.Fields(line)
			if len(f) == 5 && f[4] != "target.c" {
				n, err := strconv.Atoi(f[3])
				if err != nil {
					t.Fatal(err)
				}
				blobs[f[2]] = n
			}
		}
	}
	all := 0
	for _, n := range blobs {
		all += n
	}
	s := blameCopiesHarder(t, dir, db, format).Stats
	if s.CopyBlobsRead > len(blobs)+s.CopyDiffed || s.CopyCandidates < 2*s.CopyBlobsRead {
		t.Errorf("%d candidate blobs read for %d candidates looked in (%d distinct blobs, %d diffed): candidates are read again", s.CopyBlobsRead, s.CopyCandidates, len(blobs), s.CopyDiffed)
	}
	if s.CopyHeldPeak >= all {
		t.Errorf("the remembered candidates held %d bytes, the candidate blobs are %d: rejected blobs are kept whole", s.CopyHeldPeak, all)
	}
	t.Logf("%d candidates, %d read, %d diffed; held at most %d bytes of %d", s.CopyCandidates, s.CopyBlobsRead, s.CopyDiffed, s.CopyHeldPeak, all)
}

// TestCopyBudgetHoldsARound: the -C candidates' budget follows what one
// search's candidates hold (twice the largest so far), so that with no
// floor a -C -C -C blame still reads each candidate blob once, where a
// budget smaller than a search reads them again at every commit; the
// blame is the same either way.
func TestCopyBudgetHoldsARound(t *testing.T) {
	format := oid.SHA1
	dir, db := openCopyScoreFixture(t, format)
	blobs := map[string]bool{}
	for _, rev := range strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all")) {
		for _, line := range strings.Split(strings.TrimSpace(testgit.Git(t, dir, format, "ls-tree", "-r", rev)), "\n") {
			if f := strings.Fields(line); len(f) == 4 && f[3] != "target.c" {
				blobs[f[2]] = true
			}
		}
	}
	run := func(least, most int) *blamecore.Result {
		defer blamecore.SetCandidateBudgetBounds(least, most)()
		return blameCopiesHarder(t, dir, db, format)
	}
	adaptive := run(1, 1<<30)
	if s := adaptive.Stats; s.CopyBlobsRead > len(blobs)+s.CopyDiffed {
		t.Errorf("budget from the searches alone: %d candidate blobs read (%d distinct, %d diffed): candidates are read again", s.CopyBlobsRead, len(blobs), s.CopyDiffed)
	}
	tiny := run(1, 1)
	if tiny.Stats.CopyBlobsRead <= adaptive.Stats.CopyBlobsRead {
		t.Errorf("a 1-byte budget read %d candidate blobs, the searches' budget %d: the fixture does not tell them apart", tiny.Stats.CopyBlobsRead, adaptive.Stats.CopyBlobsRead)
	}
	if !reflect.DeepEqual(adaptive.Entries, tiny.Entries) {
		t.Errorf("the blame differs with the budget:\n%v\n%v", adaptive.Entries, tiny.Entries)
	}
	t.Logf("candidate blobs read: %d with the searches' budget, %d with 1 byte (%d distinct)", adaptive.Stats.CopyBlobsRead, tiny.Stats.CopyBlobsRead, len(blobs))
}

// blameCopiesHarder blames target.c at HEAD of the copy-score fixture
// with -M -C -C -C.
func blameCopiesHarder(t *testing.T, dir string, db *odb.DB, format oid.Format) *blamecore.Result {
	t.Helper()
	id, err := oid.ParseHex(format, strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	opts := blamecore.DefaultOptions()
	opts.Move, opts.CopyLevel = true, 3
	hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{})
	res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: "target.c", Final: id, FinalName: "HEAD"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// openCopyScoreFixture builds copyScoreScript's repository and opens its
// objects (closed when the test ends).
func openCopyScoreFixture(t *testing.T, format oid.Format) (string, *odb.DB) {
	t.Helper()
	testgit.RequireGitFor(t, "the counts are of a fixture git builds")
	return openScriptFixture(t, "blame-copyscore", format, copyScoreScript)
}

// openScriptFixture builds the fixture name from script (its repository
// in r) and opens its objects (closed when the test ends).
func openScriptFixture(t *testing.T, name string, format oid.Format, script string) (string, *odb.DB) {
	t.Helper()
	dir := filepath.Join(testgit.Fixture(t, name, format, script), "r")
	db, err := odb.Open(filepath.Join(dir, ".git", "objects"), format, odb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return dir, db
}

// TestEntryDiffsRuledOutChangeNothing blames every file of the seeded
// random histories at every branch tip and a sample of older commits
// under -M and -C, at the default scores and at scores around the lines'
// (their "line N www" lines have 5-9 alphanumerics, braces none), with
// and without -w, once with the entry prefilter (entryMayHoldRun) and
// once diffing every entry: the attribution must be the same, every
// diff left out must be one the second run made, and the prefilter must
// have left some out. Unlike the comparisons with git, it needs no git
// of the same version, and it covers commits with equal dates, where git
// itself is not deterministic under -M and -C.
func TestEntryDiffsRuledOutChangeNothing(t *testing.T) {
	flagSets := [][]string{
		{"-M"}, {"-M5"}, {"-M12"}, {"-M40"}, {"-w", "-M"},
		{"-C"}, {"-C10"}, {"-C", "-C"}, {"-C", "-C", "-C"}, {"-w", "-C", "-C"}, {"-C", "-C", "-C", "-M9"},
	}
	var ruledOut, made int
	for seed := int64(1); seed <= int64(randomSeeds()); seed++ {
		dir, format, db, _ := randomRepository(t, seed)
		revs := strings.Fields(testgit.Git(t, dir, format, "for-each-ref", "--format=%(objectname)", "refs/heads"))
		all := strings.Fields(testgit.Git(t, dir, format, "rev-list", "--all"))
		for i := 0; i < len(all); i += 5 {
			revs = append(revs, all[i])
		}
		for _, rev := range revs {
			id, err := oid.ParseHex(format, rev)
			if err != nil {
				t.Fatal(err)
			}
			for _, file := range strings.Fields(testgit.Git(t, dir, format, "ls-tree", "-r", "--name-only", rev)) {
				for _, flags := range flagSets {
					blame := func(ruleOut bool) *blamecore.Result {
						defer blamecore.SetRuleOutEntryDiffs(ruleOut)()
						hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{})
						res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: file, Final: id, FinalName: rev}, optionsFor(t, format, flags))
						if err != nil {
							t.Fatalf("seed %d: blame %v %s %s: %v", seed, flags, rev, file, err)
						}
						return res
					}
					with, without := blame(true), blame(false)
					if d := diffAttrs(skeleton(with), skeleton(without)); d != "" {
						t.Errorf("seed %d: blame %s %s -- %s with the entry prefilter: %s", seed, strings.Join(flags, " "), rev, file, d)
					}
					w, wo := with.Stats, without.Stats
					if wo.EntryDiffsRuledOut != 0 || w.EntryDiffs+w.EntryDiffsRuledOut != wo.EntryDiffs {
						t.Errorf("seed %d: blame %s %s -- %s: %d entry diffs and %d ruled out, %d without the prefilter (%d ruled out)", seed, strings.Join(flags, " "), rev, file, w.EntryDiffs, w.EntryDiffsRuledOut, wo.EntryDiffs, wo.EntryDiffsRuledOut)
					}
					ruledOut += w.EntryDiffsRuledOut
					made += w.EntryDiffs
				}
			}
		}
	}
	if ruledOut == 0 || made == 0 {
		t.Errorf("%d entry diffs made, %d ruled out: the histories do not exercise the prefilter", made, ruledOut)
	}
	t.Logf("%d entry diffs made, %d ruled out", made, ruledOut)
}

// moveScoreScript moves runs of lines within target.c around the move
// score's boundary, for the entry prefilter (entryMayHoldRun): an entry
// is diffed against the parent's blob only if it has a run of the
// blob's lines that scores above the move score (default 20: 1 + its
// ASCII alphanumerics). The runs: 20 alphanumerics (a move), 19 (not
// one), two of 10 around a line new in the commit (two runs, neither a
// move), 10 + 10 with braces and a blank line between them (which the
// parent has: one run), a line respaced (equal under -w only), and the
// parent's last line, without a newline there and with one here.
const moveScoreScript = `git init -q r && cd r
L () { printf '(%s);\n' "$(printf "%${2}s" | tr ' ' "$1")"; }
{
	echo "int main(void)"
	echo "{"
	L a 20
	L b 19
	L c 10; L d 10
	L e 10; echo "}"; echo; L f 10
	echo "  ( $(printf '%21s' | tr ' ' g) ) ;"
	echo "}"
	for i in $(seq 1 30); do echo "static int filler_$i;"; done
	printf '(%s);' "$(printf '%20s' | tr ' ' h)"
} >target.c
commit_all initial
{
	echo "int main(void)"
	echo "{"
	for i in $(seq 1 30); do echo "static int filler_$i;"; done
	echo "}"
	L a 20
	echo "(new1);"
	L b 19
	echo "(new2);"
	L c 10; echo "(new3);"; L d 10
	echo "(new4);"
	L e 10; echo "}"; echo; L f 10
	echo "(new5);"
	echo "(  $(printf '%21s' | tr ' ' g)  );"
	echo "(new6);"
	L h 20
} >target.c.new
mv target.c.new target.c
commit_all "moves around the move score"
`

// TestMoveScoreBoundaryMatchesGit compares -M, -M<num> around the runs'
// scores, -w -M and -C with git on moveScoreScript's target.c, where the
// entry prefilter rules out some entries' diffs and must keep every
// entry whose lines could move.
func TestMoveScoreBoundaryMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		dir, db := openScriptFixture(t, "blame-movescore", format, moveScoreScript)
		head := strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD"))
		for _, flags := range [][]string{{"-M"}, {"-M19"}, {"-M20"}, {"-M21"}, {"-M11"}, {"-M22"}, {"-w", "-M"}, {"-w", "-M22"}, {"-C"}, {"-M1"}} {
			compareWithGit(t, db, nil, dir, format, head, "target.c", flags, "movescore/"+format.String(), format == oid.SHA1)
		}
	}
}

// TestMovePrefilterCounts is the work budget of the entry prefilter on
// moveScoreScript's second commit, where -M looks for the commit's one
// entry (lines 33-49) in the parent's blob in three rounds. The first
// diffs it and moves e, "}", the blank line and f; the second diffs the
// part before them, which holds a (moved), and rules out the part after
// them (new5, g respaced, new6, h with a newline: no line of it is the
// parent's); the third rules out the part between a and e (b scores 20,
// c and d 11 each, new lines between them), and "}" alone is too small
// to look for. git makes the four diffs. -w diffs the part after too (g
// and h are the parent's there); -M1 looks for c, d and the pieces left
// between the moved lines as well.
func TestMovePrefilterCounts(t *testing.T) {
	format := oid.SHA1
	testgit.RequireGitFor(t, "the counts are of a fixture git builds")
	dir, db := openScriptFixture(t, "blame-movescore", format, moveScoreScript)
	id, err := oid.ParseHex(format, strings.TrimSpace(testgit.Git(t, dir, format, "rev-parse", "HEAD")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		flags           []string
		diffs, ruledOut int
	}{
		{[]string{"-M"}, 2, 2},
		{[]string{"-w", "-M"}, 3, 1},
		{[]string{"-M1"}, 5, 5},
	} {
		hist := blamecore.NewHistory(db.NewReader(), format, blamecore.HistoryOptions{})
		res, err := blamecore.Run(context.Background(), hist, format, blamecore.Request{Path: "target.c", Final: id, FinalName: "HEAD"}, optionsFor(t, format, c.flags))
		if err != nil {
			t.Fatal(err)
		}
		if s := res.Stats; s.EntryDiffs != c.diffs || s.EntryDiffsRuledOut != c.ruledOut {
			t.Errorf("%v: %d entry diffs, %d ruled out; want %d, %d", c.flags, s.EntryDiffs, s.EntryDiffsRuledOut, c.diffs, c.ruledOut)
		}
	}
}
