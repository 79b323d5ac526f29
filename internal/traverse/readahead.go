package traverse

import (
	"encoding/binary"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goblame/goblame/internal/binheap"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Commit read-ahead: without a commit-graph every commit of a walk is an
// object to find, inflate and parse, about half of a blame's time on a
// long history. A read-ahead goroutine, with its own ObjectReader, walks
// the same history a little ahead of the walk: it reads each commit's
// tree, parents and date and leaves them for Parse, which then only
// links them. The walk's results do not depend on it: Parse takes an
// entry only when the goroutine read the commit in full, and reads the
// object itself otherwise (a commit not reached yet, or one the
// goroutine could not read: its error is then Parse's own). It follows
// parents newest first (a parent is ranked by its child's date, which
// is what the date-ordered walk will approximately do) and stays at most
// maxAhead commits ahead of what the walk has taken.
//
// It follows first parents only: at a merge whose first parent has the
// blamed file unchanged, blame passes everything to that parent and never
// visits the others, which on a history of merged branches would make a
// read-ahead of every parent read mostly commits the walk never asks for.
// Where the walk does go elsewhere (a commit it had to read itself), the
// read-ahead takes up the first-parent chain from there too.
//
// Both read a commit's header lines alone where they can (commitlinks.go).

// maxAhead bounds the commits read but not yet taken by the walk.
const maxAhead = 1024

// maxReadWait bounds the walk's wait for the commit the read-ahead is
// reading (takeAhead): a read is a few microseconds; 50 made gitoxide
// gix/src/lib.rs (30 ms without a commit-graph) 0.6 ms slower, where
// some reads take longer and the walk waited for them in vain.
const maxReadWait = 10 * time.Microsecond

// aheadCommit is what Parse needs of a commit object.
type aheadCommit struct {
	id      oid.ID
	tree    oid.ID
	parents []oid.ID // as written in the object (before grafts and shallow)
	time    uint64
	taken   bool // Parse used it, or parsed the commit itself
}

type readAhead struct {
	mu   sync.Mutex
	more sync.Cond // signalled when the walk takes an entry or stops
	// ready holds the entries read and not taken yet, and those of the
	// commits the walk read first (noteParsed) until the goroutine
	// comes to them, by aheadKey (entry checks the whole ID; of two
	// commits with one key, the second is not kept, and the walk reads
	// it itself). A taken entry leaves it: on gitoxide README.md's 9,640
	// commits without a commit-graph the map and order held them all,
	// a fifth of the blame's allocations.
	ready map[uint64]*aheadCommit
	ahead int         // entries not yet taken
	seeds []aheadItem // chains the walk entered without the read-ahead
	stop  bool
	done  chan struct{}
	// reading is the commit the goroutine is reading now (readingSet),
	// which the walk waits for, up to maxReadWait, rather than read it
	// too (takeAhead): the walk's own work per commit is less than a
	// read, so a walk that caught up with the read-ahead read each next
	// commit itself while the goroutine read the same one, and took
	// only 14-48% of gitoxide README.md's 9,640 commits from it (93-97%
	// now; 117 -> 96 ms without a commit-graph).
	reading    oid.ID
	readingSet bool
	readsDone  atomic.Uint64 // reads ended, for the walk's wait
	// frontier is the date of the commit the walk takes (WalkAt; 0:
	// none yet): an entry newer than it, not taken, the walk has passed.
	frontier atomic.Uint64
	// order lists the entries read, oldest read first (dropPassed's
	// queue; taken ones leave it as it or the next store gets to them).
	order []oid.ID
	// orderHead is where the list starts in order (dropOrder).
	orderHead int
	// free holds entries taken or dropped, which the goroutine fills
	// again (an entry and its parents a commit: on vim README.md
	// without a commit-graph, 19,000 of them were a fifth of what the
	// blame allocated).
	free []*aheadCommit
}

// aheadKey is the key of id's entry in readAhead.ready and the
// goroutine's set of commits queued: its first eight bytes.
func aheadKey(id oid.ID) uint64 { return binary.LittleEndian.Uint64(id.Raw()) }

// entry returns id's entry, or nil (ra.mu held).
func (ra *readAhead) entry(id oid.ID) *aheadCommit {
	if e := ra.ready[aheadKey(id)]; e != nil && e.id == id {
		return e
	}
	return nil
}

// ReadAhead makes Parse read commit objects ahead of the walk on a second
// goroutine through rd (which must not be used by anything else), from
// the first commit Parse reads from its object on. StopReadAhead must be
// called when the walk is over.
func (cs *Commits) ReadAhead(rd ObjectReader) { cs.aheadReader = rd }

// StopReadAhead stops the read-ahead goroutine, if any, and waits for it.
func (cs *Commits) StopReadAhead() {
	ra := cs.ahead
	if ra == nil {
		return
	}
	ra.mu.Lock()
	ra.stop = true
	ra.more.Broadcast()
	ra.mu.Unlock()
	<-ra.done
	cs.ahead = nil
	cs.aheadReader = nil
}

// takeAhead copies the commit read ahead for id into into (its parents
// into into's slice) and reports whether there was one.
func (cs *Commits) takeAhead(id oid.ID, into *aheadCommit) bool {
	ra := cs.ahead
	if ra == nil {
		return false
	}
	ra.mu.Lock()
	defer ra.mu.Unlock()
	if ra.readingSet && ra.reading == id && ra.entry(id) == nil {
		// Spin rather than park: a read takes a few microseconds, a
		// goroutine parked and woken on the other processor tens. Past
		// the bound the walk reads the commit itself. The spin watches
		// readsDone, not the fields under the lock: taking the lock in
		// the loop held the goroutine up at its end of the read (3% of
		// a blame's CPU in contention).
		done := ra.readsDone.Load()
		ra.mu.Unlock()
		start := time.Now()
		for ra.readsDone.Load() == done && time.Since(start) < maxReadWait {
			runtime.Gosched()
		}
		ra.mu.Lock()
	}
	e := ra.entry(id)
	if e == nil || e.taken {
		return false
	}
	into.tree, into.time = e.tree, e.time
	into.parents = append(into.parents[:0], e.parents...)
	e.taken = true
	delete(ra.ready, aheadKey(id))
	ra.free = append(ra.free, e)
	ra.ahead--
	ra.more.Signal()
	return true
}

// startAhead starts the read-ahead from c, just parsed from its object
// with the given parents as written.
func (cs *Commits) startAhead(c *Commit, parents []oid.ID) {
	ra := &readAhead{ready: make(map[uint64]*aheadCommit), done: make(chan struct{})}
	ra.more.L = &ra.mu
	cs.ahead = ra
	cs.noteParsed(c, parents)
	// parents is the parse buffer of Commits, which the next Parse
	// overwrites: the goroutine gets its own copy.
	go ra.run(cs.aheadReader, cs.format, cs.graph, cs.grafts, cs.shallow, c.Time, slices.Clone(parents))
}

// noteParsed tells the read-ahead about a commit Parse read itself, so
// that it need not read it again to go on past it.
func (cs *Commits) noteParsed(c *Commit, parents []oid.ID) {
	ra := cs.ahead
	if ra == nil {
		return
	}
	ra.mu.Lock()
	id := c.obj.id
	if e := ra.entry(id); e == nil {
		if ra.ready[aheadKey(id)] == nil {
			ra.ready[aheadKey(id)] = &aheadCommit{id: id, tree: c.obj.tree, parents: slices.Clone(parents), time: c.Time, taken: true}
		}
		if len(parents) > 0 {
			ra.seeds = append(ra.seeds, aheadItem{id: parents[0], time: c.Time})
		}
		ra.more.Signal()
	} else if !e.taken {
		// The goroutine read it too and was first to store it (the walk
		// stopped waiting for it): taken now, or it would count against
		// maxAhead for the rest of the walk, and 1,024 of them would
		// stop the read-ahead.
		e.taken = true
		delete(ra.ready, aheadKey(id))
		ra.ahead--
		ra.more.Signal()
	}
	ra.mu.Unlock()
}

// run is the read-ahead goroutine. grafts and shallow are read only.
func (ra *readAhead) run(rd ObjectReader, format oid.Format, g *Graph, grafts map[oid.ID][]oid.ID, shallow map[oid.ID]bool, time uint64, seeds []oid.ID) {
	defer close(ra.done)
	var (
		queue aheadQueue
		// seen holds the keys of the commits queued (of two with one
		// key, the second is not read ahead).
		seen = make(map[uint64]struct{})
		buf  []byte
		info object.CommitInfo
	)
	push := func(time uint64, ids []oid.ID) {
		for _, id := range ids {
			if _, ok := seen[aheadKey(id)]; !ok {
				seen[aheadKey(id)] = struct{}{}
				queue.push(aheadItem{id: id, time: time})
			}
		}
	}
	if len(seeds) > 0 {
		push(time, seeds[:1])
	}
	for {
		ra.mu.Lock()
		for len(queue.items) == 0 && len(ra.seeds) == 0 && !ra.stop {
			ra.more.Wait()
		}
		for _, sd := range ra.seeds {
			push(sd.time, []oid.ID{sd.id})
		}
		ra.seeds = ra.seeds[:0]
		ra.mu.Unlock()
		if len(queue.items) == 0 {
			return // stopped
		}
		it := queue.pop()
		if g != nil {
			if _, ok := g.Position(it.id); ok {
				continue // the walk reads it from the graph
			}
		}
		ra.mu.Lock()
		for ra.ahead >= maxAhead && !ra.stop {
			if ra.dropPassed() {
				continue
			}
			ra.more.Wait()
		}
		if ra.stop {
			ra.mu.Unlock()
			return
		}
		known := ra.entry(it.id)
		var spare *aheadCommit
		if known == nil {
			ra.reading, ra.readingSet = it.id, true
			if n := len(ra.free); n > 0 {
				spare, ra.free = ra.free[n-1], ra.free[:n-1]
			}
		} else if known.taken {
			delete(ra.ready, aheadKey(it.id)) // (noteParsed's, used now)
		}
		ra.mu.Unlock()

		var e *aheadCommit
		if known != nil {
			e = known // the walk was first: go on from its parents
		} else {
			e = readAheadCommit(rd, format, it.id, &buf, &info, spare)
			ra.mu.Lock()
			if k := aheadKey(it.id); e != nil && ra.ready[k] == nil {
				ra.ready[k] = e
				ra.ahead++
				ra.trimOrder()
				ra.order = append(ra.order, it.id)
			}
			ra.readingSet = false
			ra.readsDone.Add(1)
			ra.mu.Unlock()
			if e == nil {
				continue // Parse will read it and report what is wrong
			}
		}
		parents := effectiveParents(it.id, e.parents, grafts, shallow)
		if len(parents) > 0 {
			push(e.time, parents[:1])
		}
	}
}

// WalkAt tells the read-ahead the date of the commit the walk takes: the
// entries it read for commits newer than that, the walk has passed (but
// for clock skew), and they stop counting against maxAhead. (On a history
// of merged topics the walk goes down a merge's topic where the path
// changed there, and the read-ahead's first-parent chain holds commits
// the walk never takes: git/git README.md, whose walk read 12,000 of its
// 18,112 commits itself once the read-ahead had filled its 1,024 with
// those.)
func (cs *Commits) WalkAt(date uint64) {
	if ra := cs.ahead; ra != nil {
		ra.frontier.Store(date)
	}
}

// dropPassed forgets the entries not taken whose commits are newer than
// the walk's frontier, from the oldest read on (ra.mu held): the read-ahead
// reads newest first, so they are mostly those. It reports whether it
// forgot any. One the walk does take after all (an older commit's parent
// with a newer date) it reads itself.
func (ra *readAhead) dropPassed() bool {
	f := ra.frontier.Load()
	if f == 0 {
		return false
	}
	dropped := false
	n := 0
	list := ra.orderList()
	for ; n < len(list); n++ {
		id := list[n]
		e := ra.entry(id)
		if e == nil || e.taken {
			continue
		}
		if e.time <= f {
			break
		}
		delete(ra.ready, aheadKey(id))
		ra.free = append(ra.free, e)
		ra.ahead--
		dropped = true
	}
	ra.dropOrder(n)
	return dropped
}

// trimOrder takes the entries the walk took off the front of ra.order
// (ra.mu held), and out of the rest once they are most of it (an entry
// the walk never takes holds those behind it), so that the list holds
// about what is not taken yet.
func (ra *readAhead) trimOrder() {
	list := ra.orderList()
	n := 0
	for n < len(list) && ra.entry(list[n]) == nil {
		n++
	}
	ra.dropOrder(n)
	if list = ra.orderList(); len(list) > 64 && len(list) > 2*ra.ahead {
		kept := ra.order[:0]
		for _, id := range list {
			if e := ra.entry(id); e != nil && !e.taken {
				kept = append(kept, id)
			}
		}
		ra.order, ra.orderHead = kept, 0
	}
}

// orderList returns the list of entries read, oldest read first.
func (ra *readAhead) orderList() []oid.ID { return ra.order[ra.orderHead:] }

// dropOrder takes the first n entries off the list. Once the entries
// taken off are half of the array, it moves the rest to its front, so
// that the next appends reuse it (a list resliced from its front at each
// entry the walk took reallocated its entries every few appends: a
// twelfth of a blame's allocations); the copies cost no more than the
// entries taken off.
func (ra *readAhead) dropOrder(n int) {
	ra.orderHead += n
	if ra.orderHead > 0 && 2*ra.orderHead >= len(ra.order) {
		m := copy(ra.order, ra.order[ra.orderHead:])
		ra.order, ra.orderHead = ra.order[:m], 0
	}
}

// readAheadCommit reads and parses commit id for the read-ahead (buf and
// info are its buffers) into e, or a new entry if e is nil; nil where the
// walk must read it itself.
func readAheadCommit(rd ObjectReader, format oid.Format, id oid.ID, buf *[]byte, info *object.CommitInfo, e *aheadCommit) *aheadCommit {
	if readCommitLinks(rd, format, id, buf, info) != nil {
		return nil
	}
	if e == nil {
		e = new(aheadCommit)
	}
	e.id, e.tree, e.time, e.taken = id, info.Tree, info.CommitTime, false
	e.parents = append(e.parents[:0], info.Parents...)
	return e
}

// aheadQueue orders the commits to read newest first, then by discovery
// (a binary heap).
type aheadItem struct {
	id   oid.ID
	time uint64
	seq  uint64
}

type aheadQueue struct {
	items []aheadItem
	seq   uint64
}

func aheadBefore(a, b aheadItem) bool {
	if a.time != b.time {
		return a.time > b.time
	}
	return a.seq < b.seq
}

func (q *aheadQueue) push(it aheadItem) {
	q.seq++
	it.seq = q.seq
	q.items = binheap.Push(q.items, it, aheadBefore)
}

func (q *aheadQueue) pop() aheadItem {
	var it aheadItem
	q.items, it = binheap.Pop(q.items, aheadBefore)
	return it
}
