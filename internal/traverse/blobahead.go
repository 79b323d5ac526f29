package traverse

import (
	"runtime"
	"sync/atomic"

	"github.com/goblame/goblame/oid"
)

// Blobs read ahead of the walk, once the look-ahead has looked the path
// up to the end of its history. From then on the look-ahead has nothing
// of its own to do but the commit texts, while the walk still has the
// last part of the history to diff (gitoxide README.md: the last 2 ms of
// a 10.5 ms walk, 170-200 of its 488 blob reads, 1.2 ms of them). The
// walk lends the reader it reads blobs with to the look-ahead
// (Trees.LendBlobReader), whose delta-base cache holds the bases of the
// versions to come (a reader of the look-ahead's own would replay their
// chains from further down: reading them there was slower than leaving
// them to the walk), and from then on takes its blobs from the
// look-ahead (Trees.TakeBlob), which reads them in the order it found
// them going down the history (the walk's), a few ahead of the walk,
// while the walk diffs. A planned blob the look-ahead has not read when
// the walk asks for it is read next, and the walk waits for it; one it
// did not plan (the walk has followed a rename the look-ahead did not)
// ends the lending: the walk takes its reader back and reads its blobs
// itself. Otherwise the walk gets its reader back when the look-ahead
// stops (StopLookAhead).
//
// The bytes are what the walk's own read would give (the same reader
// reads them), errors included, so the output does not depend on who
// read them.

const (
	// maxBlobsReady and maxBlobBytesReady bound the blobs read ahead and
	// not taken yet (one more is read while they hold less than the
	// bytes). The bytes matter for files over 512 KiB only, whose diffs
	// outlast their reads: at 8 MiB the churning file of
	// blamecore/linetable.go (60 versions of 2.3 MB) peaked at 82 MB
	// against git's 76, at 4 MiB at 76-78; 7.8 MB x 200 (large-8mb)
	// 147 -> 138 MB, 700 KB x 3,000 (large-700k) 45 -> 41 MB, both in
	// the same time (hyperfine, 8 runs: 1.44 and 1.45 s).
	maxBlobsReady     = 8
	maxBlobBytesReady = 4 << 20
	// blobPolls is how many times the walk's goroutine and the
	// look-ahead's poll before they sleep while waiting for one another
	// (about 0.2 ms): waking a goroutine that sleeps costs about 100 us
	// on the VMs we measure, many times the read of a blob, and neither
	// has anything else to do meanwhile.
	blobPolls = 1000
)

// plannedBlob is a blob the walk will read: the version of the path in
// a parent of a commit whose own version differs from every parent's,
// with that commit's date.
type plannedBlob struct {
	time uint64
	id   oid.ID
}

// readBlob is a blob read for the walk, with the date of the commit it
// was planned for (0: asked for by the walk).
type readBlob struct {
	data []byte
	err  error
	time uint64
}

// blobsAhead is the look-ahead's blob reading. plan and planned are
// made by the look-ahead goroutine alone before it sets lookedUp and
// only read afterwards; the rest but the channels and answered is under
// pathAhead.mu.
type blobsAhead struct {
	plan    []plannedBlob
	planned map[oid.ID]bool
	next    int          // the next planned blob to read
	rd      ObjectReader // the walk's blob reader, while lent
	reading bool         // a read with rd is under way
	ready   map[oid.ID]readBlob
	bytes   int    // held in ready
	want    oid.ID // the blob the walk waits for, when wanted
	wanted  bool
	free    [][]byte // buffers the walk is done with
	taken   int      // blobs the walk took (stats)
	waited  int      // ... and of them those it waited for
	// wake wakes the look-ahead when it waits for something to do;
	// answered says the blob the walk waits for is ready, also sent on
	// answer for a walk that sleeps.
	wake, answer chan struct{}
	answered     atomic.Bool
}

