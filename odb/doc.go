// Package odb reads git's object database, read-only, the way git 2.39.5
// does: loose objects, packs with their .idx files (versions 1 and 2,
// 64-bit offsets), multi-pack-indexes, alternates, and the OFS_DELTA and
// REF_DELTA chains inside packs, for SHA-1 and SHA-256 repositories.
//
// # The object database
//
// A git object is a type (commit, tree, blob, tag) and bytes; its name is
// the hash of "<type> <size>\0" followed by the bytes. An objects
// directory stores objects in two ways:
//
//   - loose: objects/<2 hex>/<rest of the hex>, one zlib stream inflating
//     to "<type> <decimal size>\0<content>" (gitformat-loose). Git requires
//     the header within the first 32 inflated bytes, a size without
//     leading zeros, content of exactly that size and nothing after the
//     stream; so does Reader.
//   - packed: objects/pack/pack-<hash>.pack holds entries back to back
//     (gitformat-pack): a type-and-size varint, then for deltas the base
//     (OFS_DELTA: a distance back in the same pack; REF_DELTA: the base's
//     name), then one zlib stream. The .idx beside it maps names to pack
//     offsets: a 256-entry fan-out, the sorted names, CRCs and offsets
//     (bit 31 set: index into a 64-bit table). A multi-pack-index
//     (objects/pack/multi-pack-index) is one sorted table over several
//     packs; packs it does not list are searched through their own .idx.
//     A MIDX this package cannot use (git 2.39.5 reads only version 1; a
//     wrong hash version, bad chunks, unsorted pack names) is ignored and
//     every pack is read through its .idx, which is always correct; git
//     2.39.5 dies on some of these instead.
//
// A delta is two sizes (base, result) and instructions: copy a range of
// the base, or insert literal bytes. Chains of deltas reach 50 in
// repositories git packs by default (4095 at most from git, unbounded in
// the format).
//
// objects/info/alternates names further objects directories, one per line
// ('#' comments, C-quoted lines, paths relative to the directory that
// lists them), nested up to depth 5; GIT_ALTERNATE_OBJECT_DIRECTORIES
// (Options.ExtraAlternates, split with ParseAlternateList) adds more. Git
// 2.39.5 links the environment's entries first, then info/alternates, each
// alternate's own alternates right after it (verified: git reports broken
// entries in that order; the reference notes had the environment last);
// duplicates and the main directory itself are skipped after realpath.
// ObjectDirs returns that order, which the commit-graph lookup needs.
//
// Lookup follows git's order (oid_object_info_extended): replace refs
// (SetReplacements, chains of at most five), the virtual empty tree (which
// every repository has, stored or not), every multi-pack-index (main
// directory first), the other packs (local first, newest first), loose
// files in the main directory and then in each alternate, and finally one
// rescan of the pack directories (a concurrent repack may have moved the
// object) and, in a partial clone, the caller's lazy fetch
// (SetFetchMissing, which package blame gives git fetch) before
// ErrNotFound. A corrupt copy is not the end: like git,
// the reader marks that pack bad for the object and looks for another
// copy. A REF_DELTA base is looked up in its own pack first, as git does,
// then anywhere in the database (git 2.39.5 stops at the pack and treats
// the entry as corrupt; thin packs kept on disk by other tools need the
// fallback).
//
// # Reading
//
// A DB is opened once per repository and shared; every goroutine reads
// through its own Reader, which owns a zlib decoder, a delta-base cache, a
// by-ID object cache and scratch buffers:
//
//	db, err := odb.Open(objectsDir, oid.SHA1, odb.Options{})
//	r := db.NewReader()
//	typ, data, err := r.Read(id, buf) // data reuses buf's storage
//	typ, body, err := r.ReadCached(treeID) // shared; do not modify
//
// Read appends the content to dst[:0]: a loop that passes back the
// previous result stops allocating. A pack entry states its inflated size,
// so the output is sized once and the zlib stream is decoded straight into
// it (flate.go); a delta chain is walked down to a full object or a cached
// base, then replayed upwards, each intermediate result handed to the
// delta-base cache without copying and the last one written into the
// caller's buffer. Steady-state reads allocate nothing
// (TestSteadyStateReadsDoNotAllocate).
//
// The delta-base cache is keyed by (pack, offset) and bounded by the bytes
// it holds. Its eviction is cost-aware (GreedyDual-Size): a full object
// costs an inflate to rebuild, about ten times a delta result of the same
// size, so chain roots outlive intermediate results, and among equals the
// least recently used goes first. On reading every object of gitoxide in
// id order this cut CPU time by 17% (16 MiB) to 25% (96 MiB) against plain
// LRU, with no change for one file's history. Evicted buffers are kept by
// size class and reused.
//
// ReadCached answers from a by-ID cache (16 MiB by default) whose bytes are
// never recycled: they stay valid after later calls, for walks that read
// each tree as a child and again as a parent.
//
// ReadHeader returns type and size without inflating an object: for a
// delta, only the size header of its delta data is inflated and the type
// comes from the chain's base. Has tells whether an object exists (the
// empty tree always does; replace refs are not applied, as in git's
// has_object).
//
// ReadPrefix returns at least the first n bytes of an object, for a tree
// lookup that needs the entries up to the name it looks for (partial.go):
// a delta chain is replayed only as far as those bytes need, each delta
// copying from the start of its base, and the full object at the chain's
// bottom is inflated only that far. The prefixes made on the way go to
// the delta-base cache marked as prefixes (get never returns them; the
// next prefix read of the chain stops at one long enough). Every delta's
// data is inflated whole and checked as Read checks it; what a prefix
// read does not check is the rest of the bottom object's zlib stream and
// its checksum, which Read would report damaged.
//
// ReadCheckedPrefix is ReadPrefix for a caller that must not take a
// prefix of an object Read would report damaged (a walk without a
// commit-graph reads each commit's header lines, a fifth of a signed
// commit): it serves a prefix only of an object stored whole in a pack
// with a version 2 index, whose entry's bytes it checks against the
// CRC-32 the index records for them, which git's index-pack computed
// after inflating the whole entry. The check finds where the entry ends:
// where the entry of an object the caller names from the prefix starts
// (a commit's first parent, which git writes right after it), else at
// any byte, the CRC compared at each.
//
// # Abbreviations
//
// ResolvePrefix lists the stored objects whose name starts with a hex
// prefix (packs, multi-pack-indexes and loose objects of every directory;
// not the virtual empty tree, as git's disambiguation).
// UniqueAbbrevLen is git's find_unique_abbrev_r: from the requested length
// (or, for a negative one, from ApproximateObjectCount: max(7,
// ceil((msb(count)+1)/2)) digits), extend past the longest common prefix
// with the neighbours of the name in every index, then with every loose
// object sharing the prefix; git ignores common prefixes of 32 digits or
// more, and so does this. ApproximateObjectCount is git 2.39.5's count:
// the objects of every multi-pack-index plus those of every pack on git's
// pack list. Git puts a pack covered by a multi-pack-index on that list as
// soon as it reads an object from it, so afterwards its objects count
// twice, and git computes the count once per process: blame, which
// abbreviates after its walk, can print one digit more than rev-parse
// --short. The DB tracks the packs it opened through a MIDX and caches the
// count like git (until a rescan); TestApproximateCountMidxQuirk shows the
// extra digit in git log %h and in UniqueAbbrevLen after a Read.
//
// # Cache sizes
//
// Options.DeltaBaseCacheBytes = 0 selects 8 MiB, reached only where it
// pays: a cache starts at 512 KiB and grows by an entry's size each time
// a miss hits a key it evicted recently (a ghost), that is, where a larger
// cache would have hit (git/git README.md: 85 ms of CPU and 1,768 faults
// against 176 ms and 3,909 with the 8 MiB filled; diff.c grows to 8 MiB).
// The bound is raised to git's 96 MiB for a bulk read: once a reader has inflated 256 MiB, or once three
// quarters of at least 4096 base lookups missed (reading objects in an
// order unrelated to their delta chains; a file's history and a walk over
// trees hit 50-70% of the time). Measured in fresh
// processes (catall -ids, perf stat, best of 5: CPU time and page faults):
//
//	cache    15 196 root trees of gitoxide   1 187 versions of git.git's diff.c
//	2 MiB    36.0 ms, 2 837 faults           76.1 ms, 3 595 faults
//	4 MiB    38.2 ms, 3 612 faults           63.8 ms, 4 605 faults
//	8 MiB    39.8 ms, 4 903 faults           59.7 ms, 6 605 faults
//	16 MiB   41.3 ms, 6 628 faults           59.5 ms, 10 115 faults
//	96 MiB                                   about 90 ms, 155 MB peak RSS
//	git      46 ms, 5 016 faults             95 ms, 25 673 faults
//
// A cache fills with fresh memory before it recycles anything, and on this
// machine a first touch of a page costs microseconds: beyond what a
// workload reuses, a bigger cache is slower. Trees of a history want a
// small cache, a long file history about 8 MiB. In-process (warm),
// BenchmarkReadFileHistory reads diff.c's 1 326 versions (all refs) in
// 517 ms without a cache (9.9 delta replays per version), 102 ms with
// 1 MiB, 53 ms with 16 MiB (1.5 replays) and 66 ms with 96 MiB. Reading
// every object is the opposite case: gitoxide in id order took 11.0 s CPU
// at 16 MiB, 9.2 s at 32 MiB, 7.2 s at 64 MiB and 5.9 s at 96 MiB (git:
// 9.3 s), hence the growth for bulk reads.
//
// # Inflating
//
// The zlib decoder (flate.go) decodes whole streams into exact-size
// buffers: no sliding window, back-references copy within the output, the
// bit buffer refills 8 bytes at a time from the mapped file, and tables
// are rebuilt only per dynamic block. On every entry of gitoxide's pack
// (226 225 streams, 233 MB inflated), CPU per entry, each decoder reused:
//
//	whole-buffer decoder (this package)      3.64 µs
//	klauspost/compress zlib, Reset           5.78 µs
//	compress/zlib (standard library), Reset  6.67 µs (3 allocations per stream)
//
// measured with
//
//	GOBLAME_ODB_REPO=/path/to/gitoxide.git go test ./odb -run '^$' -bench Inflate -benchtime 2x
//
// It is checked against the standard library on every compression level,
// truncation and size mismatch (TestFlateDecoderMatchesStdlib), on
// hand-made invalid streams, by FuzzFlateDecoder, and by every fixture
// test (each object compared with git).
//
// # Measured against git
//
// benchmarks/odb compares reading every object and every version of one
// file with git cat-file --batch in fresh processes, output checked byte
// for byte; benchmarks/odb/RESULTS.md holds the full tables. Medians, CPU
// time goblame/git:
//
//	gitoxide, all objects in id order          0.69   (6.8 s vs 9.8 s)
//	gitoxide, all objects in pack order        0.82   (3.2 s vs 3.8 s)
//	gitoxide, root trees of 15 196 commits     0.77   (50 ms vs 65 ms)
//	git.git, all objects in pack order         0.82   (18.7 s vs 22.8 s)
//	git.git, root trees of 81 604 commits      0.57   (0.64 s vs 1.12 s; 191 MB vs 268 MB peak RSS)
//	git.git, 1 187 versions of diff.c          0.82   (84 ms vs 102 ms; 76 MB vs 152 MB peak RSS)
//
// measured with
//
//	go run ./benchmarks/odb/compare -runs 5 -repo /path/to/gitoxide.git -file README.md
//	go run ./benchmarks/odb/compare -runs 3 -repo /path/to/git.git -file diff.c -modes history,trees,unordered
//
// Bulk reads use more memory than git (388 MB vs 266-293 MB on gitoxide):
// the 96 MiB cache plus the garbage collector's headroom; GOGC=25 brings
// it to 307-323 MB at the same speed.
//
// # Testing
//
// Every behaviour that must match git is compared with the installed git
// 2.39.5 on fixture repositories built for both SHA-1 and SHA-256
// (internal/testgit): every object of each fixture read with Read,
// ReadHeader, ReadCached and Has (twice: with caches and without) and
// compared with git cat-file --batch --batch-all-objects; ForEachObject
// compared with git's list. The fixtures cover loose objects, a gc'd pack
// with loose objects beside it, delta chains deeper than 100 (repack
// --depth=250), REF_DELTA-only packs, a fetched thin pack completed with
// its bases appended after the deltas, idx v1, the 64-bit offset table
// (index-pack --index-version=2,1000), a multi-pack-index over three packs,
// a linked worktree, a shallow clone, cruft packs (.mtimes) with bitmaps,
// reverse indexes, .keep and .promisor files, alternates (absolute,
// relative, C-quoted, duplicated, nested, missing, the depth limit, the
// environment's order) and replace refs; plus the 20 packs and 15
// repositories of github.com/go-git/go-git-fixtures/v4 (read in place from
// the module cache, skipped if it is absent).
// Abbreviations are compared with git ls-tree --abbrev[=n] (19 036
// abbreviations per format, with and without the MIDX), rev-parse --short
// and --disambiguate, and git log %h for the MIDX double count.
//
// Corrupt input is tested per damage class on hand-made and git-made
// files: truncated or damaged zlib streams, bad headers and checksums,
// declared sizes that disagree or exceed what the file could hold, unknown
// types, OFS distances out of bounds, delta copies outside the base, bad
// opcodes, truncated instructions, REF_DELTA cycles, chains past
// MaxDeltaChainDepth, truncated or inconsistent .idx and .pack files, a
// non-monotonic fan-out, damaged multi-pack-indexes (ignored in favour of
// the .idx files), and 60 single-byte flips of a real pack. Each read fails
// with a *CorruptError (or succeeds through another copy), never panics,
// and allocates little. Fuzz targets cover every parser:
//
//	go test ./odb -run '^$' -fuzz FuzzPackData -fuzztime 60s
//
// (also FuzzDelta, FuzzLooseHeader, FuzzLooseObject, FuzzPackIndex,
// FuzzMultiPackIndex, FuzzFlateDecoder). The default test run takes about
// five seconds once the fixtures are cached (building them the first time
// takes about a minute). Measurements on real repositories are opt-in
// benchmarks (GOBLAME_ODB_REPO, see bench_test.go and benchmarks/odb).
//
// # Concurrency
//
// A DB is safe for concurrent use: its state is immutable after Open
// except the pack list, replaced atomically when a missing object makes a
// Reader rescan, and the lazily opened pack files (sync.Once). A Reader is
// not safe for concurrent use; make one per goroutine. SetReplacements
// must be called before Readers are made. Close unmaps the files: no
// Reader may be in use during Close; afterwards reads return ErrClosed.
// Bytes returned by Read belong to the caller; bytes returned by
// ReadCached are shared and must not be modified.
//
// # Memory
//
// Readers read pack entries with pread from the pack's open file (at most
// 32 pack files stay open in a process), not through the mapping: a blame's
// reads are scattered, and each fault on the mapping maps the 64 KiB around
// the entry into the process's resident set (gitoxide README.md: 350 pack
// faults, 1,634 -> 1,087 faults in all). On the VMs this was first measured
// on a fault cost about 25 µs against 2 µs for a pread of an entry's first
// 4 KiB; on today's a fault costs 1.5-1.8 µs and reading through the
// mapping is 0.4-0.6 ms faster on mid-size blames, but it puts go-git's
// small blames above git's peak memory (README.md 12.5 against 11.1 MB:
// see benchmarks/blame/RESULTS.md), so pread stays.
// The mapping serves what a window cannot: entries over 1 MiB, chain
// links past 64, streams longer than their bound or corrupt. A Reader
// keeps its last 16 windows (4 KiB from 1 KiB before an entry's offset)
// and takes an entry that one of them holds from it: most entries are a
// few hundred bytes, and a blame reads neighbours (gitoxide
// gix/src/lib.rs: 44% of its reads), many of them just before the entry
// read first (a delta's base).
//
// A pack is mapped whole, but a blame reads scattered entries of it: every
// page touched (and the neighbours the kernel maps with each fault) would
// stay in the process's resident set, which is how git's peak memory
// grows to hundreds of megabytes on git.git. Readers mark the 64 KiB
// windows of a pack they read from and, once 16 MiB of windows are marked,
// release its pages (madvise MADV_DONTNEED on the shared read-only
// mapping: the pages stay in the page cache and are mapped again on next
// use) and start marking afresh. Counting windows, not bytes read, keeps
// what a walk returns to mapped: counting every read as 64 KiB released
// the pack every 128 entries, and faulting the same pages in again cost
// 11% of a blame without a commit-graph (gitoxide README.md). Measured with
// /usr/bin/time on git.git (commit-graph with Bloom filters), peak RSS
// of goblame went from 176 to 86 MB for diff.c and from 222 to 92 MB
// for Makefile (git: 237 and 276 MB), at the same CPU time, with the
// byte count; with windows it is 95 MB for diff.c (16 MiB of windows and
// the goblame process's own runtime settings, cli/process.go).
//
// # Security
//
// Everything read from the objects directory is untrusted. Files are
// memory-mapped read-only (read into memory where mmap is unavailable);
// every offset and size read from them is checked before use: idx and
// MIDX sizes against their object counts, fan-outs for monotonicity,
// offsets against the pack, entry headers for overflow, declared sizes
// against what the remaining compressed bytes could inflate to (1032:1)
// before anything is allocated, and against Options.MaxObjectBytes (1 GiB
// by default, *TooLargeError), delta instructions in a first pass that
// must produce exactly the declared result size before the output is
// allocated, every copy against the base and the output. Delta chains are
// resolved iteratively, never by recursion, with a depth limit
// (MaxDeltaChainDepth) and cycle detection on REF_DELTA hops. Errors are
// *CorruptError values carrying the file and offset, wrapping ErrDeltaChain
// (which matches ErrDeltaCycle or ErrDeltaTooDeep for those two, which only
// a hostile pack makes) or the zlib error where relevant; a missing object is ErrNotFound. A
// pack truncated by another process while mapped would fault (SIGBUS), as
// it would for git; packs are never rewritten in place by git.
package odb
