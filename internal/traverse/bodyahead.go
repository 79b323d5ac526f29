package traverse

import (
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Commit texts read in the look-ahead's idle time. The walk's output
// needs the text of every commit an entry is blamed on (author, dates,
// summary), which a walk over a commit-graph has not read: the result
// phase read them one after the other after the walk (84-480 texts, 1-2
// ms of a 10-18 ms blame on go-git and gitoxide). The commits whose
// version of the path differs from every parent's are those the walk
// diffs, and many of them end up blamed for something (gitoxide
// README.md: 101 of 480); the look-ahead notes them as it passes and,
// whenever it is as far ahead of the walk as it may go (where it used to
// wait for the walk), and once it has looked the path up to the end of
// its history (after the blobs it reads for the walk: blobahead.go),
// reads their texts with its own reader, those of the commits the walk
// has blamed lines on so far first (Trees.Blamed), as those are the
// ones the output needs. Trees.CommitText hands them out; the result phase
// reads those it did not on two goroutines (blamecore's infoAhead). A text
// the look-ahead did not read, or could not, is read by the caller as
// before: what the walk gets is the commit object's content either way.
// (Reading them on a goroutine of their own slowed the walk, whose
// second processor it took; see benchmarks/blame/RESULTS.md.)

// maxBodiesAhead bounds the texts kept (a commit's is a few hundred
// bytes).
const maxBodiesAhead = 1 << 14

// noteBody records that the walk will likely want the text of the commit
// at pos. Called by the look-ahead goroutine only.
func (pa *pathAhead) noteBody(pos uint32) {
	if len(pa.pendingBodies) < maxBodiesAhead {
		pa.pendingBodies = append(pa.pendingBodies, pos)
	}
}

// takeCredit takes the credit for one more lookup ahead of the walk's;
// while there is none (the look-ahead is as far ahead as it may go) it
// reads the noted commits' texts, then waits. It reports false once the
// look-ahead is stopped.
func (pa *pathAhead) takeCredit(rd ObjectReader, graph *Graph) bool {
	for {
		select {
		case pa.credit <- struct{}{}:
			return true
		default:
		}
		if !pa.readBody(rd, graph) {
			break
		}
	}
	pa.waits.Add(1)
	select {
	case pa.credit <- struct{}{}:
		return true
	case <-pa.stop:
		return false
	}
}

// readBody reads the text of the oldest noted commit, reporting false
// when none is left to read. Called by the look-ahead goroutine only.
func (pa *pathAhead) readBody(rd ObjectReader, graph *Graph) bool {
	pa.mu.Lock()
	full := len(pa.bodies) >= maxBodiesAhead
	pa.mu.Unlock()
	for !full {
		// The texts of commits the walk has blamed lines on first:
		// those the output needs (gitoxide README.md: 101 of the 480
		// commits noted).
		pa.mu.Lock()
		var pos uint32
		switch {
		case len(pa.blamedBodies) > 0:
			pos = pa.blamedBodies[0]
			pa.blamedBodies = pa.blamedBodies[1:]
		case len(pa.pendingBodies) > 0:
			pos = pa.pendingBodies[0]
			pa.pendingBodies = pa.pendingBodies[1:]
		default:
			pa.mu.Unlock()
			return false
		}
		pa.mu.Unlock()
		id, ok := graph.ID(pos)
		if !ok {
			continue
		}
		pa.mu.Lock()
		_, have := pa.bodies[id]
		pa.mu.Unlock()
		if have {
			continue
		}
		typ, body, err := rd.Read(id, nil)
		if pa.stopping.Load() {
			return false
		}
		if err != nil || typ != object.Commit {
			continue // the walk reads it, and meets the error, itself
		}
		pa.mu.Lock()
		if pa.bodies == nil {
			pa.mu.Unlock()
			return false // released: the walk has the texts it will get
		}
		pa.bodies[id] = body
		pa.mu.Unlock()
		return true
	}
	return false
}

// Blamed tells the look-ahead that the walk has blamed lines on the
// commit at graph position pos, whose text the output needs: it reads
// the texts of such commits before the others it noted.
func (t *Trees) Blamed(pos uint32) {
	if pa := t.ahead; pa != nil {
		pa.mu.Lock()
		if len(pa.blamedBodies) < maxBodiesAhead {
			pa.blamedBodies = append(pa.blamedBodies, pos)
		}
		pa.mu.Unlock()
	}
}

// CommitText returns the text of commit id if the look-ahead read it
// (see above), as shared bytes that stay valid and must not be changed,
// or false: the caller reads it.
func (t *Trees) CommitText(id oid.ID) ([]byte, bool) {
	if pa := t.ahead; pa != nil {
		pa.mu.Lock()
		body, ok := pa.bodies[id]
		pa.mu.Unlock()
		return body, ok
	}
	body, ok := t.bodies[id]
	return body, ok
}
