package blamecore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/goblame/goblame/diff"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// ErrNoSuchPath reports a path that does not name a blob in the final
// commit; errors.Is(err, ErrNoSuchPath) holds for the *PathError returned.
var ErrNoSuchPath = errors.New("no such path")

// PathError carries git's wording for a missing path.
type PathError struct {
	Path, Rev string
	// WorkTree: the path is in neither HEAD nor the index (git quotes
	// the path in that message).
	WorkTree bool
}

func (e *PathError) Error() string {
	if e.WorkTree {
		return fmt.Sprintf("no such path '%s' in HEAD", e.Path)
	}
	return fmt.Sprintf("no such path %s in %s", e.Path, e.Rev)
}

func (e *PathError) Unwrap() error { return ErrNoSuchPath }

// BlobError reports a blob that could not be read, in git's words
// (errors.Unwrap gives the cause).
type BlobError struct {
	ID    oid.ID
	Path  string
	Err   error
	final bool // the final image: git words it in lower case
}

func (e *BlobError) Error() string {
	var fetch *odb.FetchError
	if errors.As(e.Err, &fetch) {
		return fetch.Error() // git dies in the read
	}
	if errors.Is(e.Err, odb.ErrDeltaChain) {
		// git hangs on a REF_DELTA cycle; goblame says what is wrong.
		return fmt.Sprintf("cannot read blob %s for path %s: %v", e.ID, e.Path, e.Err)
	}
	if e.final {
		return fmt.Sprintf("cannot read blob %s for path %s", e.ID, e.Path)
	}
	return fmt.Sprintf("Cannot read blob %s for path %s", e.ID, e.Path)
}

func (e *BlobError) Unwrap() error { return e.Err }

// Request names what to blame.
type Request struct {
	// Path is the file, relative to the repository top.
	Path string
	// Final is the commit whose version of Path is blamed (the final
	// image), FinalName how the user named it (for error messages).
	// In reverse mode Final is the start of the range.
	Final     oid.ID
	FinalName string
	// WorkTree, when set instead of Final, blames a file that is not
	// committed: the working-tree file or --contents.
	WorkTree *WorkTree
	// Tips are the revisions of the command line in order, tags peeled
	// to commits, as git's revision walk receives them: the final commit
	// (positive; in reverse mode the start of the range is the negative
	// one) and the bottoms of ranges (^A, A..B). With a Tips entry marked
	// Uninteresting, commits reachable from it are boundaries.
	Tips []traverse.Tip
	// ReverseEnd is the end of a --reverse --first-parent range: children
	// are then taken along its first-parent chain.
	ReverseEnd oid.ID
	// Parsed are the objects git parsed resolving the revisions, as
	// tips of no flag (traverse.LimitOptions.Parsed).
	Parsed []traverse.Tip
}

// WorkTree describes the pseudo commit of working-tree blame.
type WorkTree struct {
	// Content is the final image, already converted as git's
	// convert_to_git would.
	Content []byte
	// Mode is the file's mode for the pseudo commit's index entry.
	Mode uint32
	// Parents are HEAD followed by the MERGE_HEAD commits.
	Parents []oid.ID
	// Index is the stage-0 index with Path replaced by Content, sorted
	// by path (blame diffs the parents against it). When it is nil,
	// IndexFunc, if set, makes it the first time it is needed (only
	// renames and copies into the uncommitted file are), given the
	// blob ID of Content (hashed once, for the blame).
	Index     []IndexEntry
	IndexFunc func(blob oid.ID) []IndexEntry
	// InIndex reports that Path has an index entry (any stage).
	InIndex bool
	// IndexWalk, for an index whose entries are out of order (a damaged
	// one), is where git's diff of it against a parent meets Path; nil
	// for an index in order.
	IndexWalk *IndexWalk
	// BeforeDiff, when set, runs before each comparison of the
	// uncommitted version with a parent (git's do_diff_cache, which
	// reads the exclude files each time, and dies of one it cannot
	// use): its error ends the blame.
	BeforeDiff func() error
	// Source is what "Version of <path> from <source>" names.
	Source string
	// Time and TZ ("+hhmm") stamp the pseudo commit.
	Time uint64
	TZ   string
}

