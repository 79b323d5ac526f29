package blamecore

import "math"

// chunker hands a target's suspects to one parent, hunk by hunk, as git's
// blame_chunk does. The target's suspect list is consumed front to back:
// entries before a hunk go to the parent (shifted by the running offset),
// entries inside it stay with the target, and entries straddling a hunk
// edge are split there.
type chunker struct {
	parent, target *origin
	ignoreDiffs    bool

	// kept: entries the target keeps, in order (head and tail).
	keptHead, keptTail *entry
	// rest: the entries not yet looked at.
	rest *entry
	// toParent: entries handed to the parent, in order.
	parentHead, parentTail *entry

	// ignore-revs state (see ignore.go).
	ign *ignorePass
}

func (c *chunker) appendParent(list *entry) {
	if list == nil {
		return
	}
	if c.parentTail == nil {
		c.parentHead = list
	} else {
		c.parentTail.next = list
	}
	for list.next != nil {
		list = list.next
	}
	c.parentTail = list
}

func (c *chunker) appendKept(list *entry) {
	if list == nil {
		return
	}
	if c.keptTail == nil {
		c.keptHead = list
	} else {
		c.keptTail.next = list
	}
	for list.next != nil {
		list = list.next
	}
	c.keptTail = list
}

// chunk processes one hunk: target lines [tlno, same) differ from the
// parent, whose corresponding lines start at tlno+offset and number
// parentLen.
func (c *chunker) chunk(tlno, offset, same, parentLen int) {
	e := c.rest
	var samep, diffp *entry
	for e != nil && e.sLno < tlno {
		next := e.next
		if e.sLno+e.numLines > tlno {
			// The entry reaches into the hunk: its tail is looked at
			// again below.
			n := e.splitAt(tlno-e.sLno, e.suspect)
			n.next = diffp
			diffp = n
		}
		e.suspect = c.parent
		e.sLno += offset
		e.next = samep
		samep = e
		e = next
	}
	c.appendParent(reverseOnto(samep, nil))
	e = reverseOnto(diffp, e)

	samep, diffp = nil, nil
	var ignoredp *entry
	var lineBlames []lineBlame
	if c.ignoreDiffs && same-tlno > 0 {
		lineBlames = c.ign.guessLineBlames(tlno, offset, same, parentLen)
	}
	for e != nil && e.sLno < same {
		next := e.next
		if e.sLno+e.numLines > same {
			n := e.splitAt(same-e.sLno, e.suspect)
			n.next = samep
			samep = n
		}
		if c.ignoreDiffs {
			ignoreBlameEntry(e, c.parent, &diffp, &ignoredp, lineBlames[e.sLno-tlno:])
		} else {
			e.next = diffp
			diffp = e
		}
		e = next
	}
	if ignoredp != nil {
		c.appendParent(reverseOnto(ignoredp, nil))
	}
	c.appendKept(reverseOnto(diffp, nil))
	c.rest = reverseOnto(samep, e)
}

// finish hands everything after the last hunk to the parent.
func (c *chunker) finish(offset int) {
	c.chunk(math.MaxInt, offset, math.MaxInt, 0)
	if c.keptTail != nil {
		c.keptTail.next = c.rest
	} else {
		c.keptHead = c.rest
	}
	c.target.suspects = c.keptHead
	if c.parentTail != nil {
		c.parentTail.next = nil
	}
}
