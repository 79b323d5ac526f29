package blame

import "fmt"

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

// findCopyInBlob finds the best run of e's final-image lines that
// matches somewhere in the candidate blob pfile (git's find_copy_in_blob).
func (sb *scoreboard) findCopyInBlob(e *entry, parent *origin, pfile []byte) (split, error) {
	var best split
	target := sb.finalBuf[sb.lineStarts[e.lno]:sb.lineStarts[e.lno+e.numLines]]
	sb.hunks = sb.differ.BlameDiff(sb.hunks, pfile, target, sb.diffOpts)
	if err := sb.differ.Err(); err != nil {
		return best, fmt.Errorf("unable to generate diff (%s): %w", parent.commit.ID, err)
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
	pfile, err := sb.fillBlob(parent)
	if err != nil {
		return err
	}
	var leftover *entry
	blamedApp := listAppender{link: lastLink(blamed)}
	smallLink := toosmall
	for unblamed != nil {
		var newUnblamed *entry
		unb := listAppender{link: &newUnblamed}
		for e := unblamed; e != nil; {
			next := e.next
			s, err := sb.findCopyInBlob(e, parent, pfile)
			if err != nil {
				return err
			}
			if s[1].suspect != nil && sb.opts.moveScore() < sb.entryScore(&s[1]) {
				sb.applySplit(&blamedApp, &unb, &s, e)
			} else {
				e.next = leftover
				leftover = e
			}
			e = next
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
	if err := sb.parse(parent); err != nil {
		return nil
	}
	harder := sb.opts.CopyLevel >= 3 || (sb.opts.CopyLevel >= 2 && (porigin == nil || target.path != porigin.path))
	changes, err := sb.candidateFiles(parent, target.commit, harder)
	if err != nil {
		return err
	}
	var leftover *entry
	blamedApp := listAppender{link: lastLink(blamed)}
	smallLink := toosmall
	for unblamed != nil {
		var ents []*entry
		for e := unblamed; e != nil; e = e.next {
			ents = append(ents, e)
		}
		splits := make([]split, len(ents))
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
			norigin := sb.getOrigin(parent, ch.Path)
			norigin.blob, norigin.mode, norigin.blobKnown = ch.OldID, ch.OldMode, true
			pfile, err := sb.fillBlob(norigin)
			if err != nil {
				return err // git dies: "Cannot read blob ... for path ..."
			}
			for j, e := range ents {
				potential, err := sb.findCopyInBlob(e, norigin, pfile)
				if err != nil {
					return err
				}
				sb.copySplitIfBetter(&splits[j], &potential)
			}
			if norigin.suspects == nil {
				sb.dropFile(norigin)
			}
		}
		var newUnblamed *entry
		unb := listAppender{link: &newUnblamed}
		for j, e := range ents {
			s := &splits[j]
			if s[1].suspect != nil && sb.opts.copyScore() < sb.entryScore(&s[1]) {
				sb.applySplit(&blamedApp, &unb, s, e)
			} else {
				e.next = leftover
				leftover = e
			}
		}
		unblamed = newUnblamed
		smallLink = sb.filterSmall(smallLink, &unblamed, sb.opts.copyScore())
	}
	target.suspects = reverseOnto(leftover, nil)
	return nil
}
