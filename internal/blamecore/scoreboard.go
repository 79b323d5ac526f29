package blamecore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/goblame/goblame/diff"
	"github.com/goblame/goblame/internal/sparse"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// commitNode is the scoreboard's view of one commit.
type commitNode struct {
	// The walk's flags, as the public record (Commit) has them. The
	// commit's ID is not kept here: sb.id reads it (from the
	// commit-graph) for the few commits that need it.
	Boundary, MultiplePaths, Uncommitted bool
	// treeRead: the walk has looked a path up in the commit's tree, so
	// the repository has it (lookUp asks no more).
	treeRead bool
	// visits counts the origins of the commit assign has taken lines
	// from (see assign's bound).
	visits int32
	// pub is the detached copy handed to callers (publicCommit): it
	// holds no reference into the scoreboard, so a kept Result keeps
	// only its own records alive.
	pub *Commit

	tc *traverse.Commit

	// origins is the commit's list of live origins; the front of git's
	// list is the end of this slice.
	origins []*origin

	// body is the commit's text when a snapshot brought it or a
	// recording blame read it (see commitInfo), and the pseudo commit's
	// made-up text (working-tree blame).
	body []byte

	// Room for the common case of one origin, so that a walk does not
	// allocate a small slice per commit.
	origin1 [1]*origin
}

// slabSize is how many nodes or origins the scoreboard allocates at once:
// a walk creates one node and about two origins per commit, and a slab
// costs one allocation instead of hundreds.
const slabSize = 256

// scoreboard holds the state of one blame run (git's blame_scoreboard).
type scoreboard struct {
	ctx    context.Context
	hist   *History
	format oid.Format
	opts   *Options
	marks  *traverse.Marks

	// nodes maps a traverse.Commit.Index to its node's number plus
	// one (0: none yet); the nodes are numbered as made, in nodeSlabs.
	// The table holds no pointers, so that no collection scans it, and
	// comes in chunks made as they are written (internal/sparse): the
	// Index of a commit counts the commits looked up before it, which
	// with a commit-graph can be most of the graph's (git/git: 85,000).
	nodes      sparse.Table
	nodeSlabs  [][]commitNode // every slab of nodes, in order
	nodeSlab   []commitNode   // nodes not yet handed out
	made       uint32         // nodes made
	originSlab []origin       // origins not yet handed out
	queue      commitQueue
	originSeq  int

	final       *commitNode
	finalOrigin *origin
	path        string
	index       []IndexEntry
	indexFunc   func(oid.ID) []IndexEntry // makes index when first needed
	beforeDiff  func() error              // WorkTree.BeforeDiff
	finalBuf    []byte
	lineStarts  []int
	// finalConverted: the final image went through textconv.
	finalConverted bool
	// finalRecovered: what git printed making the final blob from a
	// delta base it read from another copy (History.recovered)
	finalRecovered []string

	// ent collects guilty entries (unsorted until the end).
	ent *entry

	differ    *diff.Differ
	diffOpts  diff.Options
	freeBufs  [][]byte     // recycled blob buffers
	freeFiles []*diff.File // recycled prepared files
	// fingerprints are --ignore-rev's per-line fingerprints of the
	// files of origins being worked on (fingerprintsOf).
	fingerprints map[*origin][]fingerprint
	// heldReads are the origins whose blob git holds (its read was
	// counted, git's o->file is set) though goblame has none: a -C
	// candidate whose remembered blob the prefilter had let go keeps
	// only its summary (candidateBlob). A later read of one is not
	// counted again (num read blob), until dropFile, where git drops
	// the blob too. (An origin whose file is set needs no entry.)
	heldReads map[*origin]bool
	entFiles  []*diff.File // prepared entry texts for -M/-C

	// candidates remembers -C candidate blobs by ID (see candidateBlob).
	candidates     map[candidateKey]*candidate
	prefetchDone   chan struct{}
	prefetchSet    []string // paths of the blobs read ahead, in order
	prefetchPos    int
	candidateBytes int
	candidateTick  int64
	// copyRound numbers the -C searches (findCopyInParent calls);
	// copyRoundBytes is what the candidates of the current one hold and
	// copyRoundMax the most any one held (candidateBudget).
	copyRound       int64
	copyRoundBytes  int
	copyRoundMax    int
	copyKeys        lineKeys     // the lines a -C round looks for (copyfilter.go)
	blobLines       diff.LineSet // the lines of the blob -M/-C diffs entries against (entryMayHoldRun)
	originCandidate candidate    // candidateBlob's answer for an origin's own blob
	hunks           []diff.Hunk
	bloomKeys       map[string]*traverse.BloomKey // by origin path
	lastBloomPath   string                        // bloomKey's last answer
	lastBloomKey    *traverse.BloomKey
	useBloom        bool
	// filterPaths are, under --simplify-by-decoration, git's keys of the
	// changed-path filters: the blamed path and the paths the walk found
	// renamed from (see maybeChanged).
	filterPaths []string
	// indexWalk is WorkTree.IndexWalk.
	indexWalk *IndexWalk
	// diffCacheChecked holds the parent trees checkDiffCacheTree has
	// checked.
	diffCacheChecked []oid.ID
	// isDecorated tells the commits refs name, once loaded
	// (--simplify-by-decoration: scoreboard.decorated).
	isDecorated func(oid.ID) bool

	ignore map[oid.ID]bool
	// hasBottoms: the command line named a range bottom (^A, A..B) or
	// an ancestry path.
	hasBottoms bool
	// aheadWanted: the path look-ahead was due when the blame had one
	// processor (lookAhead).
	aheadWanted bool
	snap        snapshotState
	// basePaths remembers PathBases.HasPath by path (mayHaveBase).
	basePaths map[string]bool
	// rec is what a recording blame keeps for its snapshot: trails and
	// passes (see trace.go).
	rec recording

	stats Stats
	err   error // first fatal error
}

