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
