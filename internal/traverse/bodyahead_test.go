package traverse

import (
	"bytes"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// TestLookAheadReadsCommitTexts runs the path look-ahead with room for
// a few lookups only and a walk that never takes an answer, so that it
// spends its waits reading the texts of the commits it noted: every text
// it hands out (CommitText, before and after StopLookAhead) must be the
// commit object's content, of a commit whose version of the path differs
// from each parent's (or a root that has the path), and on the fixture's
// histories it must have read some.
func TestLookAheadReadsCommitTexts(t *testing.T) {
	testgit.Golden(t) // skips without git
	read := 0
	forGraphFixtures(t, func(fx graphFixture) {
		for _, path := range pathsOfInterest {
			tc, trees, pa := startLookAhead(t, fx, path, 4)
			// Once its bound is reached it reads the texts it
			// noted, then waits for the walk.
			deadline := time.Now().Add(10 * time.Second)
		wait:
			for pa.waits.Load() == 0 {
				select {
				case <-pa.done:
					break wait
				case <-pa.idle:
					break wait
				case <-time.After(time.Millisecond):
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s %s %s: the look-ahead neither finished nor waited for the walk", fx.format, fx.name, path)
				}
			}
			before := tc.check(trees, path, "running")
			trees.StopLookAhead()
			after := tc.check(trees, path, "stopped")
			if after < before {
				t.Errorf("%s %s %s: %d texts while it ran, %d once stopped", fx.format, fx.name, path, before, after)
			}
			read += after
		}
	})
	if read == 0 {
		t.Error("the look-ahead read no commit text on any history")
	}
}

// TestFinishedLookAheadReadsCommitTexts gives the look-ahead room for
// every lookup, so that it never waits for the walk: once it has looked
// the path up to the end of its history it must read the texts of all
// the commits it noted before it is stopped (the walk, behind it, wants
// them), each the commit's content.
func TestFinishedLookAheadReadsCommitTexts(t *testing.T) {
	testgit.Golden(t) // skips without git
	read := 0
	forGraphFixtures(t, func(fx graphFixture) {
		for _, path := range pathsOfInterest {
			tc, trees, pa := startFinishedLookAhead(t, fx, path)
			if pa.waits.Load() != 0 {
				t.Fatalf("%s %s %s: the look-ahead waited for the walk", fx.format, fx.name, path)
			}
			if n := len(pa.pendingBodies); n != 0 {
				t.Errorf("%s %s %s: finished with %d noted texts unread", fx.format, fx.name, path, n)
			}
			n := tc.check(trees, path, "finished")
			trees.StopLookAhead()
			read += n
		}
	})
	if read == 0 {
		t.Error("the finished look-ahead read no commit text on any history")
	}
}

// startLookAhead starts a look-ahead for path from the fixture's HEAD,
// up to ahead lookups ahead of a walk that takes no answer, and returns
// its trees (whose CommitText hands its texts out) with a checker.
func startLookAhead(t *testing.T, fx graphFixture, path string, ahead int) (*textCheck, *Trees, *pathAhead) {
	trees := NewTrees(loadObjects(t, fx.dir, fx.format), fx.format)
	pa := newPathAhead([]byte(path), ahead)
	trees.ahead = pa
	go pa.run(NewTrees(loadObjects(t, fx.dir, fx.format), fx.format), fx.g, fx.from, PathEntry{}, fx.bloom, false)
	return newTextCheck(t, fx), trees, pa
}

// startFinishedLookAhead starts a look-ahead with room for every lookup
// and waits until it has looked path up to the end of its history and
// read what it had to (or stopped early).
func startFinishedLookAhead(t *testing.T, fx graphFixture, path string) (*textCheck, *Trees, *pathAhead) {
	t.Helper()
	tc, trees, pa := startLookAhead(t, fx, path, 1<<20)
	select {
	case <-pa.done:
	case <-pa.idle:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s %s %s: the look-ahead did not finish", fx.format, fx.name, path)
	}
	return tc, trees, pa
}

// textCheck checks the commit texts a look-ahead hands out against a
// fixture's objects.
type textCheck struct {
	t    *testing.T
	fx   graphFixture
	byID map[oid.ID]gitCommit
	objs *memReader
	ref  *Trees
}

func newTextCheck(t *testing.T, fx graphFixture) *textCheck {
	byID := make(map[oid.ID]gitCommit, len(fx.all))
	for _, c := range fx.all {
		byID[c.id] = c
	}
	return &textCheck{t: t, fx: fx, byID: byID, objs: loadObjects(t, fx.dir, fx.format),
		ref: NewTrees(loadObjects(t, fx.dir, fx.format), fx.format)}
}

// check reports every text trees hands out that is not the commit's
// content, or is of a commit the walk passes whole to a parent, and
// returns how many it hands out.
func (tc *textCheck) check(trees *Trees, path, when string) int {
	t, fx := tc.t, tc.fx
	n := 0
	for _, c := range fx.all {
		body, ok := trees.CommitText(c.id)
		if !ok {
			continue
		}
		n++
		o := tc.objs.objs[c.id]
		if o.typ != object.Commit || !bytes.Equal(body, o.body) {
			t.Errorf("%s %s %s %s: the text of %s is not the commit's", fx.format, fx.name, path, when, c.id)
		}
		changed := len(c.parents) == 0
		for _, p := range c.parents {
			pc, ok := tc.byID[p]
			if !ok {
				changed = true
				break
			}
			_, mine, _, err1 := tc.ref.Lookup(c.tree, []byte(path))
			_, theirs, _, err2 := tc.ref.Lookup(pc.tree, []byte(path))
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			changed = mine != theirs
			if !changed {
				break
			}
		}
		if !changed {
			t.Errorf("%s %s %s %s: read the text of %s, which the walk passes whole to a parent", fx.format, fx.name, path, when, c.id)
		}
	}
	return n
}

// TestLookAheadReadsBlamedTexts: the texts of commits the walk has
// blamed lines on (Trees.Blamed) are read at the look-ahead's bound and
// once it has looked the path up, like the ones it noted, whether it
// noted them or not, each the commit's content.
func TestLookAheadReadsBlamedTexts(t *testing.T) {
	testgit.Golden(t) // skips without git
	read := 0
	forGraphFixtures(t, func(fx graphFixture) {
		objs := loadObjects(t, fx.dir, fx.format)
		for _, path := range pathsOfInterest {
			trees := NewTrees(loadObjects(t, fx.dir, fx.format), fx.format)
			pa := newPathAhead([]byte(path), 4)
			trees.ahead = pa
			// Commits by their place in the graph (object ID order):
			// a look-ahead 4 lookups ahead of a walk at the newest
			// seldom notes them.
			var want []oid.ID
			for pos := uint32(0); pos < uint32(min(fx.g.Len(), 3)); pos++ {
				id, _ := fx.g.ID(pos)
				want = append(want, id)
				trees.Blamed(pos)
			}
			go pa.run(NewTrees(loadObjects(t, fx.dir, fx.format), fx.format), fx.g, fx.from, PathEntry{}, fx.bloom, false)
			select {
			case <-pa.done:
				trees.StopLookAhead()
				continue // stopped early (no history below the start)
			case <-pa.idle:
			case <-waitedFor(pa):
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s %s: the look-ahead neither finished nor waited for the walk", fx.format, fx.name, path)
			}
			for _, id := range want {
				body, ok := trees.CommitText(id)
				if !ok {
					t.Errorf("%s %s %s: the text of blamed commit %s not read", fx.format, fx.name, path, id)
					continue
				}
				if o := objs.objs[id]; o.typ != object.Commit || !bytes.Equal(body, o.body) {
					t.Errorf("%s %s %s: the text of %s is not the commit's", fx.format, fx.name, path, id)
				}
				read++
			}
			trees.StopLookAhead()
		}
	})
	if read == 0 {
		t.Error("no blamed commit's text read on any history")
	}
}

// waitedFor is closed once the look-ahead has waited for the walk.
func waitedFor(pa *pathAhead) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		for pa.waits.Load() == 0 {
			select {
			case <-pa.done:
				return
			case <-time.After(time.Millisecond):
			}
		}
		close(c)
	}()
	return c
}
