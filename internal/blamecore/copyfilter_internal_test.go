package blamecore

import (
	"bytes"
	"testing"
)

// TestSummaryCountsAsEntryScore checks the prefilter's per-line count of
// ASCII alphanumerics (a table) against entryScore's definition, on lines
// holding every byte value, with and without -w.
func TestSummaryCountsAsEntryScore(t *testing.T) {
	var text []byte
	for c := 0; c < 256; c++ {
		if c == '\n' {
			continue
		}
		text = append(text, bytes.Repeat([]byte{byte(c)}, c%5+1)...)
		if c%7 == 0 {
			text = append(text, '\n')
		}
	}
	for _, ignoreWS := range []bool{false, true} {
		var keys lineKeys
		keys.init(ignoreWS)
		var s lineSummary
		keys.summarize(&s, text)
		lines := bytes.Split(text, []byte{'\n'})
		if len(s.alnum) != len(lines) {
			t.Fatalf("%d lines summarized, want %d", len(s.alnum), len(lines))
		}
		for i, line := range lines {
			want := 0
			for _, c := range line {
				if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
					want++
				}
			}
			if int(s.alnum[i]) != want {
				t.Errorf("line %d %q: %d alphanumerics, want %d", i, line, s.alnum[i], want)
			}
		}
	}
}

// TestSummaryLongLineMayHoldCopy checks that a line of more ASCII
// alphanumerics than a summary counts is taken as able to score above
// any copy score (git's -C<num> takes any unsigned long), and that the
// summary still rules out a blob whose long line is in no entry.
func TestSummaryLongLineMayHoldCopy(t *testing.T) {
	long := bytes.Repeat([]byte{'a'}, manyAlnum+10)
	blob := append(append([]byte("x\n"), long...), "\ny\n"...)
	var keys lineKeys
	keys.init(false)
	var s lineSummary
	keys.summarize(&s, blob)
	if got := s.alnum[1]; got != manyAlnum {
		t.Fatalf("the long line counts %d alphanumerics, want the saturated %d", got, manyAlnum)
	}
	keys.add([]byte("other line"))
	if keys.mayHoldCopy(&s, 1<<20) {
		t.Errorf("a blob none of whose lines is in the entries may hold a copy")
	}
	keys.add(long)
	if !keys.mayHoldCopy(&s, 1<<20) {
		t.Errorf("a blob whose %d-alphanumeric line is in the entries is ruled out at copy score %d", len(long), 1<<20)
	}
}
