package blame

import "github.com/goblame/goblame/internal/blamecore"

// The records a blame returns. They hold no reference to the blame's
// internal state: a kept Result costs its final image and its entries.
type (
	// Result is a finished blame: the final image and, for every line,
	// the commit and path it is attributed to (Entries, in line order,
	// coalesced as git coalesces them).
	Result = blamecore.Result
	// Entry attributes NumLines lines of the final image, starting at
	// line Lno (0-based), to lines starting at SLno of Path as of Commit.
	Entry = blamecore.Entry
	// Commit is a commit lines are blamed on, with its details (Info,
	// Author, Committer, Summary) read once. Entries of one blame share
	// one *Commit per commit.
	Commit = blamecore.Commit
	// CommitInfo is a commit's details as git blame prints them: raw
	// bytes, mailmapped and re-encoded.
	CommitInfo = blamecore.CommitInfo
	// Person is an author or committer: mailmapped name and email, and
	// the time in the zone recorded.
	Person = blamecore.Person
	// Previous is the (commit, path) a blamed origin was compared with.
	Previous = blamecore.Previous
	// LineRange is a half-open range of 0-based line numbers.
	LineRange = blamecore.LineRange
	// Stats counts the work a blame did.
	Stats = blamecore.Stats
	// PathError reports a path that is not a file at the final revision.
	PathError = blamecore.PathError
)

// Errors callers branch on.
var (
	// ErrNoSuchPath is wrapped by a PathError.
	ErrNoSuchPath = blamecore.ErrNoSuchPath
	// ErrRangeSyntax is wrapped by the error of a malformed -L range.
	ErrRangeSyntax = blamecore.ErrRangeSyntax
	// ErrBadRange is wrapped by the error of a LineRange outside the
	// file, empty or overlapping another.
	ErrBadRange = blamecore.ErrBadRange
)
