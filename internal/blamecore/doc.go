// Package blamecore computes git blame: for every line of a file, the commit
// (and path) that last changed it, exactly as git 2.39.5 attributes it.
//
// # Terminology
//
//   - The final image is the text being blamed: a file as of a commit, or
//     the working-tree file (or --contents) for the pseudo commit "Not
//     Committed Yet", whose parents are HEAD and MERGE_HEAD.
//   - An origin is a (commit, path) pair under suspicion. A commit can
//     have several origins when lines come from different paths (renames,
//     -C copies).
//   - An entry is a run of final-image lines suspected to come from one
//     origin, starting at a line of the origin's blob (sLno).
//   - The suspects of an origin are its entries, kept sorted by sLno.
//   - Passing blame: the suspects of an origin are diffed against each
//     parent's version (the "scapegoats"); lines outside the changed hunks
//     move to the parent's origin, the rest stay. Whatever no parent takes
//     is guilty: it is blamed on the origin's commit.
//   - A boundary commit is UNINTERESTING: the bottom of a range, older
//     than --since, or a root commit without --root. It keeps every line
//     it is suspected of and is printed with "^" or "boundary".
//
// # The algorithm
//
// The scoreboard keeps a priority queue of commits ordered by committer
// date (newest first; oldest first with --reverse), ties broken by the
// order in which they were queued. Each popped commit hands the suspects
// of each of its origins to its parents, in parent order: first looking
// for the same path (a parent with the identical blob takes everything),
// then for a whole-file rename; then each parent's blob is diffed with
// the origin's and the entries are split at the hunk edges (chunk.go).
// Ignored revisions (--ignore-rev) re-attribute changed lines by fuzzy
// matching of character pairs (ignore.go); -M and -C search other parts
// of the file and other files for runs of lines (moves.go); whole-file
// renames use diffcore's similarity scores (rename.go). At the end the
// guilty entries are sorted by final line and adjacent ones coalesced.
//
// Every one of these steps follows git's blame.c in the details that
// change output (list orders, tie breaks, thresholds, the insertion
// counter of the queue); the differential tests compare the results with
// git byte for byte.
//
// A commit's origins are worked on front first, and git frees an origin
// once its reference count drops to zero (no entry, no live origin
// naming it as previous, no pass at work holding it), a later lookup of
// the path making a new one at the front. The scoreboard unlinks an
// origin at the same points (origin.go: release), so that its lists, and
// with them the order of --incremental entries when a commit holds
// suspects for several paths (renames, -M, -C), are git's
// (TestCopyHistoriesIncrementalOrderMatchesGit).
//
// # Use
//
// This is the algorithm behind the public package blame, which resolves
// revisions, reads the working tree and configuration and calls it. Run
// takes a History (commits, trees and blobs; NewObjectHistory builds one
// over any object reader, NewHistory a faster one with the
// commit-graph), a Request and Options, and returns a Result whose
// records hold no reference to the scoreboard.
//
// # Concurrency
//
// A Run uses one goroutine and owns its scoreboard; distinct runs may
// proceed in parallel over readers of a shared object database.
package blamecore
