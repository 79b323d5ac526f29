package cli

import (
	"cmp"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A blame is a short-lived process that allocates most of what it will
// ever hold and then exits, on machines where a page fault is the largest
// single cost of a run (see ../shared/reference/performance.md and
// benchmarks/blame/RESULTS.md). The process-wide settings below (and one
// processor unless a second goroutine works: oneProc) are made only for
// the goblame process itself (Environ.Process), never for the library or
// for in-process runs in tests.
//
//   - No garbage collection until the heap reaches firstCollectionBytes:
//     most blames finish before that and never pay a collection; a long
//     one collects there once and from then on runs with GOGC=100, as any
//     Go program, until a collection leaves largeHeapBytes live, after
//     which it runs with GOGC=largeHeapGCPercent. A blame that looks for
//     copies (-C) collects first at copyFirstCollectionBytes and runs at
//     copyGCPercent after it (tuneGCForCopies); the blame of a
//     large file runs at largeFileGCPercent or hugeFileGCPercent after
//     its first collection (tuneGCForLargeFile). GOGC or GOMEMLIMIT
//     in the environment leave the runtime's defaults alone.
//   - The first megabytes of the heap on transparent huge pages (where the
//     kernel offers them on request, as Debian's default "madvise" mode
//     does), so that allocations fault in 2 MiB at a time instead of
//     4 KiB. At the start of the run, hugePageFresh grows the heap by
//     unwritten allocations and advises MADV_HUGEPAGE on the
//     hugeHeapFreshBytes behind them, without a collection; a blame of
//     a file under smallBlameLines lines in a small repository (packs
//     under 48 MiB, whose hugeHeapBytes is hugeHeapFreshBytes)
//     withdraws that advice once the file is known (hugePageFreshUndo)
//     and makes no other start. Under --incremental the start waits: in
//     a large repository until it is found, in a small one until the
//     command line is parsed, and a small file there gets none
//     (hugeSchedule.parsed). For a walk
//     in a repository whose packs call for more (hugeHeapBytes: an eighth
//     of the packs, up to hugeHeapMaxBytes; a walk without a
//     commit-graph makes a small repository's, withoutGraph), hugePageHeap advises one
//     allocation of that size and frees it by a collection, so that the
//     allocations that follow reuse its memory, which faults in a huge
//     page at a time as they first write it (hugePageStart: where make
//     build's runtime keeps advice on memory it maps later, and the blame
//     does not look for copies, hugePageAhead advises the heap's next
//     bytes instead, without the collection): once the walk proves long
//     (Options.BeforeWalk; a walk that ends sooner allocates too little
//     for huge pages to pay), and under --incremental at whichever of the
//     first entry and the walk proving long comes second (with a
//     second fresh start at the walk's 33rd commit until then), never
//     while the look-ahead may run: hugeSchedule. A walk in a smaller
//     repository gets a second fresh start at those points instead (4
//     MiB more, no collection). (It used to touch every
//     huge page at once: zeroing 16 MiB for a blame that allocates 4-8
//     MiB, 5-10% of gitoxide's and git/git's blames on 2026-12-03.)
const (
	firstCollectionBytes = 32 << 20
	// largeHeapBytes, largeHeapGCPercent: a heap that keeps this much
	// live grows by half of it between collections, not all of it.
	// -C -C -C over a long history (git/git's builtin/blame.c: 106-128 MB
	// live after 18 collections, peak RSS 250 MB at GOGC=100, 197 MB at
	// 50 in the same 3.3-3.4 s; git 406 MB), and the long histories of
	// large files: at 64 MiB, vim's src/version.c (live 30, 37, 47 MB)
	// peaked at 90 MB and src/eval.c at 112 against git's 178 and 216;
	// at 32, 81 and 89, in the same time (12 paired rounds: -10 ms
	// [-23, +15] of 383, +8 [-13, +25] of 393); git/git's diff.c (33 MB
	// live) 86 -> 83 MB, -3 ms [-11, +7] of 186.
	largeHeapBytes     = 32 << 20
	largeHeapGCPercent = 50
	// copyFirstCollectionBytes: a blame that looks for copies (-C)
	// collects first at this heap size, and from then on runs at
	// copyGCPercent (largeHeapGCPercent until 2026-12-06). Its walk is
	// long and reads many files, and a collection costs it little, but
	// most of what it allocates is garbage soon (candidate blobs, their
	// diffs): go-git's -C -C -C blames peaked at 50-63 MB with the
	// defaults, against git's 58-66, and at 34-40 MB this way, in the
	// same time (20 paired rounds); -C -C repository.go 46 -> 29 MB
	// (git 46).
	copyFirstCollectionBytes = 16 << 20
	// copyGCPercent is a -C blame's GOGC after its first collection.
	// Since its walk reads candidates beside the read-ahead (two
	// goroutines inflating), more of what it allocates is live when a
	// collection ends: at largeHeapGCPercent git/git's -C -C -C
	// builtin/blame.c peaked at 199-205 MB (git 394-405); at 40, 191-192,
	// and -C -C builtin/blame.c, gitoxide -C gix/src/lib.rs and go-git's
	// -C -C -C 2-8 MB lower, in the same time (paired rounds: -6 [-16,
	// +2] ms of 231, +3 [-5, +8] of 166, +2.5 [-4, +9] of 218).
	copyGCPercent = 40
	// largeFileBytes, largeFileGCPercent, hugeFileBytes,
	// hugeFileGCPercent: the blame of a file this large holds several
	// versions of it, the diff's tables for their lines and the delta
	// bases they are read from, nearly all of it in buffers of bytes and
	// integers, which a collection does not scan. From its first
	// collection on it runs at GOGC=largeFileGCPercent, and from
	// hugeFileBytes at hugeFileGCPercent (tuneGCForLargeFile). A 9 MB
	// file of 300,000 lines with 40 versions peaked at 216 MB (git 217)
	// and at 158 with GOGC=10, 190 with 25, in the same 0.9 s; a 6 MB
	// one with 200 versions 166 -> 129 MB (git 263). Smaller files keep
	// more of what the collector scans: at GOGC=10 git/git po/ca.po (900
	// KB) peaked at 81 MB (95 before, git 107) but took 310 ms, at 25
	// 84 MB in 264 ms; a 700 KB file with 3,000 versions 44 and 49 MB
	// (106 before, git 155), 1.10 and 1.06 s. Not under -C, whose heap
	// of candidates and origins the collector scans: -C -C po/ca.po
	// took 2.3 s at GOGC=50 and 2.7 s at 10.
	largeFileBytes     = 512 << 10
	largeFileGCPercent = 25
	hugeFileBytes      = 4 << 20
	hugeFileGCPercent  = 10
	hugeHeapMinBytes   = 4 << 20
	hugeHeapMaxBytes   = 16 << 20
	hugePageBytes      = 2 << 20
	// hugeHeapFreshBytes is what hugePageFresh advises.
	hugeHeapFreshBytes = 4 << 20
	// smallBlameLines: a blame of a shorter file in a small
	// repository (packs under 48 MiB) allocates 2-3 MB, mostly a few
	// records per commit walked, and huge pages buy it no time but
	// cost it its peak memory, whole 2 MiB pages counted resident:
	// go-git README.md (124 lines) peaked at 11.7-13.3 MB with three
	// of them against git's 10.9-11.0, and at 9.0-9.8 MB with the one
	// the start faults in before the file is known; Magit's -L 1,60
	// Makefile 10.8 -> 8.3-8.8 MB (git 10.0). Alternating fresh runs
	// (30-40 rounds): README.md 5.53 -> 4.95 ms, JetBrains' porcelain
	// of it 5.26 -> 4.77, Magit 4.43 -> 4.17 (first entry 2.55 ->
	// 2.43); repository.go (2,220 lines, which keeps them) equal.
	smallBlameLines = 400
	// smallBlameBytes: under --incremental, a work-tree file this size
	// or smaller is taken for one under smallBlameLines lines before
	// the blame has read it (hugeSchedule.parsed).
	smallBlameBytes = 8 << 10
)

// hugeStarts counts the huge-page starts made (hugePageFresh and
// hugePageHeap calls), for the tests of when a run makes them.
var hugeStarts int

// tuneGC turns the collector off until the heap reaches
// firstCollectionBytes, then back to GOGC=100 with no memory limit.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	gcTuning.Lock()
	gcTuning.active = true
	gcTuning.first = firstCollectionBytes
	gcTuning.Unlock()
	armGC()
}

