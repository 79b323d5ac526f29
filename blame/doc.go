// Package blame is goblame as a Go library: `git blame` for Go programs,
// with git 2.39.5's answers byte for byte — the same code the goblame
// command runs, so a program gets exactly what the command prints.
//
//	r, _ := blame.Open(".")
//	res, _ := r.File(ctx, "HEAD", "README.md", blame.Options{})
//	for _, e := range res.Entries {
//		fmt.Println(e.Commit.Author().Name, e.Commit.Summary(), e.NumLines)
//	}
//
// # Terminology
//
//   - The final image is the text being blamed: a file as of a commit,
//     or the working-tree file (or a dirty buffer, Options.Contents) for
//     the pseudo commit "Not Committed Yet", whose parents are HEAD and
//     MERGE_HEAD.
//   - An entry is a run of final-image lines that blame attributes to one
//     commit and path (Entry.Commit, Entry.Path), starting at a line of
//     that version (Entry.SLno). Lines are 0-based in the records; git's
//     output numbers them from 1.
//   - A boundary commit is the bottom of a range, older than
//     Options.Since, or a root commit without Options.ShowRoot: it keeps
//     the lines it is suspected of (git prints it with "^").
//
// # Options
//
// The zero Options is `git blame` with no options. Git also reads a few
// attribution settings from the configuration (blame.showRoot,
// diff.indentHeuristic, blame.ignoreRevsFile); ConfiguredOptions starts
// from them, as the command does. The repository's state is always
// honoured: replace refs, grafts and the shallow boundary, the mailmap,
// textconv drivers and the attributes of the path, the clean filter
// (filter.<driver>.clean or .process) of a work-tree file or a
// Contents buffer, the commit-graph and its Bloom filters unless
// core.commitGraph or commitGraph.readChangedPaths turn them off.
// textconv commands and clean filters are programs the configuration
// names, which git blame runs too: Options.CommandStderr and
// CommandEnv (or CommandEnvFunc) are their standard error and
// environment. In a partial
// clone (extensions.partialClone, remote.<name>.promisor), an object the
// clone lacks is fetched when it is read, as git does: "git fetch" from
// each promisor remote in turn, one object at a time, which writes it
// into the repository; GIT_NO_LAZY_FETCH turns that off (the blame then
// fails with git's "could not fetch ... from promisor remote"). The
// latest blame's CommandEnv and CommandStderr serve the fetch, which may
// run on another goroutine of the blame.
//
// # Results
//
// A Result holds the final image and its entries in line order,
// coalesced as git coalesces them. Every entry of one blame that names a
// commit shares one *Commit, whose details (mailmapped author and
// committer, summary, times with their zones) are read once, when blame
// reports the commit. Results hold no reference to the blame's internal
// state and may be kept, shared between goroutines (read-only) and
// encoded to JSON (object IDs as hex).
//
// Stream delivers entries as they are found — what `git blame
// --incremental` prints, newest commit first — and stops when the
// callback returns an error or the context is cancelled. Prepare splits
// a blame in two, for callers that need the number of lines before the
// walk (a progress meter).
//
// The format package renders a Result as git prints it (default, -c,
// --porcelain, --line-porcelain, --incremental), and the entries of
// Stream as goblame's --json records (format.NewJSON; Prepared.Path and
// Prepared.Final give its header).
//
// # The cache
//
// A Repository given a Cache (OpenCache, SetCache) keeps finished
// blames outside the repository and takes them over: a repeated blame
// reads its entry, a dirty buffer or the working tree over a cached HEAD
// costs one diff, and a newer commit walks only down to a commit with an
// entry. Every answer is the one a blame without the cache gives, entries
// as found included. Under -M, -C and ignored revisions, whose answers
// depend on which lines are blamed together, only the same blame again
// (commit, path, options, line ranges) is answered from the cache;
// --reverse, rewritten histories and textconv do not use it, and
// Options.NoCache turns it off for one blame. ScoreDebug's
// reference count describes the walk, which a cached blame does not do.
//
// # Errors
//
// Errors carry git's messages ("no such path x in HEAD", "file x has
// only 3 lines"): print "fatal: " and the message to say what git says.
// Branch on ErrNoSuchPath (PathError), ErrRangeSyntax, ErrBadRange and
// repo's error kinds. Library code never panics on input, never exits
// and never prints; warnings go to Options.Warn.
//
// # Concurrency
//
// A Repository is safe for concurrent use: each blame takes an object
// reader (with its own inflater and delta-base cache) from a pool over
// the shared, immutable object store and commit-graph, and gives it back
// when it ends. A Prepared blame belongs to one goroutine and runs once;
// callbacks run on the goroutine that called Stream or Run.
//
// # Stability
//
// goblame is at v0: this package's API may still change between minor
// versions. Changes are named in the commit log and the README; the
// records (Result, Entry, Commit, Person) and Open/File/Stream are the
// parts meant to stay. The packages under internal/ are not part of the
// API.
package blame
