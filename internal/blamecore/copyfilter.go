package blamecore

import (
	"bytes"
	"hash/maphash"

	"github.com/goblame/goblame/diff"
)

// The -C prefilter: which candidate blobs can change the outcome of a
// round, and so must be diffed against every entry looked for.
//
// A round keeps, for each entry, the best split any candidate gives
// (copySplitIfBetter: the highest score, a later candidate winning ties)
// and applies it only when its middle part scores above the copy score.
// A candidate whose every split scores at most that can replace a best
// split only while the best scores at most that too, and is replaced in
// turn by any candidate that scores above it: it never decides what is
// applied, so it need not be diffed.
//
// A split's middle part is a run of lines the diff found common to the
// candidate and the entry: consecutive lines of the candidate, each equal
// to a line of the entry (under -w, equal once whitespace is deleted).
// Every such line is in the round's lineKeys, and the run lies within a
// maximal run of consecutive candidate lines that are all in it. The
// part's score is 1 + its ASCII alphanumerics (entryScore), which equal
// the candidate lines' own (equal lines differ at most in whitespace). So
// a candidate none of whose maximal runs of known lines scores above the
// copy score cannot change the round: mayHoldCopy says so without a diff.
// Hash collisions and the newline (left out of the hash, so a last line
// without one matches too) err only towards diffing.
//
// The same reasoning rules out single diffs, of one entry against one
// blob, exactly (entryMayHoldRun): the lines of the entry that can be in
// a split's middle part are those equal, as the diff compares them, to
// some line of the blob. Under -M the split of an entry that has no run
// of such lines scoring above the move score is never applied; under -C
// it never decides a round, as above. (go-git's repository.go under -M
// diffed 654 entries against their parents' whole blob, most of them a
// few lines of which only braces and blank lines occur there; 506 are
// now ruled out.)

// lineHasher makes the keys of lines (hash) and the summaries of
// candidate blobs (summarize). Its seed is made once for the scoreboard's
// run, so that summaries remembered from earlier rounds and those the
// prefetch goroutine makes with a copy of it match the round's lineKeys.
type lineHasher struct {
	seed     maphash.Seed
	ignoreWS bool
}

// lineKeys is the set of line hashes of the entries looked for in a -C
// round, with a 2^16-bit filter in front of the set (most candidate lines
// are in no entry).
type lineKeys struct {
	lineHasher
	filter [1 << 10]uint64
	set    map[uint32]struct{}
}

// reset empties k for a round under the given -w setting.
func (k *lineKeys) reset(ignoreWS bool) {
	k.init(ignoreWS)
	clear(k.set)
	k.filter = [1 << 10]uint64{}
}

// init readies k for hashing (the seed is the scoreboard's for its whole
// run: remembered summaries stay valid).
func (k *lineKeys) init(ignoreWS bool) {
	if k.set == nil {
		k.seed = maphash.MakeSeed()
		k.set = make(map[uint32]struct{})
	}
	k.ignoreWS = ignoreWS
}

// hash returns the key of a line given without its newline: a hash of
// its bytes, under -w of its bytes other than git's whitespace.
func (k *lineHasher) hash(line []byte) uint64 {
	if !k.ignoreWS {
		return maphash.Bytes(k.seed, line)
	}
	var h maphash.Hash
	h.SetSeed(k.seed)
	for len(line) > 0 {
		i := 0
		for i < len(line) && !isBlameSpace(line[i]) {
			i++
		}
		h.Write(line[:i])
		for i < len(line) && isBlameSpace(line[i]) {
			i++
		}
		line = line[i:]
	}
	return h.Sum64()
}

// isBlameSpace is the whitespace -w deletes (diff.Options.IgnoreWhitespace).
func isBlameSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func (k *lineKeys) add(line []byte) {
	h := uint32(k.hash(line))
	k.filter[h>>6&(1<<10-1)] |= 1 << (h & 63)
	k.set[h] = struct{}{}
}

