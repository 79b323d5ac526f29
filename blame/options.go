package blame

import (
	"io"
	"time"

	"github.com/goblame/goblame/oid"
)

// Options say what to blame and how. The zero value is `git blame` with
// no options: the indent heuristic, rename following, textconv, the
// mailmap and the repository's output encoding are on, and the
// changed-path Bloom filters and the commit-graph are used unless the
// repository's config turns them off.
type Options struct {
	// Revisions are further revision words, as git's setup_revisions
	// takes them after the rev argument of File: "^v1.0", "A..B",
	// "--not", and the ref listings IsRefListing names ("--all",
	// "--branches=feature/*"). Other words that start with "-" are
	// refused.
	Revisions []string
	// DefaultRevision is --default: the revision used when no positive
	// one is given.
	DefaultRevision string
	// Merge is --merge: blame HEAD against MERGE_HEAD.
	Merge bool
	// AfterRevisions, when set, runs once the revision words are
	// resolved and before anything else is read; its error stops the
	// blame. The command line checks its revision options there, where
	// git's setup_revisions checks them.
	AfterRevisions func() error

	// Contents, when not nil, is read for the final version instead of
	// the working-tree file (--contents -, a dirty editor buffer), and
	// ContentsName names it in messages ("standard input" when empty).
	Contents     io.Reader
	ContentsName string
	// ContentsFile is --contents <file>: a file read for the final
	// version, relative to the top of the work tree (or to the working
	// directory of a bare repository).
	ContentsFile string
	// ContentsFileGiven, with ContentsFile empty, is --contents '': git
	// reads the file of the empty name, and dies "Cannot stat ''" (or
	// of --contents' other checks first). A ContentsFile that is not
	// empty is given whatever this says.
	ContentsFileGiven bool

	// Ranges are -L ranges in git's syntax ("10,20", "/re/,+5",
	// ":funcname"); LineRanges are 0-based half-open ranges of the final
	// image, sorted and disjoint. The union of both is blamed; none
	// means the whole file.
	Ranges     []string
	LineRanges []LineRange

	// Since makes commits older than it (committer date) boundaries
	// (--since, --after); the zero time means no limit.
	Since time.Time
	// Until (--until, --before, --min-age) leaves commits newer than it
	// (committer date) out of the list git's limiting pass makes, which
	// a --reverse blame takes children from: lines are not carried
	// forward to them. It changes nothing else. The zero time means no
	// limit.
	Until time.Time
	// SinceAsFilter (--since-as-filter) leaves commits older than it out
	// of that list, as Until leaves newer ones; it changes nothing else.
	SinceAsFilter time.Time
	// ShowRoot: root commits are not boundaries (--root, blame.showRoot).
	ShowRoot bool
	// FirstParent follows first parents only (--first-parent).
	FirstParent bool
	// ExcludeFirstParentOnly (--exclude-first-parent-only): a bottom
	// makes only its first-parent ancestors uninteresting, so history
	// merged in below it is still blamed.
	ExcludeFirstParentOnly bool
	// NoFollow does not follow whole-file renames (--no-follow).
	NoFollow bool
	// Reverse finds the commit in which each line was last present
	// (--reverse); the rev argument is then the start ("A..B" or "A",
	// which means "A..HEAD").
	Reverse bool
	// AncestryPath is --ancestry-path: of the range's commits, only those
	// that are a bottom of the range, its descendants or its ancestors
	// are walked; the others are boundaries. Revisions without a bottom
	// ("^A", "A..B") are an error, as in git. AncestryPathCommits
	// (--ancestry-path=<commit>, each a committish) are bottoms of their
	// own, with or without AncestryPath; git takes the ancestors of one
	// named through a tag off the path (it marks the tag), and so does
	// goblame.
	AncestryPath        bool
	AncestryPathCommits []string
	// SimplifyByDecoration is --simplify-by-decoration: blame passes
	// from each commit to the nearest commits below it that a ref (or
	// HEAD, a replace ref or a graft) names, or roots, as git's merge
	// simplification rewrites the parents its walk follows; each line is
	// blamed on one of those (or on the commit blamed, or a boundary).
	SimplifyByDecoration bool
	// LimitedWalk walks the whole history from the revisions before the
	// blame, as git's limited revision walk does (limit_list: git runs
	// it for --simplify-merges, --cherry-pick, or --topo-order without
	// a commit-graph's generation numbers, and for every range): the
	// blame is the same, but a commit that cannot be read anywhere in
	// that history is then git's death ("revision walk setup failed").
	LimitedWalk bool
	// Order is --topo-order (WalkTopo; also --graph), --date-order
	// (WalkTopoDate) or --author-date-order (WalkTopoAuthorDate); zero
	// for none. Where the commit-graph gives generation numbers, git
	// prepares its topological walk instead of limiting it for a range,
	// and marks UNINTERESTING only the commits down to the lowest
	// generation of the revisions: blame may then go past the bottom
	// into older history that reaches the blamed commit another way, as
	// git's does. Without generation numbers it is a limited walk
	// (LimitedWalk). A limited walk sorts its commits in the order, which
	// orders the children a --reverse blame passes lines to.
	Order WalkOrder
	// NoWalk is --no-walk (in effect after the revisions: a later
	// exclusion or --do-walk ends it): git then parses the revisions
	// and prepares no walk of them, so that nothing of the options
	// above that the walk's preparation makes is made (AncestryPath,
	// AncestryPathCommits' ancestry, LimitedWalk, Order and
	// SimplifyByDecoration change nothing, and no revision is an error
	// for want of a bottom), and a Reverse blame, which git passes from
	// each commit to the children that preparation lists, passes
	// nothing (but with FirstParent, whose children git lists itself):
	// its lines stay on the start.
	NoWalk bool
	// Sparse is --sparse: with SimplifyByDecoration, a commit with one
	// parent is never passed over, whether a ref names it or not (git's
	// history that is not dense). Without it, it changes nothing.
	Sparse bool
	// WalkReflogs is -g (--walk-reflogs): git hands the commits the
	// revisions name to its reflog walk, which blame does not use, so
	// they are not blamed (a tag or another object named stays): with
	// none left the working tree is blamed, and an excluded commit is an
	// error ("cannot walk reflogs for X").
	WalkReflogs bool
	// IgnoreMissing is --ignore-missing: a revision that names nothing
	// (a missing object, a range with a missing end) is passed over
	// instead of being an error.
	IgnoreMissing bool

	// IgnoreWhitespace is -w; Minimal is --minimal; NoIndentHeuristic is
	// --no-indent-heuristic (diff.indentHeuristic=false).
	IgnoreWhitespace  bool
	Minimal           bool
	NoIndentHeuristic bool

	// Move is -M; CopyLevel 1..3 is the number of -C (each implies Move).
	// MoveScore and CopyScore are their thresholds; 0 means git's
	// defaults (20 and 40).
	Move      bool
	CopyLevel int
	MoveScore int
	CopyScore int

	// IgnoreRevs (--ignore-rev) and IgnoreRevsFiles (--ignore-revs-file,
	// blame.ignoreRevsFile; relative names start from the top of the work
	// tree, an empty name clears the files before it) list commits whose
	// changes are passed to their parents.
	IgnoreRevs      []string
	IgnoreRevsFiles []string

	// Grafts replace the parents of commits for this blame (-S
	// <revs-file>, read with repo.ReadGraftFile).
	Grafts map[oid.ID][]oid.ID

	// NoTextConv is --no-textconv: blobs are blamed as stored even where
	// a diff driver has a textconv command.
	NoTextConv bool
	// CommandStderr receives the standard error of the programs the
	// configuration names that a blame runs as git blame does — textconv
	// commands, and the clean filters (filter.<driver>.clean and
	// .process) of a work-tree file or of Contents — (discarded when
	// nil), and CommandEnv is their environment (the process's when
	// nil). They run in the top directory of the work tree.
	CommandStderr io.Writer
	CommandEnv    []string
	// CommandEnvFunc, when set, makes the environment of those programs
	// instead of CommandEnv, once, when the blame first runs one: for
	// an environment that costs something to make (the command line
	// asks git for the exec path git puts first on its programs' PATH).
	// A partial clone's git fetch still gets CommandEnv (git sets its
	// own up).
	CommandEnvFunc func() []string

	// NoMailmap leaves author and committer identities as recorded
	// (git blame always maps them through .mailmap, mailmap.file and
	// mailmap.blob).
	NoMailmap bool
	// OutputEncoding is the encoding names and summaries are re-encoded
	// to (--encoding); "" means the repository's i18n.logOutputEncoding
	// (else i18n.commitEncoding, else UTF-8) and "none" the raw bytes.
	OutputEncoding string

	// Now and Location are the time and zone of the "Not Committed Yet"
	// pseudo commit of a working-tree blame (time.Now and time.Local
	// when zero).
	Now      time.Time
	Location *time.Location

	// BeforeWalk, when set, runs once when the blame's walk of history
	// proves long (some sixteen commits in), and not at all when the
	// cache answers it or the history is shorter (a program can size
	// its memory for a walk there: the command line prepares a huge-page
	// heap).
	BeforeWalk func()

	// NoCache leaves the repository's blame cache (Repository.SetCache)
	// alone for this blame: nothing is read from it or written to it.
	NoCache bool

	// Warn receives the lines git prints to standard error without
	// stopping ("warning: ...", "error: Could not read <id>"); nil
	// discards them.
	Warn func(line string)
}

// ranges reports whether any -L range is given.
func (o *Options) hasRanges() bool { return len(o.Ranges) > 0 || len(o.LineRanges) > 0 }

// WalkOrder is the order a topological revision walk sorts its commits
// in (Options.Order): git's rev_sort_order.
type WalkOrder uint8

const (
	// WalkDefault is no topological order.
	WalkDefault WalkOrder = iota
	// WalkTopo is --topo-order: parents after their children, a branch
	// kept together (git's REV_SORT_IN_GRAPH_ORDER).
	WalkTopo
	// WalkTopoDate is --date-order: parents after their children, newest
	// committer date first.
	WalkTopoDate
	// WalkTopoAuthorDate is --author-date-order: newest author date
	// first.
	WalkTopoAuthorDate
)

// contentsFileGiven reports --contents <file>, the empty name included.
func (o *Options) contentsFileGiven() bool { return o.ContentsFile != "" || o.ContentsFileGiven }
