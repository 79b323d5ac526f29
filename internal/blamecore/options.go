package blamecore

import (
	"github.com/goblame/goblame/diff"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/oid"
)

// Options control attribution. The zero value is plain `git blame`
// without the indent heuristic; DefaultOptions gives git's defaults.
type Options struct {
	// Diff options of every blame diff: -w, --minimal, the indent
	// heuristic (on in git by default) and, as an extension, the
	// algorithm.
	Diff diff.Options

	// ShowRoot: root commits are not boundaries (--root, blame.showRoot).
	ShowRoot bool
	// FirstParent follows only first parents (--first-parent).
	FirstParent bool
	// ExcludeFirstParentOnly spreads UNINTERESTING along first parents
	// only (--exclude-first-parent-only).
	ExcludeFirstParentOnly bool
	// NoFollow disables whole-file rename following (--no-follow).
	NoFollow bool
	// Reverse walks forward from the final commit (--reverse); the
	// children lists come from Walk.
	Reverse bool

	// Move enables -M; CopyLevel 1..3 is the number of -C given (each
	// implies Move). MoveScore and CopyScore are the thresholds; 0 means
	// git's defaults (20 and 40).
	Move      bool
	CopyLevel int
	MoveScore int
	CopyScore int

	// Since makes commits with an older committer date boundaries
	// (--since/--after/--max-age) when HasSince is set.
	Since    uint64
	HasSince bool
	// Until leaves commits with a newer committer date out of the
	// limited list (--until/--before/--min-age: git's min_age) when
	// HasUntil is set; only a --reverse blame's children come from it.
	Until    uint64
	HasUntil bool
	// SinceFilter leaves commits with an older committer date out of the
	// limited list (--since-as-filter) when HasSinceFilter is set; as
	// with Until, only a --reverse blame's children come from it.
	SinceFilter    uint64
	HasSinceFilter bool

	// AncestryPath is --ancestry-path: of the commits of the range, those
	// on no ancestry path of one of its bottoms (or of AncestryBottoms)
	// are boundaries (traverse.LimitOptions).
	AncestryPath bool
	// AncestryBottoms are the commits --ancestry-path=<commit> named.
	AncestryBottoms []AncestryBottom
	// LimitedWalk makes the limiting pass run whatever the revisions
	// (git's limit_list for a limited walk: Options of package blame).
	LimitedWalk bool
	// NoWalk is --no-walk: the walk is not prepared
	// (traverse.LimitOptions.NoWalk).
	NoWalk bool
	// Order is --topo-order and its kin (0: none): with the
	// commit-graph's generation numbers git prepares its topological walk
	// instead of limiting the walk for a range
	// (traverse.LimitOptions.TopoWalk); without them its walk is limited
	// (LimitedWalk), and a limited walk's commits are sorted in the order
	// (traverse.LimitOptions.Sort).
	Order traverse.TopoSort
	// SimplifyByDecoration is --simplify-by-decoration: blame goes from
	// each commit to the nearest ones below it that a ref names (or roots),
	// as git's merge simplification rewrites the parents
	// (traverse.LimitOptions). Decorations loads what tells the
	// commits refs name (git's name decorations: every ref and HEAD,
	// tags peeled, replaced and grafted commits); it is called where
	// git loads them, when the walk first asks.
	SimplifyByDecoration bool
	Decorations          func() (func(oid.ID) bool, error)
	// Sparse is --sparse: with SimplifyByDecoration, every commit with
	// one parent changes something (git's dense off).
	Sparse bool

	// Ignore lists commits whose changes are re-attributed to their
	// parents (--ignore-rev, --ignore-revs-file).
	Ignore []oid.ID

	// Ranges restricts blame to line ranges of the final image, 0-based
	// half-open, sorted and merged; nil means the whole file.
	Ranges []LineRange

	// UseBloom consults changed-path Bloom filters (git does unless -C).
	UseBloom bool

	// OnGuilty, if set, is called as each entry is found (--incremental),
	// before entries are sorted and coalesced.
	OnGuilty func(Entry)

	// OnLongWalk, if set, is called once, when the walk takes a commit
	// from the queue after longWalkCommits others: a blame answered by a
	// snapshot a commit or two in, or of a short history, never calls it
	// (the command line sizes its heap for a walk there).
	OnLongWalk func()

	// TextConv, when set, converts blobs before they are blamed, as git
	// does for paths whose diff driver has a textconv command (on by
	// default in git blame; --no-textconv turns it off). It returns the
	// converted text, or nil when no conversion applies to the path.
	TextConv func(path string, mode uint32, blob []byte) ([]byte, error)

	// BinaryAttr, when set, says whether a path's diff driver calls its
	// content binary (1), text (0) or leaves it to the content (-1), as
	// git's diff_filespec_is_binary asks before scoring a rename: the
	// diff attribute (-diff: binary; diff: text) or diff.<driver>.binary.
	// Its error is what git dies of reading attributes. Nil: -1.
	BinaryAttr func(path string) (int, error)

	// Warn receives the lines git prints to standard error without
	// stopping (a parent commit that cannot be read is skipped with
	// "error: Could not read <id>"); nil discards them.
	Warn func(line string)

	// Record keeps what a whole-file blame found in the order it found
	// it, so that Result.Snapshot can hand it to later blames.
	Record bool
	// Exact makes Record and Bases deal in exact snapshots (see
	// Snapshot.Exact), for a blame whose snapshots cannot be taken over
	// by other walks (-M, -C, ignored revisions): the result is recorded
	// whatever its line ranges, and only a snapshot of the same blame,
	// which the caller keys by the options and ranges, is asked for, at
	// the final commit. Not with Reverse or a range bottom.
	Exact bool
	// Bases, when set, is asked for snapshots of earlier blames that the
	// walk can take over (see Snapshot); their entries are exactly what
	// the walk would have found.
	Bases Bases

	// Mailmap maps author and committer identities; nil maps nothing.
	Mailmap Mailmap
	// OutputEncoding is the encoding names and summaries are re-encoded
	// to (i18n.logOutputEncoding, --encoding); "" means UTF-8 and "none"
	// means raw bytes.
	OutputEncoding string
}

// LineRange is a half-open range of 0-based line numbers.
type LineRange struct{ Start, End int }

// Mailmap maps an identity to its canonical form.
type Mailmap interface {
	Map(name, email []byte) (newName, newEmail []byte)
}

// DefaultOptions returns git blame's defaults: indent heuristic on,
// rename following on, Bloom filters on.
func DefaultOptions() Options {
	return Options{Diff: diff.Options{IndentHeuristic: true}, UseBloom: true}
}

func (o *Options) moveScore() int {
	if o.MoveScore != 0 {
		return o.MoveScore
	}
	return 20
}

func (o *Options) copyScore() int {
	if o.CopyScore != 0 {
		return o.CopyScore
	}
	return 40
}

// AncestryBottom is a commit --ancestry-path=<commit> named: Named is
// set when the name was the commit's own, not a tag's
// (traverse.AncestryBottom).
type AncestryBottom struct {
	ID    oid.ID
	Named bool
}