func (b *blobsAhead) init() {
	b.ready = make(map[oid.ID]readBlob)
	b.wake = make(chan struct{}, 1)
	b.answer = make(chan struct{}, 1)
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// planBlob records that the walk will read blob id for the commit of
// the given date. Called by the look-ahead goroutine only, while it
// looks the path up.
func (pa *pathAhead) planBlob(time uint64, id oid.ID) {
	if len(pa.blobs.plan) < maxBodiesAhead {
		pa.blobs.plan = append(pa.blobs.plan, plannedBlob{time: time, id: id})
	}
}

// planDone makes the set of the planned blobs, before lookedUp is set.
func (pa *pathAhead) planDone() {
	b := &pa.blobs
	b.planned = make(map[oid.ID]bool, len(b.plan))
	for _, p := range b.plan {
		b.planned[p.id] = true
	}
}

// BlobReaderWanted reports whether a look-ahead has looked the path up
// to its end and would read the walk's blobs with the walk's blob
// reader (LendBlobReader), which has not been lent to it yet.
func (t *Trees) BlobReaderWanted() bool {
	pa := t.ahead
	return pa != nil && pa.lookedUp.Load() && !pa.blobsLent
}

// LendBlobReader hands rd, the reader the walk reads blobs with, to the
// look-ahead, which reads the walk's blobs with it from then on: the walk
// must not use rd until TakeBlob gives it back or StopLookAhead, and
// takes its blobs with TakeBlob meanwhile.
func (t *Trees) LendBlobReader(rd ObjectReader) {
	pa := t.ahead
	pa.blobsLent = true
	pa.mu.Lock()
	pa.blobs.rd = rd
	pa.mu.Unlock()
	signal(pa.blobs.wake)
}

// TakeBlob returns the content of the object id, read by the look-ahead
// with the reader the walk lent it, as the reader's Read returns it
// (dst's storage is given to the look-ahead for a later read). It waits
// for a planned blob not read yet. For one the look-ahead did not plan
// it gives the reader back instead, reporting false: the walk reads its
// blobs itself from then on.
func (t *Trees) TakeBlob(id oid.ID, dst []byte) (data []byte, ok bool, err error) {
	pa := t.ahead
	b := &pa.blobs
	pa.mu.Lock()
	if _, ready := b.ready[id]; !ready && !b.planned[id] {
		b.rd = nil // no more reads
		for b.reading {
			pa.mu.Unlock()
			runtime.Gosched()
			pa.mu.Lock()
		}
		clear(b.ready)
		b.bytes = 0
		pa.mu.Unlock()
		return nil, false, nil
	}
	if dst != nil && len(b.free) < maxBlobsReady {
		b.free = append(b.free, dst[:0])
	}
	waited := false
	for {
		if r, ok := b.ready[id]; ok {
			delete(b.ready, id)
			b.bytes -= len(r.data)
			b.taken++
			if waited {
				b.waited++
			}
			pa.mu.Unlock()
			signal(b.wake) // room for one more
			return r.data, true, r.err
		}
		b.want, b.wanted = id, true
		pa.mu.Unlock()
		signal(b.wake)
		for polls := 0; !b.answered.Load(); polls++ {
			if polls < blobPolls {
				runtime.Gosched()
			} else {
				<-b.answer
			}
		}
		b.answered.Store(false)
		select {
		case <-b.answer: // not waited for
		default:
		}
		waited = true
		pa.mu.Lock()
	}
}

// serveBlob reads the next blob for the walk, if there is one to read:
// the one it waits for, else the next planned one it has not passed
// (within the bounds of what may be held). It reports whether it read
// one. Called by the look-ahead goroutine only.
func (pa *pathAhead) serveBlob() bool {
	b := &pa.blobs
	pa.mu.Lock()
	if b.rd == nil {
		pa.mu.Unlock()
		return false
	}
	frontier := pa.frontier.Load()
	// Blobs planned for commits the walk has passed will not be asked
	// for (the walk read them itself, or did not need them).
	for id, r := range b.ready {
		if r.time != 0 && frontier != 0 && r.time > frontier {
			delete(b.ready, id)
			b.bytes -= len(r.data)
		}
	}
	var id oid.ID
	var time uint64
	found := false
	if b.wanted {
		if _, ok := b.ready[b.want]; !ok {
			id, found = b.want, true
		}
	}
	for !found && len(b.ready) < maxBlobsReady && b.bytes < maxBlobBytesReady && b.next < len(b.plan) {
		p := b.plan[b.next]
		b.next++
		if frontier != 0 && p.time > frontier {
			continue
		}
		if _, ok := b.ready[p.id]; !ok {
			id, time, found = p.id, p.time, true
		}
	}
	if !found {
		pa.mu.Unlock()
		return false
	}
	var buf []byte
	if n := len(b.free); n > 0 {
		buf = b.free[n-1]
		b.free = b.free[:n-1]
	}
	rd := b.rd
	b.reading = true
	pa.mu.Unlock()
	_, data, err := rd.Read(id, buf)
	pa.mu.Lock()
	b.reading = false
	if b.rd == nil {
		pa.mu.Unlock() // given back meanwhile
		return true
	}
	b.ready[id] = readBlob{data: data, err: err, time: time}
	b.bytes += len(data)
	answer := b.wanted && b.want == id
	if answer {
		b.wanted = false
	}
	pa.mu.Unlock()
	if answer {
		b.answered.Store(true)
		signal(b.answer)
	}
	return true
}

// idleBlobs waits for something to do once the look-ahead has neither
// blobs nor commit texts to read, polling for a while before it sleeps
// until woken (see blobPolls). It reports false once stopped.
func (pa *pathAhead) idleBlobs() bool {
	pa.idleOnce.Do(func() { close(pa.idle) })
	for range blobPolls {
		select {
		case <-pa.stop:
			return false
		case <-pa.blobs.wake:
			return true
		default:
		}
		runtime.Gosched()
	}
	select {
	case <-pa.stop:
		return false
	case <-pa.blobs.wake:
		return true
	}
}
