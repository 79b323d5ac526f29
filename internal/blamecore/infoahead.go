package blamecore

import (
	"runtime"
	"sync"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// The result phase needs the text of every commit an entry is blamed on
// (author, dates, summary). The path look-ahead reads many of them
// during the walk (traverse.Trees.CommitText); the others used to be
// read one after the other once the walk was over, while the second
// processor, its look-ahead stopped, had nothing to do (gitoxide
// gix/src/lib.rs: 84 texts, none read ahead). infoAhead shares them out:
// the walk's goroutine takes the commits from the front of the list,
// reading their texts and making their records as publicCommit does,
// and a goroutine with a reader of its own reads texts from the back;
// the two meet in the middle. Its texts are made into records on the
// walk's goroutine afterwards. A text it could not read is left to
// publicCommit, which meets the error in output order as before.

// minInfoAhead is the fewest texts worth a second goroutine: starting
// one and giving it the second processor costs about as much as reading
// a dozen commits.
const minInfoAhead = 16

// infoAheadHelperFirst (tests only) makes the walk's goroutine wait for
// the other to take its first commit.
var infoAheadHelperFirst bool

// infoAhead makes the public records of the commits the entries are
// blamed on, reading their texts on two goroutines (see above).
func (sb *scoreboard) infoAhead(entries []*entry) {
	if sb.hist.newLookupReader == nil || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	var nodes []*commitNode
	var ids []oid.ID
	seen := make(map[*commitNode]bool)
	for _, e := range entries {
		c := e.suspect.commit
		if c.pub != nil || c.body != nil || seen[c] {
			continue
		}
		seen[c] = true
		id := sb.id(c)
		if _, ok := sb.hist.trees.CommitText(id); ok {
			continue // read ahead during the walk
		}
		nodes, ids = append(nodes, c), append(ids, id)
	}
	if len(nodes) < minInfoAhead {
		return
	}
	texts := make([][]byte, len(nodes))
	var mu sync.Mutex
	lo, hi := 0, len(nodes) // nodes[lo:hi] are not taken yet
	done, first := make(chan struct{}), make(chan struct{})
	rd := sb.hist.newLookupReader()
	go func() {
		defer close(done)
		for {
			mu.Lock()
			if lo >= hi {
				mu.Unlock()
				return
			}
			hi--
			i := hi
			mu.Unlock()
			if i == len(nodes)-1 {
				close(first)
			}
			if typ, body, err := rd.Read(ids[i], nil); err == nil && typ == object.Commit {
				texts[i] = body
			}
		}
	}()
	if infoAheadHelperFirst {
		<-first
	}
	for {
		mu.Lock()
		if lo >= hi {
			mu.Unlock()
			break
		}
		i := lo
		lo++
		mu.Unlock()
		sb.publicCommit(nodes[i])
	}
	<-done
	for i, c := range nodes {
		if c.pub == nil && texts[i] != nil {
			sb.makePublic(c, texts[i])
			sb.stats.TextsAhead++
		}
	}
}