// IndexWalk is where git's diff of the pseudo commit's index against a
// parent's tree (do_diff_cache) meets Path in an index whose entries are
// out of order: git reads a damaged index as it is, adds the final image
// where its binary search for Path ends (or after the last entry, when
// Path sorts after it), and its unpack_trees walks the index in that
// order: at the tree's entry for Path it passes the entries whose names
// sort before Path and takes the next one if it is named Path. Where the
// parent has no file at Path, the final image is added, as in any index.
type IndexWalk struct {
	// Met reports that the walk took an entry named Path at the tree's
	// entry; without one git's pair for Path is a deletion, and git
	// dies "internal error in blame::find_origin (D)".
	Met bool
	// Final: the entry met holds the final image; else it is another
	// entry named Path, with Mode and ID.
	Final bool
	Mode  uint32
	ID    oid.ID
	// Later reports an entry named Path after the one met, which the
	// walk's end lists as added: where the one met is the parent's
	// version, the first pair git finds for Path says it was added.
	Later bool
}

// IndexEntry is one index entry as blame needs it.
type IndexEntry struct {
	Path string
	Mode uint32
	ID   oid.ID
}

// Run blames req.Path over the whole file or opts.Ranges.
func Run(ctx context.Context, hist *History, format oid.Format, req Request, opts Options) (*Result, error) {
	b, err := New(ctx, hist, format, req, opts)
	if err != nil {
		return nil, err
	}
	return b.Run(opts.Ranges)
}

// Blamer is a prepared blame: the final image is known (so -L ranges can
// be resolved against it) and the walk has not started.
type Blamer struct {
	sb  *scoreboard
	ran bool
}

// ErrRunTwice is returned by a second Blamer.Run: a Blamer's scoreboard
// is used up by its run.
var ErrRunTwice = errors.New("blame: Blamer.Run called twice")

// ErrBadRange is wrapped by the errors of ranges that are outside the
// final image, empty, unsorted or overlapping.
var ErrBadRange = errors.New("blame: bad line range")

// New prepares a blame of req.Path: it resolves the final commit (or the
// working-tree pseudo commit) and reads the final image. The History must
// read the repository whose object format is format.
func New(ctx context.Context, hist *History, format oid.Format, req Request, opts Options) (*Blamer, error) {
	sb := &scoreboard{
		ctx:      ctx,
		hist:     hist,
		format:   format,
		opts:     &opts,
		path:     req.Path,
		differ:   diff.NewDiffer(),
		diffOpts: opts.Diff,
		ignore:   make(map[oid.ID]bool),
	}
	sb.queue.reverse = opts.Reverse
	for _, id := range opts.Ignore {
		sb.ignore[id] = true
	}
	if err := sb.setup(req); err != nil {
		return nil, err
	}
	// git turns the filters off under -C, because it asks them about the
	// blamed path and its rename sources only, while -C puts lines on
	// other paths. goblame asks about the origin's own path, whose "not
	// changed" answers find_origin exactly, so it keeps the filters under
	// -C: the result is the same, without tree reads. An uncommitted
	// final version (working tree, --contents) keeps them too, as in git:
	// the pseudo commit is never asked (findOrigin compares its blob with
	// the parent's tree entry), only the commits below it.
	//
	// Under --simplify-by-decoration the first parent is the rewritten
	// one, of which a commit's filter knows nothing: git asks it all the
	// same (and may pass lines on past their change), but not under -C,
	// and neither may goblame then.
	if hist.commits.Graph() == nil || !hist.commits.Graph().HasBloom() || (opts.SimplifyByDecoration && opts.CopyLevel > 0) {
		sb.useBloom = false
	} else {
		sb.useBloom = opts.UseBloom
	}
	return &Blamer{sb: sb}, nil
}