// tuneGCForCopies moves tuneGC's first collection down to
// copyFirstCollectionBytes (if it has not come yet) and sets the
// collector after it to copyGCPercent, for a blame that looks for
// copies. Nothing changes where tuneGC left the runtime's defaults.
func tuneGCForCopies() { tuneGCAfter(copyFirstCollectionBytes, copyGCPercent) }

// tuneGCForLargeFile sets the collector after tuneGC's first collection
// (or from now on, if it has come) for the blame of a file of size
// bytes that does not look for copies: largeFileGCPercent from
// largeFileBytes, hugeFileGCPercent from hugeFileBytes; nothing below.
func tuneGCForLargeFile(size int) {
	switch {
	case size >= hugeFileBytes:
		tuneGCAfter(0, hugeFileGCPercent)
	case size >= largeFileBytes:
		tuneGCAfter(0, largeFileGCPercent)
	}
}

// tuneGCAfter moves tuneGC's first collection down to first bytes (0:
// where it is), if it has not come yet, and sets GOGC after it to
// percent, where that is lower than the setting chosen so far. Nothing
// changes where tuneGC left the runtime's defaults.
func tuneGCAfter(first int64, percent int) {
	gcTuning.Lock()
	defer gcTuning.Unlock()
	if !gcTuning.active {
		return
	}
	if gcTuning.after == 0 || percent < gcTuning.after {
		gcTuning.after = percent
	}
	if gcTuning.on {
		if d := gcTuning.first - first; first > 0 && d > 0 {
			// The limit may hold pinned starts on top of the first
			// collection's size (raiseGCLimit): lowered by the
			// difference, it keeps them.
			limit := debug.SetMemoryLimit(-1)
			debug.SetMemoryLimit(max(limit-d, first))
			gcTuning.first = first
		}
		return
	}
	gcTuning.percent = gcTuning.after
	if gcTuning.paused == 0 {
		debug.SetGCPercent(gcTuning.after)
	}
	gcTuning.watch++ // ends watchHeap's watch: this setting is as low
}

