package blamecore

import (
	"runtime"
	"sync"

	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// prefetcher reads blobs ahead of the blame walk, in the order the walk
// will ask for them. -C reads every candidate file of a commit (every file
// of the parent with -C -C -C); a goroutine with its own object reader
// claims them one at a time, and the walk, when the one it asks for is
// still being read, reads the next unclaimed one itself (with the
// history's help reader) instead of waiting (go-git's -C repository.go:
// its walk waited 45-54 ms of 100 for the goroutine, which read 1,355
// candidates alone; 3.7 ms now). Claims
// run at most prefetchWindow ahead of the walk. Whoever reads a blob
// summarizes it for the prefilter when the round gives a hasher. Results
// are taken strictly in order, so nothing about the walk changes.
type prefetcher struct {
	ids    []oid.ID
	hasher lineHasher
	summed bool // hasher is set

	mu   sync.Mutex
	cond sync.Cond // on mu: a slot filled, a slot taken, the stop
	// slots[i] is ids[i]'s read once ready[i].
	slots   []prefetched
	ready   []bool
	claimed int // the next index to claim
	taken   int // the next index the walk takes
	stopped bool

	pending int // the walk's: blobs not taken yet
}

// prefetchWindow bounds how far claims run ahead of the walk. At 16
// rather than 8, paired rounds: gitoxide -C gix/src/lib.rs -10 [-14, -4]
// ms of 189 (and -14, -7 in two other lists), git/git -C -C
// builtin/blame.c +7 [-15, +13] of 298 (and -37 once), go-git's -C
// blames within +-3 ms; at 32 no better; at 4, go-git -C repository.go
// +15 [+7, +20]. Peaks the same (a few candidates more in flight).
const prefetchWindow = 16

type prefetched struct {
	data []byte
	err  error
	// sum is data's summary for the -C prefilter when summed.
	sum    lineSummary
	summed bool
}

// prefetch starts reading ids; nil when there is no second reader. With
// a hasher (the round's lineKeys' own, copied here), each blob read is
// summarized by whoever reads it.
func (sb *scoreboard) prefetch(ids []oid.ID, hasher *lineHasher) *prefetcher {
	if sb.hist.newReader == nil || len(ids) < 2 {
		return nil
	}
	if sb.hist.prefetchReader == nil {
		sb.hist.prefetchReader = sb.hist.newReader()
	}
	rd := sb.hist.prefetchReader
	pf := &prefetcher{ids: ids, slots: make([]prefetched, len(ids)), ready: make([]bool, len(ids)), pending: len(ids)}
	pf.cond.L = &pf.mu
	if hasher != nil {
		pf.hasher, pf.summed = *hasher, true
	}
	done := make(chan struct{})
	sb.prefetchDone = done
	go func() {
		defer close(done)
		for {
			pf.mu.Lock()
			for !pf.stopped && pf.claimed < len(pf.ids) && pf.claimed-pf.taken >= prefetchWindow {
				pf.cond.Wait()
			}
			if pf.stopped || pf.claimed >= len(pf.ids) {
				pf.mu.Unlock()
				return
			}
			i := pf.claimed
			pf.claimed++
			pf.mu.Unlock()
			pf.fill(i, rd)
		}
	}()
	return pf
}

// fill reads ids[i] with rd into its slot.
func (pf *prefetcher) fill(i int, rd ObjectReader) {
	typ, data, err := rd.Read(pf.ids[i], nil)
	if err == nil && typ != object.Blob {
		err = errNotBlob
	}
	r := prefetched{data: data, err: err}
	if err == nil && pf.summed {
		pf.hasher.summarize(&r.sum, data)
		r.summed = true
	}
	pf.mu.Lock()
	pf.slots[i], pf.ready[i] = r, true
	pf.cond.Broadcast()
	pf.mu.Unlock()
}

// next returns the next blob read ahead. While the goroutine reads the
// one asked for, the walk reads the next unclaimed ones with rd; with a
// nil rd it only waits.
func (pf *prefetcher) next(rd ObjectReader) prefetched {
	pf.pending--
	pf.mu.Lock()
	i := pf.taken
	for !pf.ready[i] {
		switch {
		case pf.claimed <= i && rd != nil:
			// Nobody has it (claims go in order): read it here.
			pf.claimed = i + 1
			pf.mu.Unlock()
			pf.fill(i, rd)
			pf.mu.Lock()
		case rd != nil && pf.claimed < len(pf.ids) && pf.claimed-i < prefetchWindow:
			// The goroutine is reading it: read the next one meanwhile.
			j := pf.claimed
			pf.claimed++
			pf.mu.Unlock()
			pf.fill(j, rd)
			pf.mu.Lock()
		default:
			pf.cond.Wait()
		}
	}
	r := pf.slots[i]
	pf.slots[i] = prefetched{}
	pf.taken++
	pf.cond.Broadcast()
	pf.mu.Unlock()
	return r
}

// close stops the reader goroutine and waits for it, so that the reader
// is free for the next prefetch.
func (sb *scoreboard) closePrefetch(pf *prefetcher) {
	if pf == nil {
		return
	}
	pf.mu.Lock()
	pf.stopped = true
	pf.cond.Broadcast()
	pf.mu.Unlock()
	<-sb.prefetchDone
}

// lookAheadRatio: see lookAhead.
const lookAheadRatio = 32

// lookAhead starts looking the path of c's blame up in the trees of the
// commits below c on a second goroutine (traverse.Trees.LookAhead), for
// a walk over a commit-graph that has proved long (taken commits) and
// reads trees at one commit in lookAheadRatio or more so far: a walk
// that the changed-path filters carry past nearly every commit would
// only have the goroutine walk the graph a second time. Once started it
// runs to the end of the walk: git/git README.md, which reads enough
// trees in its first commits to start one and 120 in 18,000 commits,
// takes 60-70 of its answers, 8 ms of a 36 ms blame for 2.4 ms more CPU
// (abandoning it when few answers are taken made that blame 44 ms). Not
// in reverse. Under -C it looks up the blamed path only (copies put
// lines on other paths, which the walk looks up itself).
func (sb *scoreboard) lookAhead(c *commitNode, taken int) {
	g := sb.hist.commits.Graph()
	o := firstWithSuspects(c)
	if sb.hist.newLookupReader == nil || g == nil || o == nil || c.tc.GraphPos == traverse.NoGraphPosition || sb.opts.Reverse {
		return
	}
	dense := sb.hist.trees.Stats().TreesRead*lookAheadRatio >= taken
	if runtime.GOMAXPROCS(0) < 2 {
		// One processor so far: the command line gives the second under
		// --incremental once the first entry is out, or lookAheadDelay
		// into the walk. The look-ahead starts when it comes if the walk
		// was dense enough when first asked; by then the ratio, which
		// counts from the walk's start, has fallen on most histories
		// whose first changes are close together (gitoxide README.md:
		// the look-ahead never started under --incremental, which took
		// 21.5 ms against 17.3 for the same blame without it).
		sb.aheadWanted = sb.aheadWanted || dense
		return
	}
	if !dense && !sb.aheadWanted {
		return
	}
	var own traverse.PathEntry
	if o.blobKnown {
		own = traverse.PathEntry{Mode: o.mode, ID: o.blob}
	}
	sb.hist.trees.LookAhead(sb.hist.newLookupReader(), g, c.tc.GraphPos, []byte(o.path), own, sb.useBloom, sb.opts.FirstParent)
}