// SetOutput sets the mailmap and output encoding used for commit
// details (they do not change attribution, so they may be set after the
// final image is known, as git reads the mailmap late).
func (b *Blamer) SetOutput(mm Mailmap, outputEncoding string) {
	b.sb.opts.Mailmap = mm
	b.sb.opts.OutputEncoding = outputEncoding
}

// OnGuilty sets the callback run as each entry is found (see
// Options.OnGuilty).
func (b *Blamer) OnGuilty(fn func(Entry)) { b.sb.opts.OnGuilty = fn }

// OnLongWalk sets Options.OnLongWalk.
func (b *Blamer) OnLongWalk(fn func()) { b.sb.opts.OnLongWalk = fn }

// FinalImage returns the text being blamed.
func (b *Blamer) FinalImage() []byte { return b.sb.finalBuf }

// LineStarts returns the line offsets of the final image (see LineStarts).
func (b *Blamer) LineStarts() []int { return b.sb.lineStarts }

// NumLines returns the number of lines of the final image.
func (b *Blamer) NumLines() int { return len(b.sb.lineStarts) - 1 }

// Path returns the blamed path, relative to the repository top.
func (b *Blamer) Path() string { return b.sb.path }

// Final returns the commit whose version of the path is blamed (in
// reverse mode the start of the range) and whether it is the pseudo
// commit of working-tree blame, whose ID is the null ID.
func (b *Blamer) Final() (id oid.ID, uncommitted bool) {
	return b.sb.id(b.sb.final), b.sb.final.Uncommitted
}

// Run blames the given 0-based, sorted and merged ranges (nil: the whole
// file) and returns the result. A Blamer runs once.
func (b *Blamer) Run(ranges []LineRange) (*Result, error) {
	sb := b.sb
	if b.ran {
		return nil, ErrRunTwice
	}
	b.ran = true
	numLines := len(sb.lineStarts) - 1
	for i, r := range ranges {
		if r.Start < 0 || r.End > numLines || r.Start >= r.End || i > 0 && r.Start < ranges[i-1].End {
			return nil, fmt.Errorf("%w: %d,%d of a %d-line file (ranges are 0-based, half-open, sorted and disjoint)", ErrBadRange, r.Start, r.End, numLines)
		}
	}
	wholeFile := ranges == nil || len(ranges) == 1 && ranges[0] == LineRange{0, numLines}
	if ranges == nil && numLines > 0 {
		ranges = []LineRange{{0, numLines}}
	}
	sb.snap.ordered = true
	o := sb.finalOrigin
	var head *entry
	for i := len(ranges) - 1; i >= 0; i-- {
		r := ranges[i]
		head = &entry{lno: r.Start, numLines: r.End - r.Start, suspect: o, sLno: r.Start, next: head}
		if sb.tracing() {
			head.trail = sb.extendTrail(nil, o)
		}
	}
	o.suspects = head
	sb.queue.put(o.commit)

	// Commits read from their objects (no commit-graph) are read ahead on
	// a second goroutine while this one diffs (traverse.ReadAhead).
	if sb.hist.newReader != nil {
		sb.hist.commits.ReadAhead(sb.hist.newReader())
		defer sb.hist.commits.StopReadAhead()
	}
	defer sb.hist.stopLookAhead()
	if err := sb.assign(); err != nil {
		return nil, err
	}
	sb.hist.stopLookAhead()
	res := sb.result()
	res.snapshot = sb.snapshot(wholeFile)
	return res, nil
}

