package traverse

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// TestLookAheadAnswersAsLookup runs the path look-ahead on the fixture
// histories with a commit-graph (one layer, split chains, with and
// without changed-path filters) for every path of interest: each answer
// it keeps must be what Trees.Lookup answers for that tree, it must have
// answered something wherever the path has a history below the start,
// and a walk's lookups taking its answers must return what a Trees
// without it returns.
func TestLookAheadAnswersAsLookup(t *testing.T) {
	testgit.Golden(t) // skips without git
	forGraphFixtures(t, func(fx graphFixture) {
		format, dir, all := fx.format, fx.dir, fx.all
		for i, path := range pathsOfInterest {
			ref := NewTrees(loadObjects(t, dir, format), format)
			inHead, headErr := lookupOK(ref, revTree(t, all, fx.head), path)
			// Every other path starts with its entry at HEAD given, as
			// the walk gives it.
			var own PathEntry
			if mode, id, found, err := ref.Lookup(revTree(t, all, fx.head), []byte(path)); i%2 == 1 && found && err == nil {
				own = PathEntry{Mode: mode, ID: id}
			}
			trees := NewTrees(loadObjects(t, dir, format), format)
			trees.LookAhead(loadObjects(t, dir, format), fx.g, fx.from, []byte(path), own, fx.bloom, false)
			pa := trees.ahead
			waitLookAhead(t, pa)

			pa.mu.Lock()
			answers := make(map[oid.ID]lookupResult, len(pa.answers))
			for k, r := range pa.answers {
				answers[k] = r
			}
			pa.mu.Unlock()
			if inHead && headErr == nil && len(answers) == 0 {
				t.Errorf("%s %s %s: the look-ahead answered nothing", format, fx.name, path)
			}
			for tree, r := range answers {
				mode, id, found, err := ref.Lookup(tree, []byte(path))
				if err != nil || (lookupResult{mode, id, found}) != r {
					t.Errorf("%s %s %s: look-ahead answered %+v for tree %s, Lookup %o %s %v (%v)", format, fx.name, path, r, tree, mode, id, found, err)
				}
			}

			// A walk over every commit, newest first.
			for _, c := range all {
				trees.WalkAt(c.time)
				for _, tree := range append([]oid.ID{c.tree}, parentTrees(all, c)...) {
					mode, id, found, err := trees.Lookup(tree, []byte(path))
					wm, wid, wf, werr := ref.Lookup(tree, []byte(path))
					if mode != wm || id != wid || found != wf || (err == nil) != (werr == nil) {
						t.Errorf("%s %s %s: Lookup(%s) with the look-ahead %o %s %v %v, without %o %s %v %v", format, fx.name, path, tree, mode, id, found, err, wm, wid, wf, werr)
					}
				}
			}
			if len(answers) > 0 && trees.Stats().AheadHits == 0 {
				t.Errorf("%s %s %s: the walk took none of the look-ahead's %d answers", format, fx.name, path, len(answers))
			}
			trees.StopLookAhead()
		}
	})
}

// graphFixture is one of the history fixtures with a commit-graph, as
// the look-ahead tests walk it: its commits (git's answers) and HEAD.
type graphFixture struct {
	format oid.Format
	name   string
	bloom  bool // the graph has changed-path filters
	dir    string
	g      *Graph
	all    []gitCommit
	head   oid.ID
	from   uint32 // HEAD's position in g
}

// forGraphFixtures calls fn for every history fixture with a
// commit-graph, in each object format.
func forGraphFixtures(t *testing.T, fn func(graphFixture)) {
	t.Helper()
	for _, format := range testgit.Formats {
		for _, v := range graphVariants {
			if !v.graph {
				continue
			}
			dir := historyFixture(t, v.name, format)
			g := openGraph(t, dir, format)
			all := gitCommits(t, dir, format)
			head := revParse(t, dir, format, "HEAD")
			from, ok := g.Position(head)
			if !ok {
				t.Fatalf("%s: HEAD not in the graph", v.name)
			}
			fn(graphFixture{format: format, name: v.name, bloom: v.bloom, dir: dir, g: g, all: all, head: head, from: from})
		}
	}
}

