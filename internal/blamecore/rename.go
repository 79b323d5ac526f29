package blamecore

import (
	"bytes"
	"slices"
	"sort"
	"strings"
)

// This file follows whole-file renames the way blame's find_rename asks
// diffcore to: the only destination is the blamed path (created in the
// commit), the sources are the files deleted in it, and the match is
// chosen by exact content first, then by a unique basename at 75%
// similarity, then by the best similarity of at least 50%.

const (
	maxScore            = 60000.0
	defaultRenameScore  = 30000
	basenameRenameScore = defaultRenameScore + int(0.5*(maxScore-defaultRenameScore))
	renameLimit         = 1000
	candidatesPerDst    = 4
)

// findRename looks for the file the parent had under another name
// (git's find_rename). It returns nil when there is none.
func (sb *scoreboard) findRename(parent *commitNode, o *origin) (*origin, error) {
	changes, err := sb.candidateFiles(parent, o.commit, false)
	if err != nil {
		return nil, err
	}
	var dst *TreeChange
	var sources []TreeChange
	for i := range changes {
		ch := &changes[i]
		switch {
		case ch.OldMode == 0 && ch.NewMode != 0:
			if ch.Path == o.path {
				dst = ch
			}
		case ch.OldMode != 0 && ch.NewMode == 0:
			sources = append(sources, *ch)
		}
	}
	if dst == nil || len(sources) == 0 {
		return nil, nil
	}
	src, err := sb.matchRename(dst, sources, o)
	if err != nil || src == nil {
		return nil, err
	}
	p := sb.getOrigin(parent, src.Path)
	p.blob, p.mode, p.blobKnown = src.OldID, src.OldMode, true
	if sb.opts.SimplifyByDecoration {
		sb.filterPaths = append(sb.filterKeys(), src.Path) // (maybeChanged)
	}
	return p, nil
}

// matchRename picks the source dst (o's path) was renamed from, or nil.
func (sb *scoreboard) matchRename(dst *TreeChange, sources []TreeChange, o *origin) (*TreeChange, error) {
	// Exact renames: same blob (and same mode unless both are regular
	// files); prefer a source with the same basename, else the first.
	best := -1
	bestScore := -1
	examined := 0
	for i := range sources {
		s := &sources[i]
		if s.OldID != dst.NewID {
			continue
		}
		if !isRegular(s.OldMode) || !isRegular(dst.NewMode) {
			if s.OldMode != dst.NewMode {
				continue
			}
		}
		score := 1
		if basenameSame(s.Path, dst.Path) {
			score++
		}
		if score > bestScore {
			best, bestScore = i, score
			if score == 2 {
				break
			}
		}
		examined++
		if examined == 100 {
			break
		}
	}
	if best >= 0 {
		return &sources[best], nil
	}

	// The pseudo commit's file (the working tree or --contents) is not
	// in the object store; git pretends it is (pretend_object_file).
	dstData := o.file
	if !o.commit.Uncommitted || dstData == nil {
		var err error
		if dstData, err = sb.hist.blob(dst.NewID); err != nil {
			return nil, err
		}
	}
	dstSpans := (*spanCounts)(nil)
	spansOf := func(path string, data []byte) (*spanCounts, error) {
		binary, err := sb.binaryAttr(path)
		if err != nil {
			return nil, err
		}
		return hashSpans(data, binary), nil
	}
	sim := func(s *TreeChange, minimum int) (int, error) {
		if !isRegular(s.OldMode) || !isRegular(dst.NewMode) {
			return 0, nil
		}
		srcData, err := sb.hist.blob(s.OldID)
		if err != nil {
			return 0, err
		}
		maxSize, baseSize := len(srcData), len(dstData)
		if baseSize > maxSize {
			maxSize, baseSize = baseSize, maxSize
		}
		delta := maxSize - baseSize
		if float64(maxSize)*(maxScore-float64(minimum)) < float64(delta)*maxScore {
			return 0, nil
		}
		if dstSpans == nil {
			if dstSpans, err = spansOf(dst.Path, dstData); err != nil {
				return 0, err
			}
		}
		srcSpans, err := spansOf(s.Path, srcData)
		if err != nil {
			return 0, err
		}
		copied := countCopied(srcSpans, dstSpans)
		if len(dstData) == 0 {
			return 0, nil
		}
		return int(float64(copied) * maxScore / float64(maxSize)), nil
	}

	// Basename pass: a source whose basename is unique among the sources
	// and equals the destination's.
	base := basename(dst.Path)
	count := map[string]int{}
	for i := range sources {
		count[basename(sources[i].Path)]++
	}
	for i := range sources {
		s := &sources[i]
		b := basename(s.Path)
		if b != base || count[b] != 1 {
			continue
		}
		score, err := sim(s, basenameRenameScore)
		if err != nil {
			return nil, err
		}
		if score >= basenameRenameScore {
			return s, nil
		}
	}

	// Inexact pass over every source, keeping the four best candidates
	// as git's record_if_better does, then a stable sort.
	if len(sources) > renameLimit*renameLimit {
		return nil, nil
	}
	var slots [candidatesPerDst]renameScore
	for i := range slots {
		slots[i].src = -1
	}
	for i := range sources {
		score, err := sim(&sources[i], defaultRenameScore)
		if err != nil {
			return nil, err
		}
		cand := renameScore{src: i, score: score, nameScore: 0}
		if basenameSame(sources[i].Path, dst.Path) {
			cand.nameScore = 1
		}
		worst := 0
		for k := 1; k < candidatesPerDst; k++ {
			if compareRenameScore(&slots[k], &slots[worst]) > 0 {
				worst = k
			}
		}
		if compareRenameScore(&slots[worst], &cand) > 0 {
			slots[worst] = cand
		}
	}
	sorted := slots[:]
	sort.SliceStable(sorted, func(a, b int) bool { return compareRenameScore(&sorted[a], &sorted[b]) < 0 })
	for _, m := range sorted {
		if m.src < 0 || m.score < defaultRenameScore {
			break
		}
		return &sources[m.src], nil
	}
	return nil, nil
}

