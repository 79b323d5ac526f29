package blamecore

import (
	"sort"

	"github.com/goblame/goblame/oid"
)

// A Snapshot is a finished whole-file blame of (Commit, Path), recorded so
// that a later blame can take it over instead of walking the same history
// again: the blame cache stores snapshots.
//
// It holds the guilty entries in the order blame found them (the order of
// --incremental), the origins they name with their "previous" links (the
// whole chain, which --score-debug's reference counts follow), and the
// commits with their boundary flags. Commit details (author, summary) are
// not in it: they are read from the commit objects when the result is
// printed, so the mailmap and the output encoding apply as they do
// without a snapshot.
//
// # Why a snapshot may be reused
//
// Without -M/-C and --ignore-rev, the fate of a line in a blame depends on
// the diffs along its history only, not on which other lines are blamed
// with it: blaming a subset of C's lines attributes each to what C's
// whole-file blame attributes it to, and splits the entries exactly where
// the whole-file blame splits them (and where the subset's own runs end).
// So when a walk reaches a point where everything left to do is C's
// history — C was popped and the queue is otherwise empty — the rest of
// the walk is a subset blame of C, and the snapshot answers it.
//
// The order the entries are found in (what --incremental prints) is the
// order commits leave the date-ordered queue. If C's whole-file walk took
// its commits in strictly decreasing committer date, one origin each
// (Ordered), every edge it followed goes from a newer commit to an older
// one, so any subset walk takes its commits in the same date order; the
// snapshot's order, cut to the subset, is then the subset walk's. Ties or
// clock skew make the order depend on the queue's history: such a
// snapshot still answers blames that do not report entries as found.
type Snapshot struct {
	// Commit and Path are what was blamed; Blob is Path's blob in
	// Commit and NumLines the number of lines of its final image.
	Commit   oid.ID
	Path     string
	Blob     oid.ID
	NumLines int
	// Ordered: the walk took its commits in strictly decreasing
	// committer date, one origin each (see above).
	Ordered bool
	// Commits are the commits the origins name; Boundary is git's
	// UNINTERESTING flag at the end of the walk.
	Commits []SnapshotCommit
	// Origins are (commit, path) pairs; Origins[0] is (Commit, Path).
	Origins []SnapshotOrigin
	// Pieces are the guilty entries in the order they were found; their
	// final-image lines partition [0, NumLines).
	Pieces []SnapshotPiece
}

// SnapshotCommit is a commit of a Snapshot.
type SnapshotCommit struct {
	ID       oid.ID
	Boundary bool
}

// SnapshotOrigin is an origin of a Snapshot: indexes into Commits and, for
// Previous, Origins (-1 when it has none).
type SnapshotOrigin struct {
	Commit   int
	Path     string
	Previous int
}

// SnapshotPiece is a guilty entry: NumLines final-image lines from Lno,
// lines from SLno of Origins[Origin].
type SnapshotPiece struct {
	Lno, SLno, NumLines int
	Origin              int
}

// Bases looks up snapshots for a blame: it returns the snapshot of
// (commit, path) when one is known, else nil. It is asked whenever the
// walk reaches a commit with nothing else left in the queue.
type Bases interface {
	Snapshot(commit oid.ID, path string) *Snapshot
}

// TakeSnapshot returns the result's snapshot when the blame that made it
// can be reused by later blames (see Options.Record), else nil, and drops
// it from the result.
func TakeSnapshot(r *Result) *Snapshot {
	s := r.snapshot
	r.snapshot = nil
	return s
}

// recorded is an entry as it was found, for the snapshot.
type recorded struct {
	lno, sLno, numLines int
	suspect             *origin
}

// snapshotState is the scoreboard's bookkeeping for snapshots: what was
// found, in order, and whether the walk was ordered.
type snapshotState struct {
	pieces []recorded
	// ordered: so far every commit left the queue with a committer date
	// older than the one before it, one origin each.
	ordered  bool
	popped   bool
	lastDate uint64
	// spliced counts the lines taken from a base snapshot (Stats).
	spliced int
	// unusable: something happened that a snapshot cannot stand for
	// (a warning, a textconv conversion).
	unusable bool
}

// reusable reports whether this blame's options allow snapshots at all:
// the attribution must depend on the diffs of a line's own history only.
func (sb *scoreboard) reusable() bool {
	o := sb.opts
	return !o.Reverse && !o.Move && o.CopyLevel == 0 && len(o.Ignore) == 0 && !sb.hasBottoms
}

