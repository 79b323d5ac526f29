package traverse

import (
	"errors"
	"fmt"

	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// ErrNotCommit reports an object that was expected to be a commit (a
// parent, a tip) but has another type.
var ErrNotCommit = errors.New("object is not a commit")

// ErrNotTree reports an object that was expected to be a tree (a commit's
// root tree, a directory entry) but has another type.
var ErrNotTree = errors.New("object is not a tree")

// CorruptError reports malformed bytes in a commit-graph file. OpenGraph
// and the lookups never return it to callers of the walk: a corrupt graph is
// dropped with a warning that carries this error's text. It is exported so
// that tools which want to validate a graph (fuzzers, tests) can inspect it.
type CorruptError struct {
	Path   string // the graph file (a single file or one layer of a chain)
	Offset int64  // byte offset in Path, -1 when no single offset applies
	Msg    string // what was wrong
}

func (e *CorruptError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("corrupt commit-graph %s at offset %d: %s", e.Path, e.Offset, e.Msg)
	}
	return fmt.Sprintf("corrupt commit-graph %s: %s", e.Path, e.Msg)
}

// GraphDeath is where git 2.39.5 dies reading a commit-graph that its
// load accepted: a commit's row names a parent position beyond the
// graph (commit-graph.c's insert_parent_or_die). The walk that parses
// that commit fails with it rather than warning and reading objects;
// Msg is git's message, without "fatal: ".
type GraphDeath struct {
	Msg string
}

func (e *GraphDeath) Error() string { return e.Msg }

// DiesInRead reports that git dies of it wherever it parses the commit,
// below a range's boundary too (see diesInRead).
func (e *GraphDeath) DiesInRead() bool { return true }

// GitDeath is git's message for it, without "fatal: ": what git prints
// of it, whatever the error wrapping it says.
func (e *GraphDeath) GitDeath() string { return e.Msg }

// MissingTreeError is a tree the walk reads that the repository does not
// have (its ID from a commit or a parent tree), or whose object git's
// tree reads take for no tree (Trees.readPeeled): git's tree diff dies of
// it, "unable to read tree X" (tree-walk.c's fill_tree_descriptor).
type MissingTreeError struct {
	ID  oid.ID
	Err error // the read's error (odb.ErrNotFound), or ErrNotTree's
	// Before are the lines git prints before it dies: a pack it cannot
	// use that lists the tree, tried twice (odb.LookupLines).
	Before []string
}

func (e *MissingTreeError) Error() string { return fmt.Sprintf("reading tree %s: %v", e.ID, e.Err) }

func (e *MissingTreeError) Unwrap() error { return e.Err }

// GitDeath is git's message for it, without "fatal: ".
func (e *MissingTreeError) GitDeath() string { return "unable to read tree " + e.ID.String() }

// GitBefore are the lines git prints before its death.
func (e *MissingTreeError) GitBefore() []string { return e.Before }

// treeReadError is the error of a failed read of the tree id: missing,
// or listed only by a pack git cannot use (whose line git prints for
// each try, then dies as of a missing tree).
func treeReadError(id oid.ID, err error) error {
	if errors.Is(err, odb.ErrNotFound) {
		return &MissingTreeError{ID: id, Err: err}
	}
	if lines := odb.LookupLines(err, 1); lines != nil {
		return &MissingTreeError{ID: id, Err: err, Before: lines}
	}
	return fmt.Errorf("reading tree %s: %w", id, err)
}

// LoopError is a commit reached again from itself, in a history whose
// ancestry loops (objects whose contents name commits that lead back to
// them, which only damage or tampering makes): git's simplify_merges
// waits for its parents for ever, and git's blame passes the same lines
// around the loop for ever (blamecore stops there too).
type LoopError struct{ Commit oid.ID }

func (e *LoopError) Error() string {
	return "the history loops: commit " + e.Commit.String() + " is its own ancestor"
}