// TestStopLookAheadReturns stops a look-ahead blocked on its bound and
// one that ran to the root: both return.
func TestStopLookAheadReturns(t *testing.T) {
	format := oid.SHA1
	dir, g, from := graphAtHead(t, "graph-nobloom", format)
	for _, path := range []string{"top.txt", "missing"} {
		trees := NewTrees(loadObjects(t, dir, format), format)
		trees.LookAhead(loadObjects(t, dir, format), g, from, []byte(path), PathEntry{}, false, false)
		waitLookAhead(t, trees.ahead)
		stopped := make(chan struct{})
		go func() { trees.StopLookAhead(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: StopLookAhead did not return", path)
		}
		if trees.ahead != nil {
			t.Errorf("%s: look-ahead still set after StopLookAhead", path)
		}
	}
}

// waitLookAhead waits until the goroutine has finished or used up its
// bound.
func waitLookAhead(t *testing.T, pa *pathAhead) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-pa.done:
			return
		case <-pa.idle:
			return
		default:
		}
		if len(pa.credit) == cap(pa.credit) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("the look-ahead neither finished nor reached its bound")
}

func lookupOK(trees *Trees, tree oid.ID, path string) (bool, error) {
	_, _, found, err := trees.Lookup(tree, []byte(path))
	return found, err
}

func revTree(t *testing.T, all []gitCommit, id oid.ID) oid.ID {
	for _, c := range all {
		if c.id == id {
			return c.tree
		}
	}
	t.Fatalf("no commit %s", id)
	return oid.ID{}
}

func parentTrees(all []gitCommit, c gitCommit) []oid.ID {
	var out []oid.ID
	for _, p := range c.parents {
		for _, q := range all {
			if q.id == p {
				out = append(out, q.tree)
			}
		}
	}
	return out
}

// TestLookAheadStopsAtAYoungPathsStart: a path created a few commits
// below HEAD in a long history. The goroutine leaves its first
// firstPathSkip commits to be looked up to the walk, going on along
// first parents past the path's first commit, where the changed-path
// filters answer "maybe" only by chance: it must find the path gone
// (firstStaleCheck) rather than walk the whole history, and must not
// have looked up the older file it does not blame.
func TestLookAheadStopsAtAYoungPathsStart(t *testing.T) {
	const commits = 2000
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "traverse-young-path", format, youngPathHistory)
		g := openGraph(t, dir, format)
		head := revParse(t, dir, format, "HEAD")
		from, ok := g.Position(head)
		if !ok || g.Len() != commits {
			t.Fatalf("%s: HEAD in the graph %v, %d commits, want %d", format, ok, g.Len(), commits)
		}
		objects := loadObjects(t, dir, format)
		headTree := revParse(t, dir, format, "HEAD^{tree}")
		mode, id, found, err := NewTrees(objects, format).Lookup(headTree, []byte("young.txt"))
		if !found || err != nil {
			t.Fatalf("%s: young.txt not at HEAD (%v)", format, err)
		}
		for _, own := range []PathEntry{{}, {Mode: mode, ID: id}} {
			trees := NewTrees(objects, format)
			trees.LookAhead(loadObjects(t, dir, format), g, from, []byte("young.txt"), own, true, false)
			pa := trees.ahead
			waitLookAhead(t, pa)
			trees.StopLookAhead()
			// The path's 6 commits, its first stale check 256 commits
			// on, and what the filters' false answers add below it.
			if want := 512; pa.popped > want {
				t.Errorf("%s (entry given: %v): the look-ahead took %d of the %d commits, want at most %d", format, own.Mode != 0, pa.popped, commits, want)
			}
			if len(pa.answers) == 0 {
				t.Errorf("%s (entry given: %v): the look-ahead answered nothing", format, own.Mode != 0)
			}
		}
	}
}

