package blamecore

import (
	"fmt"
	"slices"
	"sort"

	"github.com/goblame/goblame/diff"
	"github.com/goblame/goblame/oid"
)

// This file holds -M and -C: finding lines that moved within a file or
// were copied from other files (git's find_move_in_parent and
// find_copy_in_parent).

// split is a three-way split of an entry: the part before a matching run
// (stays), the run (goes to another origin), the part after (stays). A
// nil suspect in parts[1] means "no split".
type split [3]entry

// splitOverlap builds the split of e for a run of target lines [tlno,
// same) that matches parent lines starting at plno (git's split_overlap).
func splitOverlap(e *entry, tlno, plno, same int, parent *origin) split {
	var s split
	for i := range s {
		s[i].ignored = e.ignored
		s[i].unblamable = e.unblamable
	}
	if e.sLno < tlno {
		s[0].suspect = e.suspect
		s[0].lno = e.lno
		s[0].sLno = e.sLno
		s[0].numLines = tlno - e.sLno
		s[1].lno = e.lno + tlno - e.sLno
		s[1].sLno = plno
	} else {
		s[1].lno = e.lno
		s[1].sLno = plno + (e.sLno - tlno)
	}
	var chunkEnd int
	if same < e.sLno+e.numLines {
		s[2].suspect = e.suspect
		s[2].lno = e.lno + (same - e.sLno)
		s[2].sLno = e.sLno + (same - e.sLno)
		s[2].numLines = e.sLno + e.numLines - same
		chunkEnd = s[2].lno
	} else {
		chunkEnd = e.lno + e.numLines
	}
	s[1].numLines = chunkEnd - s[1].lno
	if s[1].numLines >= 1 {
		s[1].suspect = parent
	}
	return s
}

// listAppender appends to a singly linked list through a pointer to its
// last link.
type listAppender struct {
	link **entry
}

func (a *listAppender) add(n *entry) {
	n.next = *a.link
	*a.link = n
	a.link = &n.next
}

// copySplitIfBetter keeps in best the split whose middle part scores
// highest; a later candidate wins ties (git's copy_split_if_better).
func (sb *scoreboard) copySplitIfBetter(best, potential *split) {
	if potential[1].suspect == nil {
		return
	}
	if best[1].suspect != nil && sb.entryScore(&potential[1]) < sb.entryScore(&best[1]) {
		return
	}
	*best = *potential
}

// findCopyInBlob finds the best run of e's final-image lines (prepared
// as efile) that matches somewhere in the candidate blob (prepared as
// pfile) (git's find_copy_in_blob).
func (sb *scoreboard) findCopyInBlob(e *entry, efile *diff.File, parent *origin, pfile *diff.File) (split, error) {
	var best split
	var err error
	sb.stats.EntryDiffs++
	sb.hunks, err = sb.differ.BlameDiffFiles(sb.hunks, pfile, efile, sb.diffOpts)
	if err != nil {
		return best, fmt.Errorf("unable to generate diff (%s): %w", sb.id(parent.commit), err)
	}
	tlno, plno := 0, 0
	handle := func(tlno, plno, same int) {
		if e.numLines <= tlno {
			return
		}
		if tlno < same {
			potential := splitOverlap(e, tlno+e.sLno, plno, same+e.sLno, parent)
			sb.copySplitIfBetter(&best, &potential)
		}
	}
	for _, h := range sb.hunks {
		handle(tlno, plno, h.NewStart)
		plno = h.OldStart + h.OldCount
		tlno = h.NewStart + h.NewCount
	}
	handle(tlno, plno, e.numLines)
	return best, nil
}