// node returns the scoreboard's node for a traverse commit.
func (sb *scoreboard) node(tc *traverse.Commit) *commitNode {
	i := tc.Index
	if k := sb.nodes.Get(i); k != 0 {
		return sb.nodeAt(k - 1)
	}
	if len(sb.nodeSlab) == 0 {
		sb.nodeSlab = make([]commitNode, slabSize)
		sb.nodeSlabs = append(sb.nodeSlabs, sb.nodeSlab)
	}
	n := &sb.nodeSlab[0]
	sb.nodeSlab = sb.nodeSlab[1:]
	n.tc = tc
	n.origins = n.origin1[:0]
	sb.made++
	sb.nodes.Set(i, sb.made)
	return n
}

// nodeAt returns the k-th node made (from 0).
func (sb *scoreboard) nodeAt(k uint32) *commitNode {
	return &sb.nodeSlabs[k/slabSize][k%slabSize]
}

// id returns the ID of a commit.
func (sb *scoreboard) id(c *commitNode) oid.ID { return sb.hist.commits.ID(c.tc) }

// lookupCommit returns the node for id, creating an unparsed one.
func (sb *scoreboard) lookupCommit(id oid.ID) *commitNode {
	return sb.node(sb.hist.commits.Lookup(id))
}

// parse fills a commit's tree, parents and date (git's parse_commit).
func (sb *scoreboard) parse(c *commitNode) error {
	if c.tc.Parsed() {
		return nil
	}
	return sb.hist.commits.Parse(c.tc)
}

// parseTip parses a commit a revision names as git's revision parsing
// did: from its object when the first tip naming it says so (a range's
// end, through a tag), else as parse does.
func (sb *scoreboard) parseTip(c *commitNode, tips []traverse.Tip) error {
	for _, t := range tips {
		if t.ID == sb.id(c) {
			if t.FromObject {
				return sb.hist.commits.ParseObject(c.tc)
			}
			break
		}
	}
	return sb.parse(c)
}

func (c *commitNode) date() uint64 { return c.tc.Time }

// uninteresting reports git's UNINTERESTING flag (a boundary commit).
func (sb *scoreboard) uninteresting(c *commitNode) bool { return sb.marks.Uninteresting(c.tc) }

// markUninteresting sets the flag that makes a commit a boundary.
func (sb *scoreboard) markUninteresting(c *commitNode) {
	sb.marks.SetUninteresting(c.tc)
	c.Boundary = true
}

// markParentsUninteresting propagates UNINTERESTING to the parents known
// so far, recursing through commits that are already parsed (git's
// mark_parents_uninteresting).
func (sb *scoreboard) markParentsUninteresting(c *commitNode) {
	sb.marks.MarkParentsUninteresting(c.tc)
}

// parseFailed handles a parent that cannot be parsed as git's
// parse_commit does: a missing or malformed commit is reported as an
// error line and skipped; damage to the object database is fatal.
func (sb *scoreboard) parseFailed(c *commitNode, err error) error {
	return sb.reportUnparsed(sb.id(c), err)
}

// reportUnparsed writes what git's parse_commit says of commit id, which
// could not be parsed (err), and returns nil; or returns the error where
// git dies of it (damage to the object database).
func (sb *scoreboard) reportUnparsed(id oid.ID, err error) error {
	var corrupt *odb.CorruptError
	var format *object.FormatError
	var unusable *odb.LookupError
	switch {
	case errors.As(err, &unusable):
		// Only a pack git cannot use could hold it: git says so at its
		// lookups and goes on without the commit. (git repeats the
		// pack's line at every lookup that reaches the pack, which
		// depends on the order its packs were last used in: the count
		// is not modelled.)
		for _, l := range odb.LookupLines(err, 1) {
			sb.warn(l)
		}
		sb.warn("error: Could not read " + id.String())
	case errors.As(err, &corrupt):
		return err
	case errors.Is(err, odb.ErrNotFound):
		sb.warn("error: Could not read " + id.String())
	case errors.Is(err, traverse.ErrNotCommit):
		sb.warn("error: Object " + id.String() + " not a commit")
	case errors.As(err, &format) && strings.Contains(format.Msg, "parent"):
		sb.warn("error: bad parents in commit " + id.String())
	case errors.As(err, &format):
		sb.warn("error: bogus commit object " + id.String())
	default:
		return err
	}
	return nil
}

func (sb *scoreboard) warn(line string) {
	sb.snap.unusable = true
	if sb.opts.Warn != nil {
		sb.opts.Warn(line)
	}
}

// scapegoats returns the commits blame is passed to: parents (cut to the
// first with --first-parent) or, in reverse mode, children. Their nodes
// are made as a pass comes to them (sb.node): a whole pass to the first
// parent of a merge makes none for the second (go-git's Makefile: a
// thousand of its 1,500 commits walked are merges, 80 KB of nodes).
func (sb *scoreboard) scapegoats(c *commitNode) []*traverse.Commit {
	if sb.opts.Reverse {
		return sb.marks.Children(c.tc)
	}
	if sb.opts.FirstParent && len(c.tc.Parents) > 1 {
		c.tc.Parents = c.tc.Parents[:1]
	}
	return c.tc.Parents
}

