package odb

import (
	"errors"
	"fmt"

	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/oid"
)

// ErrNotFound reports that no object database (main directory, alternates,
// packs or loose files) holds the requested object. Callers test for it with
// errors.Is; the returned error names the object.
var ErrNotFound = errors.New("object not found")

// ErrDeltaChain reports a delta chain that cannot be resolved: deeper than
// MaxDeltaChainDepth, or cycling through REF_DELTA entries.
var ErrDeltaChain = errors.New("unresolvable delta chain")

// ErrDeltaCycle and ErrDeltaTooDeep tell the two kinds of ErrDeltaChain
// that only a hostile pack makes, and that git never reports (it loops
// forever on a cycle, and reads chains of any depth), from a missing
// base: errors.Is(err, ErrDeltaCycle).
var (
	ErrDeltaCycle   = errors.New("REF_DELTA cycle")
	ErrDeltaTooDeep = errors.New("delta chain too deep")
)

// ErrUnmappable is what git dies of at its first object read when a pack
// index or multi-pack-index is a directory large enough for git to map
// (its mmap fails: ENODEV); its text is git's whole message.
var ErrUnmappable = errors.New(fsread.MapFailedText)

// ErrReplaceDepth reports replace refs that chain deeper than git allows
// (five replacements).
var ErrReplaceDepth = errors.New("replace depth too high")

// ErrStopped is what a Reader's reads return once the flag given to
// StopWhen is set: the read was given up, nothing is wrong with the
// object.
var ErrStopped = errors.New("odb: read stopped")

// ErrTooLarge is wrapped by TooLargeError.
var ErrTooLarge = errors.New("object larger than the size limit")

// TooLargeError reports an object (or a delta base or delta on the way to
// it) that declares more bytes than Options.MaxObjectBytes allows. Path
// and Offset say where the declaration is, as for CorruptError.
type TooLargeError struct {
	Path   string
	Offset int64
	Size   uint64 // bytes declared
	Limit  int64  // Options.MaxObjectBytes in effect
}

func (e *TooLargeError) Error() string {
	where := e.Path
	if e.Offset >= 0 {
		where += fmt.Sprintf(" at offset %d", e.Offset)
	}
	return fmt.Sprintf("%s declares %d bytes, over goblame's object size limit of %d bytes (goblame.maxObjectSize raises it)", where, e.Size, e.Limit)
}

func (e *TooLargeError) Unwrap() error { return ErrTooLarge }

// ErrClosed reports use of a DB after Close.
var ErrClosed = errors.New("object database is closed")

// CorruptError reports malformed bytes in a file of the object database: a
// loose object, a pack, a pack index or a multi-pack-index. Offset is the
// byte offset in Path where the problem was found (for a loose object, the
// offset in its inflated content; -1 when no single offset applies).
type CorruptError struct {
	Path   string // file that holds the bad bytes
	Offset int64  // offset in that file, -1 if not applicable
	Msg    string // what was wrong
	Err    error  // underlying cause (zlib error, ErrDeltaChain, ...), may be nil
	// Git, when set, is how git 2.39.5 fails reading the object ID
	// from these bytes (see GitFailure).
	Git *GitFailure
	ID  oid.ID
}

func (e *CorruptError) Error() string {
	s := "corrupt object database file " + e.Path
	if e.Offset >= 0 {
		s += fmt.Sprintf(" at offset %d", e.Offset)
	}
	s += ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *CorruptError) Unwrap() error { return e.Err }

func corrupt(path string, off int64, err error, format string, args ...any) *CorruptError {
	return &CorruptError{Path: path, Offset: off, Msg: fmt.Sprintf(format, args...), Err: err}
}
