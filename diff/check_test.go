package diff

import (
	"bytes"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// splitLines splits like xdiff: after every '\n', plus a final fragment.
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, data)
			break
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}

func normaliseWS(line []byte) []byte {
	var out []byte
	for _, c := range line {
		if !isGitSpace(c) {
			out = append(out, c)
		}
	}
	return out
}

// checkScript verifies, independently of the diff code, that hunks are a
// valid edit script from a to b: in increasing order, separated by at
// least one unchanged line, within bounds, and every unchanged line of a
// equal (under -w: after deleting whitespace) to its partner in b. It
// returns the script's cost, the number of changed lines on both sides.
func checkScript(a, b []byte, hunks []Hunk, ignoreWS bool) (int, error) {
	la, lb := splitLines(a), splitLines(b)
	eq := func(x, y []byte) bool {
		if ignoreWS {
			return bytes.Equal(normaliseWS(x), normaliseWS(y))
		}
		return bytes.Equal(x, y)
	}
	i, j, cost := 0, 0, 0
	for k, h := range hunks {
		if h.OldCount < 0 || h.NewCount < 0 || (h.OldCount == 0 && h.NewCount == 0) {
			return 0, fmt.Errorf("hunk %d %v: bad counts", k, h)
		}
		if h.OldStart < i || h.NewStart < j || (k > 0 && (h.OldStart == i || h.NewStart == j)) {
			return 0, fmt.Errorf("hunk %d %v: out of order or not separated", k, h)
		}
		if h.OldStart-i != h.NewStart-j {
			return 0, fmt.Errorf("hunk %d %v: unchanged runs differ in length", k, h)
		}
		for ; i < h.OldStart; i, j = i+1, j+1 {
			if i >= len(la) || j >= len(lb) || !eq(la[i], lb[j]) {
				return 0, fmt.Errorf("hunk %d %v: unchanged line %d/%d differs", k, h, i, j)
			}
		}
		i += h.OldCount
		j += h.NewCount
		cost += h.OldCount + h.NewCount
		if i > len(la) || j > len(lb) {
			return 0, fmt.Errorf("hunk %d %v: past the end", k, h)
		}
	}
	if len(la)-i != len(lb)-j {
		return 0, fmt.Errorf("trailing unchanged runs differ in length")
	}
	for ; i < len(la); i, j = i+1, j+1 {
		if !eq(la[i], lb[j]) {
			return 0, fmt.Errorf("trailing unchanged line %d/%d differs", i, j)
		}
	}
	return cost, nil
}

// minimalCost is the size of a shortest line edit script, computed by
// sergi/go-diff's Myers implementation (without a deadline, so without
// its half-match shortcut, it is exact).
func minimalCost(a, b []byte, ignoreWS bool) int {
	norm := func(data []byte) string {
		var sb bytes.Buffer
		for _, l := range splitLines(data) {
			if ignoreWS {
				sb.Write(normaliseWS(l))
				sb.WriteByte('\n')
			} else {
				sb.Write(l)
				if l[len(l)-1] != '\n' {
					sb.WriteString("\x00noeol\n")
				}
			}
		}
		return sb.String()
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	c1, c2, _ := dmp.DiffLinesToChars(norm(a), norm(b))
	cost := 0
	for _, d := range dmp.DiffMain(c1, c2, false) {
		if d.Type != diffmatchpatch.DiffEqual {
			cost += utf8.RuneCountInString(d.Text)
		}
	}
	return cost
}

// hasMultimatch reports whether xdiff's discard step could drop a line
// that has matches (a line occurring at least min(bogosqrt(n), 1024)
// times in the other file): only then may --minimal be non-minimal.
func hasMultimatch(a, b []byte, ignoreWS bool) bool {
	key := func(l []byte) string {
		if ignoreWS {
			return string(normaliseWS(l))
		}
		return string(l)
	}
	la, lb := splitLines(a), splitLines(b)
	ca, cb := map[string]int{}, map[string]int{}
	for _, l := range la {
		ca[key(l)]++
	}
	for _, l := range lb {
		cb[key(l)]++
	}
	for k, n := range cb {
		if ca[k] > 0 && n >= min(bogosqrt(len(la)), maxEqLimit) {
			return true
		}
	}
	for k, n := range ca {
		if cb[k] > 0 && n >= min(bogosqrt(len(lb)), maxEqLimit) {
			return true
		}
	}
	return false
}

// TestScriptsAgainstSergi checks every algorithm and option set on random
// pairs without git: the hunks form a valid edit script, never shorter
// than the minimal one from sergi/go-diff, and exactly minimal for Myers
// with Minimal when no line can be discarded as a multimatch.
func TestScriptsAgainstSergi(t *testing.T) {
	seed := testSeed(t)
	t.Logf("seed %d", seed)
	g := newPairGen(seed)
	d := NewDiffer()
	kinds := []string{"small", "move", "dup", "code", "ws", "crlf", "bytes", "tail"}
	checked, exact := 0, 0
	for i := 0; i < 600; i++ {
		a, b := g.pair(kinds[i%len(kinds)])
		for _, alg := range []Algorithm{Myers, Histogram, Patience} {
			for _, fs := range gitFlagSets(alg) {
				for _, trim := range []bool{false, true} {
					var hunks []Hunk
					if trim {
						hunks = d.BlameDiff(nil, a, b, fs.opts)
					} else {
						hunks = d.Diff(nil, a, b, fs.opts)
					}
					if err := d.Err(); err != nil {
						t.Fatal(err)
					}
					cost, err := checkScript(a, b, hunks, fs.opts.IgnoreWhitespace)
					if err != nil {
						t.Fatalf("pair %d %s [%s] trim=%v: %v\na=%q\nb=%q\n%s", i, alg, fs.name, trim, err, a, b, formatHunks(hunks))
					}
					low := minimalCost(a, b, fs.opts.IgnoreWhitespace)
					if cost < low {
						t.Fatalf("pair %d %s [%s]: cost %d below the minimum %d", i, alg, fs.name, cost, low)
					}
					if alg == Myers && fs.opts.Minimal && !trim && !hasMultimatch(a, b, fs.opts.IgnoreWhitespace) {
						exact++
						if cost != low {
							t.Errorf("pair %d [%s]: --minimal cost %d, minimum %d\na=%q\nb=%q", i, fs.name, cost, low, a, b)
						}
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d scripts checked, %d checked for exact minimality", checked, exact)
	if exact == 0 {
		t.Error("no pair was checked for minimality")
	}
}
