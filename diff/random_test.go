package diff

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
)

// longRun reports whether the exhaustive differential run was asked for:
//
//	GOBLAME_DIFF_LONG=1 go test ./diff -run 'TestDifferential' -timeout 2h
func longRun() bool { return os.Getenv("GOBLAME_DIFF_LONG") != "" }

// testSeed is GOBLAME_DIFF_SEED if set, else derived from the clock.
func testSeed(t *testing.T) uint64 {
	if s := os.Getenv("GOBLAME_DIFF_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("GOBLAME_DIFF_SEED: %v", err)
		}
		return v
	}
	return uint64(time.Now().UnixNano())
}

// kindCounts says how many pairs of each kind to generate.
func kindCounts(long bool) []struct {
	kind string
	n    int
} {
	if long {
		return []struct {
			kind string
			n    int
		}{
			{"small", 5200}, {"move", 1500}, {"dup", 3000}, {"code", 3500},
			{"ws", 2000}, {"crlf", 1500}, {"bytes", 1000}, {"tail", 1500},
			{"medium", 600}, {"costly", 300}, {"frequent", 800}, {"blanks", 800},
			{"huge", 24},
		}
	}
	return []struct {
		kind string
		n    int
	}{
		{"small", 700}, {"move", 200}, {"dup", 500}, {"code", 600},
		{"ws", 300}, {"crlf", 200}, {"bytes", 200}, {"tail", 200},
		{"medium", 20}, {"costly", 6}, {"frequent", 120}, {"blanks", 150},
	}
}

func genPairs(seed uint64, long bool) []testPair {
	g := newPairGen(seed)
	var pairs []testPair
	for _, kc := range kindCounts(long) {
		for i := 0; i < kc.n; i++ {
			a, b := g.pair(kc.kind)
			pairs = append(pairs, testPair{name: fmt.Sprintf("seed%d-%s-%d", seed, kc.kind, i), a: a, b: b})
		}
	}
	return pairs
}

// TestDifferentialMyers compares BlameDiff (and the prepared-file API)
// with git diff --no-index -U0 --diff-algorithm=myers on random pairs of
// every kind, under the default options, --no-indent-heuristic,
// --minimal and -w.
func TestDifferentialMyers(t *testing.T) { testAlgorithm(t, Myers, 1) }

// testAlgorithm compares alg with git diff --diff-algorithm=alg on the
// random pairs of every kind (one in share of them), under the default
// options, --no-indent-heuristic, --minimal and -w: first the pairs of
// goldenSeed, a share of which keep git 2.39.5's hunks in the goldens,
// then, with git 2.39.x installed, a new seed's (GOBLAME_DIFF_SEED's
// alone when set).
func testAlgorithm(t *testing.T, alg Algorithm, share int) {
	testgit.Golden(t) // skips without git
	d := NewDiffer()
	if os.Getenv("GOBLAME_DIFF_SEED") == "" {
		// One pair in goldenShare of the golden seed's: the rest would
		// be megabytes of changed lines.
		pairs := everyNth(genPairs(goldenSeed, false), share*goldenShare)
		total := 0
		for _, fs := range gitFlagSets(alg) {
			total += compareWithGit(t, d, pairs, fs, true)
		}
		t.Logf("seed %d: %d pairs, %d comparisons with git's goldens", goldenSeed, len(pairs), total)
	}
	seed := testSeed(t)
	t.Logf("seed %d (rerun with GOBLAME_DIFF_SEED=%d)", seed, seed)
	pairs := genPairs(seed, longRun())
	if !longRun() {
		pairs = everyNth(pairs, share)
	}
	total := 0
	for _, fs := range gitFlagSets(alg) {
		total += compareWithGit(t, d, pairs, fs, false)
	}
	t.Logf("%d pairs, %d comparisons with git", len(pairs), total)
}

// goldenSeed and goldenShare choose the random pairs whose git hunks the
// goldens keep.
const goldenSeed, goldenShare = 1, 16

// testOtherAlgorithm compares histogram or patience with git diff
// --histogram / --patience on a share of the random pairs.
func testOtherAlgorithm(t *testing.T, alg Algorithm) { testAlgorithm(t, alg, 3) }

func everyNth(p []testPair, n int) []testPair {
	var out []testPair
	for i := 0; i < len(p); i += n {
		out = append(out, p[i])
	}
	return out
}

// TestDifferentialHistogram compares Histogram with git diff --histogram.
func TestDifferentialHistogram(t *testing.T) { testOtherAlgorithm(t, Histogram) }

// TestDifferentialPatience compares Patience with git diff --patience.
func TestDifferentialPatience(t *testing.T) { testOtherAlgorithm(t, Patience) }