// gcTuning is tuneGC's state: on while the collector is off waiting for
// the first collection, gen numbering the sentinels so that a stale
// cleanup (of a sentinel armGC replaced) changes nothing, and watch
// numbering watchHeap's.
var gcTuning struct {
	sync.Mutex
	on    bool
	gen   uint64
	watch uint64
	// paused counts the huge-page starts that have the collector off
	// after the first collection (pauseGC); percent is the setting the
	// watch chose (0: none), which they restore.
	paused  int
	percent int
	// active: tuneGC tuned the collector (no GOGC or GOMEMLIMIT set);
	// first is the heap size of its first collection, after the GOGC
	// that follows it (0: 100); tuneGCForCopies changes both.
	active bool
	first  int64
	after  int
}

// armGC turns the collector off with the memory limit, until the next
// collection frees a fresh sentinel and runs its cleanup, which restores
// the defaults for the rest of the run.
func armGC() { armGCAt(0) }

// armGCAt is armGC with the memory limit extra bytes above the first
// collection's size: the huge-page start's freed memory stays the
// runtime's and counts against the limit (hugePageHeap adds it, so that
// the heap still reaches that size of its own before the first
// collection).
func armGCAt(extra int64) {
	gcTuning.Lock()
	defer gcTuning.Unlock()
	gcTuning.on = true
	gcTuning.gen++
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(cmp.Or(gcTuning.first, firstCollectionBytes) + extra)
	sentinel := new([2]uintptr)
	runtime.AddCleanup(sentinel, func(gen uint64) {
		gcTuning.Lock()
		defer gcTuning.Unlock()
		if gcTuning.on && gcTuning.gen == gen {
			gcTuning.on = false
			gcTuning.percent = gcTuning.after
			debug.SetGCPercent(cmp.Or(gcTuning.after, 100))
			debug.SetMemoryLimit(math.MaxInt64)
			unpinHugeStarts()
			if gcTuning.after == 0 {
				watchHeap() // (a setting chosen already is as low)
			}
		}
	}, gcTuning.gen)
}