// entryFiles prepares the final-image text of each entry for diffing
// against candidate blobs; the Files are reused from call to call.
func (sb *scoreboard) entryFiles(ents []*entry) ([]*diff.File, error) {
	for len(sb.entFiles) < len(ents) {
		sb.entFiles = append(sb.entFiles, nil)
	}
	for i, e := range ents {
		text := sb.finalBuf[sb.lineStarts[e.lno]:sb.lineStarts[e.lno+e.numLines]]
		f, err := sb.differ.Prepare(sb.entFiles[i], text, sb.diffOpts)
		if err != nil {
			return nil, err
		}
		sb.entFiles[i] = f
	}
	return sb.entFiles[:len(ents)], nil
}

// sameBytes reports whether a and b are the same bytes in memory (a
// textconv that converted nothing hands the blob back).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// candidateBlob returns a -C candidate: its blob's summary for the
// prefilter (copyfilter.go) and, unless it was dropped, the blob.
// Candidates are remembered by blob ID across commits (a file that did
// not change is a candidate again and again under -C -C -C), within a
// byte budget: the blob and its prepared lines while it is diffed, only
// the summary once the prefilter rejected it (see dropData). The read is
// counted as git counts it (fill_origin_blob), whether or not the blob is
// read again: once, while the origin lives, as git's origin keeps its
// blob (see heldReads).
func (sb *scoreboard) candidateBlob(o *origin, pf *prefetcher) (*candidate, error) {
	key := sb.candidateKey(o.path, o.blob)
	if o.file != nil {
		c := &sb.originCandidate
		*c = candidate{data: o.file, sum: c.sum, origin: o}
		sb.copyKeys.summarize(&c.sum, o.file)
		return c, nil
	}
	held := sb.heldReads[o]
	if !held {
		sb.stats.ReadBlobs++
	}
	if c := sb.candidates[key]; c != nil {
		sb.candidateTick++
		c.used = sb.candidateTick
		sb.countInRound(c)
		if c.data == nil && o.suspects != nil {
			// An origin with blame of its own keeps its blob after
			// the round, as before the blob was dropped.
			if err := sb.loadData(c, o); err != nil {
				return nil, err
			}
		}
		o.file, o.fileOwned, o.prep = c.data, false, nil
		if o.file == nil && !held {
			// Only the summary is left: git's origin holds the blob
			// all the same, and its next read is not counted.
			if sb.heldReads == nil {
				sb.heldReads = make(map[*origin]bool)
			}
			sb.heldReads[o] = true
		}
		return c, nil
	}
	var data []byte
	var err error
	var ahead prefetched
	if pf != nil && pf.pending > 0 && sb.prefetchWant(o) {
		ahead = pf.next(sb.hist.candidateHelpReader())
		data, err = ahead.data, ahead.err
		if err != nil {
			if o.blob != oid.EmptyBlob(sb.format) {
				return nil, &BlobError{ID: o.blob, Path: o.path, Err: err}
			}
			data = []byte{}
		}
		if sb.opts.TextConv != nil {
			read := data
			if data, err = sb.textconvCandidate(o, data); err != nil {
				return nil, err
			}
			if !sameBytes(data, read) {
				ahead.summed = false // the summary is of the blob as read
			}
		}
	} else if data, err = sb.candidateData(o); err != nil {
		return nil, err
	}
	if sb.candidates == nil {
		sb.candidates = make(map[candidateKey]*candidate)
	}
	sb.candidateTick++
	c := &candidate{data: data, used: sb.candidateTick}
	if ahead.summed {
		c.sum = ahead.sum
	} else {
		sb.copyKeys.summarize(&c.sum, data)
	}
	sb.candidates[key] = c
	sb.stats.CopyBlobsRead++
	sb.candidateBytes += c.bytes()
	sb.countInRound(c)
	if sb.candidateBytes > sb.candidateBudget() {
		sb.evictCandidates()
	}
	o.file, o.fileOwned, o.prep = data, false, nil
	return c, nil
}

func (sb *scoreboard) candidateKey(path string, id oid.ID) candidateKey {
	key := candidateKey{id: id}
	if sb.opts.TextConv != nil {
		key.path = path // textconv depends on the path's attributes
	}
	return key
}

