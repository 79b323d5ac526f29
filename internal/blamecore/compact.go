package blamecore

// A snapshot is first built as a draft (snapDraft): the origins on the
// ways its pieces came, in a few indexes each, and the commits they
// name. compact then makes the snapshot's records, collapsing on the way
// the runs of whole passes a traced snapshot holds. Most of a long walk
// is commits that did not touch the file: each has one origin, reached
// only by its child's whole pass, that hands every line on to its own
// parent. A snapshot that keeps them all is as large as the history
// (gitoxide's README.md: 9,473 origins, 436 KB), and reading it back
// costs more than the walk it spares. (The records were made for every
// origin first and compacted after: 2 MB of fresh memory, and the
// snapshot of gitoxide README.md took 1.4-1.5 ms, against 1.0-1.3 from
// the draft.)
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
// Snapshots that are not traced hold no passes and are not compacted.

// snapDraft is a snapshot being built (scoreboard.snapshot).
type snapDraft struct {
	origins []draftOrigin
	commits []*commitNode // by draft commit index
	sgs     []int32       // the scapegoats of PassEach origins, by draft origin index (-1: none)
}

// draftOrigin is an origin of a draft: what its SnapshotOrigin will say,
// in draft indexes.
type draftOrigin struct {
	o                       *origin
	commit, previous, whole int32 // previous and whole -1 when none
	sgs, nsgs               int32 // PassEach: its scapegoats are sgs[sgs:sgs+nsgs]
	skipped                 []uint64
	pass                    int8
}

// compact makes s.Origins from the draft, collapsing the runs of whole
// passes when s is traced, and points s.Trails and s.Pieces (made with
// draft origin indexes) at them. It returns the draft indexes of the
// commits s.Commits is to hold, in order. boundary reports a commit's
// boundary flag.
func (d *snapDraft) compact(s *Snapshot, boundary func(*commitNode) bool) []int32 {
	if kept, ok := d.records(s, d.dropped(s, boundary)); ok {
		return kept
	}
	// A run that does not end at a kept origin (cannot happen): left as
	// it is.
	kept, _ := d.records(s, nil)
	return kept
}

// dropped reports the origins a traced snapshot drops, nil for none.
func (d *snapDraft) dropped(s *Snapshot, boundary func(*commitNode) bool) []bool {
	if !s.Traced {
		return nil
	}
	n := len(d.origins)
	refs := make([]int32, n)
	from := make([]int32, n) // the origin whose Whole it is, or -1
	for i := range from {
		from[i] = -1
	}
	perCommit := make([]int32, len(d.commits))
	for i, o := range d.origins {
		perCommit[o.commit]++
		if o.previous >= 0 {
			refs[o.previous]++
		}
		if o.pass == PassWhole && o.whole >= 0 {
			refs[o.whole]++
			from[o.whole] = int32(i)
		}
		for _, g := range d.sgs[o.sgs : o.sgs+o.nsgs] {
			if g >= 0 {
				refs[g]++
			}
		}
	}
	for _, p := range s.Pieces {
		refs[p.Origin]++
	}
	gone := make([]bool, n)
	some := false
	for i, o := range d.origins {
		gone[i] = i != 0 && refs[i] == 1 && from[i] >= 0 && from[i] != int32(i) &&
			o.pass == PassWhole && o.whole >= 0 && o.whole != int32(i) &&
			perCommit[o.commit] == 1 && !boundary(d.commits[o.commit])
		some = some || gone[i]
	}
	for _, t := range s.Trails {
		if gone[t.Origin] && (t.Prev < 0 || s.Trails[t.Prev].Origin != int(from[t.Origin])) {
			gone[t.Origin] = false
		}
	}
	if !some {
		return nil
	}
	return gone
}

// records makes s's origins without those gone (nil: none), as compact
// says; ok is false, and s unchanged, when a run of dropped origins does
// not end at a kept one.
func (d *snapDraft) records(s *Snapshot, gone []bool) (kept []int32, ok bool) {
	n := len(d.origins)
	isGone := func(i int32) bool { return gone != nil && gone[i] }
	newOrigin := make([]int32, n)
	k := int32(0)
	for i := range d.origins {
		newOrigin[i] = -1
		if !isGone(int32(i)) {
			newOrigin[i] = k
			k++
		}
	}
	remap := func(i int32) int {
		if i < 0 {
			return -1
		}
		return int(newOrigin[i])
	}
	newCommit := make([]int32, len(d.commits))
	for i := range newCommit {
		newCommit[i] = -1
	}
	origins := make([]SnapshotOrigin, 0, k)
	for i, o := range d.origins {
		if isGone(int32(i)) {
			continue
		}
		whole, skipped := o.whole, o.skipped
		if o.pass == PassWhole && whole >= 0 && isGone(whole) {
			skipped = append([]uint64(nil), o.skipped...)
			// A run of dropped origins ends at a kept one (each has one
			// reference, its predecessor's); the bound only guards it.
			for steps := 0; isGone(whole) && steps <= n; steps++ {
				m := &d.origins[whole]
				skipped = append(skipped, d.commits[m.commit].date())
				skipped = append(skipped, m.skipped...)
				whole = m.whole
			}
			if isGone(whole) {
				return nil, false
			}
		}
		if newCommit[o.commit] < 0 {
			newCommit[o.commit] = int32(len(kept))
			kept = append(kept, o.commit)
		}
		so := SnapshotOrigin{Commit: int(newCommit[o.commit]), Path: o.o.path, Previous: remap(o.previous), Pass: int(o.pass)}
		if s.Traced {
			so.Whole, so.Skipped = remap(whole), skipped
			if o.pass == PassEach {
				so.Scapegoats = make([]int, o.nsgs)
				for j, g := range d.sgs[o.sgs : o.sgs+o.nsgs] {
					so.Scapegoats[j] = remap(g)
				}
			}
		}
		origins = append(origins, so)
	}
	s.Origins = origins
	if gone != nil {
		// A trail step at a dropped origin continues one at the origin
		// before it: the steps after it continue the nearest kept one.
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
			trails = append(trails, SnapshotTrail{Origin: int(newOrigin[t.Origin]), Prev: prev})
		}
		for i := range s.Pieces {
			if s.Pieces[i].Trail >= 0 {
				s.Pieces[i].Trail = newTrail[s.Pieces[i].Trail]
			}
		}
		s.Trails = trails
	}
	for i := range s.Pieces {
		s.Pieces[i].Origin = int(newOrigin[s.Pieces[i].Origin])
	}
	return kept, true
}
