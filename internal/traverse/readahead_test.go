package traverse

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// countingReader counts the commits it has read.
type countingReader struct {
	rd      ObjectReader
	commits atomic.Int64
}

func (r *countingReader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	typ, b, err := r.rd.Read(id, dst)
	if err == nil && typ == object.Commit {
		r.commits.Add(1)
	}
	return typ, b, err
}

// laggingReader is the walk's reader, held back until the read-ahead has
// read more commits than the walk asked for, so that the read-ahead is
// certain to be first on a first-parent chain.
type laggingReader struct {
	rd    ObjectReader
	ahead *countingReader
	asked int64
}

func (r *laggingReader) Read(id oid.ID, dst []byte) (object.Type, []byte, error) {
	r.asked++
	// Long enough at the second read for a loaded machine to schedule
	// the read-ahead once (so that it is certain to serve some), short
	// after that (a chain's end has nothing left to read ahead).
	wait := 10 * time.Millisecond
	if r.asked == 2 {
		wait = 2 * time.Second
	}
	deadline := time.Now().Add(wait)
	for r.ahead.commits.Load() < r.asked+1 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Microsecond)
	}
	return r.rd.Read(id, dst)
}

// TestReadAheadParsesTheSame walks the fixture histories without a
// commit-graph with and without the read-ahead (with grafts and shallow
// boundaries too): every commit must parse to the same tree, date and
// parents, whoever read it.
func TestReadAheadParsesTheSame(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		dir := historyFixture(t, "nograph", format)
		db, err := odb.Open(objectsDir(dir), format, odb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		all := gitCommits(t, dir, format)
		head := revParse(t, dir, format, "HEAD")
		// A graft that gives a merge's second parent as the only parent,
		// and a shallow boundary half way down.
		var merge, cut gitCommit
		for _, c := range all {
			if len(c.parents) == 2 && merge.id.IsZero() {
				merge = c
			}
		}
		cut = all[len(all)/2]
		if merge.id.IsZero() {
			t.Fatal("fixture has no merge")
		}
		for _, opts := range []CommitOptions{
			{},
			{Grafts: map[oid.ID][]oid.ID{merge.id: {merge.parents[1]}}},
			{Shallow: map[oid.ID]bool{cut.id: true}},
		} {
			plain := NewCommits(db.NewReader(), nil, format, opts)
			want := map[oid.ID]string{}
			for _, c := range walkAll(t, plain, head, false) {
				want[plain.ID(c)] = describe(plain, c)
			}

			ahead := &countingReader{rd: db.NewReader()}
			cs := NewCommits(&laggingReader{rd: db.NewReader(), ahead: ahead}, nil, format, opts)
			cs.ReadAhead(ahead)
			walkAhead(t, fmt.Sprintf("%s %+v", format, opts), cs, head, want)
			st := cs.Stats()
			if st.ReadAhead == 0 || st.ReadAhead > st.FromObject {
				t.Errorf("%s %+v: %d of %d commits read ahead; the lagging walk should have taken some", format, opts, st.ReadAhead, st.FromObject)
			}
		}
	}
}

// walkAhead walks cs from head to the end (what names the walk in
// failures), stops its read-ahead, and checks that it visited the commits
// of want, each parsed as want describes it (describe).
func walkAhead(t *testing.T, what string, cs *Commits, head oid.ID, want map[oid.ID]string) {
	t.Helper()
	got := walkAll(t, cs, head, false)
	cs.StopReadAhead()
	if len(got) != len(want) {
		t.Fatalf("%s: walked %d commits, want %d", what, len(got), len(want))
	}
	for _, c := range got {
		if d := describe(cs, c); d != want[cs.ID(c)] {
			t.Errorf("%s: %s parsed as %q, want %q", what, cs.ID(c), d, want[cs.ID(c)])
		}
	}
}