// watchHeap (gcTuning held, the collector back at its defaults) looks at
// the live heap after each collection until one leaves largeHeapBytes
// live, and then sets GOGC=largeHeapGCPercent: a cleanup on a fresh
// sentinel, each run arming the next. armGCAt ends the watch (the
// restore after it starts another).
func watchHeap() {
	gcTuning.watch++
	sentinel := new([2]uintptr)
	runtime.AddCleanup(sentinel, func(watch uint64) {
		gcTuning.Lock()
		defer gcTuning.Unlock()
		if gcTuning.on || gcTuning.watch != watch {
			return
		}
		if gcTuning.paused > 0 {
			// A collection with the collector off (hugePageHeap's, made
			// after the first one): its goal is the memory limit's.
			watchHeap()
			return
		}
		// The goal the collection set, at GOGC=100 twice what it
		// left live. (runtime/metrics has the live heap, but linked
		// in, its package init cost every run 0.09 ms and 95
		// allocations before main.)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.NextGC > 1<<50 {
			watchHeap() // off all the same: no goal to read
			return
		}
		if ms.NextGC/2 >= largeHeapBytes {
			gcTuning.percent = largeHeapGCPercent
			debug.SetGCPercent(largeHeapGCPercent)
			return
		}
		watchHeap()
	}, gcTuning.watch)
}

// pauseGC turns the collector off for a huge-page start made when
// tuneGC's collector is not off (after its first collection, or GOGC
// set), and returns what turns it back on: at the setting it had, or
// the one the large-heap watch chose meanwhile.
func pauseGC() (resume func()) {
	gcTuning.Lock()
	defer gcTuning.Unlock()
	prev := debug.SetGCPercent(-1)
	gcTuning.paused++
	return func() {
		gcTuning.Lock()
		defer gcTuning.Unlock()
		gcTuning.paused--
		if gcTuning.percent != 0 {
			prev = gcTuning.percent
		}
		debug.SetGCPercent(prev)
	}
}

// raiseGCLimit raises tuneGC's memory limit by n bytes while its
// collector is off, so that a start's pinned memory does not bring the
// first collection sooner: the check and the raise under one lock (a
// restore between them left the raise adding to no limit, which
// overflowed, and the collector off for the rest of the run).
func raiseGCLimit(n int64) {
	gcTuning.Lock()
	defer gcTuning.Unlock()
	if !gcTuning.on {
		return
	}
	limit := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(min(limit, math.MaxInt64-n) + n)
}

// disarmGC makes the cleanup of tuneGC's sentinel stale while its
// collector is off (a collection the caller starts then restores
// nothing; the caller arms again), and reports whether it was off.
func disarmGC() bool {
	gcTuning.Lock()
	defer gcTuning.Unlock()
	if gcTuning.on {
		gcTuning.gen++
	}
	return gcTuning.on
}

// oneProc runs the Go scheduler on one processor from the start of the
// run, and useProcs gives it back the machine's processors once the blame
// is known to use a second goroutine (commits read ahead without a
// commit-graph, -C candidates read ahead, and, once a walk proves long,
// its path looked up ahead: BeforeWalk, or under --incremental its first
// entry or lookAheadDelay into the walk, for a small file in a small
// repository the latter only: hugeSchedule.timedProcs): with two
// processors and one goroutine the runtime keeps waking a second thread
// that finds nothing to do, which on a small blame costs a quarter of
// its CPU time (go-git README.md: 173 context switches and 21.5 ms of
// CPU on two processors, 64 and 16 ms on one). GOMAXPROCS in the
// environment is left alone. make build's runtime starts the scheduler
// on one processor already (tools/runtimepatch): one set here, after
// the runtime's start, had cost a thread started for the runtime's
// first goroutines and a stop of the world to take it back, 0.1-0.4 ms
// of a short blame.
func oneProc(getenv func(string) string) int {
	if n, err := strconv.ParseInt(getenv("GOMAXPROCS"), 10, 32); err == nil && n > 0 {
		return 0 // as the runtime reads it
	}
	if prev := runtime.GOMAXPROCS(1); prev > 1 || runtime.NumCPU() < 2 {
		return prev
	}
	// One processor on a machine of several: make build's runtime
	// started the scheduler so (tools/runtimepatch), where the runtime's
	// own default is never under two.
	return defaultProcs
}