// candidateData reads a candidate's blob (through textconv).
func (sb *scoreboard) candidateData(o *origin) ([]byte, error) {
	data, err := sb.hist.blob(o.blob)
	if err != nil {
		if o.blob != oid.EmptyBlob(sb.format) {
			return nil, &BlobError{ID: o.blob, Path: o.path, Err: err}
		}
		data = []byte{}
	}
	if sb.opts.TextConv != nil {
		return sb.textconvCandidate(o, data)
	}
	return data, nil
}

func (sb *scoreboard) textconvCandidate(o *origin, data []byte) ([]byte, error) {
	conv, err := sb.opts.TextConv(o.path, o.mode, data)
	if err != nil {
		return nil, err
	}
	if conv != nil {
		return conv, nil
	}
	return data, nil
}

// dropData forgets the blob of a candidate the prefilter rejected,
// keeping its summary: most candidates are never diffed, and their
// blobs held most of the budget.
func (sb *scoreboard) dropData(c *candidate) {
	if c.origin != nil || c.data == nil {
		return
	}
	sb.candidateBytes -= c.bytes()
	c.data, c.file = nil, nil
	sb.candidateBytes += c.bytes()
}

// loadData reads again the blob of a remembered candidate whose data was
// dropped, for a diff (not counted: git's read was counted when the
// candidate was looked up).
func (sb *scoreboard) loadData(c *candidate, o *origin) error {
	if c.data != nil {
		return nil
	}
	data, err := sb.candidateData(o)
	if err != nil {
		return err
	}
	sb.stats.CopyBlobsRead++
	sb.candidateBytes -= c.bytes()
	c.data = data
	sb.candidateBytes += c.bytes()
	sb.stats.CopyHeldPeak = max(sb.stats.CopyHeldPeak, sb.candidateBytes)
	o.file, o.fileOwned, o.prep = data, false, nil
	if sb.candidateBytes > sb.candidateBudget() {
		sb.evictCandidates()
	}
	return nil
}

// evictCandidates forgets the least recently used candidates until a
// quarter of the budget is free (in one pass, so that a long scan of a
// large tree does not search the whole cache for every new blob).
func (sb *scoreboard) evictCandidates() {
	type aged struct {
		key  candidateKey
		used int64
		size int
	}
	all := make([]aged, 0, len(sb.candidates))
	for k, c := range sb.candidates {
		all = append(all, aged{k, c.used, c.bytes()})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].used < all[j].used })
	budget := sb.candidateBudget()
	for _, a := range all[:len(all)-1] { // keep the newest
		if sb.candidateBytes <= budget*3/4 {
			break
		}
		delete(sb.candidates, a.key)
		sb.candidateBytes -= a.size
	}
}

// prepared returns the candidate's lines prepared for diffing.
func (c *candidate) prepared(sb *scoreboard) (*diff.File, error) {
	if c.origin != nil {
		return sb.prepared(c.origin, nil)
	}
	if c.file == nil {
		f, err := sb.differ.Prepare(nil, c.data, sb.diffOpts)
		if err != nil {
			return nil, err
		}
		c.file = f
	}
	return c.file, nil
}

// prefetchWant reports whether o is the next blob the read-ahead holds
// (the candidates are visited in the order they were scheduled).
func (sb *scoreboard) prefetchWant(o *origin) bool {
	if sb.prefetchPos < len(sb.prefetchSet) && sb.prefetchSet[sb.prefetchPos] == o.path {
		sb.prefetchPos++
		return true
	}
	return false
}

// splitsUse reports whether a best split found so far in a -C round
// blames lines on o.
func splitsUse(splits []split, o *origin) bool {
	for i := range splits {
		for k := range splits[i] {
			if splits[i][k].suspect == o {
				return true
			}
		}
	}
	return false
}