// queueBlames merges sorted into porigin's suspects and queues its commit
// if none of the commit's origins had suspects (git's queue_blames). The
// commit is queued even for an empty list.
func (sb *scoreboard) queueBlames(porigin *origin, sorted *entry) {
	if sb.tracing() {
		// Entries handed on together mostly came the same way: one
		// lookup per run of equal trails.
		var from, to *trail
		for e := sorted; e != nil; e = e.next {
			if e.trail != from || to == nil {
				from, to = e.trail, sb.extendTrail(e.trail, porigin)
			}
			e.trail = to
		}
	}
	if porigin.suspects != nil {
		porigin.suspects = mergeBySLno(porigin.suspects, sorted)
		return
	}
	for _, o := range porigin.commit.origins {
		if o.suspects != nil {
			porigin.suspects = sorted
			return
		}
	}
	porigin.suspects = sorted
	sb.queue.put(porigin.commit)
}

// fillBlob reads an origin's blob into its file cache (git's
// fill_origin_blob, which counts every read).
func (sb *scoreboard) fillBlob(o *origin) ([]byte, error) {
	if o.file != nil {
		return o.file, nil
	}
	if !sb.heldReads[o] { // (git's blob is still loaded: not read again)
		sb.stats.ReadBlobs++
	}
	if o == sb.finalOrigin && !sb.final.Uncommitted && !sb.finalConverted {
		// The final image is this blob; git reads it again, goblame
		// shares the bytes (never recycled), and prints again what
		// git printed making it from a base read elsewhere.
		sb.hist.warnAgain(sb.finalRecovered)
		o.file = sb.finalBuf
		return o.file, nil
	}
	data, err := sb.hist.blobInto(o.blob, sb.getBuf())
	if err != nil {
		if o.blob != oid.EmptyBlob(sb.format) {
			return nil, &BlobError{ID: o.blob, Path: o.path, Err: err}
		}
		data = []byte{}
	}
	if data == nil {
		data = []byte{}
	}
	if sb.opts.TextConv != nil {
		conv, err := sb.opts.TextConv(o.path, o.mode, data)
		if err != nil {
			return nil, err
		}
		if conv != nil {
			sb.snap.unusable = true
			if len(sb.freeBufs) < 8 {
				sb.freeBufs = append(sb.freeBufs, data[:0])
			}
			o.file = conv
			return conv, nil
		}
	}
	o.file = data
	o.fileOwned = true
	return data, nil
}

// prepared returns o's blob prepared for diffing, preparing it next to
// near (a version likely to share most lines) the first time.
func (sb *scoreboard) prepared(o *origin, near *diff.File) (*diff.File, error) {
	if o.prep != nil {
		return o.prep, nil
	}
	var f *diff.File
	if n := len(sb.freeFiles); n > 0 {
		f = sb.freeFiles[n-1]
		sb.freeFiles = sb.freeFiles[:n-1]
	}
	f, err := sb.differ.PrepareNear(f, o.file, near, sb.diffOpts)
	if err != nil {
		return nil, err
	}
	o.prep = f
	return f, nil
}

// dropFile forgets an origin's blob and prepared lines (git's
// drop_origin_blob), recycling the buffers.
func (sb *scoreboard) dropFile(o *origin) {
	if o.fileOwned && o.file != nil && len(sb.freeBufs) < 8 {
		sb.freeBufs = append(sb.freeBufs, o.file[:0])
	}
	if o.prep != nil && len(sb.freeFiles) < 8 {
		sb.freeFiles = append(sb.freeFiles, o.prep)
	}
	o.file, o.fileOwned, o.prep = nil, false, nil
	if sb.fingerprints != nil {
		delete(sb.fingerprints, o)
	}
	if sb.heldReads != nil {
		delete(sb.heldReads, o)
	}
}

// getBuf returns a recycled blob buffer (nil when there is none).
func (sb *scoreboard) getBuf() []byte {
	n := len(sb.freeBufs)
	if n == 0 {
		return nil
	}
	b := sb.freeBufs[n-1]
	sb.freeBufs = sb.freeBufs[:n-1]
	return b
}

// longWalkCommits is when a walk counts as long (Options.OnLongWalk): a
// cold walk takes its first commits in well under a millisecond, and a
// blame one commit past a cached entry takes two. The path look-ahead is
// considered every longWalkCommits commits from there. It was 16; at 32
// the walks of 17 to 31 commits no longer pay the command line's
// huge-page start, its second processor and the look-ahead's start for
// the few commits left (paired rounds against 16, ms: redis JetBrains
// src/cluster.c, 17 commits, -0.21 [-0.50, -0.12] of 5.1; go-git
// worktree.go -0.36 [-0.63, -0.02] of 8.4; Magit's -L 1,60 Makefile
// -0.15 [-0.26, -0.09] of 3.2; gitoxide GitLens README.md -2.09 [-3.82,
// -1.02] of 19, its first entry -0.39 [-0.69, -0.25]; no longer walk
// was slower: git/git README.md -0.05 [-0.62, +0.43], diff.c -4.5 [-17.0,
// +6.2] of 222, -C builtin/blame.c, vim and gitoxide README.md, with and
// without a commit-graph, within their noise). At 64 gitoxide's README.md
// took 6.5 ms longer of 16 and go-git's 0.36 longer of 4.3 than at 32.
const longWalkCommits = 32