func (k *lineKeys) has(h uint32) bool {
	if k.filter[h>>6&(1<<10-1)]&(1<<(h&63)) == 0 {
		return false
	}
	_, ok := k.set[h]
	return ok
}

// entryLineKeys fills keys with the lines of ents' final-image text.
func (sb *scoreboard) entryLineKeys(keys *lineKeys, ents []*entry) {
	keys.reset(sb.diffOpts.IgnoreWhitespace)
	for _, e := range ents {
		for l := e.lno; l < e.lno+e.numLines; l++ {
			keys.add(bytes.TrimSuffix(sb.finalBuf[sb.lineStarts[l]:sb.lineStarts[l+1]], []byte{'\n'}))
		}
	}
}

// lineSummary is what the prefilter needs of a candidate blob, kept in
// place of the blob while it is not diffed: each line's key (the low 32
// bits of its hash, which lineKeys' set holds too: a collision errs only
// towards diffing) and its count of ASCII alphanumerics, in order: 6
// bytes a line (git.git's C files average 25 bytes a line). Under -C -C
// -C the remembered summaries are most of the heap: 12 bytes a line held
// 30 MB of git.git's builtin/blame.c's 110-130 MB live heap.
type lineSummary struct {
	keys  []uint32
	alnum []uint16 // saturating at manyAlnum
}

// manyAlnum is a summary's count for a line of that many ASCII
// alphanumerics or more: its run may score above any copy score.
const manyAlnum = 1<<16 - 1

// bytes is the memory s holds.
func (s *lineSummary) bytes() int { return 4*cap(s.keys) + 2*cap(s.alnum) }

// isAlnum marks the ASCII alphanumerics (entryScore's count).
var isAlnum = func() (t [256]uint8) {
	for c := range t {
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			t[c] = 1
		}
	}
	return t
}()

// summarize makes s the summary of data.
func (k *lineHasher) summarize(s *lineSummary, data []byte) {
	n := bytes.Count(data, []byte{'\n'}) + 1
	if cap(s.keys) < n {
		s.keys, s.alnum = make([]uint32, 0, n), make([]uint16, 0, n)
	}
	s.keys, s.alnum = s.keys[:0], s.alnum[:0]
	for len(data) > 0 {
		line := data
		next := len(data)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, next = data[:i], i+1
		}
		data = data[next:]
		alnum := 0
		for _, c := range line {
			alnum += int(isAlnum[c])
		}
		s.keys = append(s.keys, uint32(k.hash(line)))
		s.alnum = append(s.alnum, uint16(min(alnum, manyAlnum)))
	}
}

// mayHoldCopy reports whether the summarized blob has a run of
// consecutive lines, all in k, that scores above minScore (1 + its ASCII
// alphanumerics): only such a candidate can give a split that a round
// applies (see the top of the file).
func (k *lineKeys) mayHoldCopy(s *lineSummary, minScore int) bool {
	run := 1
	for i, h := range s.keys {
		if !k.has(h) {
			run = 1
			continue
		}
		a := s.alnum[i]
		run += int(a)
		if run > minScore || a == manyAlnum {
			return true
		}
	}
	return false
}

// ruleOutEntryDiffs turns entryMayHoldRun on; tests turn it off to see
// that the diffs it leaves out change nothing.
var ruleOutEntryDiffs = true

// entryMayHoldRun reports whether the entry whose final-image lines efile
// holds has a run of consecutive lines, all in blob (the lines of the
// blob it would be diffed against), that scores above minScore (1 + its
// ASCII alphanumerics): only then can findCopyInBlob give it a split that
// -M applies or that decides a -C round (see the top of the file).
func entryMayHoldRun(efile *diff.File, blob *diff.LineSet, minScore int) bool {
	if !ruleOutEntryDiffs {
		return true
	}
	run := 1
	for i := range efile.Lines() {
		if !blob.Has(efile, i) {
			run = 1
			continue
		}
		for _, c := range efile.Line(i) {
			run += int(isAlnum[c])
		}
		if run > minScore {
			return true
		}
	}
	return false
}