// candidateBudget bounds the bytes of remembered candidate blobs: twice
// what the candidates of the largest -C search so far hold, at least
// minCandidateBytes, at most maxCandidateBytes. Most of them are
// summaries (a blob rejected by the prefilter keeps only its summary),
// and under -C -C -C a search's candidates are a tree's worth, which
// the next commit's search looks at again: a budget below that reads
// and summarizes every file anew at every commit (git.git's
// builtin/blame.c, whose tree's summaries take 10 MB: 3.6 s at 16 MiB,
// 12 s at 4 MiB). On git.git at 12 bytes a line of summary 6,000-8,000
// candidates took 32 MiB; at 6 bytes a line the same number in 16 MiB
// held 3.3-3.5 s (32 MiB: 3.2-3.3 s) and peak RSS 246-250 MB (273-279
// MB). A smaller tree needs less: go-git's (160,000 lines) takes 1 MB,
// and the fixed 16 MiB held 9 MB of older versions' summaries at the
// end of -C -C -C repository.go, most of the live heap.
func (sb *scoreboard) candidateBudget() int {
	return min(maxCandidateBytes, max(minCandidateBytes, 2*sb.copyRoundMax))
}

// (Variables for the tests, which bound the budget otherwise.)
var (
	minCandidateBytes = 2 << 20
	maxCandidateBytes = 16 << 20
)

// countInRound counts c, once a -C search, in what the current search's
// candidates hold (candidateBudget).
func (sb *scoreboard) countInRound(c *candidate) {
	if c.round == sb.copyRound {
		return
	}
	c.round = sb.copyRound
	sb.copyRoundBytes += c.sum.bytes()
	sb.copyRoundMax = max(sb.copyRoundMax, sb.copyRoundBytes)
}

type candidateKey struct {
	id   oid.ID
	path string
}

type candidate struct {
	data   []byte // nil once dropped (dropData)
	file   *diff.File
	sum    lineSummary
	used   int64
	round  int64   // the last -C search that counted it (countInRound)
	origin *origin // set when the blob is an origin's own (not cached)
}

// bytes is what c counts against candidateBudget.
func (c *candidate) bytes() int { return len(c.data) + c.sum.bytes() }

// filterSmall moves the entries of *source whose score is at most
// minScore to the front of *small, keeping their order (git's
// filter_small). It returns the link after the moved entries.
func (sb *scoreboard) filterSmall(small **entry, source **entry, minScore int) **entry {
	p := *source
	oldSmall := *small
	smallLink := small
	sourceLink := source
	for p != nil {
		if sb.entryScore(p) <= minScore {
			*smallLink = p
			smallLink = &p.next
			p = *smallLink
		} else {
			*sourceLink = p
			sourceLink = &p.next
			p = *sourceLink
		}
	}
	*smallLink = oldSmall
	*sourceLink = nil
	return smallLink
}

// findMoveInParent attributes to parent (the same file in a parent) the
// runs of the target's suspects that appear elsewhere in it (-M).
func (sb *scoreboard) findMoveInParent(blamed **entry, toosmall **entry, target, parent *origin) error {
	unblamed := target.suspects
	if unblamed == nil {
		return nil
	}
	if _, err := sb.fillBlob(parent); err != nil {
		return err
	}
	pfile, err := sb.prepared(parent, nil)
	if err != nil {
		return err
	}
	var leftover *entry
	blamedApp := listAppender{link: lastLink(blamed)}
	smallLink := toosmall
	var ents []*entry
	// The parent's lines, once for every round (the entries' texts
	// prepared in a round only add lines to the table).
	sb.blobLines.Reset(pfile)
	for unblamed != nil {
		var newUnblamed *entry
		unb := listAppender{link: &newUnblamed}
		ents = ents[:0]
		for e := unblamed; e != nil; e = e.next {
			ents = append(ents, e)
		}
		efiles, err := sb.entryFiles(ents)
		if err != nil {
			return err
		}
		for i, e := range ents {
			if !entryMayHoldRun(efiles[i], &sb.blobLines, sb.opts.moveScore()) {
				// No split of it could be applied (copyfilter.go).
				sb.stats.EntryDiffsRuledOut++
				e.next = leftover
				leftover = e
				continue
			}
			s, err := sb.findCopyInBlob(e, efiles[i], parent, pfile)
			if err != nil {
				return err
			}
			if s[1].suspect != nil && sb.opts.moveScore() < sb.entryScore(&s[1]) {
				sb.applySplit(&blamedApp, &unb, &s, e)
			} else {
				e.next = leftover
				leftover = e
			}
		}
		unblamed = newUnblamed
		smallLink = sb.filterSmall(smallLink, &unblamed, sb.opts.moveScore())
	}
	target.suspects = reverseOnto(leftover, nil)
	return nil
}