// setup builds the final image and origin (git's setup_scoreboard).
func (sb *scoreboard) setup(req Request) error {
	if req.WorkTree != nil {
		if err := sb.setupWorkTree(req); err != nil {
			return err
		}
		return sb.limit(req)
	}
	c := sb.lookupCommit(req.Final)
	if err := sb.parseTip(c, req.Tips); err != nil {
		return err
	}
	sb.final = c
	if err := sb.limit(req); err != nil {
		return err
	}
	o := sb.getOrigin(c, req.Path)
	// git's fill_blob_sha1_and_mode finds the path through the commit's
	// object (get_tree_entry: objectRoot), which a commit the walk took
	// from the commit-graph need not match; the walk's diffs still take
	// the graph's tree.
	root := sb.hist.commits.Tree(c.tc)
	objRoot, objOK, objErr := sb.hist.objectRoot(sb.id(c))
	otherRoot := objErr == nil && objOK && objRoot != root
	var (
		mode  uint32
		id    oid.ID
		found bool
	)
	if otherRoot {
		// git's lookup through the object comes before anything reads
		// the graph's tree (and, in a repository whose packs disagree,
		// before a read that makes another pack the one tried first):
		// no path there is its death.
		var err error
		if mode, id, found, err = sb.hist.treeEntry(objRoot, req.Path); err != nil || !found {
			// (get_tree_entry fails silently.)
			return &PathError{Path: req.Path, Rev: req.FinalName}
		}
	}
	graphMode, graphID, graphFound, err := sb.hist.treeEntry(root, req.Path)
	var missing *traverse.MissingTreeError
	if errors.As(err, &missing) && !otherRoot {
		// get_tree_entry fails without a word on a tree it cannot
		// find, and the path is not there. (Where a damaged
		// commit-graph names another tree than the object, git finds
		// the path through the object and dies reading the graph's
		// tree in its first diff: the error stands.)
		graphFound, err = false, nil
	}
	if err != nil {
		return err
	}
	switch {
	case otherRoot:
		found = found && graphFound
	case errors.Is(objErr, odb.ErrNotFound) || objErr == nil && !objOK:
		found = false // no tree through the object
	default:
		// A read of the object that fails otherwise is left to the
		// reads after.
		mode, id, found = graphMode, graphID, graphFound
	}
	c.treeRead = missing == nil
	if found && object.IsBlobMode(mode) {
		typ, err := sb.hist.blobType(id, sb.warn)
		if err != nil && !errors.Is(err, odb.ErrNotFound) {
			// A damaged object (a delta cycle, a corrupt pack) is that
			// error, not "no such path".
			return &BlobError{ID: id, Path: req.Path, Err: err, final: true}
		}
		if err != nil || typ != object.Blob {
			found = false
		}
	} else {
		found = false
	}
	if !found {
		return &PathError{Path: req.Path, Rev: req.FinalName}
	}
	o.blob, o.mode, o.blobKnown = id, mode, true
	buf, err := sb.hist.blob(id)
	if err != nil {
		return &BlobError{ID: id, Path: req.Path, Err: err, final: true}
	}
	sb.finalRecovered = sb.hist.recovered()
	if sb.opts.TextConv != nil {
		conv, err := sb.opts.TextConv(req.Path, mode, buf)
		if err != nil {
			return err
		}
		if conv != nil {
			buf = conv
			sb.finalConverted = true
		}
	}
	sb.stats.ReadBlobs++
	sb.setFinal(buf)
	sb.finalOrigin = o
	return nil
}

func (sb *scoreboard) setFinal(buf []byte) {
	if buf == nil {
		buf = []byte{}
	}
	sb.finalBuf = buf
	sb.lineStarts = LineStarts(buf)
}