// assign is the main loop (git's assign_blame).
func (sb *scoreboard) assign() error {
	for taken := 0; ; taken++ {
		if err := sb.ctx.Err(); err != nil {
			return err
		}
		c := sb.queue.get()
		if c == nil {
			return nil
		}
		if taken == longWalkCommits && sb.opts.OnLongWalk != nil {
			sb.opts.OnLongWalk()
		}
		if taken >= longWalkCommits && taken%longWalkCommits == 0 {
			sb.lookAhead(c, taken)
		}
		sb.hist.trees.WalkAt(c.date())
		sb.hist.commits.WalkAt(c.date())
		if n := originsWithSuspects(c); n > 0 {
			sb.snap.notePop(c, n)
			if n == 1 && len(sb.queue.items) == 0 {
				if done, err := sb.trySplice(c, firstWithSuspects(c)); err != nil || done {
					if err != nil {
						return err
					}
					continue
				}
			}
		}
		// Process every origin of c that has suspects, front first,
		// before taking the next commit.
		for {
			suspect := firstWithSuspects(c)
			if suspect == nil {
				break
			}
			// Lines move from a commit to its parents only, so in a
			// history without cycles no line comes to a commit twice,
			// and each origin taken here brings lines new to c: more
			// visits than the final image has lines mean that c is its
			// own ancestor (objects whose contents name commits that
			// lead back to them), where git loops for ever.
			if c.visits++; int(c.visits) > max(len(sb.lineStarts)-1, 1) {
				return &traverse.LoopError{Commit: sb.id(c)}
			}
			if err := sb.parse(c); err != nil {
				return fmt.Errorf("could not parse commit %s: %w", sb.id(c), err)
			}
			if sb.opts.Reverse || (!sb.uninteresting(c) && !(sb.opts.HasSince && c.date() < sb.opts.Since)) {
				if err := sb.passBlame(suspect); err != nil {
					return err
				}
			} else {
				sb.markUninteresting(c)
				sb.markParentsUninteresting(c)
			}
			if len(c.tc.Parents) == 0 && !sb.opts.ShowRoot {
				sb.markUninteresting(c)
			}
			if suspect.commit != c {
				continue // moved whole to a parent (moveWhole): nothing of it is left here
			}
			if e := suspect.suspects; e != nil {
				suspect.guilty = true
				if c.tc.GraphPos != traverse.NoGraphPosition {
					sb.hist.trees.Blamed(c.tc.GraphPos)
				}
				last := e
				for {
					if sb.opts.OnGuilty != nil {
						c.Boundary = sb.uninteresting(c)
						sb.opts.OnGuilty(sb.publicEntry(last))
					}
					sb.record(last)
					if last.next == nil {
						break
					}
					last = last.next
				}
				last.next = sb.ent
				sb.ent = suspect.suspects
				suspect.suspects = nil
			}
			// git's reference from assign_blame's loop ends here.
			sb.release(suspect)
			if sb.err != nil {
				return sb.err
			}
		}
	}
}

// originsWithSuspects counts c's origins that have suspects.
func originsWithSuspects(c *commitNode) int {
	n := 0
	for _, o := range c.origins {
		if o.suspects != nil {
			n++
		}
	}
	return n
}

func firstWithSuspects(c *commitNode) *origin {
	for i := len(c.origins) - 1; i >= 0; i-- {
		if c.origins[i].suspects != nil {
			return c.origins[i]
		}
	}
	return nil
}

// passBlame passes the blame for origin's suspects to its scapegoats
// (git's pass_blame).
func (sb *scoreboard) passBlame(o *origin) error {
	c := o.commit
	sgs := sb.scapegoats(c)
	var blamed *entry // -M/-C results, distributed at the end
	var toosmall *entry
	sgOrigins := make([]*origin, len(sgs))
	// The parents' origins the pass finds are git's sg_origin
	// references, let go when it ends, and so are those it lets go at
	// once (a blob identical to an earlier parent's): released.
	var released []*origin

	finish := func() {
		sb.distribute(blamed)
		if toosmall != nil {
			t := toosmall
			for t.next != nil {
				t = t.next
			}
			t.next = o.suspects
			o.suspects = toosmall
		}
		for _, p := range sgOrigins {
			if p != nil {
				if p.suspects == nil {
					sb.dropFile(p)
				}
				sb.release(p)
			}
		}
		sb.dropFile(o)
		for _, p := range released {
			sb.release(p)
		}
	}
	if len(sgs) == 0 {
		sb.notePass(o, nil, nil, nil)
		finish()
		return nil
	}

	passes := 2
	if sb.opts.NoFollow {
		passes = 1
	}
	for pass := 0; pass < passes; pass++ {
		for i, tp := range sgs {
			if sgOrigins[i] != nil {
				continue
			}
			p := sb.node(tp)
			if err := sb.parse(p); err != nil {
				if err := sb.parseFailed(p, err); err != nil {
					return err
				}
				continue
			}
			var look parentLookup
			if pass == 0 && i == 0 && sb.moveWhole(p, o, &look) {
				return nil
			}
			var porigin *origin
			var err error
			if pass == 0 {
				porigin, err = sb.findOrigin(p, o, &look)
			} else {
				porigin, err = sb.findRename(p, o)
			}
			if err != nil {
				return err
			}
			if porigin == nil {
				continue
			}
			if porigin.blob == o.blob {
				sb.notePass(o, porigin, nil, nil)
				sb.passWholeBlame(o, porigin)
				finish()
				return nil
			}
			same := false
			for j := 0; j < i; j++ {
				if sgOrigins[j] != nil && sgOrigins[j].blob == porigin.blob {
					same = true
					break
				}
			}
			if !same {
				sgOrigins[i] = porigin
			} else {
				released = append(released, porigin)
			}
		}
	}

	sb.stats.Commits++
	sb.notePass(o, nil, sgOrigins, nil)
	for i := range sgs {
		porigin := sgOrigins[i]
		if porigin == nil {
			continue
		}
		if o.previous == nil {
			setPrevious(o, porigin)
		}
		if err := sb.passToParent(o, porigin, false); err != nil {
			return err
		}
		if o.suspects == nil {
			finish()
			return nil
		}
	}

	if len(sb.ignore) > 0 && sb.ignore[sb.id(c)] {
		for i := range sgs {
			porigin := sgOrigins[i]
			if porigin == nil {
				continue
			}
			if err := sb.passToParent(o, porigin, true); err != nil {
				return err
			}
			sb.dropFile(porigin)
			if o.suspects == nil {
				finish()
				return nil
			}
		}
	}

	if sb.opts.Move {
		sb.filterSmall(&toosmall, &o.suspects, sb.opts.moveScore())
		if o.suspects != nil {
			for i := range sgs {
				porigin := sgOrigins[i]
				if porigin == nil {
					continue
				}
				if err := sb.findMoveInParent(&blamed, &toosmall, o, porigin); err != nil {
					return err
				}
				if o.suspects == nil {
					break
				}
			}
		}
	}

	if sb.opts.CopyLevel > 0 {
		copyScore, moveScore := sb.opts.copyScore(), sb.opts.moveScore()
		if copyScore > moveScore {
			sb.filterSmall(&toosmall, &o.suspects, copyScore)
		} else if copyScore < moveScore {
			o.suspects = mergeBySLno(o.suspects, toosmall)
			toosmall = nil
			sb.filterSmall(&toosmall, &o.suspects, copyScore)
		}
		if o.suspects == nil {
			finish()
			return nil
		}
		for i, p := range sgs {
			if err := sb.findCopyInParent(&blamed, &toosmall, o, sb.node(p), sgOrigins[i]); err != nil {
				return err
			}
			if o.suspects == nil {
				break
			}
		}
	}
	finish()
	return nil
}