// youngPathHistory: old.txt changes in each of 2,000 commits; young.txt
// is added in the 1,990th and changed in every other commit after it.
const youngPathHistory = `
git init -q .
{
	i=1
	while test $i -le 2000; do
		printf 'commit refs/heads/main\ncommitter C O Mitter <committer@example.com> %d -0700\ndata <<EOF\nc%d\nEOF\n' $((1112911993 + i * 60)) $i
		printf 'M 100644 inline old.txt\ndata <<EOF\n%d\nEOF\n' $i
		if test $i -ge 1990 && test $((i % 2)) = 0; then
			printf 'M 100644 inline young.txt\ndata <<EOF\n%d\nEOF\n' $i
		fi
		i=$((i + 1))
	done
} | git fast-import --quiet
git reset -q --hard main
git commit-graph write --reachable --changed-paths
`

// blockingReader is an ObjectReader whose reads, from the first one after
// block is set, wait until release is closed.
type blockingReader struct {
	rd      ObjectReader
	block   atomic.Bool
	blocked chan struct{} // closed when a read starts waiting
	once    sync.Once
	release chan struct{}
}

func (b *blockingReader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	if b.block.Load() {
		b.once.Do(func() { close(b.blocked) })
		<-b.release
	}
	return b.rd.Read(id, dst)
}

// TestReleaseLookAheadDoesNotWait: ReleaseLookAhead returns while the
// goroutine is in a read it cannot give up (a page read from the disk,
// here a reader that blocks), and the function it returns waits for the
// goroutine's end; what the walk shares with it is taken back at once.
func TestReleaseLookAheadDoesNotWait(t *testing.T) {
	format := oid.SHA1
	dir, g, from := graphAtHead(t, "graph", format)
	rd := &blockingReader{rd: loadObjects(t, dir, format), blocked: make(chan struct{}), release: make(chan struct{})}
	rd.block.Store(true)
	trees := NewTrees(loadObjects(t, dir, format), format)
	trees.LookAhead(rd, g, from, []byte("top2.txt"), PathEntry{}, true, false)
	pa := trees.ahead
	select {
	case <-rd.blocked:
	case <-time.After(10 * time.Second):
		t.Fatal("the look-ahead never read")
	}
	released := make(chan func())
	go func() { released <- trees.ReleaseLookAhead() }()
	var wait func()
	select {
	case wait = <-released:
	case <-time.After(10 * time.Second):
		t.Fatal("ReleaseLookAhead waited for the goroutine's read")
	}
	if wait == nil || trees.ahead != nil {
		t.Fatalf("after ReleaseLookAhead: wait %v, look-ahead still set %v", wait != nil, trees.ahead != nil)
	}
	select {
	case <-pa.done:
		t.Fatal("the goroutine ended while its read was blocked")
	default:
	}
	waited := make(chan struct{})
	go func() { wait(); close(waited) }()
	select {
	case <-waited:
		t.Fatal("the wait returned while the goroutine's read was blocked")
	case <-time.After(20 * time.Millisecond):
	}
	close(rd.release)
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not return once the read was over")
	}
	if trees.ReleaseLookAhead() != nil {
		t.Error("a second ReleaseLookAhead found a look-ahead")
	}
}

// graphAtHead opens the commit-graph of a history fixture variant and
// returns it with HEAD's position (git's answers from goldens where git
// is not 2.39.x).
func graphAtHead(t *testing.T, variant string, format oid.Format) (dir string, g *Graph, from uint32) {
	t.Helper()
	testgit.Golden(t)
	dir = historyFixture(t, variant, format)
	g = openGraph(t, dir, format)
	from, ok := g.Position(revParse(t, dir, format, "HEAD"))
	if !ok {
		t.Fatalf("%s: HEAD not in the graph", variant)
	}
	return dir, g, from
}
