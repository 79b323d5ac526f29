package blamecore

import (
	"slices"
	"sort"
	"strings"

	"github.com/goblame/goblame/internal/traverse"
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
//
// # Exact snapshots
//
// Under -M, -C and ignored revisions a line's fate depends on the lines
// blamed with it (copies and moves are scored per chunk of suspects,
// ignored lines are matched against their neighbours), so no snapshot
// can stand for another walk. An exact snapshot (Options.Exact) is the
// result of one blame, kept for the same blame again: the same commit,
// path, options and line ranges. Its pieces cover the ranges' lines only
// and keep the ignored and unblamable flags.
//
// # What else an attribution depends on
//
// Rename scoring asks each version's diff driver whether it is binary
// (Options.BinaryAttr), which the attributes and the configuration
// decide, not the history: a snapshot keeps every verdict its walk (and
// the walks it took over) read, and is taken over only while the same
// paths get the same verdicts.
type Snapshot struct {
	// Commit and Path are what was blamed; Blob is Path's blob in
	// Commit and NumLines the number of lines of its final image.
	Commit   oid.ID
	Path     string
	Blob     oid.ID
	NumLines int
	// Exact: the result of exactly one blame (see above).
	Exact bool
	// Ordered: the walk took its commits in strictly decreasing
	// committer date, one origin each (see above).
	Ordered bool
	// Trails are the ways the pieces came (Traced snapshots).
	Trails []SnapshotTrail
	// Traced: every piece has its Path and every origin worked on its
	// Pass, so the walk of any subset can be replayed (trace.go): then
	// the order entries are found in is known without Ordered.
	Traced bool
	// Commits are the commits the origins name; Boundary is git's
	// UNINTERESTING flag at the end of the walk.
	Commits []SnapshotCommit
	// Origins are (commit, path) pairs; Origins[0] is (Commit, Path).
	Origins []SnapshotOrigin
	// Pieces are the guilty entries in the order they were found; their
	// final-image lines partition [0, NumLines).
	Pieces []SnapshotPiece
	// Attrs are the diff drivers' binary verdicts rename scoring read
	// (Options.BinaryAttr), one per path, sorted by path.
	Attrs []SnapshotAttr
}

// SnapshotAttr is the binary verdict of Path's diff driver that a walk
// read: 1 binary, 0 text, -1 left to the content (Options.BinaryAttr).
type SnapshotAttr struct {
	Path   string
	Binary int
}

// SnapshotCommit is a commit of a Snapshot. Body, when not nil, is the
// commit object's text, which blame reads for the details it prints
// (taken from the snapshot, it spares reading the object); it is kept
// for the commits entries name, up to maxSnapshotBody bytes each.
type SnapshotCommit struct {
	ID       oid.ID
	Boundary bool
	Body     []byte
	// Time is the committer date the walk orders commits by.
	Time uint64
}

// maxSnapshotBody is the largest commit text a snapshot keeps.
const maxSnapshotBody = 64 << 10

// SnapshotOrigin is an origin of a Snapshot: indexes into Commits and, for
// Previous, Origins (-1 when it has none).
type SnapshotOrigin struct {
	Commit   int
	Path     string
	Previous int
	// Pass is how the origin handed lines on (Traced snapshots):
	// PassNone (it kept them: a boundary), PassWhole (all to Whole) or
	// PassEach (to each of Scapegoats in order; -1 for a parent without
	// the file).
	Pass       int
	Whole      int
	Scapegoats []int
	// Skipped are the committer dates of the commits a PassWhole went
	// through on its way to Whole, in the order the walk took them:
	// each had this one origin, reached from nothing else, and handed
	// all its lines on to the next (compaction, compact.go). Replaying the
	// walk needs their dates only.
	Skipped []uint64
}

// The kinds of SnapshotOrigin.Pass.
const (
	PassNone = iota
	PassWhole
	PassEach
)

// SnapshotPiece is a guilty entry: NumLines final-image lines from Lno,
// lines from SLno of Origins[Origin].
type SnapshotPiece struct {
	Lno, SLno, NumLines int
	Origin              int
	// Ignored and Unblamable are the entry's --ignore-rev flags (exact
	// snapshots only).
	Ignored, Unblamable bool
	// Trail is the way the lines came (Traced snapshots): an index into
	// Trails, whose chain of Prev leads from Origin back to Origins[0].
	Trail int
}

// SnapshotTrail is a step of the ways lines came: lines at Origin that
// came from Trails[Prev] (-1: the start, Origins[0]). Trails are shared by
// the pieces that went the same way, and Prev is always a smaller index.
type SnapshotTrail struct {
	Origin, Prev int
}

// maxTracePath bounds the trail steps a snapshot holds; a longer trace
// is dropped (the snapshot is then not Traced).
const maxTracePath = 1 << 22

// Bases looks up snapshots for a blame: it returns the snapshot of
// (commit, path) when one is known, else nil. It is asked whenever the
// walk reaches a commit with nothing else left in the queue. With light,
// the blame will neither replay the snapshot's walk nor record one: the
// snapshot may be given without what only those need (Light).
type Bases interface {
	Snapshot(commit oid.ID, path string, light bool) *Snapshot
}

// PathBases is Bases that can tell when it has no snapshot of a path at
// any commit: the walk then stops asking for that path. A cold blame
// asked at nearly every commit of its walk (gitoxide README.md: 9,640
// questions, each a commit ID read from the commit-graph and a lookup,
// 1.2 ms of the walk). HasPath's answer must not change during a blame.
type PathBases interface {
	Bases
	HasPath(path string) bool
}

// mayHaveBase reports whether the blame's Bases may have a snapshot of
// path (PathBases), remembering the answer per path.
func (sb *scoreboard) mayHaveBase(path string) bool {
	pb, ok := sb.opts.Bases.(PathBases)
	if !ok {
		return true
	}
	has, known := sb.basePaths[path]
	if !known {
		if sb.basePaths == nil {
			sb.basePaths = make(map[string]bool)
		}
		has = pb.HasPath(path)
		sb.basePaths[path] = has
	}
	return has
}

// Light returns s without what only replaying or recording a walk needs:
// no trails, scapegoats or skipped dates, and untraced. s is not changed.
func (s *Snapshot) Light() *Snapshot {
	l := *s
	l.Traced, l.Trails = false, nil
	l.Origins = slices.Clone(s.Origins)
	for i := range l.Origins {
		l.Origins[i].Scapegoats, l.Origins[i].Skipped = nil, nil
	}
	l.Pieces = slices.Clone(s.Pieces)
	for i := range l.Pieces {
		l.Pieces[i].Trail = -1
	}
	return &l
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
	trail               *trail
	ignored, unblamable bool
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
	// untraced: entries came from a snapshot without a trace.
	untraced bool
	// attrs are the binary verdicts read (binaryAttr), by path.
	attrs map[string]int
}

// binaryAttr is Options.BinaryAttr's verdict for path (-1 without it),
// kept for the snapshot when the blame records one.
func (sb *scoreboard) binaryAttr(path string) (int, error) {
	if sb.opts.BinaryAttr == nil {
		return -1, nil
	}
	v, err := sb.opts.BinaryAttr(path)
	if err == nil && sb.opts.Record {
		if sb.snap.attrs == nil {
			sb.snap.attrs = make(map[string]int)
		}
		sb.snap.attrs[path] = v
	}
	return v, err
}

// attrList is the verdicts read, sorted by path (nil: none).
func (s *snapshotState) attrList() []SnapshotAttr {
	if len(s.attrs) == 0 {
		return nil
	}
	l := make([]SnapshotAttr, 0, len(s.attrs))
	for p, v := range s.attrs {
		l = append(l, SnapshotAttr{Path: p, Binary: v})
	}
	slices.SortFunc(l, func(a, b SnapshotAttr) int { return strings.Compare(a.Path, b.Path) })
	return l
}

// reusable reports whether this blame's options allow snapshots at all:
// the attribution must depend on the diffs of a line's own history only.
func (sb *scoreboard) reusable() bool {
	o := sb.opts
	return !o.Reverse && !o.Move && o.CopyLevel == 0 && len(o.Ignore) == 0 && !sb.hasBottoms
}

// exact reports whether this blame deals in exact snapshots (Options.Exact).
func (sb *scoreboard) exact() bool {
	return sb.opts.Exact && !sb.opts.Reverse && !sb.hasBottoms
}

// tracing reports whether the blame records the ways lines came (trails
// and passes), which only snapshots that other walks take over need.
func (sb *scoreboard) tracing() bool { return sb.opts.Record && !sb.opts.Exact }

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
	if sb.opts.Bases == nil || c.Uncommitted || !o.blobKnown {
		return false, nil
	}
	// An exact snapshot stands for this same blame only: at its start.
	exact := sb.exact()
	if exact && c != sb.final || !exact && !sb.reusable() || !sb.mayHaveBase(o.path) {
		return false, nil
	}
	// Light: no --incremental order to replay, and no recording (a
	// blame of the snapshot's own commit, or of an uncommitted file).
	light := exact || sb.opts.OnGuilty == nil && (!sb.opts.Record || c == sb.final || sb.final.Uncommitted)
	snap := sb.opts.Bases.Snapshot(sb.id(c), o.path, light)
	if snap == nil || snap.Commit != sb.id(c) || snap.Path != o.path || snap.Blob != o.blob || snap.Exact != exact || !validSnapshot(snap) {
		return false, nil
	}
	// The paths whose diff drivers its rename scoring asked must still
	// give the answers it had (the attributes or the configuration may
	// have changed since).
	for _, a := range snap.Attrs {
		if v, err := sb.binaryAttr(a.Path); err != nil || v != a.Binary {
			return false, nil
		}
	}
	if sb.opts.OnGuilty != nil && !snap.Ordered && !snap.Traced && !snap.Exact {
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
		piece, sus                  int
	}
	// Mostly a cut per piece: the whole file is one suspect.
	cuts := make([]cut, 0, len(snap.Pieces))
	for i := 0; i < len(snap.Pieces); {
		j := i
		for j < len(snap.Pieces) && snap.Pieces[j].Origin == snap.Pieces[i].Origin {
			j++
		}
		group := len(cuts)
		for pi, p := range snap.Pieces[i:j] {
			for l := p.Lno; l < p.Lno+p.NumLines; {
				si := cover[l]
				if si < 0 {
					if snap.Exact {
						return false, nil // not this blame's lines
					}
					l++
					continue
				}
				s := sus[si]
				end := min(p.Lno+p.NumLines, s.sLno+s.numLines)
				cuts = append(cuts, cut{lno: s.lno + (l - s.sLno), sLno: p.SLno + (l - p.Lno), numLines: end - l, origin: p.Origin, piece: i + pi, sus: int(si)})
				l = end
			}
		}
		g := cuts[group:]
		if snap.Exact {
			// The same blame: its pieces in the order it found them.
			i = j
			continue
		}
		sort.SliceStable(g, func(a, b int) bool { return g[a].sLno < g[b].sLno })
		for k := 1; k < len(g); k++ {
			if g[k].sLno == g[k-1].sLno && sb.opts.OnGuilty != nil && !snap.Traced {
				return false, nil
			}
		}
		i = j
	}

	if snap.Exact {
		// Every line suspected, and no other.
		n := 0
		for _, k := range cuts {
			n += k.numLines
		}
		for _, e := range sus {
			n -= e.numLines
		}
		if n != 0 {
			return false, nil
		}
	}

	// A blame that starts from the snapshot's own commit gives the
	// snapshot back, and a blame of an uncommitted file is not kept:
	// neither records. Only a recording blame needs every origin; the
	// others need the origins entries name and their "previous" ones, and
	// (for --incremental) the dates of every commit the lines went by.
	recording := sb.opts.Record && snap.Traced && c != sb.final && !sb.final.Uncommitted
	if !recording {
		sb.snap.unusable = true
	}
	needOrigin := make([]bool, len(snap.Origins))
	needCommit := make([]bool, len(snap.Commits))
	for i := range snap.Origins {
		needOrigin[i] = recording
	}
	for _, k := range cuts {
		needOrigin[k.origin] = true
		if pv := snap.Origins[k.origin].Previous; pv >= 0 {
			needOrigin[pv] = true
		}
	}
	replaying := sb.opts.OnGuilty != nil && snap.Traced
	for i, so := range snap.Origins {
		if needOrigin[i] {
			needCommit[so.Commit] = true
		}
	}
	// Every commit named must be in the repository.
	nodes := make([]*commitNode, len(snap.Commits))
	for i, sc := range snap.Commits {
		if !needCommit[i] {
			continue
		}
		n := c
		if sc.ID != sb.id(c) {
			n = sb.lookupCommit(sc.ID)
			// The commit must exist, which its commit-graph position
			// proves. Its parents are not needed (the walk ends here),
			// and its date, which only a recording blame needs (for the
			// entry it writes), is the snapshot's: what has a position
			// is not parsed.
			if n.tc.GraphPos == traverse.NoGraphPosition {
				if err := sb.parse(n); err != nil {
					return false, nil
				}
			} else if !n.tc.Parsed() {
				n.tc.Time = sc.Time
			}
		}
		// A commit's text is used when it is the commit's (it hashes
		// to the ID), else read from the repository.
		if sc.Body != nil && n.body == nil && !n.Uncommitted && oid.HashObject(sb.format, "commit", sc.Body) == sc.ID {
			n.body = sc.Body
		}
		nodes[i] = n
	}
	if replaying {
		leaves := make([]int, len(cuts))
		sl := make([]int, len(cuts))
		for k, ct := range cuts {
			leaves[k], sl[k] = snap.Pieces[ct.piece].Trail, ct.sLno
		}
		order, ok := replay(snap, leaves, sl)
		if !ok {
			return false, nil
		}
		sorted := make([]cut, len(order))
		for k, ci := range order {
			sorted[k] = cuts[ci]
		}
		cuts = sorted
	}
	origins := make([]*origin, len(snap.Origins))
	for i, so := range snap.Origins {
		switch {
		case i == 0:
			origins[0] = o
		case needOrigin[i]:
			origins[i] = sb.getOrigin(nodes[so.Commit], so.Path)
		}
	}
	for i, so := range snap.Origins {
		if origins[i] != nil && so.Previous >= 0 && origins[i].previous == nil && origins[so.Previous] != nil {
			setPrevious(origins[i], origins[so.Previous])
		}
	}
	for i, sc := range snap.Commits {
		if nodes[i] != nil && sc.Boundary && !sb.uninteresting(nodes[i]) {
			sb.markUninteresting(nodes[i])
		}
	}
	// (c's own pop was noted: the walk so far was ordered if it left
	// the queue in decreasing dates down to c.)
	sb.snap.ordered = sb.snap.ordered && snap.Ordered
	if !snap.Traced {
		sb.snap.untraced = true
	}
	// trailOf is the trail of snapshot trail ti continued from the
	// suspect entry si's trail, made once per pair: a table per suspect
	// indexed by snapshot trail (nearly always one suspect, the whole
	// file), made when that suspect first needs it.
	trails := make([][]*trail, len(sus))
	var chain []int
	trailOf := func(si, ti int) *trail {
		known := trails[si]
		if known == nil {
			known = make([]*trail, len(snap.Trails))
			trails[si] = known
		}
		if t := known[ti]; t != nil {
			return t
		}
		// Up to a known step or the start, then down again.
		chain = chain[:0]
		for x := ti; x >= 0 && known[x] == nil; x = snap.Trails[x].Prev {
			chain = append(chain, x)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			x := chain[k]
			if pv := snap.Trails[x].Prev; pv < 0 {
				known[x] = sus[si].trail // Origins[0] is where the suspect is
			} else {
				known[x] = sb.extendTrail(known[pv], origins[snap.Trails[x].Origin])
			}
		}
		return known[ti]
	}
	if recording {
		at := func(i int) *origin {
			if i < 0 {
				return nil
			}
			return origins[i]
		}
		for i, so := range snap.Origins {
			switch so.Pass {
			case PassWhole:
				sb.notePass(origins[i], at(so.Whole), nil, so.Skipped)
			case PassEach:
				sgs := make([]*origin, len(so.Scapegoats))
				for k, g := range so.Scapegoats {
					sgs[k] = at(g)
				}
				sb.notePass(origins[i], nil, sgs, nil)
			}
		}
	}

	o.suspects = nil
	var found, last *entry
	if sb.opts.Record {
		sb.snap.pieces = slices.Grow(sb.snap.pieces, len(cuts))
	}
	for _, k := range cuts {
		suspect := origins[k.origin]
		e := &entry{lno: k.lno, sLno: k.sLno, numLines: k.numLines, suspect: suspect}
		if snap.Exact {
			p := &snap.Pieces[k.piece]
			e.ignored, e.unblamable = p.Ignored, p.Unblamable
		}
		if recording {
			e.trail = trailOf(k.sus, snap.Pieces[k.piece].Trail)
		}
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
	in := func(i int) bool { return i >= -1 && i < len(s.Origins) }
	for i, o := range s.Origins {
		if o.Commit < 0 || o.Commit >= len(s.Commits) || !in(o.Previous) || o.Previous == i || !in(o.Whole) || o.Pass < PassNone || o.Pass > PassEach {
			return false
		}
		if len(o.Skipped) > 0 && (o.Pass != PassWhole || o.Whole < 0) {
			return false
		}
		for _, g := range o.Scapegoats {
			if !in(g) {
				return false
			}
		}
	}
	for i, t := range s.Trails {
		if t.Origin < 0 || t.Origin >= len(s.Origins) || t.Prev < -1 || t.Prev >= i || t.Prev == -1 && t.Origin != 0 {
			return false
		}
	}
	for _, p := range s.Pieces {
		if s.Traced && (p.Trail < 0 || p.Trail >= len(s.Trails) || s.Trails[p.Trail].Origin != p.Origin) {
			return false
		}
	}
	if s.Commits[s.Origins[0].Commit].ID != s.Commit || s.Origins[0].Path != s.Path {
		return false
	}
	for i, a := range s.Attrs {
		if a.Binary < -1 || a.Binary > 1 || i > 0 && s.Attrs[i-1].Path >= a.Path {
			return false
		}
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
	return s.Exact || n == s.NumLines
}

// record notes a guilty entry for the snapshot.
func (sb *scoreboard) record(e *entry) {
	if sb.opts.Record {
		sb.snap.pieces = append(sb.snap.pieces, recorded{lno: e.lno, sLno: e.sLno, numLines: e.numLines, suspect: e.suspect, trail: e.trail,
			ignored: e.ignored, unblamable: e.unblamable})
	}
}

// snapshot builds the snapshot of a finished whole-file blame, or nil when
// this blame cannot stand for later ones.
func (sb *scoreboard) snapshot(wholeFile bool) *Snapshot {
	exact := sb.exact()
	if !sb.opts.Record || !exact && (!wholeFile || !sb.reusable()) || sb.snap.unusable || sb.final.Uncommitted || sb.finalConverted {
		return nil
	}
	s := &Snapshot{
		Commit:   sb.id(sb.final),
		Path:     sb.path,
		Blob:     sb.finalOrigin.blob,
		NumLines: len(sb.lineStarts) - 1,
		Ordered:  sb.snap.ordered,
		Exact:    exact,
		Attrs:    sb.snap.attrList(),
	}
	// The draft holds every origin the walk made on the ways the pieces
	// came, which is what a traced snapshot of a long walk holds before
	// compaction collapses its runs of whole passes (compact.go): in a
	// few indexes each, the snapshot's records made for those kept only.
	n := sb.originSeq + 1
	d := &snapDraft{origins: make([]draftOrigin, 0, n)}
	// commitIndex[node's Index] is its index in d.commits + 1 (0: not
	// added): a slice by the dense commit numbers instead of a map of
	// every walked commit (15% of building git/git README.md's
	// snapshot, 18,000 commits).
	commitIndex := make([]int32, sb.hist.commits.Len())
	// originIndex[seq] is an origin's index in d.origins + 1 (0: not
	// added).
	originIndex := make([]int32, n)
	var chain []*origin
	add := func(o *origin) int {
		// The previous chain, oldest last, added iteratively.
		chain = chain[:0]
		for p := o; p != nil; p = p.previous {
			if originIndex[p.seq] != 0 {
				break
			}
			chain = append(chain, p)
		}
		for _, p := range chain {
			ci := commitIndex[p.commit.tc.Index] - 1
			if ci < 0 {
				ci = int32(len(d.commits))
				commitIndex[p.commit.tc.Index] = ci + 1
				d.commits = append(d.commits, p.commit)
			}
			originIndex[p.seq] = int32(len(d.origins)) + 1
			d.origins = append(d.origins, draftOrigin{o: p, commit: ci, previous: -1, whole: -1})
		}
		for _, p := range chain {
			if p.previous != nil {
				d.origins[originIndex[p.seq]-1].previous = originIndex[p.previous.seq] - 1
			}
		}
		return int(originIndex[o.seq]) - 1
	}
	add(sb.finalOrigin)
	s.Pieces = make([]SnapshotPiece, len(sb.snap.pieces))
	traced := !sb.snap.untraced && !exact
	if traced {
		s.Trails = make([]SnapshotTrail, 0, sb.rec.numTrails+1)
	}
	var steps []*trail
	for i, p := range sb.snap.pieces {
		s.Pieces[i] = SnapshotPiece{Lno: p.lno, SLno: p.sLno, NumLines: p.numLines, Origin: add(p.suspect), Trail: -1}
		if exact {
			s.Pieces[i].Ignored, s.Pieces[i].Unblamable = p.ignored, p.unblamable
		}
		if !traced {
			continue
		}
		if p.trail == nil || p.trail.o != p.suspect {
			traced = false
			continue
		}
		// The new steps of the trail, oldest first.
		steps = steps[:0]
		t := p.trail
		for ; t != nil; t = t.prev {
			if t.at != 0 {
				break
			}
			steps = append(steps, t)
		}
		if t == nil && (len(steps) == 0 || steps[len(steps)-1].o != sb.finalOrigin) {
			traced = false
			continue
		}
		for k := len(steps) - 1; k >= 0; k-- {
			st := steps[k]
			prev := -1
			if st.prev != nil {
				prev = st.prev.at - 1
			}
			st.at = len(s.Trails) + 1
			s.Trails = append(s.Trails, SnapshotTrail{Origin: add(st.o), Prev: prev})
		}
		if len(s.Trails) > maxTracePath {
			traced = false
			continue
		}
		s.Pieces[i].Trail = p.trail.at - 1
	}
	if traced {
		// The passes of the origins on the paths (those worked on), and
		// the origins they name.
		n := len(d.origins)
		for i := 0; i < n; i++ {
			ps := sb.passOf(d.origins[i].o)
			if ps == nil {
				continue
			}
			if ps.whole != nil {
				w := int32(add(ps.whole))
				d.origins[i].pass, d.origins[i].whole = PassWhole, w
				if ps.more != nil {
					d.origins[i].skipped = ps.more.skipped
				}
				continue
			}
			d.origins[i].pass = PassEach
			d.origins[i].sgs = int32(len(d.sgs))
			for _, g := range ps.more.scapegoats {
				k := int32(-1)
				if g != nil {
					k = int32(add(g))
				}
				d.sgs = append(d.sgs, k)
			}
			d.origins[i].nsgs = int32(len(ps.more.scapegoats))
		}
		s.Traced = true
	} else {
		s.Trails = nil
		for i := range s.Pieces {
			s.Pieces[i].Trail = -1
		}
	}
	kept := d.compact(s, sb.uninteresting)
	s.Commits = make([]SnapshotCommit, len(kept))
	for i, ci := range kept {
		c := d.commits[ci]
		s.Commits[i] = SnapshotCommit{ID: sb.id(c), Boundary: sb.uninteresting(c), Body: c.body, Time: c.date()}
	}
	if !validSnapshot(s) {
		return nil
	}
	return s
}
