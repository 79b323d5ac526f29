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
		format, dir, all := fx.format, fx.dir, fx.all
		byID := make(map[oid.ID]gitCommit, len(all))
		for _, c := range all {
			byID[c.id] = c
		}
		objs := loadObjects(t, dir, format)
		ref := NewTrees(loadObjects(t, dir, format), format)
		for _, path := range pathsOfInterest {
			trees := NewTrees(loadObjects(t, dir, format), format)
			pa := newPathAhead([]byte(path), 4)
			trees.ahead = pa
			go pa.run(NewTrees(loadObjects(t, dir, format), format), fx.g, fx.from, fx.bloom, false)
			// Once its bound is reached it reads the texts it
			// noted, then waits for the walk.
			deadline := time.Now().Add(10 * time.Second)
		wait:
			for pa.waits.Load() == 0 {
				select {
				case <-pa.done:
					break wait
				case <-time.After(time.Millisecond):
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s %s %s: the look-ahead neither finished nor waited for the walk", format, fx.name, path)
				}
			}
			check := func(when string) int {
				n := 0
				for _, c := range all {
					body, ok := trees.CommitText(c.id)
					if !ok {
						continue
					}
					n++
					o := objs.objs[c.id]
					if o.typ != object.Commit || !bytes.Equal(body, o.body) {
						t.Errorf("%s %s %s %s: the text of %s is not the commit's", format, fx.name, path, when, c.id)
					}
					changed := len(c.parents) == 0
					for _, p := range c.parents {
						pc, ok := byID[p]
						if !ok {
							changed = true
							break
						}
						_, mine, _, err1 := ref.Lookup(c.tree, []byte(path))
						_, theirs, _, err2 := ref.Lookup(pc.tree, []byte(path))
						if err1 != nil || err2 != nil {
							t.Fatal(err1, err2)
						}
						changed = mine != theirs
						if !changed {
							break
						}
					}
					if !changed {
						t.Errorf("%s %s %s %s: read the text of %s, which the walk passes whole to a parent", format, fx.name, path, when, c.id)
					}
				}
				return n
			}
			before := check("running")
			trees.StopLookAhead()
			after := check("stopped")
			if after < before {
				t.Errorf("%s %s %s: %d texts while it ran, %d once stopped", format, fx.name, path, before, after)
			}
			read += after
		}
	})
	if read == 0 {
		t.Error("the look-ahead read no commit text on any history")
	}
}