// LineStarts returns the byte offset of every line of buf plus len(buf)
// at the end. A line ends after '\n'; a final fragment is a line too.
func LineStarts(buf []byte) []int {
	starts := make([]int, 0, bytes.Count(buf, []byte{'\n'})+2)
	for i := 0; i < len(buf); {
		starts = append(starts, i)
		j := bytes.IndexByte(buf[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return append(starts, len(buf))
}

// limit prepares the revision walk (git's prepare_revision_walk):
// UNINTERESTING marks from the range's bottoms and, in reverse mode, the
// children lists.
func (sb *scoreboard) limit(req Request) error {
	tips := req.Tips
	for _, t := range tips {
		if t.Uninteresting {
			sb.hasBottoms = true
		}
	}
	var ancestry []traverse.AncestryBottom
	for _, b := range sb.opts.AncestryBottoms {
		ancestry = append(ancestry, traverse.AncestryBottom{Commit: sb.hist.commits.Lookup(b.ID), Named: b.Named})
	}
	if sb.opts.AncestryPath || len(ancestry) > 0 || sb.opts.SimplifyByDecoration {
		// Commits off the path become boundaries, or parents are
		// rewritten: what the cache's snapshots say of a commit's
		// lines may not hold.
		sb.hasBottoms = true
	}
	if sb.final.Uncommitted {
		// git adds the pseudo commit to the pending revisions (as ":")
		// after the command line's.
		tips = append(append([]traverse.Tip(nil), tips...), traverse.Tip{ID: sb.id(sb.final), Commit: sb.final.tc})
	}
	gens := sb.hist.commits.Graph() != nil // (git's generation_numbers_enabled)
	marks, err := traverse.Limit(sb.hist.commits, tips, traverse.LimitOptions{
		FirstParent:            sb.opts.FirstParent,
		ExcludeFirstParentOnly: sb.opts.ExcludeFirstParentOnly,
		Since:                  sb.opts.Since,
		HasSince:               sb.opts.HasSince,
		Until:                  sb.opts.Until,
		HasUntil:               sb.opts.HasUntil,

		SinceFilter:    sb.opts.SinceFilter,
		HasSinceFilter: sb.opts.HasSinceFilter,
		Children:       sb.opts.Reverse && req.ReverseEnd.IsZero(),

		AncestryPath:    sb.opts.AncestryPath,
		AncestryBottoms: ancestry,

		Limited:              sb.opts.LimitedWalk || (sb.opts.Order != traverse.NoTopoSort && !gens),
		NoWalk:               sb.opts.NoWalk,
		Parsed:               req.Parsed,
		TopoWalk:             sb.opts.Order != traverse.NoTopoSort && gens,
		Sort:                 sb.opts.Order,
		AuthorDate:           sb.authorDate,
		SimplifyByDecoration: sb.opts.SimplifyByDecoration,
		Sparse:               sb.opts.Sparse,
		Decorated:            sb.decorated,
		EmptyTree:            sb.emptyRootTree,
	})
	if err != nil {
		return sb.limitFailed(err)
	}
	sb.marks = marks
	if sb.opts.Reverse && !req.ReverseEnd.IsZero() {
		end, err := sb.hist.commits.Get(req.ReverseEnd)
		if err != nil {
			return err
		}
		if err := marks.SetFirstParentChildren(end, sb.final.tc); err != nil {
			return err
		}
	}
	return nil
}

// authorDate is the author date git's record_author_date finds in c's
// object (--author-date-order): the "author" header's date, 0 where the
// line is missing or its date is not all digits.
func (sb *scoreboard) authorDate(c *traverse.Commit) uint64 {
	body, err := sb.hist.commitBody(sb.hist.commits.ID(c))
	if err != nil {
		return 0
	}
	if end := bytes.Index(body, []byte("\n\n")); end >= 0 {
		body = body[:end+1]
	}
	for len(body) > 0 {
		line, rest, _ := bytes.Cut(body, []byte{'\n'})
		body = rest
		after, ok := bytes.CutPrefix(line, []byte("author "))
		if !ok {
			continue
		}
		id, ok := object.ParseIdent(after)
		if !ok || len(id.Date) == 0 {
			return 0
		}
		var d uint64
		for _, b := range id.Date {
			if b < '0' || b > '9' {
				return 0
			}
			d = d*10 + uint64(b-'0')
		}
		return d
	}
	return 0
}

// decorated reports whether a ref names c (--simplify-by-decoration),
// loading the decorations the first time.
func (sb *scoreboard) decorated(c *traverse.Commit) (bool, error) {
	if sb.isDecorated == nil {
		if sb.opts.Decorations == nil {
			return false, nil
		}
		f, err := sb.opts.Decorations()
		if err != nil {
			return false, err
		}
		sb.isDecorated = f
	}
	return sb.isDecorated(sb.hist.commits.ID(c)), nil
}

// errTreeHasFile stops emptyRootTree's diff at the first file.
var errTreeHasFile = errors.New("tree has a file")

// emptyRootTree reports whether root commit c's tree holds no file, in
// any subtree (git's rev_same_tree_as_empty: a recursive diff against
// the empty tree that finds nothing).
func (sb *scoreboard) emptyRootTree(c *traverse.Commit) (bool, error) {
	err := sb.hist.trees.DiffTrees(oid.ID{}, sb.hist.commits.Tree(c), func(*traverse.Change) error { return errTreeHasFile })
	if err == errTreeHasFile {
		return false, nil
	}
	return err == nil, err
}

// limitFailed reports a limiting pass's failure as git does: a parent it
// could not parse is reported as parse_commit reports it, then git dies
// "revision walk setup failed" or, simplifying, "cannot simplify commit
// X (because of P)"; damage is fatal with its own message.
func (sb *scoreboard) limitFailed(err error) error {
	var setup *traverse.WalkSetupError
	var simplify *traverse.SimplifyError
	switch {
	case errors.As(err, &simplify):
		if fatal := sb.reportUnparsed(simplify.Parent, simplify.Err); fatal != nil {
			return fatal
		}
	case errors.As(err, &setup):
		if fatal := sb.reportUnparsed(setup.Parent, setup.Err); fatal != nil {
			return fatal
		}
	}
	return err
}

// result sorts and coalesces the guilty entries.
func (sb *scoreboard) result() *Result {
	var ents []*entry
	for e := sb.ent; e != nil; e = e.next {
		ents = append(ents, e)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].lno < ents[j].lno })
	// coalesce
	var merged []*entry
	for _, e := range ents {
		if n := len(merged); n > 0 {
			p := merged[n-1]
			if p.suspect == e.suspect && p.sLno+p.numLines == e.sLno && p.lno+p.numLines == e.lno &&
				p.ignored == e.ignored && p.unblamable == e.unblamable {
				p.numLines += e.numLines
				p.score = 0
				continue
			}
		}
		merged = append(merged, e)
	}
	// MORE_THAN_ONE_PATH: a commit with more than one guilty origin.
	for _, e := range merged {
		c := e.suspect.commit
		c.Boundary = sb.uninteresting(c)
		n := 0
		for _, o := range c.origins {
			if o.guilty {
				n++
			}
		}
		c.MultiplePaths = n > 1
	}
	// Reference counts as git keeps them at output time: one per entry,
	// one per live origin naming it as previous (an origin is live while
	// an entry or a live origin refers to it).
	refs := make(map[*origin]int)
	live := make(map[*origin]bool)
	var mark func(o *origin)
	mark = func(o *origin) {
		for o != nil && !live[o] {
			live[o] = true
			if o.previous == nil {
				return
			}
			refs[o.previous]++
			o = o.previous
		}
	}
	for _, e := range merged {
		refs[e.suspect]++
		mark(e.suspect)
	}
	sb.infoAhead(merged)
	sb.stats.Walk = sb.hist.commits.Stats()
	sb.stats.Trees = sb.hist.trees.Stats()
	res := &Result{Path: sb.path, Final: sb.finalBuf, LineStarts: sb.lineStarts, Stats: sb.stats}
	res.Entries = make([]Entry, len(merged))
	for i, e := range merged {
		res.Entries[i] = sb.publicEntry(e)
		res.Entries[i].refCount = refs[e.suspect]
	}
	return res
}