// notePop records a commit leaving the queue with suspects on origins
// origins.
func (s *snapshotState) notePop(c *commitNode, origins int) {
	if origins != 1 || s.popped && c.date() >= s.lastDate {
		s.ordered = false
	}
	s.popped, s.lastDate = true, c.date()
}

// trySplice answers the rest of the walk from a base snapshot when c, just
// taken from an otherwise empty queue, has one origin with suspects and a
// snapshot is known for it. It reports whether it did.
func (sb *scoreboard) trySplice(c *commitNode, o *origin) (bool, error) {
	if sb.opts.Bases == nil || !sb.reusable() || c.Uncommitted || !o.blobKnown {
		return false, nil
	}
	snap := sb.opts.Bases.Snapshot(c.ID, o.path)
	if snap == nil || snap.Commit != c.ID || snap.Path != o.path || snap.Blob != o.blob || !validSnapshot(snap) {
		return false, nil
	}
	if sb.opts.OnGuilty != nil && !snap.Ordered {
		return false, nil // the order entries are found in is not known
	}
	// Each of the snapshot's lines must be suspected by at most one entry
	// (lines that came to c by two ways make the order between their
	// entries depend on the walk).
	cover := make([]int32, snap.NumLines)
	for i := range cover {
		cover[i] = -1
	}
	var sus []*entry
	for e := o.suspects; e != nil; e = e.next {
		if e.sLno < 0 || e.sLno+e.numLines > snap.NumLines || e.ignored || e.unblamable {
			return false, nil
		}
		for l := e.sLno; l < e.sLno+e.numLines; l++ {
			if cover[l] >= 0 {
				return false, nil
			}
			cover[l] = int32(len(sus))
		}
		sus = append(sus, e)
	}
	// The pieces, cut where the suspects' runs end. The snapshot found
	// each origin's entries at once, in order of their source lines; cut
	// to the suspects, they are put in that order again (a line that
	// reached an origin by two ways can make pieces of two entries
	// interleave), and when two start on the same line the order between
	// them depends on the walk: then only an unordered result is given.
	type cut struct {
		lno, sLno, numLines, origin int
	}
	var cuts []cut
	for i := 0; i < len(snap.Pieces); {
		j := i
		for j < len(snap.Pieces) && snap.Pieces[j].Origin == snap.Pieces[i].Origin {
			j++
		}
		group := len(cuts)
		for _, p := range snap.Pieces[i:j] {
			for l := p.Lno; l < p.Lno+p.NumLines; {
				si := cover[l]
				if si < 0 {
					l++
					continue
				}
				s := sus[si]
				end := min(p.Lno+p.NumLines, s.sLno+s.numLines)
				cuts = append(cuts, cut{lno: s.lno + (l - s.sLno), sLno: p.SLno + (l - p.Lno), numLines: end - l, origin: p.Origin})
				l = end
			}
		}
		g := cuts[group:]
		sort.SliceStable(g, func(a, b int) bool { return g[a].sLno < g[b].sLno })
		for k := 1; k < len(g); k++ {
			if g[k].sLno == g[k-1].sLno && sb.opts.OnGuilty != nil {
				return false, nil
			}
		}
		i = j
	}

	// Every commit named must be in the repository.
	nodes := make([]*commitNode, len(snap.Commits))
	for i, sc := range snap.Commits {
		n := c
		if sc.ID != c.ID {
			n = sb.lookupCommit(sc.ID)
			if err := sb.parse(n); err != nil {
				return false, nil
			}
		}
		nodes[i] = n
	}
	origins := make([]*origin, len(snap.Origins))
	for i, so := range snap.Origins {
		if i == 0 {
			origins[0] = o
			continue
		}
		origins[i] = sb.getOrigin(nodes[so.Commit], so.Path)
	}
	for i, so := range snap.Origins {
		if so.Previous >= 0 && origins[i].previous == nil {
			origins[i].previous = origins[so.Previous]
		}
	}
	for i, sc := range snap.Commits {
		if sc.Boundary && !sb.uninteresting(nodes[i]) {
			sb.markUninteresting(nodes[i])
		}
	}
	// (c's own pop was noted: the walk so far was ordered if it left
	// the queue in decreasing dates down to c.)
	sb.snap.ordered = sb.snap.ordered && snap.Ordered

	o.suspects = nil
	var found, last *entry
	for _, k := range cuts {
		suspect := origins[k.origin]
		e := &entry{lno: k.lno, sLno: k.sLno, numLines: k.numLines, suspect: suspect}
		suspect.guilty = true
		if sb.opts.OnGuilty != nil {
			c := suspect.commit
			c.Boundary = sb.uninteresting(c)
			sb.opts.OnGuilty(sb.publicEntry(e))
		}
		sb.record(e)
		sb.snap.spliced += e.numLines
		if last == nil {
			found = e
		} else {
			last.next = e
		}
		last = e
	}
	if last != nil {
		last.next = sb.ent
		sb.ent = found
	}
	sb.stats.Spliced = sb.snap.spliced
	return true, nil
}