// moveWhole is passBlame's whole pass to its first scapegoat when the
// path did not change there (its changed-path filter says so, or, where
// there is no filter or it says "maybe", the parent's tree has o's blob
// and mode at the path), made by moving o to the parent instead of
// making the parent's origin and pointing each of o's suspects at it:
// what git does there (get_origin for the parent, then
// pass_whole_blame, then o's last reference let go) leaves exactly o
// with the next creation number in the parent's list, holding o's
// suspects, blob and lines. It applies where nothing but the suspects
// holds o (no origin names it as previous, no entry is blamed on it, it
// is not the final origin) and the parent has no origin of the path
// yet, and only to walks that keep no record of origins (no snapshot,
// no cache to splice from, no ignored revisions, not --reverse). -M and
// -C do not stand in its way: git's pass_blame makes a whole pass before
// it looks for moves or copies, and returns. (Go-git's Magit blame, -M
// -L 1,60 Makefile: 1,479 whole moves, 60 page faults fewer, for
// origins that were each a new 144 bytes of a heap that no collection
// reuses.) Most of a long walk is such passes: gitoxide README.md
// makes 9,000 of them, each an origin (1.2 MB in all) and a pass over
// the suspects; without a commit-graph git/git's diff.c spent 6% of its
// time pointing suspects at new origins. It reports whether it made the
// pass; what it learned (the filter's answer, the tree entry) stays in
// look for findOrigin.
func (sb *scoreboard) moveWhole(parent *commitNode, o *origin, look *parentLookup) bool {
	c := o.commit
	if sb.opts.Record || sb.opts.Bases != nil ||
		sb.opts.Reverse || len(sb.ignore) > 0 || c.Uncommitted ||
		sb.opts.SimplifyByDecoration { // (findOriginInTrees)
		return false
	}
	if o.prevRefs > 0 || o.guilty || o == sb.finalOrigin || o.previous != nil || o.suspects == nil {
		return false
	}
	if findLiveOrigin(parent, o.path) != nil {
		return false
	}
	if !sb.unchangedToFirstParent(parent, o, &look.filter) {
		// A failed lookup is findOrigin's to report.
		if err := sb.lookUp(parent, o, look); err != nil || !look.found || look.mode != o.mode || look.id != o.blob {
			return false
		}
	}
	if !unlinkOrigin(o) {
		return false
	}
	sb.originSeq++
	o.commit, o.seq = parent, int32(sb.originSeq)
	parent.origins = append(parent.origins, o)
	suspects := o.suspects
	o.suspects = nil
	sb.queueBlames(o, suspects)
	sb.stats.WholeMoves++
	return true
}

// parentLookup is what passBlame learns of o's path in a parent before
// findOrigin, so that nothing is asked twice: the changed-path filter's
// answer and, once looked up (looked), the parent's tree entry or the
// lookup's error (a failed lookup made again would, in a partial clone,
// fetch again).
type parentLookup struct {
	filter filterAnswer
	looked bool
	found  bool
	mode   uint32
	id     oid.ID
	err    error
}

