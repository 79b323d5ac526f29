package blamecore

// compactSnapshot collapses the runs of whole passes a traced snapshot
// holds. Most of a long walk is commits that did not touch the file: each
// has one origin, reached only by its child's whole pass, that hands every
// line on to its own parent. A snapshot that keeps them all is as large
// as the history (gitoxide's README.md: 9,473 origins, 436 KB), and
// reading it back costs more than the walk it spares.
//
// Such an origin m, between x (whose Whole it is) and y (its Whole), is
// dropped: x's Whole becomes y and x's Skipped gets m's committer date
// (then m's own Skipped). Nothing else can tell m was there: no entry,
// "previous" link or scapegoat names it, no other origin shares its
// commit, and every trail step at m continues a step at x, so the lines
// that reach m are exactly those x hands on. The one thing m did to the
// walk is take its turn in the date-ordered queue, and replay plays that
// from the dates (see replay). A boundary commit is kept: its flag is
// part of the result.
//
// Snapshots that are not traced hold no passes and are left as they are.
//
// It returns, for each commit of the compacted s.Commits, its index
// before, or nil when s.Commits is unchanged: the caller reads the IDs of
// the commits kept only (one from the commit-graph for every commit of
// the walk was 43% of building gitoxide README.md's snapshot).
func compactSnapshot(s *Snapshot) (commitFrom []int) {
	if !s.Traced {
		return nil
	}
	n := len(s.Origins)
	refs := make([]int32, n)
	from := make([]int32, n) // the origin whose Whole it is, or -1
	for i := range from {
		from[i] = -1
	}
	perCommit := make([]int32, len(s.Commits))
	for i, o := range s.Origins {
		perCommit[o.Commit]++
		if o.Previous >= 0 {
			refs[o.Previous]++
		}
		if o.Pass == PassWhole && o.Whole >= 0 {
			refs[o.Whole]++
			from[o.Whole] = int32(i)
		}
		for _, g := range o.Scapegoats {
			if g >= 0 {
				refs[g]++
			}
		}
	}
	for _, p := range s.Pieces {
		refs[p.Origin]++
	}
	gone := make([]bool, n)
	for i, o := range s.Origins {
		gone[i] = i != 0 && refs[i] == 1 && from[i] >= 0 && from[i] != int32(i) &&
			o.Pass == PassWhole && o.Whole >= 0 && o.Whole != i &&
			perCommit[o.Commit] == 1 && !s.Commits[o.Commit].Boundary
	}
	for _, t := range s.Trails {
		if gone[t.Origin] && (t.Prev < 0 || s.Trails[t.Prev].Origin != int(from[t.Origin])) {
			gone[t.Origin] = false
		}
	}
	newOrigin := make([]int, n)
	kept := 0
	for i := range s.Origins {
		newOrigin[i] = -1
		if !gone[i] {
			newOrigin[i] = kept
			kept++
		}
	}
	if kept == n {
		return nil
	}
	remap := func(i int) int {
		if i < 0 {
			return -1
		}
		return newOrigin[i]
	}
	newCommit := make([]int, len(s.Commits))
	for i := range newCommit {
		newCommit[i] = -1
	}
	commits := make([]SnapshotCommit, 0, kept)
	commitFrom = make([]int, 0, kept)
	origins := make([]SnapshotOrigin, 0, kept)
	for i, o := range s.Origins {
		if gone[i] {
			continue
		}
		if o.Pass == PassWhole && o.Whole >= 0 && gone[o.Whole] {
			skipped := append([]uint64(nil), o.Skipped...)
			y := o.Whole
			// A run of dropped origins ends at a kept one (each has one
			// reference, its predecessor's); the bound only guards it.
			for steps := 0; gone[y] && steps <= n; steps++ {
				m := s.Origins[y]
				skipped = append(skipped, s.Commits[m.Commit].Time)
				skipped = append(skipped, m.Skipped...)
				y = m.Whole
			}
			if gone[y] {
				return nil
			}
			o.Whole, o.Skipped = y, skipped
		}
		if newCommit[o.Commit] < 0 {
			newCommit[o.Commit] = len(commits)
			commits = append(commits, s.Commits[o.Commit])
			commitFrom = append(commitFrom, o.Commit)
		}
		o.Commit = newCommit[o.Commit]
		o.Previous, o.Whole = remap(o.Previous), remap(o.Whole)
		if o.Scapegoats != nil {
			sgs := make([]int, len(o.Scapegoats))
			for k, g := range o.Scapegoats {
				sgs[k] = remap(g)
			}
			o.Scapegoats = sgs
		}
		origins = append(origins, o)
	}

	// A trail step at a dropped origin continues one at the origin before
	// it: the steps after it continue the nearest kept one.
	keptAt := make([]int, len(s.Trails)) // the nearest kept step, old index
	newTrail := make([]int, len(s.Trails))
	trails := make([]SnapshotTrail, 0, len(s.Trails))
	for i, t := range s.Trails {
		if gone[t.Origin] {
			keptAt[i], newTrail[i] = keptAt[t.Prev], -1
			continue
		}
		prev := -1
		if t.Prev >= 0 {
			prev = newTrail[keptAt[t.Prev]]
		}
		keptAt[i], newTrail[i] = i, len(trails)
		trails = append(trails, SnapshotTrail{Origin: newOrigin[t.Origin], Prev: prev})
	}
	pieces := make([]SnapshotPiece, len(s.Pieces))
	for i, p := range s.Pieces {
		p.Origin = newOrigin[p.Origin]
		if p.Trail >= 0 {
			p.Trail = newTrail[p.Trail]
		}
		pieces[i] = p
	}
	s.Commits, s.Origins, s.Trails, s.Pieces = commits, origins, trails, pieces
	return commitFrom
}
