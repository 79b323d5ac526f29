package repo

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns for a condition git
// reports with die() is an *Error whose Error() text is git's message
// without the "fatal: " prefix, so the command line prints
// "fatal: " + err.Error() and exits 128; errors.Is tells the kinds apart.
var (
	// ErrNotRepository: no repository was found, or GIT_DIR or a .git
	// file names something that is not one. Its own text is the message
	// of a failed discovery walk.
	ErrNotRepository = errors.New("not a git repository (or any of the parent directories): .git")
	// ErrDubiousOwnership: the repository is owned by another user and
	// no safe.directory entry allows it.
	ErrDubiousOwnership = errors.New("detected dubious ownership in repository")
	// ErrUnsupportedFormat: core.repositoryformatversion is too new or a
	// repository extension is unknown.
	ErrUnsupportedFormat = errors.New("unsupported repository format")
	// ErrBadConfig: a configuration file, value or command-line setting
	// git would refuse.
	ErrBadConfig = errors.New("bad configuration")
	// ErrBadRef: a ref file or packed-refs line git cannot read.
	ErrBadRef = errors.New("bad ref")
	// ErrUnbornHead: HEAD names a branch that does not exist yet.
	ErrUnbornHead = errors.New("HEAD points to an unborn branch")
	// ErrRefNotFound: a ref does not exist.
	ErrRefNotFound = errors.New("ref not found")
	// ErrBadRevision: a revision expression names nothing (or is
	// malformed).
	ErrBadRevision = errors.New("bad revision")
	// ErrAmbiguous: an abbreviated object name matches more than one
	// object.
	ErrAmbiguous = errors.New("ambiguous argument")
	// ErrCorruptIndex: the index file cannot be read.
	ErrCorruptIndex = errors.New("index file corrupt")
)

// Error is a failure with git's wording. Kind is one of the sentinels
// above (errors.Is matches it); Err, when set, is the underlying cause.
type Error struct {
	Kind error
	Msg  string
	Err  error
	// Before holds complete lines git writes to standard error before
	// "fatal: <Msg>", prefixes included ("error: key does not contain a
	// section: foo"); the command line prints them first.
	Before []string
}

func (e *Error) Error() string { return e.Msg }

// Is reports whether target is e's kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

func newError(kind error, format string, args ...any) *Error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