// lookUp looks o's path up in parent's tree into look, once. It is asked
// where git diffs the two commits' trees (find_origin, its path not
// passed by the changed-path filter), and git's diff reads o's commit's
// tree first: a commit the walk reached without reading its tree (a
// filter's "unchanged" from its child) dies here, as in git, when the
// repository lacks that tree (a commit whose tree the walk has read
// is not asked again).
func (sb *scoreboard) lookUp(parent *commitNode, o *origin, look *parentLookup) error {
	if !look.looked {
		look.looked = true
		if c := o.commit; !c.treeRead {
			if look.err = sb.hist.requireTree(sb.hist.commits.Tree(c.tc), o.path); look.err != nil {
				return look.err
			}
			c.treeRead = true
		}
		look.mode, look.id, look.found, look.err = sb.hist.treeEntry(sb.hist.commits.Tree(parent.tc), o.path)
		if look.err == nil {
			parent.treeRead = true
		}
	}
	return look.err
}

// filterAnswer is what the changed-path filter said of a pass from an
// origin to a parent, asked at most once (moveWhole, then findOrigin).
type filterAnswer uint8

const (
	filterUnasked filterAnswer = iota
	filterUnchanged
	filterMaybe // changed, or not a question the filter answers
)

// unchangedToFirstParent reports whether the changed-path filter of o's
// commit says that o's path did not change from parent, its first
// parent: then the parent's version is o's (git's find_origin asks the
// filter of first parents only). Other parents and walks without the
// filters get "maybe": their trees are read.
func (sb *scoreboard) unchangedToFirstParent(parent *commitNode, o *origin, filter *filterAnswer) bool {
	if *filter == filterUnasked {
		*filter = filterMaybe
		c := o.commit.tc
		if ps := c.Parents; sb.useBloom && len(ps) > 0 && ps[0] == parent.tc && !sb.maybeChanged(c, o.path) {
			*filter = filterUnchanged
		}
	}
	return *filter == filterUnchanged
}

// filterKeys returns the blamed path and the paths the walk found
// renamed from so far (git's keys of the changed-path filters).
func (sb *scoreboard) filterKeys() []string {
	if sb.filterPaths == nil {
		sb.filterPaths = []string{sb.finalOrigin.path}
	}
	return sb.filterPaths
}

// maybeChanged is the changed-path filter's answer for path at commit
// c, as unchangedToFirstParent needs it. Where the first parent is the
// commit's own, a "maybe" only makes the walk read the trees, which find
// the path unchanged where the filter could have said so, so goblame asks
// about the origin's path and its leading directories (fewer false
// "maybe"s). Under --simplify-by-decoration the first parent may be
// another commit, and the pass depends on the answer: it is git's, which
// asks each of its keys alone, the blamed path and every path the walk
// found renamed from so far, whatever the origin.
func (sb *scoreboard) maybeChanged(c *traverse.Commit, path string) bool {
	cs := sb.hist.commits
	if !sb.opts.SimplifyByDecoration {
		return cs.MaybeChangedKey(c, sb.bloomKey(path))
	}
	for _, p := range sb.filterKeys() {
		if cs.MaybeChangedPath(c, sb.bloomKey(p)) {
			return true
		}
	}
	return false
}

// passWholeBlame hands every suspect of o to porigin, whose blob is
// identical.
func (sb *scoreboard) passWholeBlame(o, porigin *origin) {
	if porigin.file == nil && !sb.heldReads[porigin] && (o.file != nil || sb.heldReads[o]) {
		// Steal the blob (and its prepared lines): same content. (git
		// moves its blob over, which goblame may have let go.)
		porigin.file, porigin.fileOwned, porigin.prep = o.file, o.fileOwned, o.prep
		o.file, o.fileOwned, o.prep = nil, false, nil
		if sb.heldReads[o] {
			delete(sb.heldReads, o)
			sb.heldReads[porigin] = true
		}
	}
	suspects := o.suspects
	o.suspects = nil
	for e := suspects; e != nil; e = e.next {
		e.suspect = porigin
	}
	sb.queueBlames(porigin, suspects)
}

// distribute sorts entries found by -M/-C by suspect and hands each
// suspect its list (git's distribute_blame).
func (sb *scoreboard) distribute(blamed *entry) {
	blamed = sortList(blamed, lessBySuspect)
	for blamed != nil {
		porigin := blamed.suspect
		var suspects *entry
		for blamed != nil && blamed.suspect == porigin {
			next := blamed.next
			blamed.next = suspects
			suspects = blamed
			blamed = next
		}
		sb.queueBlames(porigin, reverseOnto(suspects, nil))
	}
}

// passToParent diffs the parent's blob against the target's and hands
// the target's suspects outside the changed hunks to the parent (git's
// pass_blame_to_parent).
func (sb *scoreboard) passToParent(target, parent *origin, ignoreDiffs bool) error {
	if target.suspects == nil {
		return nil
	}
	if _, err := sb.fillBlob(parent); err != nil {
		return err
	}
	if _, err := sb.fillBlob(target); err != nil {
		return err
	}
	sb.boundLineTable(target)
	c := &chunker{parent: parent, target: target, ignoreDiffs: ignoreDiffs, rest: target.suspects}
	if ignoreDiffs {
		c.ign = sb.newIgnorePass(parent, target)
	}
	sb.stats.Diffs++
	tprep, err := sb.prepared(target, nil)
	if err != nil {
		return sb.diffFailed(parent, target, err)
	}
	pprep, err := sb.prepared(parent, tprep)
	if err != nil {
		return sb.diffFailed(parent, target, err)
	}
	sb.hunks, err = sb.differ.BlameDiffFiles(sb.hunks, pprep, tprep, sb.diffOpts)
	if err != nil {
		return sb.diffFailed(parent, target, err)
	}
	offset := 0
	for _, h := range sb.hunks {
		c.chunk(h.NewStart, h.OldStart-h.NewStart, h.NewStart+h.NewCount, h.OldCount)
		offset = h.OldStart + h.OldCount - (h.NewStart + h.NewCount)
	}
	c.finish(offset)
	list := c.parentHead
	if ignoreDiffs {
		list = sortList(list, lessBySuspect)
	}
	sb.queueBlames(parent, list)
	return nil
}