// defaultProcs stands for the runtime's default number of processors
// (runtime.SetDefaultGOMAXPROCS) where the run started on one.
const defaultProcs = -1

// lookAheadDelay is how long an --incremental walk runs on one processor
// before it takes the second for its look-ahead, unless its first entry
// comes sooner: giving the runtime a processor stops the world and starts
// a thread, about a millisecond on a small machine, which a walk whose
// first entry is a few commits past its 33rd (17th when this was
// measured) pays before the entry
// (GitLens --root --incremental -w README.md, median first entry over
// 100 alternating runs: go-git 9.35 -> 8.54 ms, git's 8.50; gitoxide
// 11.1 -> 10.1 ms; a first entry 45 ms into git/git's walk, Magit's
// -L 1,60 Makefile, is unchanged; with no delay at all it came 6 ms
// later, 48 -> 54 ms). The timer's function needs the processor the walk
// holds: it runs where the walk's goroutine blocks (writing an entry
// to a pipe the reader has not emptied) or is preempted, 10 ms in, so
// the delay is at least this long and mostly longer (a whole-file
// blame's second processor on a 1 ms timer came too late for its long
// walks: RESULTS.md, 2026-12-07).
const lookAheadDelay = 5 * time.Millisecond

// mayBeIncremental reports whether the words of a blame's command line
// may hold --incremental (or an abbreviation of it) before its "--":
// whether the run's fresh start waits for the command line to be parsed
// (hugeSchedule.parsed). A wrong guess costs time, never output.
func mayBeIncremental(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		if len(a) >= len("--in") && strings.HasPrefix("--incremental", a) {
			return true
		}
	}
	return false
}

// workTreeFileSize is the size of what a blame reads for the file rel of
// the work tree top: a regular file's size, a symbolic link's (the
// length of its target, which is what a blame of a link reads); -1 when
// there is neither.
func workTreeFileSize(top, rel string) int64 {
	fi, err := os.Lstat(top + "/" + rel)
	if err != nil || !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0 {
		return -1
	}
	return fi.Size()
}

func useProcs(procs int) {
	switch {
	case procs == defaultProcs:
		runtime.SetDefaultGOMAXPROCS()
	case procs > 1:
		runtime.GOMAXPROCS(procs)
	}
}

// hugeHeapBytes sizes the huge-page start of the heap from the size of
// the repository's packs: an eighth of it, at least hugeHeapMinBytes but
// never more than the packs themselves, at most hugeHeapMaxBytes, in whole
// huge pages.
func hugeHeapBytes(packBytes int64) int {
	n := min(max(packBytes/8, hugeHeapMinBytes), packBytes, hugeHeapMaxBytes)
	return int(n / hugePageBytes * hugePageBytes)
}

// hugeSchedule decides when a blame run as the goblame process makes its
// huge-page starts and gives the runtime its second processor (see
// above): heap, more, undo, procs and fresh are hugePageHeap,
// hugePageMore, hugePageFreshUndo, useProcs and hugePageFresh, after runs
// a function after a delay (time.AfterFunc). Its methods are called on
// the walk's goroutine, in this order: parsed (under --incremental in a
// small repository, once the command line is parsed), prepared (once
// the blame is prepared), then beforeWalk (when the walk proves long)
// and entry (under --incremental, at each entry but the last).
//
// The collection of hugePageHeap is never made while the path look-ahead
// may be running on the other processor: there it took 1.2-8.8 ms
// instead of 0.5-0.8 (the look-ahead's goroutine stopped for it), most
// of a short walk's gain (gitoxide GitLens gix/src/lib.rs: 11.3 ->
// 10.3 ms, git/git README.md 26.2 -> 21.2 ms, with the first entries no
// later). A walk starts its look-ahead right after beforeWalk, once it
// has two processors.
type hugeSchedule struct {
	incremental bool
	heapBytes   int // hugeHeapBytes of the repository's packs
	// smallRepo: the packs are under 48 MiB (heapBytes was
	// hugeHeapFreshBytes at the start); smallFile: the file blamed is
	// under smallBlameLines lines (prepared). Under --incremental such a
	// walk's second processor comes lookAheadDelay into the walk only
	// (timedProcs).
	smallRepo, smallFile bool
	heap                 func(n int)
	more                 func()
	undo                 func()
	procs                func()
	fresh                func() // hugePageFresh
	after                func(d time.Duration, f func())

	// skipped: parsed made no fresh start, the file being small.
	skipped bool

	done bool // the start is made (or left to the first entry)
	// walked: under --incremental, the walk proved long before its first
	// entry, which makes the start; entryOut: the first entry is out.
	walked, entryOut bool
	// lent: under --incremental, the second processor came
	// lookAheadDelay into the walk, before the first entry, so the
	// look-ahead may be running.
	lent atomic.Bool
	// given: the walk's goroutine gave the second processor (entry and
	// beforeWalk give it once, or not at all once lent).
	given bool
}

