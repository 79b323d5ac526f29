package blamecore

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// prefetchReader is an ObjectReader over a map, counting its reads and
// sleeping delay in each (to have the goroutine or the walk lag).
type prefetchReader struct {
	objects map[oid.ID][]byte
	types   map[oid.ID]object.Type
	delay   time.Duration

	mu    *sync.Mutex
	reads map[oid.ID]int // shared by the readers of one test
	mine  int
}

var errMissing = errors.New("missing")

func (r *prefetchReader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	time.Sleep(r.delay)
	r.mu.Lock()
	r.reads[id]++
	r.mine++
	r.mu.Unlock()
	data, ok := r.objects[id]
	if !ok {
		return 0, nil, errMissing
	}
	typ := r.types[id]
	if typ == 0 {
		typ = object.Blob
	}
	return typ, append(dst[:0], data...), nil
}

func (r *prefetchReader) ReadCached(id oid.ID) (object.Type, []byte, error) {
	return r.Read(id, nil)
}

func (r *prefetchReader) ReadHeader(id oid.ID) (object.Type, int64, error) {
	typ, data, err := r.Read(id, nil)
	return typ, int64(len(data)), err
}

// ReadVerified: the fake's objects are what their names say.
func (r *prefetchReader) ReadVerified(id oid.ID, dst []byte) (object.Type, []byte, error) {
	return r.Read(id, dst)
}

func (r *prefetchReader) Has(id oid.ID) bool {
	_, _, err := r.Read(id, nil)
	return err == nil
}

func testID(i int) oid.ID {
	var b [20]byte
	b[0], b[1], b[19] = byte(i), byte(i>>8), 1
	return oid.FromBytes(oid.SHA1, b[:])
}

// TestPrefetchInOrder: whoever reads a candidate (the goroutine, or the
// walk while it waits), next hands the walk every blob in the order
// asked, read once, with its error (a missing object, an object that is
// no blob) and its summary as the walk would make it; a prefetch closed
// before its end stops its goroutine.
func TestPrefetchInOrder(t *testing.T) {
	const n = 40
	objects := map[oid.ID][]byte{}
	types := map[oid.ID]object.Type{}
	var ids []oid.ID
	for i := range n {
		id := testID(i)
		ids = append(ids, id)
		switch {
		case i%13 == 5:
			// missing
		case i%17 == 3:
			objects[id], types[id] = []byte("tree bytes"), object.Tree
		default:
			objects[id] = fmt.Appendf(nil, "line %d\nshared\n%s", i, bytes.Repeat([]byte("x\n"), i))
		}
	}
	var keys lineKeys
	keys.init(false)
	for _, c := range []struct {
		name              string
		ahead, help       time.Duration
		withHelp, helpGot bool // the walk has a reader; it must read some
	}{
		{"goroutine slow, walk helps", 3 * time.Millisecond, time.Millisecond, true, true},
		{"walk slow", 0, 2 * time.Millisecond, true, false},
		{"no help reader", time.Millisecond, 0, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			reads := map[oid.ID]int{}
			ahead := &prefetchReader{objects: objects, types: types, delay: c.ahead, mu: &mu, reads: reads}
			help := &prefetchReader{objects: objects, types: types, delay: c.help, mu: &mu, reads: reads}
			sb := &scoreboard{hist: &History{newReader: func() ObjectReader { return ahead }}}
			pf := sb.prefetch(ids, &keys.lineHasher)
			var rd ObjectReader
			if c.withHelp {
				rd = help
			}
			for i, id := range ids {
				r := pf.next(rd)
				want, ok := objects[id]
				switch {
				case !ok:
					if !errors.Is(r.err, errMissing) {
						t.Fatalf("%d: error %v, want the reader's", i, r.err)
					}
				case types[id] == object.Tree:
					if !errors.Is(r.err, errNotBlob) {
						t.Fatalf("%d: error %v, want errNotBlob", i, r.err)
					}
				default:
					if r.err != nil || !bytes.Equal(r.data, want) {
						t.Fatalf("%d: %q, %v; want %q", i, r.data, r.err, want)
					}
					var sum lineSummary
					keys.summarize(&sum, want)
					if !r.summed || !slices.Equal(r.sum.keys, sum.keys) || !slices.Equal(r.sum.alnum, sum.alnum) {
						t.Fatalf("%d: summary %v %v (summed %v), want %v %v", i, r.sum.keys, r.sum.alnum, r.summed, sum.keys, sum.alnum)
					}
				}
			}
			sb.closePrefetch(pf)
			for _, id := range ids {
				if reads[id] != 1 {
					t.Fatalf("%s read %d times", id, reads[id])
				}
			}
			if c.helpGot && help.mine == 0 {
				t.Errorf("the walk read nothing while the goroutine lagged")
			}
			if !c.withHelp && ahead.mine != n {
				t.Errorf("the goroutine read %d of %d, the walk having no reader", ahead.mine, n)
			}
			t.Logf("goroutine %d, walk %d", ahead.mine, help.mine)
		})
	}

	t.Run("closed early", func(t *testing.T) {
		var mu sync.Mutex
		reads := map[oid.ID]int{}
		ahead := &prefetchReader{objects: objects, types: types, mu: &mu, reads: reads}
		sb := &scoreboard{hist: &History{newReader: func() ObjectReader { return ahead }}}
		pf := sb.prefetch(ids, nil)
		for range 3 {
			if r := pf.next(nil); r.summed {
				t.Fatal("summed without a hasher")
			}
		}
		time.Sleep(10 * time.Millisecond) // let the goroutine fill its window
		mu.Lock()
		read := ahead.mine
		mu.Unlock()
		if read > 3+prefetchWindow {
			t.Errorf("%d read ahead of 3 taken, window %d", read, prefetchWindow)
		}
		done := make(chan struct{})
		go func() { sb.closePrefetch(pf); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("closePrefetch did not return")
		}
	})
}
