package blamecore

import (
	"runtime"

	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// prefetcher reads blobs ahead of the blame walk on a second goroutine,
// with its own object reader, in the order the walk will ask for them.
// -C reads every candidate file of a commit (every file of the parent
// with -C -C -C); inflating them on the second core while the first
// diffs the ones already read roughly halves that phase. Results are
// consumed strictly in order, so nothing about the walk changes.
type prefetcher struct {
	results chan prefetched
	stop    chan struct{}
	pending int
}

type prefetched struct {
	data []byte
	err  error
}

// prefetch starts reading ids; nil when there is no second reader.
func (sb *scoreboard) prefetch(ids []oid.ID) *prefetcher {
	if sb.hist.newReader == nil || len(ids) < 2 {
		return nil
	}
	if sb.hist.prefetchReader == nil {
		sb.hist.prefetchReader = sb.hist.newReader()
	}
	rd := sb.hist.prefetchReader
	pf := &prefetcher{results: make(chan prefetched, 8), stop: make(chan struct{}), pending: len(ids)}
	done := make(chan struct{})
	sb.prefetchDone = done
	go func() {
		defer close(done)
		for _, id := range ids {
			typ, data, err := rd.Read(id, nil)
			if err == nil && typ != object.Blob {
				err = errNotBlob
			}
			select {
			case pf.results <- prefetched{data, err}:
			case <-pf.stop:
				return
			}
		}
	}()
	return pf
}

// next returns the next blob read ahead.
func (pf *prefetcher) next() ([]byte, error) {
	pf.pending--
	r := <-pf.results
	return r.data, r.err
}

// close stops the reader goroutine and waits for it, so that the reader
// is free for the next prefetch.
func (sb *scoreboard) closePrefetch(pf *prefetcher) {
	if pf == nil {
		return
	}
	close(pf.stop)
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
	sb.hist.trees.LookAhead(sb.hist.newLookupReader(), g, c.tc.GraphPos, []byte(o.path), sb.useBloom, sb.opts.FirstParent)
}