// parsed: under --incremental the run's fresh start (hugePageFresh)
// waits for the command line (mayBeIncremental), and is made here, once
// the repository is found and its arguments parsed, unless the blame
// looks small: a small repository's (packs under 48 MiB) blame of a
// file whose copy in the work tree is workTreeSize bytes, at most
// smallBlameBytes (-1: no such copy). prepared would withdraw such a
// blame's advice once the file is read, but by then Prepare's first
// reads (the inflater's tables, the scoreboard's node table) have
// faulted the start's first huge page in, zeroing 2 MiB before a first
// entry that a few hundred KiB of small pages bring sooner. What an
// editor waits for under --incremental is that entry (go-git Magit's
// -L 1,60 Makefile, paired: see benchmarks/blame/RESULTS.md). The copy
// in the work tree only guesses at the version blamed: prepared makes
// the start when the guess was wrong.
func (h *hugeSchedule) parsed(workTreeSize int64) {
	if h.heapBytes <= hugeHeapFreshBytes && workTreeSize >= 0 && workTreeSize <= smallBlameBytes {
		h.skipped = true
		return
	}
	h.fresh()
}

// prepared: the blame is prepared, of a file lines long. A blame of a
// file under smallBlameLines lines in a small repository (packs under
// 48 MiB) gets no huge pages but those the run's fresh start faulted in
// already: the start's advice is withdrawn. Any other walk makes its
// start once it proves long (beforeWalk), not here: a walk that ends
// before its 17th commit (a file added lately, in a repository of any
// size) allocates 2-3 MB, which whole huge pages, each counted resident,
// and the start's collection made slower and larger than git's (git/git
// compat/writev.c, 3 commits: 5.64 ms and 16.7 MB against git's 3.60
// and 12.7; 4.09 ms and 11.5-14.4 MB without the start). The start used
// to come here for a cold walk, whose collection is cheapest on the
// small heap of a prepared blame; made at the 16th commit instead, long
// walks measured the same (paired rounds, see benchmarks/blame/RESULTS.md),
// and at the 32nd since (blamecore's longWalkCommits), walks of 17 to 31
// commits faster still.
//
// (A fresh start that waited for the file outside --incremental too,
// made by prepared or beforeWalk for a small file, was tried on
// 2026-12-07: go-git files of 1-16 commits peaked 1.3 MB lower, nearer
// git's, but go-git README.md, a 41-commit walk, took 0.1-0.3 ms longer
// of 4.4 in paired rounds: the huge pages the early start faults in
// during Prepare serve its whole walk.)
func (h *hugeSchedule) prepared(lines int) {
	h.smallFile = lines < smallBlameLines
	switch {
	case h.heapBytes <= hugeHeapFreshBytes && lines < smallBlameLines:
		if !h.skipped {
			h.undo()
		}
		h.done = true
	case h.skipped:
		h.skipped = false
		h.fresh()
	}
}

