// Package diff is a line diff whose hunks are exactly those of git
// 2.39.5's xdiff, the engine behind git diff and git blame.
//
// Blame decides which commit a line belongs to by diffing each version of
// a file against its parent: lines inside a hunk stay with the child,
// lines outside it are passed on to the parent. Two diffs can be equally
// short and still place their hunks differently (which of three identical
// blank lines was deleted? where does an inserted function begin?), and
// every such difference changes blame's output. So this package does not
// compute "a" good diff; it reproduces xdiff's choices step by step, and
// is tested against the installed git byte for byte (see Testing below).
//
// # Lines and classes
//
// A line (xdiff says "record") runs up to and including a newline; a final
// fragment without a newline is a line too, and is different from the same
// text with a newline. Lines are compared a great many times, so each
// distinct line is given a small integer id once, by hashing it into a
// table and confirming every hash hit by comparing the bytes. After that
// the algorithms only compare ids. With IgnoreWhitespace (git's -w) two
// lines get the same id when they are equal once every space, tab,
// newline and carriage return is deleted ('\v' and '\f' are not
// whitespace to git).
//
// A File is a blob split into lines and interned by a Differ. Blame diffs
// every version twice (against its child and against its parent), so a
// version is prepared once and reused. PrepareNear prepares a version
// next to one already prepared: lines in the common prefix and suffix, and
// lines of the middle that are byte-for-byte those of the neighbour, take
// the neighbour's ids without being hashed; only lines that really differ
// are hashed. Ids are always exact, so this changes the speed and nothing
// else.
//
// # The Myers path, as xdiff walks it
//
// Blame always uses this path (Algorithm Myers, the zero value).
//
// Tail trim. With zero context lines (blame, git diff -U0), git first cuts
// the two buffers' common tail in whole 1 KiB blocks, then gives back the
// start of the cut region up to its first newline so that both files still
// end on a line boundary (TrimCommonTail). The cut lines take no part in
// anything that follows: they are not counted, groups cannot slide into
// them, and the indent heuristic sees the end of the file where the cut
// is. BlameDiff and BlameDiffFiles do this; Diff and DiffFiles do not.
//
// Trimming the ends. The longest common prefix and suffix of the two id
// sequences are unchanged and leave the working range.
//
// Discarding. Every working line is classified by how often its id occurs
// in the other file (over the whole, tail-trimmed file): never (it must be
// a change: discard it), at least min(bogosqrt(n), 1024) times where n is
// this file's line count (a "multimatch"), or in between (keep it).
// bogosqrt is xdiff's rough square root: 1 doubled once for every time n
// can be shifted right by two. A multimatch line is discarded only when it
// sits in a run of discarded lines: looking at most 100 lines each way, the
// run of non-keepers must reach it from both sides, and the unmatched
// lines in those runs must outnumber the multimatch ones (each side counts
// the line itself once) by more than three to one. Discarded lines are
// marked changed; the kept ones form two shorter sequences on which the
// real search runs. This step is why xdiff is fast on big rewrites, and
// also why its result is not always minimal, even with Minimal.
//
// The search. Picture the edit graph: A runs along x, B along y, a
// diagonal step means "these lines are equal" and costs nothing, a
// horizontal or vertical step deletes or inserts one line. Diagonal k is
// the set of points with x - y = k. Myers' algorithm finds, for a growing
// cost, how far along each diagonal one can get; xdiff runs it from both
// corners of a box at once and stops when the two searches meet, which
// gives a point on a cheapest path (the middle snake). The box is split
// there and both halves are solved the same way (divide and conquer).
// Which point is found depends on small rules that this package copies
// exactly: the diagonals are swept from the highest to the lowest, a tie
// between coming from diagonal k-1 or k+1 prefers k-1 (consuming a line of
// A) going forward, the domain of diagonals grows by one on each side per
// step and bounces back at the box walls, and the forward search checks
// for a meeting only when the distance between the two corner diagonals is
// odd, the backward one only when it is even. On amd64 the two sweeps
// over the diagonals (sweepForward, sweepBackward) are in assembly
// (sweep_amd64.s): compiled from Go their loop kept its index on the
// stack, and cost twice git's per diagonal; the Go loops remain the
// reference (sweepForwardGo, sweepBackwardGo; TestSweepsMatchGo).
//
// Giving up early. Unless Minimal is set, a search that has spent a lot is
// cut short. Past a cost of 256, if some diagonal has run far ahead (its
// distance from the corner, less its distance from the middle diagonal, is
// more than four times the cost) and ends in a run of at least 20 equal
// lines, the box is split there (the snake heuristic). Past a cost of
// max(bogosqrt(N), 256), where N is the size of the two kept sequences plus
// 3, the box is split at whichever of the two searches reached furthest.
// Each split says which of its halves still needs an exact answer; an
// ordinary split asks for both, a heuristic one for one side only, and
// that flag, not the caller's, is what the half is solved with. The
// cut-offs therefore fire only on large, very different inputs, but there
// they decide the result. (The snake heuristic can fire only when N
// exceeds 65,535, since below that the cost cap is 256 and is reached
// first.)
//
// Compaction. A run of changed lines in one file (a group) whose first
// line equals the line after it can slide down a line, and one whose last
// line equals the line before it can slide up; the diff means the same
// either way. xdiff slides every group of A, then every group of B, first
// as far up and then as far down as it can go, merging with any group it
// runs into. Unchanged lines pair up one to one, so the k-th group of A
// corresponds to the k-th group of B. If the group can sit next to a
// change in the other file, it is moved back up to the lowest such place;
// otherwise, with the indent heuristic on (git's default), it goes where
// the indentation suggests a human would put it; otherwise it stays at the
// bottom.
//
// The indent heuristic (Michael Haggerty's) scores each candidate position
// by its two splits, the boundary above the group and the one below. A
// split is judged by the blank lines around it, the indentation of the
// line below it and of the nearest non-blank lines above and below, and
// whether it is at the start or end of the file; blank lines nearby are
// good, a line more indented than its predecessor is good, a dedent is
// bad. Only the 100 lowest positions are tried; the best score wins, the
// lower position on ties.
//
// Hunks. Finally both files are walked together; each place where either
// has changed lines is one Hunk, reported as xdiff's hunk callback sees it
// with zero context: 0-based starts and counts.
//
// # Histogram and patience
//
// Git can also diff with --histogram and --patience. Blame in git 2.39.5
// never does, but they are offered here (the Algorithm field) and checked
// against git diff --histogram / --patience. Both skip the trimming and
// discarding above, split the problem at lines they consider safe anchors,
// fall back to the Myers search (with its own trimming and discarding, on
// the sub-range) where they find none, and finish with the same compaction.
// Patience anchors on lines that occur exactly once on each side, taking
// the longest run of them that is in the same order in both files.
// Histogram anchors on the longest run of equal lines made of the rarest
// lines, recursing before the run and looping after it; when it finds more
// than 64 distinct lines in one chain of its hash index, xdiff gives up
// and git fails the diff, and so does Histogram here
// (ErrHistogramOverflow).
//
// # Using it
//
// The byte-slice entry points need no setup:
//
//	d := diff.NewDiffer()
//	hunks := d.BlameDiff(nil, parentBlob, childBlob, diff.Options{IndentHeuristic: true})
//
// Blame should prepare each version once and diff prepared Files:
//
//	child, err := d.Prepare(nil, childBlob, opts)
//	parent, err := d.PrepareNear(nil, parentBlob, child, opts)
//	hunks, err := d.BlameDiffFiles(hunks, parent, child, opts)
//
// Hunk slices and Files are reused by passing them back in, and a Differ
// keeps its work arrays, so a stream of diffs allocates almost nothing.
// The interning tables grow with every distinct line seen; Reset empties
// them (and invalidates the Files prepared before).
//
// A diff fails only where git's does: an input over MaxFileSize
// (ErrTooLarge), or a histogram chain overflow. The byte-slice entry
// points report that through Err.
//
// # Why not sergi/go-diff
//
// github.com/sergi/go-diff (diff-match-patch) is a fine general diff, and
// the tests use it as an independent referee: every script produced here
// must turn A into B and must not be shorter than sergi's minimal script
// (and, for Minimal when no line is a multimatch, exactly as short). It is
// not the engine because it cannot give git's hunks: it has no discard
// step, no cost cut-offs, no compaction or indent heuristic, and breaks
// ties differently. It is also much slower on line diffs (it maps lines
// to runes and diffs strings): on the benchmark inputs below its line
// mode takes 4.3 ms (scattered) and 120 ms (blocks) per diff against
// 0.65 ms and 3.9 ms here preparing both files from scratch, and it
// allocates 5 to 7 MB per call (2,500 to 32,000 allocations).
//
// # Testing
//
// Everything that must match git is compared with git 2.39.5 itself:
//
//   - TestDifferentialMyers, TestDifferentialHistogram and
//     TestDifferentialPatience generate seeded random file pairs (small
//     edits, block moves, duplicated and blank lines, brace- and
//     indentation-heavy code, missing final newlines, CRLF, whitespace-only
//     changes, odd bytes such as \v, \f and high bytes, long common tails,
//     medium files with scattered edits, costly rewrites where the cost
//     cut-off fires) and compare the hunks with one batched git diff
//     --no-index -U0 per option set: defaults, --no-indent-heuristic,
//     --minimal and -w. The default run takes seconds (3,196 pairs for
//     Myers, 12,784 comparisons; a third of that for the other two). The
//     long run (command below) adds files of 66,000 to 86,000 lines, where
//     the snake heuristic fires, and compares 21,724 pairs under each
//     option set: 86,896 comparisons per algorithm, 260,688 in all.
//     GOBLAME_DIFF_SEED=n replays a run; a mismatch is written as a txtar
//     reproducer to testdata/regress/, to be kept as a regression test.
//   - TestFixtureHistory builds a repository (SHA-1 and SHA-256) with 80
//     versions of two files (400 in the long run) and compares every
//     consecutive pair with git log -p -U0, for all algorithms and option
//     sets (2,528 comparisons; 12,768 in the long run). The files are
//     prepared as blame does, each near its child.
//   - TestRealRepositories does the same on the histories of long-lived
//     files of git/git (diff.c, Makefile, README.md, builtin/blame.c),
//     go-git and gitoxide when clones are available (GOBLAME_DIFF_REPOS;
//     skipped otherwise): the latest 20 changes of each by default, the
//     whole histories in the long run (5,332 version pairs, 21,328
//     comparisons).
//   - TestEdgeCasesAgainstGit: hand-made corner cases (empty files, lone
//     newlines, CR-only and CRLF endings, NUL bytes, lines longer than the
//     1 KiB tail blocks, tails of exactly a block) under every algorithm
//     and option set.
//   - testdata/*/*.txtar are cases whose expected hunks came from git; they
//     run without git.
//   - TestScriptsAgainstSergi, FuzzDiff (go test ./diff -fuzz FuzzDiff),
//     allocation budgets (TestAllocationBudgets: no allocation per diff
//     once warm) and unit tests need no git.
//
// The long run:
//
//	GOBLAME_DIFF_LONG=1 go test ./diff -run 'TestDifferential|TestFixtureHistory|TestRealRepositories' -timeout 1h
//
// # Performance
//
// Figures are from one 2-core VM shared with other work, so each is the
// minimum of repeated runs, with git timed in the same rounds. Produce
// them with
//
//	go test ./diff -run '^$' -bench . -benchmem
//	benchmarks/diff/git-per-diff.sh
//
// The inputs are a 10,000-line source-like file (300 KB) with 1% of its
// lines changed at scattered places, and the same file rewritten in blocks
// (a third of its 50-line blocks replaced, a seventh moved). Times are per
// diff; none of these allocates once warm.
//
//	                                          scattered 1%   rewritten in blocks
//	git diff --no-index -U0 (per diff)            2.5 ms          4.4 ms
//	prepare both files + BlameDiffFiles           0.65 ms         3.9 ms
//	PrepareNear + BlameDiffFiles (blame's way)    0.15 ms         3.8 ms
//	BlameDiffFiles alone (prepared Files)         0.12 ms         3.3 ms
//	Prepare, one file (lines known)               0.26 ms         0.24 ms
//	PrepareNear, one file                         0.03 ms         0.22 ms
//	sergi/go-diff line mode                       4.3 ms          120 ms
//
// So a diff costs 3.8 times less than git's when both files are hashed
// line by line as git does, and 17 times less the way blame uses it. On
// the rewritten file almost all the time is the Myers search, which makes
// about 940,000 diagonal steps (the same steps as xdiff's, since the
// search is the same): 1.1 times faster than git.
// git's figure is per diff inside one process: 200 copies of the pair in
// two directories, one git diff --no-index -U0 over them, less the time of
// a run over one pair, divided by 199 (it includes writing the hunks).
//
// Over a whole history, which is what blame does (BenchmarkHistory: each
// version prepared newest to oldest with PrepareNear and diffed against
// its child with BlameDiffFiles), every version of git's diff.c (1,694
// pairs, 220 MB of text) takes 130 ms, and Makefile (3,273 pairs) 111 ms;
// through the byte-slice API, 154 ms and 114 ms. For comparison, git log
// -p -U0 over diff.c's history takes 0.42 s more than git log --raw (blob
// reads, diffs and output).
//
// # Concurrency
//
// A Differ and the Files it prepares are not safe for concurrent use; use
// one Differ per goroutine (Files prepared by one Differ can only be
// diffed by it). TrimCommonTail and Hunk methods are safe.
//
// # Security
//
// The inputs are arbitrary bytes (any blob in a repository). Inputs over
// MaxFileSize (1023 MiB) are refused with ErrTooLarge, as git refuses them,
// which also keeps line offsets within 32 bits. The work of a diff is
// bounded by xdiff's own cut-offs unless Minimal is set (then it is
// O((N+M)·D), as in git). Nothing is trusted about line lengths or counts,
// no input makes the code panic (FuzzDiff), and a File keeps a reference
// to the caller's bytes rather than copying them, so they must not change
// while it is in use.
package diff