// TestStopReadAheadReturns stops a read-ahead that has run out of
// commits and one that never started.
func TestStopReadAheadReturns(t *testing.T) {
	testgit.Golden(t) // skips without git
	format := oid.SHA1
	dir := historyFixture(t, "nograph", format)
	db, err := odb.Open(objectsDir(dir), format, odb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	idle := NewCommits(db.NewReader(), nil, format, CommitOptions{})
	idle.ReadAhead(db.NewReader())
	idle.StopReadAhead() // never started: no goroutine to wait for

	cs := NewCommits(db.NewReader(), nil, format, CommitOptions{})
	cs.ReadAhead(db.NewReader())
	if _, err := cs.Get(revParse(t, dir, format, "HEAD")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // let it read the whole chain and wait
	done := make(chan struct{})
	go func() { cs.StopReadAhead(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("StopReadAhead did not return")
	}
}

// TestNoteParsedTakesEntryReadToo checks that a commit the walk read
// itself while the read-ahead read it too no longer counts against
// maxAhead: each such commit left one untaken entry behind, and 1,024 of
// them (a walk whose reads wait in vain, as on a cold disk) stopped the
// read-ahead for the rest of the walk.
func TestNoteParsedTakesEntryReadToo(t *testing.T) {
	ra := &readAhead{ready: make(map[uint64]*aheadCommit), done: make(chan struct{})}
	ra.more.L = &ra.mu
	cs := &Commits{ahead: ra}
	id, err := oid.ParseHex(oid.SHA1, "1111111111111111111111111111111111111111")
	if err != nil {
		t.Fatal(err)
	}
	e := &aheadCommit{id: id, time: 7}
	ra.ready[aheadKey(id)] = e
	ra.ahead = 1
	cs.noteParsed(&Commit{obj: &commitObject{id: id}, Time: 7}, nil)
	if !e.taken || ra.ahead != 0 || len(ra.ready) != 0 {
		t.Errorf("after the walk read a commit the read-ahead had read too: taken %v, %d entries counted ahead, %d kept; want taken, 0 and 0", e.taken, ra.ahead, len(ra.ready))
	}
	// Told again (the walk never reads a commit twice, but the count
	// must not go below what was read ahead).
	cs.noteParsed(&Commit{obj: &commitObject{id: id}, Time: 7}, nil)
	if ra.ahead != 0 {
		t.Errorf("%d entries counted ahead after a second notice, want 0", ra.ahead)
	}
}

// TestTakenEntriesLeave checks that the entries the walk takes leave the
// read-ahead's map, and its order as the next entry is stored: a walk
// over a history without a commit-graph kept every commit it took
// there, a fifth of the blame's allocations.
func TestTakenEntriesLeave(t *testing.T) {
	ra := &readAhead{ready: make(map[uint64]*aheadCommit), done: make(chan struct{})}
	ra.more.L = &ra.mu
	cs := &Commits{ahead: ra}
	id := func(i int) oid.ID { return oid.HashObject(oid.SHA1, "blob", []byte{byte(i)}) }
	for i := 0; i < 10; i++ {
		ra.ready[aheadKey(id(i))] = &aheadCommit{id: id(i), time: uint64(100 - i)}
		ra.order = append(ra.order, id(i))
		ra.ahead++
	}
	var got aheadCommit
	for i := 0; i < 6; i++ {
		if !cs.takeAhead(id(i), &got) || got.time != uint64(100-i) {
			t.Fatalf("entry %d not taken: %+v", i, got)
		}
	}
	if cs.takeAhead(id(2), &got) {
		t.Errorf("an entry taken twice")
	}
	if len(ra.free) != 6 {
		t.Errorf("%d entries to fill again after 6 were taken", len(ra.free))
	}
	ra.trimOrder()
	if len(ra.ready) != 4 || ra.ahead != 4 || len(ra.orderList()) != 4 {
		t.Errorf("after 6 of 10 entries were taken: %d kept, %d counted ahead, %d in order; want 4, 4 and 4", len(ra.ready), ra.ahead, len(ra.orderList()))
	}
	// Another commit whose key is the same is not kept in its place.
	other := id(7)
	other.Raw()[10] ^= 1
	if e := ra.entry(other); e != nil {
		t.Errorf("an entry answers for another commit with its key")
	}
}

// longCommitsScript is a packed history of long commits (a message of 30
// lines, about 1.5 KB, as signed commits are) with merges, without a
// commit-graph.
const longCommitsScript = `git init -q
for i in $(seq 1 24); do
	echo "$i" >> f
	git add -A
	test_tick
	{ echo "c$i"; echo; for j in $(seq 1 30); do echo "$(echo "message $i $j" | git hash-object --stdin)"; done; } >.git/msg
	git commit -q -F .git/msg
	if test $((i % 6)) = 0; then
		git checkout -q -b side$i HEAD~2
		echo "side $i" > s$i
		git add -A; test_tick; git commit -q -m "side $i"
		git checkout -q -
		test_tick
		git merge -q --no-ff -m "merge $i" side$i
	fi
done
git repack -adq
`

// TestLongCommitsReadByTheirStart walks a history of long commits
// through odb readers, with the read-ahead and without: every commit must
// parse as git log says, and both readers must have read most commits by
// their first bytes alone (odb.Reader.ReadCheckedPrefix).
func TestLongCommitsReadByTheirStart(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "traverse-longcommits", format, longCommitsScript)
		db, err := odb.Open(objectsDir(dir), format, odb.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[oid.ID]string{}
		for _, c := range gitCommits(t, dir, format) {
			want[c.id] = describeGit(c)
		}
		head := revParse(t, dir, format, "HEAD")
		for _, readAhead := range []bool{false, true} {
			walkRd, aheadRd := db.NewReader(), db.NewReader()
			cs := NewCommits(walkRd, nil, format, CommitOptions{})
			if readAhead {
				cs.ReadAhead(aheadRd)
			}
			walkAhead(t, fmt.Sprintf("%s read-ahead %v", format, readAhead), cs, head, want)
			checked := walkRd.Stats().CheckedPrefixes + aheadRd.Stats().CheckedPrefixes
			read := walkRd.Stats().ObjectsRead + aheadRd.Stats().ObjectsRead
			if checked < int64(len(want))*3/4 {
				t.Errorf("%s read-ahead %v: %d commits read by their start, %d whole, of %d", format, readAhead, checked, read, len(want))
			}
		}
		db.Close()
	}
}

// TestDropPassed fills a read-ahead's entries as a walk down a merged
// topic leaves them (first-parent commits of the main line, newer than
// the walk, never taken) and checks that dropPassed forgets those newer
// than the frontier, from the oldest read on, and keeps the rest: taken
// entries, and untaken ones at or before the frontier.
func TestDropPassed(t *testing.T) {
	ra := &readAhead{ready: map[uint64]*aheadCommit{}}
	id := func(i int) oid.ID { return oid.HashObject(oid.SHA1, "blob", []byte{byte(i)}) }
	// Read newest first: dates 100, 99, ..., 91; 97 was taken (and, as
	// noteParsed leaves an entry the walk read first, kept).
	for i := 0; i < 10; i++ {
		ra.ready[aheadKey(id(i))] = &aheadCommit{id: id(i), time: uint64(100 - i), taken: i == 3}
		ra.order = append(ra.order, id(i))
		if i != 3 {
			ra.ahead++
		}
	}
	if ra.dropPassed() {
		t.Fatal("dropped entries before the walk said where it is")
	}
	ra.frontier.Store(95)
	if !ra.dropPassed() {
		t.Fatal("nothing dropped")
	}
	for i := 0; i < 10; i++ {
		e := ra.entry(id(i))
		want := i == 3 || 100-i <= 95
		if (e != nil) != want {
			t.Errorf("entry of date %d (taken %v): kept %v", 100-i, i == 3, e != nil)
		}
	}
	if ra.ahead != 5 || len(ra.orderList()) != 5 {
		t.Errorf("ahead %d, order %d; want 5 and 5", ra.ahead, len(ra.orderList()))
	}
	if ra.dropPassed() {
		t.Error("dropped again with the frontier unchanged")
	}
}
