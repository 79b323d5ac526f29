// Package traverse walks commit history the way git blame does: it reads
// commits (from the commit-graph when there is one, else from their
// objects), answers "did this path change against the first parent?"
// from changed-path Bloom filters, resolves paths in trees with a cache,
// diffs trees in git's order, and provides the primitives of git's
// revision walk that blame depends on: the date-ordered priority queue,
// UNINTERESTING marking for ranges (A..B, ^A, --not, --since), children
// lists for --reverse, and first-parent handling.
//
// # Commits
//
// A Commits value is one walk's cache of commits by ID. Lookup returns a
// stub (git's lookup_commit); Parse fills it (git's parse_commit): from
// the commit-graph's CDAT row when the commit is in the graph (root tree,
// parents, commit time — no object is inflated), else by parsing the
// commit object read through the odb's cache. Grafts (info/grafts, blame
// -S) and shallow boundaries arrive as maps in CommitOptions and replace
// parents exactly as git's parse_commit_buffer does; their presence turns
// the commit-graph off, as it does in git. Parent lists are pointers to
// other Commits, so a walk never hashes an ID to find a parent.
//
// # The commit-graph (gitformat-commit-graph, git's commit-graph.c)
//
// OpenGraph finds objects/info/commit-graph or, failing that, a split
// chain (objects/info/commit-graphs/commit-graph-chain naming
// graph-<hash>.graph layers, base first, each layer's BASE chunk listing
// the layers below it; layers may live in alternates). The first object
// directory that yields a graph is the only one used. Files are
// memory-mapped and read in place: OIDF (fan-out), OIDL (sorted IDs), CDAT
// (tree, two parent positions, 2+30 bits of generation/time, 32 bits of
// time), EDGE (octopus parents), GDA2/GDO2 (corrected commit dates),
// BIDX/BDAT (Bloom filters); GDAT/GDOV (written by git 2.31-2.35) are
// ignored as git 2.36+ ignores them. A parent position indexes the
// concatenation of all layers' OID lists, so a parent may live in a lower
// layer.
//
// Everything a lookup indexes is validated once at open (header, table of
// contents, chunk sizes, fan-out order, Bloom header, index order and total
// size) and
// per commit when read (parent positions in range and not the commit
// itself, EDGE indexes, filter offsets). A problem found at open drops the
// file with a warning worded as git words it where git reports the same
// problem; one found later drops the graph for the rest of the walk
// (Commits.Warnings) and the commit is read from its object instead.
// Either way the results are those of a repository without a graph. git
// 2.39.5 dies or reads out of bounds on several of these damages; a
// damaged graph never stops goblame.
//
// # Changed-path Bloom filters (git's bloom.c)
//
// Each commit in a layer with BIDX/BDAT chunks has a filter of the paths
// that differ from its first parent (and of their leading directories): k
// bit positions (k = 7) per path, derived from two murmur3 hashes (seeds
// 0x293ae76f and 0x7e646e2c) as h0 + i*h1, modulo the filter's size in
// bits. A clear bit means "definitely not changed"; a one-byte 0xFF filter
// means "too many changes, always maybe"; a zero-length filter means "not
// computed". MaybeChanged answers "maybe" whenever no usable filter
// exists, so a false answer is always safe to act on: blame then passes
// the whole blame to the first parent without reading a tree.
//
// Version 1 filters, the only ones git 2.39.5 writes and reads, hash path
// bytes as C chars: on x86, x86-64, Windows and macOS a byte >= 0x80 is
// sign-extended before it is mixed in, so for non-ASCII paths the filters
// hold a hash that is not murmur3; where char is unsigned (Linux on arm64)
// they hold real murmur3. Version 2 filters (git 2.46+) always hold real
// murmur3. For a version 1 filter and a path with high bytes, goblame
// tests both variants and answers "no" only if both do, which is correct
// for files written on any machine. Layers with different filter settings
// are each read with their own (git 2.39.5 applies the settings of the
// topmost layer with filters to every layer, and reads no version 2 layer
// alone). A key for "a/b/c" also requires "a/b" and "a" to
// test positive (git adds every leading directory to the filter), which
// lowers false positives below git blame's.
//
// Git blame consults filters only for the first parent, only for commits
// in the graph, never with -C, with the blamed path and the rename sources
// found so far as keys; the blame driver decides when to ask.
//
// # Trees
//
// Trees.Lookup resolves a/b/c from a root tree reading only the trees on
// the path, and caches, per path and depth, which entry a given tree ID
// holds: consecutive commits usually share most subtrees, so a linear walk
// reads about one tree per commit (the root) instead of one per path
// component. DiffTrees is a full recursive two-tree diff in the order of
// "git diff-tree -r" (a file and a directory of the same name are
// different entries; unchanged subtrees are skipped by ID), for rename
// and copy detection; DiffTreesAll also lists unchanged files, as blame's
// -C -C needs.
//
// # The walk
//
// Queue is git's prio-queue as blame uses it: by commit date (newest
// first, or oldest first for --reverse), ties in push order. Limit is
// prepare_revision_walk plus limit_list: tips in command-line order,
// UNINTERESTING spread to parents (to parsed commits only, as git's
// mark_parents_uninteresting does — so Parse should be called where git
// parses), the slop of five extra uninteresting commits, --since as
// max_age, --first-parent, and set_children for --reverse. Marks keeps
// that state for the blame loop, which goes on marking boundaries.
// Walk is rev-list's unlimited date-ordered walk, and PathChanged the
// per-commit question "did this path change against parent i" (Bloom
// first, then tree lookups).
//
// # Tests
//
// The tests build fixture repositories with the real git (internal/testgit;
// SHA-1 and SHA-256; without a graph, with one, without filters, split into
// three layers, chains mixing layers with and without filters, a shallow
// clone, packed and loose objects) and compare with git: every commit's
// tree, parents and time (git log); every path's changed/unchanged answer
// against every parent (git diff-tree), with filters never saying "no" for
// a change; Lookup (git ls-tree -r -t, rev-parse REV:path); DiffTrees
// byte for byte (git diff-tree -r -z); the walk and the path-limited walk
// (git rev-list, --first-parent, --full-history -- PATH); Limit's list,
// boundary and children (git rev-list, --boundary, --children) on 21
// ranges; 33 kinds of damage to a single graph file and 11 to a chain,
// each of which must warn and leave every answer as it is without a graph.
// Version 2 filters come from files written by git 2.49.1 (testdata/). The
// default run takes a few seconds once the fixtures are cached; the fuzz
// target runs on demand:
//
//	go test ./traverse -run '^$' -fuzz FuzzParseGraph -fuzztime 5m
//
// # Performance
//
// Measured against git 2.39.5 on a shared 2-core VM (details, commands
// and more figures in benchmarks/walk/RESULTS.md). Micro-benchmarks
// (go test ./traverse -run '^$' -bench . -benchmem, 5,000-commit generated
// repository): a commit parsed from the graph costs about 260 ns, from its
// object about 10 us (the object database's inflate); a Bloom query
// 100-170 ns and no allocation; opening and validating a graph 21 us. A
// whole-history path walk ("git rev-list --count HEAD -- PATH", fresh
// processes, CPU medians) runs at 0.89-1.18x git's time with a graph and
// 0.96-1.28x without (generated repository, gitoxide README.md, git.git
// README.md/Makefile/diff.c), with equal or lower peak RSS on the real
// repositories; 65-85% of that CPU is spent inside odb.Reader.Read.
//
// # Concurrency
//
// A Graph is immutable after OpenGraph and may be shared by goroutines;
// Close it when no walk uses it. Commits, Trees, Queue, Marks and Walk are
// not safe for concurrent use: give each goroutine its own, each over its
// own ObjectReader (an odb.Reader per goroutine over a shared odb.DB).
//
// # Security
//
// Commit-graph files, chain files and tree objects come from the
// repository and may be corrupt or hostile. Every offset, count and
// position read from a graph is bounds-checked before use; sizes cap what
// is read (a chain names at most 4096 layers, a filter asks for at most 64
// hashes); tree recursion is bounded. No input makes the package panic;
// damage in an optional graph is a warning and the graph is not used,
// damage in objects is an error. The trailing checksums of graph files
// are not verified (git does not verify them either when reading): a
// well-formed file whose filters were altered could make blame skip a
// change, as it would make git skip it.
package traverse