// bloomKey returns the changed-path filter key of a path, made once. A
// walk asks for the same path commit after commit (origins hand their
// path string on), so the last answer is checked before the map: equal
// strings with the same bytes compare without reading them.
func (sb *scoreboard) bloomKey(path string) *traverse.BloomKey {
	if sb.lastBloomKey != nil && path == sb.lastBloomPath {
		return sb.lastBloomKey
	}
	k := sb.bloomKeys[path]
	if k == nil {
		if sb.bloomKeys == nil {
			sb.bloomKeys = make(map[string]*traverse.BloomKey)
		}
		nk := traverse.NewBloomKey([]byte(path))
		k = &nk
		sb.bloomKeys[path] = k
	}
	sb.lastBloomPath, sb.lastBloomKey = path, k
	return k
}

// DiffCacheError is a working-tree blame's parent tree that git's diff
// of it with the index (do_diff_cache) cannot parse: git says "bad tree
// object X" and exits with 128, without a fatal line.
type DiffCacheError struct {
	Tree oid.ID
	// Mismatch, when set, is why: the tree read does not hash to its
	// name (git's parse_object says so first).
	Mismatch *odb.HashMismatchError
}

func (e *DiffCacheError) Error() string {
	if e.Mismatch != nil {
		return "bad tree object " + e.Tree.String() + ": " + e.Mismatch.Error()
	}
	return "bad tree object " + e.Tree.String()
}

// GitExit is what git prints, and its exit status.
func (e *DiffCacheError) GitExit() (stderr string, code int) {
	stderr = "error: bad tree object " + e.Tree.String() + "\n"
	if e.Mismatch != nil {
		stderr = e.Mismatch.GitLine() + "\n" + stderr
	}
	return stderr, 128
}

// checkDiffCacheTree makes the check git's do_diff_cache makes of a
// working-tree blame's parent tree (parse_tree_indirect's parse_object)
// the first time it compares the index with it: what is read must hash
// to the tree's name. A tree that cannot be read at all is left to the
// read that follows (treeEntry), as before.
func (sb *scoreboard) checkDiffCacheTree(root oid.ID) error {
	if slices.Contains(sb.diffCacheChecked, root) {
		return nil
	}
	sb.diffCacheChecked = append(sb.diffCacheChecked, root)
	var mismatch *odb.HashMismatchError
	if _, _, err := sb.hist.rd.ReadVerified(root, nil); errors.As(err, &mismatch) {
		return &DiffCacheError{Tree: root, Mismatch: mismatch}
	}
	return nil
}

// diffFailed is git's "unable to generate diff (parent -> target)".
func (sb *scoreboard) diffFailed(parent, target *origin, err error) error {
	return fmt.Errorf("unable to generate diff (%s -> %s): %w", sb.id(parent.commit), sb.id(target.commit), err)
}

// findOrigin finds the parent's version of o's path without rename
// detection (git's find_origin). It returns nil when the parent has no
// such file or the file changed type. look holds what moveWhole learned
// of the parent already (the changed-path filter's answer, the tree
// entry), which is not asked again.
func (sb *scoreboard) findOrigin(parent *commitNode, o *origin, look *parentLookup) (*origin, error) {
	if p := findLiveOrigin(parent, o.path); p != nil {
		return p, nil
	}
	var pmode uint32
	var pid oid.ID
	var found bool
	unchanged := false
	if o.commit.Uncommitted {
		if err := sb.beforeUncommittedDiff(); err != nil {
			return nil, err
		}
		root := sb.hist.commits.Tree(parent.tc)
		if err := sb.checkDiffCacheTree(root); err != nil {
			return nil, err
		}
		m, id, ok, err := sb.hist.treeEntry(root, o.path)
		var missing *traverse.MissingTreeError
		if errors.As(err, &missing) && missing.ID == root {
			// git's do_diff_cache cannot parse the parent's tree.
			return nil, &DiffCacheError{Tree: root}
		}
		if err != nil {
			return nil, err
		}
		pmode, pid, found = m, id, ok
		// The fake commit's "tree" is the index with the final image
		// in place of the path: compare with the origin's blob and mode.
		if w := sb.indexWalk; w != nil && found && !object.IsTree(pmode) && !w.Final {
			// A damaged index's walk meets another entry first, or
			// none.
			switch {
			case !w.Met:
				return nil, errFindOriginDeleted
			case w.Mode == pmode && w.ID == pid:
				return nil, nil // the pair of a later entry: 'A'
			case pmode&0o170000 != w.Mode&0o170000:
				return nil, nil // 'T'
			}
			p := sb.getOrigin(parent, o.path) // 'M'
			p.blob, p.mode, p.blobKnown = pid, pmode, true
			return p, nil
		}
		if found && pmode == o.mode && pid == o.blob {
			if sb.indexWalk != nil && sb.indexWalk.Later {
				// A damaged index's later entry with the path
				// is the first pair: 'A'.
				return nil, nil
			}
			unchanged = true
		}
	} else {
		if sb.unchangedToFirstParent(parent, o, &look.filter) {
			unchanged = true
		} else {
			if err := sb.lookUp(parent, o, look); err != nil {
				return nil, err
			}
			pmode, pid, found = look.mode, look.id, look.found
			if sb.opts.SimplifyByDecoration {
				return sb.findOriginInTrees(parent, o, pmode, pid, found)
			}
			if found && pmode == o.mode && pid == o.blob {
				unchanged = true
			}
		}
	}
	if unchanged {
		p := sb.getOrigin(parent, o.path)
		p.blob, p.mode, p.blobKnown = o.blob, o.mode, true
		return p, nil
	}
	if !found || object.IsTree(pmode) {
		return nil, nil // 'A': not in the parent
	}
	if pmode&0o170000 != o.mode&0o170000 {
		return nil, nil // 'T': type changed
	}
	p := sb.getOrigin(parent, o.path)
	p.blob, p.mode, p.blobKnown = pid, pmode, true
	return p, nil
}

