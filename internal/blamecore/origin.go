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
	seq    int // creation order, a deterministic stand-in for pointer order

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
	return sb.makeOrigin(c, path)
}

// makeOrigin creates a new origin at the front of c's list.
func (sb *scoreboard) makeOrigin(c *commitNode, path string) *origin {
	sb.originSeq++
	if len(sb.originSlab) == 0 {
		sb.originSlab = make([]origin, slabSize)
	}
	o := &sb.originSlab[0]
	sb.originSlab = sb.originSlab[1:]
	*o = origin{commit: c, path: path, seq: sb.originSeq}
	c.origins = append(c.origins, o)
	return o
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