// withoutGraph: the walk reads its commits from their objects (no
// commit-graph in use), on the second processor ahead of it. Its start
// is then the size of a small repository's (hugeHeapFreshBytes), and so
// is what prepared and beforeWalk make of it: such a walk allocates
// 300-600 bytes a commit, which whole huge pages held above git's half
// (vim README.md, 19,500 commits: 33 MB, 11 allocated, against git's
// 53-56), and its time is its inflating and parsing, not its faults.
// Measured (paired rounds, ms, against the repository's start): vim
// README.md +1.7 [+0.0, +3.0] of 107 and 33 -> 27.6 MB, gitoxide
// README.md +0.4 [-2.4, +1.4] of 65 and 27.7 -> 23.1 MB, gix/src/lib.rs
// -2.7 [-4.5, -1.1] of 31 and 21 -> 18.8 MB, git/git README.md +2.3
// [-3.0, +8.0] of 147 and 49.5 -> 46.7 MB, builtin/blame.c +5.3 [-1.3,
// +8.2] of 242 and 66 -> 66 MB. (With a commit-graph the start pays:
// capped the same way, git/git builtin/blame.c took 4.9 ms [+4.2, +6.6]
// longer, 79 ms.)
func (h *hugeSchedule) withoutGraph() {
	h.heapBytes = min(h.heapBytes, hugeHeapFreshBytes)
}

// beforeWalk: the walk has proved long (Options.BeforeWalk). It gets the
// second processor for its look-ahead (under --incremental with the
// first entry, or lookAheadDelay into the walk if that is sooner) and
// makes its start, unless made: under --incremental before the first
// entry, 4 MiB more on huge pages without a collection and the start
// with the first entry (gitsigns on git/git README.md: first entry
// 31.7 -> 26.9 ms; GitLens on gitoxide README.md 16.9 -> 14.7 ms).
func (h *hugeSchedule) beforeWalk() {
	early := h.incremental && !h.entryOut
	if !h.done {
		h.done = true
		if !early {
			h.heap(h.heapBytes)
		} else {
			h.walked = true
			if h.heapBytes > hugeHeapFreshBytes {
				h.more() // a small repository's comes with the entry
			}
		}
	}
	if !early && !h.timedProcs() {
		h.given = true
		h.procs()
		return
	}
	after := h.after
	if after == nil {
		after = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	after(lookAheadDelay, func() {
		h.lent.Store(true)
		h.procs()
	})
}

// entry: an --incremental entry is out. The first makes the start the
// walk left to it, before the second processor comes (or, when that
// came first, 4 MiB more without a collection). Before the walk proves
// long nothing would run on the second processor (the look-ahead
// starts after beforeWalk), and the start's collection in beforeWalk is
// cheaper without it: the runtime starts its mark workers then, and one
// on an idle processor waits for a thread to wake (gitoxide GitLens
// gix/src/lib.rs, whose first entry comes first: 10.9 -> 10.0 ms).
func (h *hugeSchedule) entry() {
	h.entryOut = true
	if h.walked {
		h.walked = false
		if h.lent.Load() {
			h.more()
		} else {
			h.heap(h.heapBytes)
		}
	}
	if h.done && !h.given && !h.lent.Load() && !h.timedProcs() {
		h.given = true
		h.procs()
	}
}

// timedProcs reports whether the walk's second processor comes only
// lookAheadDelay into the walk, not with the first entry (nor at once
// when the walk proves long after it): under --incremental, for a file
// under smallBlameLines lines in a small repository. There the walk
// past its first entry is mostly a few milliseconds of commits whose
// changed-path filters answer and a few diffs of short versions, where
// the second processor cost more than its look-ahead saved: its
// thread, the look-ahead's reader (its own delta-base cache and
// windows: 260 page faults more on go-git's GitLens README.md, 995
// against 737) and a reader of the entries woken with both processors
// busy. Paired rounds (RESULTS.md, 2026-12-07): go-git GitLens
// README.md -0.2 to -0.4 ms of 4.9, Magit's -L 1,60 Makefile -0.4 of
// 4.0. A longer file's walk reads and diffs longer versions, which the
// look-ahead's blobs serve from the first entry on (GitLens
// repository.go, 2,220 lines: +2.5 ms of 18 when it waited for the
// timer), as does any walk in a large repository (gitoxide GitLens
// README.md: +3.3 ms of 20).
func (h *hugeSchedule) timedProcs() bool { return h.incremental && h.smallRepo && h.smallFile }
