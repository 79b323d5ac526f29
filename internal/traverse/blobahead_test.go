package traverse

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// exclusiveReader is a memReader that fails the test when two goroutines
// read through it at once (a lent reader must have one user at a time)
// and counts its reads.
type exclusiveReader struct {
	t     *testing.T
	r     *memReader
	inUse sync.Mutex
	mu    sync.Mutex
	reads int
}

func (x *exclusiveReader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	if !x.inUse.TryLock() {
		x.t.Errorf("reader used by two goroutines at once (reading %s)", id)
		return 0, nil, errMissing
	}
	defer x.inUse.Unlock()
	time.Sleep(20 * time.Microsecond) // room for another goroutine to collide
	x.mu.Lock()
	x.reads++
	x.mu.Unlock()
	return x.r.Read(id, dst)
}

func (x *exclusiveReader) count() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.reads
}

// TestLookAheadLendsBlobs: a look-ahead that has looked a path up to the
// end of its history takes the walk's blob reader and hands out the
// blobs it planned, in the walk's order, each with the bytes the reader
// reads (blobs it read ahead and blobs the walk waited for alike); a
// blob it did not plan gives the reader back, after which the look-ahead
// reads nothing with it. The reader is never used by two goroutines at
// once, and the look-ahead stops.
func TestLookAheadLendsBlobs(t *testing.T) {
	testgit.Golden(t) // skips without git
	lent, given := 0, 0
	forGraphFixtures(t, func(fx graphFixture) {
		for _, path := range pathsOfInterest {
			_, trees, pa := startFinishedLookAhead(t, fx, path)
			if !trees.BlobReaderWanted() {
				trees.StopLookAhead()
				continue // stopped early (no history below the start)
			}
			want := loadObjects(t, fx.dir, fx.format)
			rd := &exclusiveReader{t: t, r: loadObjects(t, fx.dir, fx.format)}
			trees.LendBlobReader(rd)
			lent++
			plan := pa.blobs.plan
			for i, p := range plan {
				if i%3 == 1 {
					// Let it read ahead now and then.
					time.Sleep(200 * time.Microsecond)
				}
				got, ok, err := trees.TakeBlob(p.id, nil)
				if !ok {
					t.Fatalf("%s %s %s: planned blob %s not handed out", fx.format, fx.name, path, p.id)
				}
				_, wantData, wantErr := want.Read(p.id, nil)
				if (err != nil) != (wantErr != nil) || !bytes.Equal(got, wantData) {
					t.Errorf("%s %s %s: blob %s: got %d bytes (%v), want %d (%v)", fx.format, fx.name, path, p.id, len(got), err, len(wantData), wantErr)
				}
			}
			if taken := trees.Stats().BlobsAhead; taken != len(plan) {
				t.Errorf("%s %s %s: %d blobs taken, want %d", fx.format, fx.name, path, taken, len(plan))
			}
			// An object it did not plan (the commit-graph's first
			// commit's tree) gives the reader back.
			tree, _ := fx.g.tree(0)
			if _, ok, _ := trees.TakeBlob(tree, nil); ok && !pa.blobs.planned[tree] {
				t.Errorf("%s %s %s: unplanned object %s handed out", fx.format, fx.name, path, tree)
			} else if !ok {
				given++
				n := rd.count()
				time.Sleep(2 * time.Millisecond)
				if m := rd.count(); m != n {
					t.Errorf("%s %s %s: the look-ahead read %d objects with the reader it gave back", fx.format, fx.name, path, m-n)
				}
			}
			stopped := make(chan struct{})
			go func() { trees.StopLookAhead(); close(stopped) }()
			select {
			case <-stopped:
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s %s: the look-ahead did not stop", fx.format, fx.name, path)
			}
		}
	})
	if lent == 0 || given == 0 {
		t.Errorf("the blob reader was lent %d times and given back %d times over all the histories", lent, given)
	}
}
