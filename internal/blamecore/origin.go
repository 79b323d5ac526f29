package blamecore

import (
	"github.com/goblame/goblame/diff"
	"github.com/goblame/goblame/oid"
)

// origin is one (commit, path) pair under suspicion (git's struct
// blame_origin).
type origin struct {
	commit *commitNode
	path   string
	seq    int32 // creation order, a deterministic stand-in for pointer order
	// prevRefs counts the linked origins naming this one as previous:
	// with its entries, git's references to it (see alive).
	prevRefs int32

	// blob and mode of path in commit; blobKnown is false until filled.
	// (The flags fill the padding after blob: a walk makes an origin or
	// two per commit.)
	blob      oid.ID
	blobKnown bool
	// guilty is set once some entry ends up blamed on this origin.
	guilty bool
	// fileOwned says file came from the scoreboard's pool and goes back
	// to it when dropped.
	fileOwned bool
	mode      uint32

	// suspects: entries this origin is suspected of, sorted by sLno.
	suspects *entry
	// previous is the origin in the first parent that had a usable
	// version of this file (porcelain's "previous" line).
	previous *origin

	// file caches the blob's content while the origin is being worked on.
	file []byte
	// prep is file prepared for diffing (lines split and interned), made
	// on first use and dropped with file.
	prep *diff.File
	// (--ignore-rev's per-line fingerprints of file are kept in the
	// scoreboard's fingerprints, by origin.)
}

// getOrigin returns the live origin of (c, path), moving it to the front
// of c's origin list, or creates one at the front (git's get_origin).
//
// The front of the list is the end of c.origins.
func (sb *scoreboard) getOrigin(c *commitNode, path string) *origin {
	if o := frontOrigin(c, path); o != nil {
		return o
	}
	return sb.makeOrigin(c, path)
}

// getCandidateOrigin is getOrigin for a -C candidate, which it allocates
// alone (not from a slab) when it makes one: a search makes an origin for
// every candidate and lets go of nearly all of them at once, and the few
// it keeps (blamed) would each keep a whole slab live (-C -C -C on
// go-git's repository.go: 3.2 MB of slabs live at the end).
func (sb *scoreboard) getCandidateOrigin(c *commitNode, path string) *origin {
	if o := frontOrigin(c, path); o != nil {
		return o
	}
	return sb.linkOrigin(c, new(origin), path)
}

// frontOrigin returns the live origin of (c, path), moved to the front of
// c's origin list, or nil.
func frontOrigin(c *commitNode, path string) *origin {
	for i := len(c.origins) - 1; i >= 0; i-- {
		o := c.origins[i]
		if o.path == path {
			if i != len(c.origins)-1 {
				copy(c.origins[i:], c.origins[i+1:])
				c.origins[len(c.origins)-1] = o
			}
			return o
		}
	}
	return nil
}

// makeOrigin creates a new origin at the front of c's list.
func (sb *scoreboard) makeOrigin(c *commitNode, path string) *origin {
	if len(sb.originSlab) == 0 {
		sb.originSlab = make([]origin, slabSize)
	}
	o := &sb.originSlab[0]
	sb.originSlab = sb.originSlab[1:]
	return sb.linkOrigin(c, o, path)
}

// linkOrigin makes o the origin of (c, path) at the front of c's list.
func (sb *scoreboard) linkOrigin(c *commitNode, o *origin, path string) *origin {
	sb.originSeq++
	*o = origin{commit: c, path: path, seq: int32(sb.originSeq)}
	c.origins = append(c.origins, o)
	return o
}

// alive reports whether git still holds a reference to o outside the
// pass at work: an entry (its suspects, or guilty entries in the
// result), a live origin naming it as previous, or, for the final
// origin, setup_scoreboard's. (A pass holds its target and the parents'
// origins it found until it ends, and its -M/-C splits' origins until
// they are distributed: its callers release those when it lets go.)
func (sb *scoreboard) alive(o *origin) bool {
	return o.suspects != nil || o.guilty || o.prevRefs > 0 || o == sb.finalOrigin
}

// release unlinks o from its commit when nothing holds it any more, as
// git frees an origin whose reference count drops to zero, and then the
// origin o named as previous, whose reference it held, and so on. The
// lists then hold what git's hold: a later lookup of the path makes a new
// origin at the front (get_origin), where find_origin would otherwise
// have found the old one without moving it, and the commit's origins
// would be worked on, and their --incremental entries written, in
// another order than git's.
func (sb *scoreboard) release(o *origin) {
	for o != nil && !sb.alive(o) {
		if !unlinkOrigin(o) {
			return // released before
		}
		sb.dropFile(o)
		p := o.previous
		if p == nil {
			return
		}
		p.prevRefs--
		o = p
	}
}

// setPrevious makes p o's previous origin, which o then holds.
func setPrevious(o, p *origin) {
	o.previous = p
	p.prevRefs++
}

// unlinkOrigin removes o from its commit's list; false if it is not
// there.
func unlinkOrigin(o *origin) bool {
	list := o.commit.origins
	for i := len(list) - 1; i >= 0; i-- {
		if list[i] == o {
			copy(list[i:], list[i+1:])
			list[len(list)-1] = nil
			o.commit.origins = list[:len(list)-1]
			return true
		}
	}
	return false
}

// findLiveOrigin returns c's origin for path without reordering the list.
func findLiveOrigin(c *commitNode, path string) *origin {
	for i := len(c.origins) - 1; i >= 0; i-- {
		if c.origins[i].path == path {
			return c.origins[i]
		}
	}
	return nil
}
