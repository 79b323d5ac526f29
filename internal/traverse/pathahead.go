package traverse

import (
	"bytes"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/goblame/goblame/internal/binheap"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Path look-ahead: with a commit-graph, most of a short blame's time
// goes to looking its path up in the trees of parents (Trees.Lookup for
// every commit whose Bloom filter answers "maybe", each lookup a root
// tree and a subtree per directory to inflate). A look-ahead goroutine,
// with its own ObjectReader and Trees, walks on from a commit the walk
// has reached the way the walk will go (newest first; from a commit
// whose filter answers "not changed", to its first parent; else to the
// first parent with the same entry for the path, or failing one to
// every parent that has the path, as git's pass_blame goes), asks each
// commit's filter the walk's question and looks the path up in the
// parents' trees the walk will ask for; Lookup then takes its answers.
// Following first parents only served a third of the lookups on a
// history with merged branches. An answer is a function of the tree and
// the path alone, so the walk's results do not depend on the goroutine:
// whatever it has not answered (not reached yet, another path after a
// rename, a commit it did not go to, a tree it could not read) the walk
// reads itself, errors included.
//
// It stays at most maxPathAhead lookups ahead of the walk's lookups of
// the path, and skips the commits newer than the one the walk took last
// (WalkAt): those the walk has passed.
const (
	maxPathAhead = 256
	// maxPathAheadAnswers bounds the answers kept: past it they are
	// dropped and collected afresh.
	maxPathAheadAnswers = 1 << 16
	// firstPathSkip is how many commits to be looked up the goroutine
	// leaves to the walk at its start, firstPathLead how many the first
	// time the walk catches up with it; each time after, twice as many,
	// up to maxPathLead. Started at the walk's commit, the two looked
	// the same trees up: with no skip, a first lead of 4 and at most 64,
	// 22-124 of gitoxide gix/src/lib.rs's ~290 root trees were read by
	// both, and the look-ahead's 9.8 ms of work took 4.5 ms off the walk
	// (perf, 80 runs). A lead of 16 up to 128 (paired fresh runs, 40
	// rounds, 2026-12-06): gix/src/lib.rs -0.43 ms [-0.72, -0.13] of
	// 11.4, and again -0.62 [-1.22, -0.07] of 13.1; gix/Cargo.toml,
	// go-git repository.go, git/git README.md and builtin/blame.c within
	// their noise. The skip of 32 on top (80 rounds): git/git
	// builtin/blame.c -3.59 ms [-6.26, -1.35] of 81.7, its working-tree
	// blame (fugitive, 30) -2.21 [-3.73, -0.76] of 79.1; gix/src/lib.rs,
	// Cargo.toml and gix/Cargo.toml, gitoxide README.md, go-git
	// repository.go, worktree.go and Magit's -L 1,60 Makefile, git/git
	// README.md, diff.c and Makefile within their noise. Commits skipped
	// at the start that the walk has not reached when the goroutine gets
	// to the end of the history are looked up then (a short history's
	// look-ahead would otherwise answer nothing).
	firstPathSkip = 32
	firstPathLead = 16
	maxPathLead   = 128
	// firstStaleCheck is how many commits the goroutine passes on a
	// handed-down entry (stale) before it looks the path up in one of
	// them to see whether it is still there; each check after comes
	// twice as many commits later. A skip goes on along first parents
	// until it has passed firstPathSkip commits whose filters answer
	// "maybe", which past the path's first commit are rare: for git/git
	// odb/source-files.h (8 commits, created 348 commits below HEAD) the
	// goroutine walked 1,800-7,300 commits of the graph for one lookup,
	// beside a walk of 348.
	firstStaleCheck = 256
)

// pathAhead is the state shared by the walk and the look-ahead goroutine.
type pathAhead struct {
	path    []byte
	mu      sync.Mutex
	answers map[oid.ID]lookupResult // root tree -> the entry at path
	credit  chan struct{}           // a token per lookup ahead of the walk's
	stop    chan struct{}
	done    chan struct{}
	// stopping is set with stop's closing; the goroutine's own reader,
	// where it can, gives up the read under way when it is set, so that
	// the walk does not wait for the end of a long read it will not use
	// (git/git odb/source-files.h: 4.4 ms in 2 of 5 runs, a cold root
	// tree at the end of a 4 ms walk).
	stopping atomic.Bool
	frontier atomic.Uint64 // the date of the commit the walk took last
	// bodies holds the commit texts read ahead (bodyahead.go), under mu;
	// pendingBodies the commits noted for reading, the goroutine's own.
	bodies        map[oid.ID][]byte
	pendingBodies []uint32
	blamedBodies  []uint32     // the commits the walk blamed lines on (Trees.Blamed), under mu
	waits         atomic.Int32 // times it waited for the walk, with no text left to read (tests)
	popped        int          // commits it took from its queue (the goroutine's; tests read it once it is idle)
	// lookedUp: the path is looked up to the end of its history (the
	// goroutine reads commit texts and blobs from then on: blobahead.go).
	lookedUp atomic.Bool
	blobs    blobsAhead
	// blobsLent: the walk lent its blob reader (the walk's own field).
	blobsLent bool
	// idle is closed the first time the goroutine, having looked the
	// path up to its end, has nothing left to read (tests).
	idle     chan struct{}
	idleOnce sync.Once
}

// LookAhead starts looking path up ahead of the walk, through rd (which
// must not be used by anything else), in graph from the commit at
// position from (see above). bloom says whether the walk
// asks the changed-path filters (a commit whose filter answers "not
// changed" is not looked up in its first parent); firstParent whether
// it follows first parents only. entry, where its Mode is set, is the
// path's entry at from as the walk knows it, which the goroutine would
// otherwise read from's tree for (a cold read of a tree whose delta
// chain the walk's reader has cached). StopLookAhead must be called
// when the walk is over. A look-ahead already running is left alone.
func (t *Trees) LookAhead(rd ObjectReader, graph *Graph, from uint32, path []byte, entry PathEntry, bloom, firstParent bool) {
	if t.ahead != nil || graph == nil || len(path) == 0 {
		return
	}
	pa := newPathAhead(path, maxPathAhead)
	if s, ok := rd.(readStopper); ok {
		s.StopWhen(&pa.stopping)
	}
	t.ahead = pa
	t.stats.AheadStarts++
	go pa.run(NewTrees(rd, t.format), graph, from, entry, bloom, firstParent)
}

// PathEntry is a path's entry in a tree: its mode and object.
type PathEntry struct {
	Mode uint32
	ID   oid.ID
}

// readStopper is a reader that can give its reads up when told to
// (odb.Reader.StopWhen).
type readStopper interface {
	StopWhen(flag *atomic.Bool)
}

// newPathAhead is the shared state of a look-ahead for path, which may
// be up to ahead lookups ahead of the walk.
func newPathAhead(path []byte, ahead int) *pathAhead {
	pa := &pathAhead{
		path:    bytes.Clone(path),
		answers: make(map[oid.ID]lookupResult),
		bodies:  make(map[oid.ID][]byte),
		credit:  make(chan struct{}, ahead),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
	}
	pa.blobs.init()
	pa.idle = make(chan struct{})
	return pa
}

// StopLookAhead stops the look-ahead goroutine, if any, and waits for it.
func (t *Trees) StopLookAhead() {
	if wait := t.ReleaseLookAhead(); wait != nil {
		wait()
	}
}

// ReleaseLookAhead stops the look-ahead goroutine, if any, and takes back
// what the walk shares with it (the commit texts it read; the walk's blob
// reader, once a read with it under way is over) without waiting for the
// goroutine to end: it returns a function that waits for that (nil when
// no look-ahead runs). Until then the goroutine may still be in a read
// of its own reader, over the graph and the object database, which must
// stay open. A read it cannot give up, a page of the pack read from the
// disk, took the walk's end 3-4 ms in 4 of 30 runs of git/git
// odb/source-files.h when it waited (a block profile of the runs).
func (t *Trees) ReleaseLookAhead() (wait func()) {
	pa := t.ahead
	if pa == nil {
		return nil
	}
	pa.stopping.Store(true)
	close(pa.stop)
	t.ahead = nil
	b := &pa.blobs
	pa.mu.Lock()
	b.rd = nil // no more reads with the walk's reader
	for b.reading {
		pa.mu.Unlock()
		runtime.Gosched()
		pa.mu.Lock()
	}
	bodies := pa.bodies
	pa.bodies = nil // the goroutine keeps no more texts
	t.stats.BlobsAhead, t.stats.BlobWaits = b.taken, b.waited
	pa.mu.Unlock()
	if t.bodies == nil {
		t.bodies = bodies
	} else {
		maps.Copy(t.bodies, bodies)
	}
	return func() { <-pa.done }
}

// WalkAt tells the look-ahead the date of the commit the walk takes.
func (t *Trees) WalkAt(date uint64) {
	if pa := t.ahead; pa != nil {
		pa.frontier.Store(date)
	}
}

// answer returns the look-ahead's answer for path in tree, and lets the
// goroutine go one lookup further.
func (pa *pathAhead) answer(tree oid.ID, path []byte) (lookupResult, bool) {
	if !bytes.Equal(path, pa.path) {
		return lookupResult{}, false
	}
	select {
	case <-pa.credit:
	default:
	}
	pa.mu.Lock()
	r, ok := pa.answers[tree]
	pa.mu.Unlock()
	return r, ok
}

// pathAheadItem is a commit the look-ahead will visit, with the entry
// its child found for the path (what the walk's origin will hold).
type pathAheadItem struct {
	pos   uint32
	time  uint64
	entry lookupResult
	// stale: entry was not looked up but handed down from a commit
	// passed without a lookup (one the walk had passed, or skipped),
	// where the path may have changed.
	stale bool
}

func (pa *pathAhead) run(trees *Trees, graph *Graph, from uint32, entry PathEntry, bloom, firstParent bool) {
	defer close(pa.done)
	key := NewBloomKey(pa.path)
	// skip is how many commits to be looked up to leave to the walk
	// before looking up again, lead how many the next time.
	fellBehind, skip, lead := false, firstPathSkip, firstPathLead
	// skipped holds the commits skipped while the walk had not passed
	// them, retrying whether the goroutine has gone back to them.
	var skipped []pathAheadItem
	retrying := false
	lookup := func(tree oid.ID) (lookupResult, bool) {
		if !pa.takeCredit(trees.rd, graph) {
			return lookupResult{}, false
		}
		pa.mu.Lock()
		r, known := pa.answers[tree]
		pa.mu.Unlock()
		if known {
			return r, true
		}
		mode, id, found, err := trees.Lookup(tree, pa.path)
		if err != nil {
			return lookupResult{}, false
		}
		r = lookupResult{mode: mode, id: id, found: found}
		pa.mu.Lock()
		if len(pa.answers) >= maxPathAheadAnswers {
			clear(pa.answers)
		}
		pa.answers[tree] = r
		pa.mu.Unlock()
		return r, true
	}
	// ownEntry looks a stale item's path up in the item's own tree:
	// found is false where the commit does not have the path (the walk
	// does not come there with it), ok false when the goroutine is to
	// stop.
	ownEntry := func(it *pathAheadItem) (found, ok bool) {
		tree, ok := graph.tree(it.pos)
		if !ok {
			return false, false
		}
		r, ok := lookup(tree)
		if !ok {
			return false, false
		}
		if !r.found {
			return false, true
		}
		it.entry, it.stale = r, false
		return true, true
	}
	start, err := graph.entry(from, nil)
	tree, ok := graph.tree(from)
	if err != nil || !ok {
		return
	}
	own := lookupResult{mode: entry.Mode, id: entry.ID, found: true}
	if entry.Mode == 0 {
		own, ok = lookup(tree)
		if !ok || !own.found {
			return
		}
	}
	// The walk's order: newest first (git's date-ordered queue).
	var queue []pathAheadItem
	newer := func(a, b pathAheadItem) bool { return a.time > b.time }
	push := func(it pathAheadItem) { queue = binheap.Push(queue, it, newer) }
	pop := func() (it pathAheadItem) {
		queue, it = binheap.Pop(queue, newer)
		return it
	}
	// Positions queued once, in a bitset of the graph's size.
	visited := make([]uint64, (graph.Len()+63)/64)
	seen := func(pos uint32) bool {
		w, bit := pos/64, uint64(1)<<(pos%64)
		if int(w) >= len(visited) || visited[w]&bit != 0 {
			return true
		}
		visited[w] |= bit
		return false
	}
	seen(from)
	push(pathAheadItem{pos: from, time: start.time, entry: own})
	var parents, scratch []uint32
	// staleRun counts the commits popped on a stale entry since the path
	// was last looked up, nextCheck when to look it up again.
	staleRun, nextCheck := 0, firstStaleCheck
	for len(queue) > 0 || !retrying && len(skipped) > 0 {
		select {
		case <-pa.stop:
			return
		default:
		}
		if len(queue) == 0 {
			// At the end of the history with commits it skipped: the
			// walk may not have reached them yet (a short history).
			retrying = true
			for _, it := range skipped {
				it.stale = true
				push(it)
			}
			skipped = nil
		}
		it := pop()
		pa.popped++
		e, err := graph.entry(it.pos, parents[:0])
		if err != nil {
			return
		}
		parents = e.parents
		if it.stale {
			staleRun++
		}
		if it.stale && staleRun >= nextCheck && !pa.passed(e.time) {
			// Long on a handed-down entry, ahead of the walk: is the
			// path still here?
			staleRun, nextCheck = 0, 2*nextCheck
			if found, ok := ownEntry(&it); !ok {
				return
			} else if !found {
				continue
			}
		}
		if len(parents) == 0 {
			pa.noteBody(it.pos) // a root with the path is blamed for what is left
			continue
		}
		if firstParent {
			parents = parents[:1]
		}
		maybe := true
		if bloom {
			filter, s, ok, err := graph.bloomFilter(it.pos)
			if err != nil {
				return
			}
			maybe = !ok || key.mayContain(filter, s)
		}
		if !maybe {
			// Unchanged in the first parent: the walk passes it all there.
			if !seen(parents[0]) {
				pe, err := graph.entry(parents[0], scratch[:0])
				if err != nil {
					return
				}
				scratch = pe.parents
				push(pathAheadItem{pos: parents[0], time: pe.time, entry: it.entry, stale: it.stale})
			}
			continue
		}
		behind := false
		if pa.passed(e.time) {
			behind = true
			if !fellBehind {
				// Caught up by the walk: go on past it further each
				// time, or the two would look the same trees up.
				fellBehind, skip, lead = true, lead, min(2*lead, maxPathLead)
			}
		} else if fellBehind {
			fellBehind = false
		}
		if !behind && skip > 0 && !retrying {
			skip--
			behind = true
			skipped = append(skipped, it)
		}
		if !behind && it.stale {
			// Its own entry first: what the walk's origin holds here.
			if found, ok := ownEntry(&it); !ok {
				return
			} else if !found {
				continue
			}
		}
		// Where the walk will go from here: the first parent with the
		// same blob takes everything (passesWhole); else every parent
		// that has the path. A commit passed by the walk is not looked up (the
		// walk has), and is followed along its first parent only. Of an
		// octopus merge's parents that differ, the first two are
		// followed (the walk reads the others itself).
		var next [2]pathAheadItem
		found := next[:0]
		same, sameEntry := -1, lookupResult{}
		for i, p := range parents {
			if behind {
				break
			}
			tree, ok := graph.tree(p)
			if !ok {
				return
			}
			r, ok := lookup(tree)
			if !ok {
				return
			}
			if passesWhole(it.entry, r) {
				same, sameEntry = i, r
				break
			}
			if r.found && len(found) < len(next) {
				found = append(found, pathAheadItem{pos: p, entry: r})
			}
		}
		switch {
		case behind:
			found = append(next[:0], pathAheadItem{pos: parents[0], entry: it.entry, stale: true})
		case same >= 0:
			found = append(next[:0], pathAheadItem{pos: parents[same], entry: sameEntry})
		default:
			pa.noteBody(it.pos) // changed here: the walk diffs it
			for _, f := range found {
				pa.planBlob(e.time, f.entry.id) // the parent's version, which the walk reads
			}
		}
		for _, f := range found {
			if !seen(f.pos) {
				pe, err := graph.entry(f.pos, scratch[:0])
				if err != nil {
					return
				}
				scratch = pe.parents
				f.time = pe.time
				push(f)
			}
		}
	}
	// The path's history is looked up to its end; the walk, behind,
	// will want the blobs and the texts of the commits noted: read them
	// meanwhile, the blobs first (blobahead.go), until stopped.
	pa.planDone()
	pa.lookedUp.Store(true)
	for {
		select {
		case <-pa.stop:
			return
		default:
		}
		if pa.serveBlob() || pa.readBody(trees.rd, graph) {
			continue
		}
		if !pa.idleBlobs() {
			return
		}
	}
}

// passed reports whether the walk has taken a commit older than one
// dated date: it has passed that commit.
func (pa *pathAhead) passed(date uint64) bool {
	f := pa.frontier.Load()
	return f != 0 && date > f
}

// passesWhole reports whether the walk, at an origin whose entry for the
// path is o, passes all its lines to a parent whose entry is p: the same
// entry, or the same blob as a file of the same kind (git's pass_blame
// compares the blobs only: a change of mode alone passes everything).
func passesWhole(o, p lookupResult) bool {
	return p == o || p.found && !object.IsTree(p.mode) && p.id == o.id && p.mode&0o170000 == o.mode&0o170000
}
