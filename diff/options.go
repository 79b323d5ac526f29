package diff

import (
	"errors"
	"fmt"
)

// Algorithm selects how the longest common subsequence is searched for.
// The zero value is Myers, xdiff's default and the only algorithm git 2.39.5's
// blame ever uses. Values other than the three below act as Myers.
type Algorithm uint8

const (
	// Myers is xdiff's classic divide-and-conquer O(ND) search with its
	// discard step and cost heuristics (git diff --diff-algorithm=myers).
	Myers Algorithm = iota
	// Histogram is xdiff's histogram diff (git diff --histogram).
	Histogram
	// Patience is xdiff's patience diff (git diff --patience).
	Patience
)

// String returns the name git uses on its command line.
func (a Algorithm) String() string {
	switch a {
	case Myers:
		return "myers"
	case Histogram:
		return "histogram"
	case Patience:
		return "patience"
	}
	return fmt.Sprintf("Algorithm(%d)", uint8(a))
}

// ParseAlgorithm maps git's --diff-algorithm names to an Algorithm. Like
// git, it accepts "default" and "minimal" as Myers (the caller sets
// Options.Minimal for "minimal") and compares case-insensitively.
func ParseAlgorithm(name string) (Algorithm, error) {
	switch lower(name) {
	case "myers", "default", "minimal":
		return Myers, nil
	case "histogram":
		return Histogram, nil
	case "patience":
		return Patience, nil
	}
	return 0, fmt.Errorf("%w: %q", ErrUnknownAlgorithm, name)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Options are the xdiff flags that reach a blame diff.
type Options struct {
	// IgnoreWhitespace is -w (XDF_IGNORE_WHITESPACE): two lines are equal
	// when they are equal after deleting every ' ', '\t', '\n' and '\r'
	// (git's whitespace; '\v' and '\f' are not whitespace to git).
	IgnoreWhitespace bool
	// Minimal is --minimal (XDF_NEED_MINIMAL): the Myers search never
	// gives up early. The discard step still runs, so the result is not
	// always a minimal edit script; it is git's.
	Minimal bool
	// IndentHeuristic slides ambiguous groups of added or removed lines
	// to the position git's indent heuristic prefers. Git turns it on by
	// default (diff.indentHeuristic); callers set it.
	IndentHeuristic bool
	// Algorithm selects Myers (the zero value), Histogram or Patience.
	Algorithm Algorithm
}

// Hunk is one change, exactly the arguments xdiff passes to a hunk
// callback when the context length is 0: lines [OldStart, OldStart+OldCount)
// of the old file (A) are replaced by lines [NewStart, NewStart+NewCount) of
// the new file (B). Line numbers are 0-based. A pure insertion has
// OldCount 0 and OldStart equal to the number of A lines before it; a pure
// deletion likewise has NewCount 0.
type Hunk struct {
	OldStart, OldCount, NewStart, NewCount int
}

// String formats the hunk the way git diff -U0 prints its header, so that
// a hunk can be compared with git's output by eye: "@@ -s,c +s,c @@" with
// git's 1-based (or, for an empty side, 0-based) starts and ",1" omitted.
func (h Hunk) String() string {
	return "@@ -" + hunkRange(h.OldStart, h.OldCount) + " +" + hunkRange(h.NewStart, h.NewCount) + " @@"
}

func hunkRange(start, count int) string {
	s := start
	if count > 0 {
		s++
	}
	if count == 1 {
		return fmt.Sprint(s)
	}
	return fmt.Sprintf("%d,%d", s, count)
}

// MaxFileSize is the largest input git's xdiff interface accepts
// (MAX_XDIFF_SIZE, 1023 MiB). Larger inputs make git blame and git diff
// fail; here they give ErrTooLarge.
const MaxFileSize = 1023 << 20

var (
	// ErrTooLarge reports an input larger than MaxFileSize.
	ErrTooLarge = errors.New("diff: file too large (git refuses to diff files over 1023 MiB)")
	// ErrHistogramOverflow reports that xdiff's histogram index would hold
	// more than 64 distinct lines in one hash chain. Git gives up on such a
	// diff ("unable to generate diff"), so there is no git result to
	// reproduce.
	ErrHistogramOverflow = errors.New("diff: histogram hash chain longer than 64 (git cannot diff this pair with --histogram)")
	// ErrForeignFile reports a File prepared by another Differ, with
	// another IgnoreWhitespace setting, or before the Differ's Reset.
	ErrForeignFile = errors.New("diff: file was not prepared by this Differ with these whitespace options")
	// ErrUnknownAlgorithm reports an algorithm name git does not know.
	ErrUnknownAlgorithm = errors.New("diff: unknown diff algorithm")
)
