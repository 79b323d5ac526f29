package blamecore

import (
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/oid"
)

// Result is a finished blame: the final image and, for every line, the
// commit and path it is attributed to.
type Result struct {
	// Path is the blamed path (relative to the repository top).
	Path string `json:"path"`
	// Final is the final image: the blob (or working-tree file) blamed.
	Final []byte `json:"-"`
	// LineStarts holds the byte offset of each line of Final, plus
	// len(Final) at the end; NumLines() == len(LineStarts)-1.
	LineStarts []int `json:"-"`
	// Entries are the blame entries in final-line order, coalesced as git
	// coalesces them (maximal runs from one origin with contiguous source
	// and final lines and equal flags).
	Entries []Entry `json:"entries"`
	// Stats counts the work done (git's --show-stats figures and more).
	Stats Stats `json:"-"`

	snapshot *Snapshot
}

// NumLines returns the number of lines of the final image.
func (r *Result) NumLines() int { return len(r.LineStarts) - 1 }

// Line returns line n (0-based) of the final image, newline included.
func (r *Result) Line(n int) []byte { return r.Final[r.LineStarts[n]:r.LineStarts[n+1]] }

// Lines returns lines [from, from+count) of the final image.
func (r *Result) Lines(from, count int) []byte {
	return r.Final[r.LineStarts[from]:r.LineStarts[from+count]]
}

// Entry attributes NumLines lines of the final image, starting at line
// Lno (0-based), to lines starting at SLno in Path as of Commit.
type Entry struct {
	Lno      int     `json:"line"`
	SLno     int     `json:"sourceLine"`
	NumLines int     `json:"numLines"`
	Commit   *Commit `json:"commit"`
	Path     string  `json:"path"`
	// Previous names the version this origin was compared with (the
	// first parent, in parent order, that had the file), as porcelain's
	// "previous" line prints it; nil when there is none.
	Previous *Previous `json:"previous,omitempty"`
	// Ignored and Unblamable are the --ignore-rev flags.
	Ignored    bool `json:"ignored,omitempty"`
	Unblamable bool `json:"unblamable,omitempty"`
	// score and refCount are what --score-debug prints (ScoreDebug).
	score, refCount int
}

// Previous is a (commit, path) pair.
type Previous struct {
	Commit oid.ID `json:"commit"`
	Path   string `json:"path"`
}

// Commit is a commit some lines are blamed on.
type Commit struct {
	ID oid.ID
	// Boundary: the commit is UNINTERESTING (the bottom of a range, older
	// than --since, or a root without --root). Blame updates it while it
	// runs; after Run returns it is final.
	Boundary bool
	// MultiplePaths: lines are blamed on more than one path of this
	// commit (porcelain then repeats "filename" for every group).
	MultiplePaths bool
	// Uncommitted marks the pseudo commit of working-tree blame.
	Uncommitted bool

	info    *CommitInfo
	loadErr error
}

// CommitInfo is what blame prints about a commit: mailmapped identities,
// raw times and time zones, and the summary line, re-encoded to the
// output encoding.
type CommitInfo struct {
	Author, AuthorMail       []byte // AuthorMail includes the angle brackets, or is "(unknown)"
	AuthorTime               uint64
	AuthorTZ                 []byte
	Committer, CommitterMail []byte
	CommitterTime            uint64
	CommitterTZ              []byte
	Summary                  []byte
}

// Info returns the commit's printable details, read when blame first
// reported the commit (an error if its object could not be read then).
func (c *Commit) Info() (*CommitInfo, error) {
	if c.info == nil && c.loadErr == nil {
		return &CommitInfo{}, nil
	}
	return c.info, c.loadErr
}

// Stats counts work, as git's --show-stats does, plus goblame's own.
type Stats struct {
	ReadBlobs int // git's "num read blob"
	Diffs     int // git's "num get patch"
	Commits   int // git's "num commits": commits whose blame was passed to parents

	// goblame's own counters (not printed by --show-stats).
	Walk  traverse.CommitStats // commits from the graph or objects, Bloom answers
	Trees traverse.TreeStats   // path lookups and tree reads
	// LineTableResets counts the times the differ's line table was
	// started afresh to stay within its memory budget (before a -C
	// round, or a walk's pass: boundLineTable).
	LineTableResets int
	// CopyCandidates counts the candidate blobs -C rounds looked in (a
	// blob once per round, as ReadBlobs counts it), CopyDiffed those of
	// them diffed against the round's entries: the others could not hold
	// a copy that scores above the copy score (see copyfilter.go).
	CopyCandidates, CopyDiffed int
	// CopyBlobsRead counts the candidate blobs read from the object
	// database (a candidate remembered by ID is not read again, one whose
	// blob was dropped only when it is diffed), and CopyHeldPeak the most
	// bytes the remembered candidates held after a candidate was dealt
	// with: the blobs of those diffed, the line summaries of the others
	// (moves.go).
	CopyBlobsRead, CopyHeldPeak int
	// EntryDiffs counts the diffs of an entry's lines against a blob that
	// -M and -C made (git's find_copy_in_blob), EntryDiffsRuledOut those
	// left out because the entry had no run of the blob's lines that
	// scores above the move or copy score (entryMayHoldRun).
	EntryDiffs, EntryDiffsRuledOut int
	// Spliced counts the lines whose blame was taken from a snapshot of
	// an earlier blame (Options.Bases) instead of walking.
	Spliced int
	// TextsAhead counts the commit texts the result phase had read on a
	// second goroutine (infoahead.go).
	TextsAhead int
	// WholeMoves counts the whole passes made by moving the origin to
	// the parent (moveWhole).
	WholeMoves int
}

// ScoreDebug returns what --score-debug prints for e: git's -M/-C
// triviality score of the entry's final-image text (1 + its ASCII
// alphanumerics) and the reference count of its origin (the entries
// blamed on it plus the live origins whose "previous" it is).
func ScoreDebug(e *Entry) (score, refCount int) { return e.score, e.refCount }