// validSnapshot checks a snapshot's internal consistency: every index in
// range, origin 0 is what was blamed, and the pieces partition the lines.
func validSnapshot(s *Snapshot) bool {
	if s.NumLines < 0 || len(s.Origins) == 0 || len(s.Commits) == 0 {
		return false
	}
	for i, o := range s.Origins {
		if o.Commit < 0 || o.Commit >= len(s.Commits) || o.Previous < -1 || o.Previous >= len(s.Origins) || o.Previous == i {
			return false
		}
	}
	if s.Commits[s.Origins[0].Commit].ID != s.Commit || s.Origins[0].Path != s.Path {
		return false
	}
	seen := make([]bool, s.NumLines)
	n := 0
	for _, p := range s.Pieces {
		if p.Origin < 0 || p.Origin >= len(s.Origins) || p.NumLines <= 0 || p.Lno < 0 || p.SLno < 0 || p.Lno+p.NumLines > s.NumLines {
			return false
		}
		for l := p.Lno; l < p.Lno+p.NumLines; l++ {
			if seen[l] {
				return false
			}
			seen[l] = true
		}
		n += p.NumLines
	}
	return n == s.NumLines
}

// record notes a guilty entry for the snapshot.
func (sb *scoreboard) record(e *entry) {
	if sb.opts.Record {
		sb.snap.pieces = append(sb.snap.pieces, recorded{lno: e.lno, sLno: e.sLno, numLines: e.numLines, suspect: e.suspect})
	}
}

// snapshot builds the snapshot of a finished whole-file blame, or nil when
// this blame cannot stand for later ones.
func (sb *scoreboard) snapshot(wholeFile bool) *Snapshot {
	if !sb.opts.Record || !wholeFile || !sb.reusable() || sb.snap.unusable || sb.final.Uncommitted || sb.finalConverted {
		return nil
	}
	s := &Snapshot{
		Commit:   sb.final.ID,
		Path:     sb.path,
		Blob:     sb.finalOrigin.blob,
		NumLines: len(sb.lineStarts) - 1,
		Ordered:  sb.snap.ordered,
	}
	commitIndex := make(map[*commitNode]int)
	originIndex := make(map[*origin]int)
	add := func(o *origin) int {
		// The previous chain, oldest last, added iteratively.
		var chain []*origin
		for p := o; p != nil; p = p.previous {
			if _, ok := originIndex[p]; ok {
				break
			}
			chain = append(chain, p)
		}
		for _, p := range chain {
			ci, ok := commitIndex[p.commit]
			if !ok {
				ci = len(s.Commits)
				commitIndex[p.commit] = ci
				s.Commits = append(s.Commits, SnapshotCommit{ID: p.commit.ID})
			}
			originIndex[p] = len(s.Origins)
			s.Origins = append(s.Origins, SnapshotOrigin{Commit: ci, Path: p.path, Previous: -1})
		}
		for _, p := range chain {
			if p.previous != nil {
				s.Origins[originIndex[p]].Previous = originIndex[p.previous]
			}
		}
		return originIndex[o]
	}
	add(sb.finalOrigin)
	s.Pieces = make([]SnapshotPiece, len(sb.snap.pieces))
	for i, p := range sb.snap.pieces {
		s.Pieces[i] = SnapshotPiece{Lno: p.lno, SLno: p.sLno, NumLines: p.numLines, Origin: add(p.suspect)}
	}
	for c, i := range commitIndex {
		s.Commits[i].Boundary = sb.uninteresting(c)
	}
	if !validSnapshot(s) {
		return nil
	}
	return s
}