// errFindOriginDeleted is git's death where the pair find_origin takes
// for the path says it was deleted: its switch has no case for 'D'.
var errFindOriginDeleted = errors.New("internal error in blame::find_origin (D)")

// findOriginInTrees is findOrigin's comparison of the trees under
// --simplify-by-decoration, as git's find_origin diffs the parent's tree
// with the commit's, whatever the origin's blob: a changed-path filter
// answer for a rewritten first parent can have passed a descendant's
// blob down to a commit whose tree holds another version of the path, or
// none, and git then keeps that blob where the trees agree. (Elsewhere an
// origin's blob is its tree's, and findOrigin compares with the blob.)
// pmode, pid and pfound are the parent's entry for the path. Where the
// diff has no pair named by the path, git takes its last pair; where
// that pair (or the one named) is a deletion, git dies.
func (sb *scoreboard) findOriginInTrees(parent *commitNode, o *origin, pmode uint32, pid oid.ID, pfound bool) (*origin, error) {
	mode, id, found, err := sb.hist.treeEntry(sb.hist.commits.Tree(o.commit.tc), o.path)
	if err != nil {
		return nil, err
	}
	inherit := func() *origin {
		p := sb.getOrigin(parent, o.path)
		p.blob, p.mode, p.blobKnown = o.blob, o.mode, true
		return p
	}
	modified := func(blob oid.ID, mode uint32) *origin {
		p := sb.getOrigin(parent, o.path)
		p.blob, p.mode, p.blobKnown = blob, mode, true
		return p
	}
	file, pfile := found && !object.IsTree(mode), pfound && !object.IsTree(pmode)
	switch {
	case !found && !pfound, found && pfound && mode == pmode && id == pid:
		return inherit(), nil // no pair: the path is the same
	case file && pfile:
		if mode&0o170000 != pmode&0o170000 {
			return nil, nil // 'T'
		}
		return modified(pid, pmode), nil // 'M'
	case file:
		return nil, nil // 'A' (the parent has none, or a directory)
	case pfile:
		return nil, errFindOriginDeleted // the commit has none, or a directory
	case !found:
		return nil, errFindOriginDeleted // the parent's directory's files, deleted
	case !pfound:
		return nil, nil // the commit's directory's files, added
	}
	// Two directories: the last pair of the files under them.
	var last traverse.Change
	err = sb.hist.trees.DiffTrees(pid, id, func(ch *traverse.Change) error {
		last = traverse.Change{OldMode: ch.OldMode, NewMode: ch.NewMode, OldID: ch.OldID, NewID: ch.NewID}
		return nil
	})
	if err != nil {
		return nil, err
	}
	switch last.Status() {
	case 'M':
		return modified(last.OldID, last.OldMode), nil
	case 'D':
		return nil, errFindOriginDeleted
	}
	return nil, nil
}

// publicCommit returns c's detached public record, reading its details
// (mailmapped identities, re-encoded summary) the first time, and brings
// its flags up to date. One record per commit, so callers may compare
// the pointers of entries.
func (sb *scoreboard) publicCommit(c *commitNode) *Commit {
	if c.pub == nil {
		sb.makePublic(c, nil)
	}
	c.pub.Boundary, c.pub.MultiplePaths = c.Boundary, c.MultiplePaths
	return c.pub
}

// makePublic makes c's public record from text, the commit's text read
// already, or from a read of its own when text is nil.
func (sb *scoreboard) makePublic(c *commitNode, text []byte) {
	pub := &Commit{ID: sb.id(c), Uncommitted: c.Uncommitted}
	pub.info, pub.loadErr = sb.commitInfo(c, text)
	c.pub = pub
}

// publicEntry converts an internal entry for the result or a callback.
func (sb *scoreboard) publicEntry(e *entry) Entry {
	out := Entry{
		Lno:        e.lno,
		SLno:       e.sLno,
		NumLines:   e.numLines,
		Commit:     sb.publicCommit(e.suspect.commit),
		Path:       e.suspect.path,
		Ignored:    e.ignored,
		Unblamable: e.unblamable,
		score:      sb.entryScore(e),
	}
	if p := e.suspect.previous; p != nil {
		out.Previous = &Previous{Commit: sb.id(p.commit), Path: p.path}
	}
	return out
}

// entryScore is git's blame_entry_score: 1 + the number of ASCII
// alphanumeric bytes in the entry's lines of the final image.
func (sb *scoreboard) entryScore(e *entry) int {
	if e.score != 0 {
		return e.score
	}
	score := 1
	for _, ch := range sb.finalBuf[sb.lineStarts[e.lno]:sb.lineStarts[e.lno+e.numLines]] {
		if ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
			score++
		}
	}
	e.score = score
	return score
}
