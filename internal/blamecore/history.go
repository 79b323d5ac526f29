package blamecore

import (
	"errors"
	"fmt"

	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// ObjectReader is what blame needs from the object database: whole
// objects by ID. *odb.Reader implements it.
type ObjectReader interface {
	// Read appends the object's content to dst[:0].
	Read(id oid.ID, dst []byte) (object.Type, []byte, error)
	// ReadCached returns shared, immutable bytes of an object that is
	// likely to be read again (commits, trees); they stay valid.
	ReadCached(id oid.ID) (object.Type, []byte, error)
	// ReadHeader returns an object's type and size.
	ReadHeader(id oid.ID) (object.Type, int64, error)
	// Has reports whether the repository has the object (replace refs
	// aside), reading nothing.
	Has(id oid.ID) bool
	// ReadVerified is Read as git's parse_object reads: content that
	// does not hash to the name read is *odb.HashMismatchError.
	ReadVerified(id oid.ID, dst []byte) (object.Type, []byte, error)
}

// History is the repository as the blame walk reads it: commits (from
// the commit-graph when there is one, with its changed-path Bloom
// filters), trees (path lookups with a cache) and blobs. One History
// serves one blame run at a time.
type History struct {
	rd      ObjectReader
	format  oid.Format
	commits *traverse.Commits
	trees   *traverse.Trees
	// newReader makes a second reader for reading ahead on another
	// goroutine (nil: no read-ahead).
	newReader      func() ObjectReader
	prefetchReader ObjectReader
	// helpReader is the walk's reader of the candidates it reads while
	// it waits for the prefetch goroutine (made on first use).
	helpReader ObjectReader
	// newLookupReader makes the reader of the path look-ahead (nil:
	// none).
	newLookupReader func() ObjectReader
	// newHelpReader makes helpReader (nil: none).
	newHelpReader func() ObjectReader
	// lent is rd while the path look-ahead reads the walk's blobs with
	// it (traverse's blobahead.go); rd is then a reader made for the
	// walk's other reads.
	lent ObjectReader
	// background: see HistoryOptions.Background.
	background func(wait func())
}

// HistoryOptions say how commits are read.
type HistoryOptions struct {
	// Graph is the repository's commit-graph (traverse.OpenGraph), or nil.
	Graph *traverse.Graph
	// Grafts, Shallow and DisableGraph: see traverse.CommitOptions.
	Grafts       map[oid.ID][]oid.ID
	Shallow      map[oid.ID]bool
	DisableGraph bool
	// NewReader, when set, makes another reader of the same object
	// database, used on a second goroutine to read -C candidates ahead.
	NewReader func() ObjectReader
	// NewLookupReader, when set, makes another reader of the same
	// object database for looking the blamed path up in trees ahead of
	// the walk, on a second goroutine (traverse.Trees.LookAhead).
	NewLookupReader func() ObjectReader
	// NewHelpReader, when set with NewReader, makes the reader a -C
	// walk reads candidates with while the read-ahead reads the one it
	// waits for (see prefetcher); nil: the walk waits.
	NewHelpReader func() ObjectReader
	// Warn receives the warning of a commit-graph found damaged during
	// the walk (which then goes on without it); see traverse.CommitOptions.
	Warn func(string)
	// Background, when set, is handed the wait for a path look-ahead
	// the walk has stopped without waiting for its goroutine to end
	// (traverse.Trees.ReleaseLookAhead): until wait returns, the
	// goroutine may still read through its own reader, and the object
	// database and the commit-graph must stay open. Nil: the walk
	// waits.
	Background func(wait func())
}

// NewHistory returns a History reading objects through rd.
func NewHistory(rd ObjectReader, format oid.Format, opts HistoryOptions) *History {
	return &History{
		rd:     rd,
		format: format,
		commits: traverse.NewCommits(rd, opts.Graph, format, traverse.CommitOptions{
			Grafts: opts.Grafts, Shallow: opts.Shallow, DisableGraph: opts.DisableGraph, Warn: opts.Warn,
		}),
		trees:           traverse.NewTrees(rd, format),
		newReader:       opts.NewReader,
		newLookupReader: opts.NewLookupReader,
		newHelpReader:   opts.NewHelpReader,
		background:      opts.Background,
	}
}

// NewObjectHistory returns a History without a commit-graph.
func NewObjectHistory(rd ObjectReader, format oid.Format) *History {
	return NewHistory(rd, format, HistoryOptions{})
}

// Commits exposes the commit cache (for the revision walk's marks).
func (h *History) Commits() *traverse.Commits { return h.commits }

// TreeChange is one file-level difference between two trees. A zero
// OldMode means the file is absent on that side, likewise NewMode.
type TreeChange struct {
	Path             string
	OldMode, NewMode uint32
	OldID, NewID     oid.ID
}

// errNotBlob reports a path that names something other than a blob.
var errNotBlob = errors.New("not a blob")

func (h *History) commitBody(id oid.ID) ([]byte, error) {
	if body, ok := h.trees.CommitText(id); ok {
		return body, nil // read ahead by the path look-ahead
	}
	typ, body, err := h.rd.ReadCached(id)
	if errors.Is(err, odb.ErrNotFound) {
		// git's repo_get_commit_buffer, for the commit's author and
		// summary (a commit-graph can name a commit the repository
		// does not have).
		return nil, &CommitTextError{ID: id, Err: err, death: "cannot read commit object " + id.String()}
	}
	if err != nil {
		return nil, err
	}
	if typ != object.Commit {
		return nil, &CommitTextError{ID: id, death: fmt.Sprintf("expected commit for %s, got %s", id, typ)}
	}
	return body, nil
}

// objectRoot is the tree git's get_tree_entry looks a path up in for
// commit: read_object_with_reference through the commit's object, which
// takes a tree as it is, a commit's first line ("tree <id>"), a tag's
// ("object <id>"), and anything else as none (ok false). The walk takes
// a commit from the commit-graph without reading its object; where the
// object holds something else (a loose file of another object, or the
// graph names another tree), git finds the final version there. err is
// a read that failed.
func (h *History) objectRoot(commit oid.ID) (root oid.ID, ok bool, err error) {
	id := commit
	// (git follows tags without end; a chain this long is a cycle.)
	for range 1000 {
		typ, body, err := h.rd.ReadCached(id)
		if err != nil {
			return oid.ID{}, false, err
		}
		var ref string
		switch typ {
		case object.Tree:
			return id, true, nil
		case object.Commit:
			ref = "tree "
		case object.Tag:
			ref = "object "
		default:
			return oid.ID{}, false, nil
		}
		hexLen := h.format.HexSize()
		if len(body) < len(ref)+hexLen || string(body[:len(ref)]) != ref {
			return oid.ID{}, false, nil
		}
		next, perr := oid.ParseHexBytes(h.format, body[len(ref):len(ref)+hexLen])
		if perr != nil {
			return oid.ID{}, false, nil
		}
		id = next
	}
	return oid.ID{}, false, nil
}

// CommitTextError is a commit whose text (author, summary) the blame
// prints but cannot read: git dies of it in repo_get_commit_buffer.
type CommitTextError struct {
	ID    oid.ID
	Err   error // the read's error, if the read failed
	death string
}

func (e *CommitTextError) Error() string { return e.death }

func (e *CommitTextError) Unwrap() error { return e.Err }

// GitDeath is git's message for it, without "fatal: ".
func (e *CommitTextError) GitDeath() string { return e.death }

func (h *History) treeEntry(tree oid.ID, path string) (uint32, oid.ID, bool, error) {
	return h.trees.Lookup(tree, []byte(path))
}

// requireTree fails as git's tree diff fails where the repository lacks
// tree (MissingTreeError, "unable to read tree X"): it looks path up
// there only when the tree is not in the repository, which a partial
// clone then fetches, as git's read does.
func (h *History) requireTree(tree oid.ID, path string) error {
	if h.rd.Has(tree) {
		return nil
	}
	_, _, _, err := h.treeEntry(tree, path)
	return err
}

func (h *History) blob(id oid.ID) ([]byte, error) { return h.blobInto(id, nil) }

// recoveryReader is a reader that tells what git printed making the last
// object read from a delta base it read from another copy, which git
// prints again at each read of that object (odb.Reader.Recovered).
type recoveryReader interface {
	Recovered() []string
	WarnAgain(lines []string)
}

// recovered is the reader's Recovered (nil for other readers).
func (h *History) recovered() []string {
	if r, ok := h.rd.(recoveryReader); ok {
		return r.Recovered()
	}
	return nil
}

// warnAgain records lines as the reader's warnings once more (git read
// the object they came from again).
func (h *History) warnAgain(lines []string) {
	if r, ok := h.rd.(recoveryReader); ok && len(lines) > 0 {
		r.WarnAgain(lines)
	}
}

// blobInto reads a blob into dst's storage when it is large enough.
func (h *History) blobInto(id oid.ID, dst []byte) ([]byte, error) {
	if h.lent == nil && h.newLookupReader != nil && h.trees.BlobReaderWanted() {
		h.lendReader()
	}
	if h.lent != nil {
		data, ok, err := h.trees.TakeBlob(id, dst)
		if ok {
			return data, err
		}
		// Not a blob the look-ahead planned: the reader is back.
		h.setReader(h.lent)
		h.lent = nil
	}
	// Any object's content, as git's fill_origin_blob reads it
	// (read_object_file does not check the type): an origin whose
	// "blob" is a gitlink's commit, blamed through --contents, diffs
	// against the commit's text.
	_, data, err := h.rd.Read(id, dst)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// lendReader lends rd, whose delta-base cache holds the bases of the
// blobs to come, to the path look-ahead, which has looked the path up to
// the end of its history and reads the walk's blobs with it from now on;
// the walk's other reads go through a reader of their own until the
// look-ahead gives rd back (blobInto) or stops (stopLookAhead).
func (h *History) lendReader() {
	h.lent = h.rd
	h.setReader(h.newLookupReader())
	h.trees.LendBlobReader(h.lent)
}

func (h *History) setReader(rd ObjectReader) {
	h.rd = rd
	h.commits.SetReader(rd)
	h.trees.SetReader(rd)
}

// candidateHelpReader is the reader the walk reads candidates with in
// prefetcher.next; nil when the history has no NewHelpReader.
func (h *History) candidateHelpReader() ObjectReader {
	if h.helpReader == nil && h.newHelpReader != nil {
		h.helpReader = h.newHelpReader()
	}
	return h.helpReader
}

// stopLookAhead stops the path look-ahead, if one runs, and takes back
// the reader lent to it.
func (h *History) stopLookAhead() {
	if h.background == nil {
		h.trees.StopLookAhead()
	} else if wait := h.trees.ReleaseLookAhead(); wait != nil {
		h.background(wait)
	}
	if h.lent != nil {
		h.setReader(h.lent)
		h.lent = nil
	}
}

func (h *History) objectType(id oid.ID) (object.Type, error) {
	typ, _, err := h.rd.ReadHeader(id)
	return typ, err
}

// blobType is git's oid_object_info of the blob a path names, as
// fill_blob_sha1_and_mode and verify_working_tree_path ask it: a damaged
// object's first lines are printed through warn and its type is
// object.Invalid (git then takes the path to be absent), unless git
// dies of what it read ("invalid object type"), which is the error.
func (h *History) blobType(id oid.ID, warn func(string)) (object.Type, error) {
	typ, err := h.objectType(id)
	var ce *odb.CorruptError
	if err == nil || !errors.As(err, &ce) || ce.Git == nil {
		return typ, err
	}
	for _, l := range ce.Git.InfoLines {
		warn(l)
	}
	if ce.Git.InfoFatal != "" {
		c := *ce
		c.Git = &odb.GitFailure{Fatal: ce.Git.InfoFatal}
		return object.Invalid, &c
	}
	return object.Invalid, nil
}

// diffTrees lists the file-level differences between two trees in git's
// order; all=true lists unchanged files too (find-copies-harder).
func (h *History) diffTrees(a, b oid.ID, all bool) ([]TreeChange, error) {
	var out []TreeChange
	fn := func(c *traverse.Change) error {
		out = append(out, TreeChange{Path: string(c.Path), OldMode: c.OldMode, NewMode: c.NewMode, OldID: c.OldID, NewID: c.NewID})
		return nil
	}
	var err error
	if all {
		err = h.trees.DiffTreesAll(a, b, fn)
	} else {
		err = h.trees.DiffTrees(a, b, fn)
	}
	return out, err
}

// PathIsBlob reports whether path names a blob in commit's tree.
func (h *History) PathIsBlob(commit oid.ID, path string) bool {
	c, err := h.commits.Get(commit)
	if err != nil {
		return false
	}
	mode, id, found, err := h.treeEntry(h.commits.Tree(c), path)
	if err != nil || !found || object.IsTree(mode) {
		return false
	}
	typ, err := h.objectType(id)
	return err == nil && typ == object.Blob
}