type renameScore struct {
	src       int // -1: unused slot
	score     int
	nameScore int
}

// compareRenameScore is git's score_compare: unused slots last, then
// higher score, then same basename first.
func compareRenameScore(a, b *renameScore) int {
	if a.src < 0 {
		if b.src >= 0 {
			return 1
		}
		return 0
	}
	if b.src < 0 {
		return -1
	}
	if a.score == b.score {
		return b.nameScore - a.nameScore
	}
	return b.score - a.score
}

func isRegular(mode uint32) bool { return mode&0o170000 == 0o100000 }

func basename(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// basenameSame reports whether two paths end in the same final component
// (git's basename_same).
func basenameSame(a, b string) bool {
	i, j := len(a), len(b)
	for i > 0 && j > 0 {
		i--
		j--
		if a[i] != b[j] {
			return false
		}
		if a[i] == '/' {
			return true
		}
	}
	return (i == 0 || a[i-1] == '/') && (j == 0 || b[j-1] == '/')
}

// spanCounts is diffcore-delta's fingerprint of a blob: for each chunk
// hash, the number of bytes in chunks with that hash, sorted by hash.
type spanCounts struct {
	hashes []uint32
	counts []uint32
}

const spanHashBase = 107927

// hashSpans cuts data into chunks ending at a newline or after 64 bytes,
// skipping a CR before LF in text, and counts bytes per chunk hash. A
// final chunk that is neither full nor newline-terminated is dropped, as
// git drops it. binary is the path's diff driver's verdict (1 binary, 0
// text); -1 leaves it to the content: binary with a NUL in the first
// 8000 bytes (buffer_is_binary).
func hashSpans(data []byte, binary int) *spanCounts {
	isText := binary == 0 || binary == -1 && bytes.IndexByte(data[:min(len(data), 8000)], 0) < 0
	// Each chunk as its hash (high half) and length (low half): sorted,
	// the chunks of a hash are neighbours, and their lengths are summed.
	// (A map of hash to bytes cost twice as much on 60 KB blobs of short
	// lines: a blame following 50 renames spent 26% of its time here.)
	chunks := make([]uint64, 0, len(data)/32+1)
	var accum1, accum2 uint32
	n := 0
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		if isText && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old1 := accum1
		accum1 = (accum1 << 7) ^ (accum2 >> 25)
		accum2 = (accum2 << 7) ^ (old1 >> 25)
		accum1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		h := (accum1 + accum2*0x61) % spanHashBase
		chunks = append(chunks, uint64(h)<<32|uint64(n))
		n = 0
		accum1, accum2 = 0, 0
	}
	slices.Sort(chunks)
	sc := &spanCounts{}
	for i := 0; i < len(chunks); {
		h := uint32(chunks[i] >> 32)
		var sum uint32
		for ; i < len(chunks) && uint32(chunks[i]>>32) == h; i++ {
			sum += uint32(chunks[i])
		}
		sc.hashes = append(sc.hashes, h)
		sc.counts = append(sc.counts, sum)
	}
	return sc
}

// countCopied is diffcore_count_changes' src_copied: the bytes of src
// chunks that also occur in dst.
func countCopied(src, dst *spanCounts) uint64 {
	var copied uint64
	j := 0
	for i, h := range src.hashes {
		for j < len(dst.hashes) && dst.hashes[j] < h {
			j++
		}
		if j < len(dst.hashes) && dst.hashes[j] == h {
			copied += uint64(min(src.counts[i], dst.counts[j]))
			j++
		}
	}
	return copied
}

// candidateFiles lists the file-level differences between parent and c
// (the index for the working-tree pseudo commit); all=true lists unchanged
// files too.
func (sb *scoreboard) candidateFiles(parent, c *commitNode, all bool) ([]TreeChange, error) {
	if c.Uncommitted {
		if err := sb.beforeUncommittedDiff(); err != nil {
			return nil, err
		}
		return sb.diffTreeToIndex(sb.hist.commits.Tree(parent.tc), all)
	}
	if err := sb.parse(c); err != nil {
		return nil, err
	}
	return sb.hist.diffTrees(sb.hist.commits.Tree(parent.tc), sb.hist.commits.Tree(c.tc), all)
}
