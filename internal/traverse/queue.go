package traverse

// Queue is git's commit priority queue (prio-queue.c used with
// compare_commits_by_commit_date): the commit with the highest Time comes
// out first, or with Reverse the lowest; commits with equal Time come out
// in the order they were pushed. Because (time, push counter) is a total
// order, the sequence of pops equals git's whatever the heap's internals.
//
// A commit's Time is read when it is pushed, so push parsed commits. The
// same commit may be pushed more than once (blame re-queues commits); it
// then comes out once per push.
type Queue struct {
	// Reverse pops the oldest commit first (blame --reverse). Set it
	// before the first Push.
	Reverse bool
	items   []queueItem
	counter uint64
}

type queueItem struct {
	time    uint64
	counter uint64
	c       *Commit
}

// before reports whether a pops before b.
func (q *Queue) before(a, b *queueItem) bool {
	if a.time != b.time {
		if q.Reverse {
			return a.time < b.time
		}
		return a.time > b.time
	}
	return a.counter < b.counter
}

// Len returns the number of queued entries.
func (q *Queue) Len() int { return len(q.items) }

// Push queues c.
func (q *Queue) Push(c *Commit) {
	q.items = append(q.items, queueItem{time: c.Time, counter: q.counter, c: c})
	q.counter++
	// sift up
	i := len(q.items) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if !q.before(&q.items[i], &q.items[parent]) {
			break
		}
		q.items[i], q.items[parent] = q.items[parent], q.items[i]
		i = parent
	}
}

// Peek returns the commit Pop would return, or nil.
func (q *Queue) Peek() *Commit {
	if len(q.items) == 0 {
		return nil
	}
	return q.items[0].c
}

// Pop removes and returns the next commit, or nil when the queue is
// empty.
func (q *Queue) Pop() *Commit {
	n := len(q.items)
	if n == 0 {
		return nil
	}
	top := q.items[0].c
	n--
	q.items[0] = q.items[n]
	q.items[n] = queueItem{}
	q.items = q.items[:n]
	// sift down
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		best := l
		if r := l + 1; r < n && q.before(&q.items[r], &q.items[l]) {
			best = r
		}
		if !q.before(&q.items[best], &q.items[i]) {
			break
		}
		q.items[i], q.items[best] = q.items[best], q.items[i]
		i = best
	}
	return top
}

// each calls fn for every queued commit, in no particular order, until fn
// returns false.
func (q *Queue) each(fn func(*Commit) bool) {
	for i := range q.items {
		if !fn(q.items[i].c) {
			return
		}
	}
}

// Reset empties the queue, keeping its storage.
func (q *Queue) Reset() {
	clear(q.items)
	q.items = q.items[:0]
	q.counter = 0
}