// applySplit is splitBlame over list appenders.
func (sb *scoreboard) applySplit(blamed, unblamed *listAppender, s *split, e *entry) {
	switch {
	case s[0].suspect != nil && s[2].suspect != nil:
		*e = s[0]
		unblamed.add(e)
		last := s[2]
		unblamed.add(&last)
		mid := s[1]
		blamed.add(&mid)
	case s[0].suspect == nil && s[2].suspect == nil:
		*e = s[1]
		blamed.add(e)
	case s[0].suspect != nil:
		*e = s[0]
		unblamed.add(e)
		mid := s[1]
		blamed.add(&mid)
	default:
		*e = s[1]
		blamed.add(e)
		last := s[2]
		unblamed.add(&last)
	}
}

// lastLink returns the address of the nil link ending the list at *head.
func lastLink(head **entry) **entry {
	for *head != nil {
		head = &(*head).next
	}
	return head
}

// findCopyInParent looks for the target's suspects in other files of the
// parent commit (-C, -C -C, -C -C -C).
func (sb *scoreboard) findCopyInParent(blamed **entry, toosmall **entry, target *origin, parent *commitNode, porigin *origin) error {
	unblamed := target.suspects
	if unblamed == nil {
		return nil
	}
	sb.trimLineTable()
	if err := sb.parse(parent); err != nil {
		return nil
	}
	sb.copyRound++
	sb.copyRoundBytes = 0
	harder := sb.opts.CopyLevel >= 3 || (sb.opts.CopyLevel >= 2 && (porigin == nil || target.path != porigin.path))
	changes, err := sb.candidateFiles(parent, target.commit, harder)
	if err != nil {
		return err
	}
	// Read ahead, on the second core, the candidates the first round will
	// read: those with no blob loaded and none remembered.
	var ids []oid.ID
	scheduled := make(map[candidateKey]bool)
	sb.prefetchSet = sb.prefetchSet[:0]
	for _, ch := range changes {
		if ch.OldMode == 0 || ch.OldMode&0o170000 == 0o160000 || (porigin != nil && ch.Path == porigin.path) {
			continue
		}
		if o := findLiveOrigin(parent, ch.Path); o != nil && o.file != nil {
			continue
		}
		key := sb.candidateKey(ch.Path, ch.OldID)
		if sb.candidates[key] != nil || scheduled[key] {
			continue
		}
		scheduled[key] = true
		ids = append(ids, ch.OldID)
		sb.prefetchSet = append(sb.prefetchSet, ch.Path)
	}
	// Whoever reads a candidate ahead summarizes it with the run's hasher
	// (candidateBlob summarizes again what a textconv changed).
	sb.copyKeys.init(sb.diffOpts.IgnoreWhitespace)
	pf := sb.prefetch(ids, &sb.copyKeys.lineHasher)
	defer sb.closePrefetch(pf)
	sb.prefetchPos = 0

	var leftover *entry
	blamedApp := listAppender{link: lastLink(blamed)}
	smallLink := toosmall
	var inSplits []*origin // the candidates a best split named this round
	// applied: the origins of the splits applied, which their entries in
	// *blamed hold until the pass distributes them.
	var applied []*origin
	for unblamed != nil {
		var ents []*entry
		for e := unblamed; e != nil; e = e.next {
			ents = append(ents, e)
		}
		splits := make([]split, len(ents))
		var efiles []*diff.File // prepared when a candidate is first diffed
		sb.entryLineKeys(&sb.copyKeys, ents)
		for _, ch := range changes {
			if ch.OldMode == 0 {
				continue // not in the parent
			}
			if ch.OldMode&0o170000 == 0o160000 {
				continue // gitlink
			}
			if porigin != nil && ch.Path == porigin.path {
				continue // find_move already looked there
			}
			norigin := sb.getCandidateOrigin(parent, ch.Path)
			norigin.blob, norigin.mode, norigin.blobKnown = ch.OldID, ch.OldMode, true
			cand, err := sb.candidateBlob(norigin, pf)
			if err != nil {
				return err // git dies: "Cannot read blob ... for path ..."
			}
			sb.stats.CopyCandidates++
			if !sb.copyKeys.mayHoldCopy(&cand.sum, sb.opts.copyScore()) {
				sb.dropData(cand)
				sb.stats.CopyHeldPeak = max(sb.stats.CopyHeldPeak, sb.candidateBytes)
				// git's get_origin reference ends with the
				// candidate (under -C -C -C a round makes an origin
				// for every file of the parent: kept, they held
				// most of the heap, 2 million origins on git.git's
				// builtin/blame.c). One that something else holds
				// keeps its blob, as git's keeps its file.
				if !slices.Contains(applied, norigin) {
					sb.release(norigin)
				}
				continue
			}
			sb.stats.CopyDiffed++
			if err := sb.loadData(cand, norigin); err != nil {
				return err
			}
			if efiles == nil {
				if efiles, err = sb.entryFiles(ents); err != nil {
					return err
				}
			}
			pfile, err := cand.prepared(sb)
			if err != nil {
				return fmt.Errorf("unable to generate diff (%s): %w", sb.id(parent), err)
			}
			sb.blobLines.Reset(pfile)
			for j, e := range ents {
				if !entryMayHoldRun(efiles[j], &sb.blobLines, sb.opts.copyScore()) {
					sb.stats.EntryDiffsRuledOut++
					continue // it cannot decide the round (copyfilter.go)
				}
				potential, err := sb.findCopyInBlob(e, efiles[j], norigin, pfile)
				if err != nil {
					return err
				}
				sb.copySplitIfBetter(&splits[j], &potential)
			}
			// A best split holds the origin, and with it its blob,
			// until the round ends or a better split replaces it:
			// applied, the next pass finds the blob read (and git's num
			// read blob does not count it again).
			if splitsUse(splits, norigin) {
				inSplits = append(inSplits, norigin)
			} else if !slices.Contains(applied, norigin) {
				sb.release(norigin)
			}
			sb.stats.CopyHeldPeak = max(sb.stats.CopyHeldPeak, sb.candidateBytes)
		}
		var newUnblamed *entry
		unb := listAppender{link: &newUnblamed}
		for j, e := range ents {
			s := &splits[j]
			if s[1].suspect != nil && sb.opts.copyScore() < sb.entryScore(&s[1]) {
				sb.applySplit(&blamedApp, &unb, s, e)
				if !slices.Contains(applied, s[1].suspect) {
					applied = append(applied, s[1].suspect)
				}
			} else {
				e.next = leftover
				leftover = e
			}
		}
		// The splits let go (decref_split): what only they held is
		// freed with its blob; the origins of applied splits keep theirs
		// until they are blamed.
		for _, o := range inSplits {
			if !slices.Contains(applied, o) {
				sb.release(o)
			}
		}
		inSplits = inSplits[:0]
		unblamed = newUnblamed
		smallLink = sb.filterSmall(smallLink, &unblamed, sb.opts.copyScore())
	}
	target.suspects = reverseOnto(leftover, nil)
	return nil
}
