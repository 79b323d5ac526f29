package blamecore

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// referenceFingerprint counts line's pairs (git's rule, appendPairs; the
// blame suites compare its answers with git's) in a map, as git's
// get_fingerprint counts them in its hashmap, sorted by pair.
func referenceFingerprint(line []byte) fingerprint {
	counts := map[uint16]int32{}
	for _, h := range appendPairs(nil, line) {
		counts[h]++
	}
	var fp fingerprint
	for p := range counts {
		fp.pairs = append(fp.pairs, p)
	}
	slices.Sort(fp.pairs)
	for _, p := range fp.pairs {
		fp.counts = append(fp.counts, counts[p])
	}
	return fp
}

// TestLineFingerprints: the fingerprints of a file's lines, made in two
// shared arrays, sorted and counted in a slice, equal a hashmap's count
// of the same pairs, line by line, as git counts them (random lines of
// letters of both cases, digits, whitespace and high bytes, with and
// without a last newline), and subtracting from one line's leaves its
// neighbours' as they were.
func TestLineFingerprints(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("aAbBzZ09 \t\r_-(){}\xc3\xa9\x80\xff")
	for round := 0; round < 200; round++ {
		var data []byte
		var lines [][]byte
		for n := rng.IntN(30); n >= 0; n-- {
			line := make([]byte, rng.IntN(120))
			for i := range line {
				line[i] = alphabet[rng.IntN(len(alphabet))]
			}
			if n > 0 || rng.IntN(2) == 0 {
				line = append(line, '\n')
			} else if len(line) == 0 {
				break // no last line at all
			}
			lines = append(lines, line)
			data = append(data, line...)
		}
		if len(data) == 0 {
			continue
		}
		fps := lineFingerprints(data)
		if len(fps) != len(lines) {
			t.Fatalf("round %d: %d fingerprints for %d lines", round, len(fps), len(lines))
		}
		for i, line := range lines {
			want := referenceFingerprint(line)
			if !slices.Equal(fps[i].pairs, want.pairs) || !slices.Equal(fps[i].counts, want.counts) {
				t.Fatalf("round %d line %d %q: %v %v, git counts %v %v", round, i, line, fps[i].pairs, fps[i].counts, want.pairs, want.counts)
			}
		}
		if len(fps) > 2 {
			k := 1 + rng.IntN(len(fps)-2)
			before := referenceFingerprint(lines[k-1])
			after := referenceFingerprint(lines[k+1])
			other := referenceFingerprint(lines[rng.IntN(len(lines))])
			fps[k].subtract(&other)
			if !slices.Equal(fps[k-1].pairs, before.pairs) || !slices.Equal(fps[k-1].counts, before.counts) ||
				!slices.Equal(fps[k+1].pairs, after.pairs) || !slices.Equal(fps[k+1].counts, after.counts) {
				t.Fatalf("round %d: subtracting from line %d changed a neighbour", round, k)
			}
		}
	}
}

// TestLineFingerprintsAllocate: a file's fingerprints are made in a few
// growing arrays, not a map and two slices a line (vim's src/version.c
// with most of its history ignored spent three quarters of its blame
// in them: 7.3 s, now 2.6, git 5.2). 1,000 lines: at most 100
// allocations (there were 3,000 and more).
func TestLineFingerprintsAllocate(t *testing.T) {
	var data []byte
	for i := 0; i < 1000; i++ {
		data = append(data, fmt.Sprintf("\t/* %d */ static int patch_%d = %d; // Patch Level\n", i, i, i*7)...)
	}
	if n := testing.AllocsPerRun(5, func() { lineFingerprints(data) }); n > 100 {
		t.Errorf("fingerprints of 1,000 lines: %v allocations, budget 100", n)
	}
}
