package blamecore

// commitQueue is the scoreboard's priority queue of commits (git's
// prio_queue with compare_commits_by_commit_date): newest committer date
// first — oldest first in reverse mode — and, between equal dates, the
// commit put in earlier first. Every put consumes an insertion number,
// even for a commit already queued, exactly as git's does, because those
// numbers decide later ties.
type commitQueue struct {
	items   []queueItem
	counter uint64
	reverse bool
}

type queueItem struct {
	c   *commitNode
	ctr uint64
}

func (q *commitQueue) less(a, b queueItem) bool {
	if ad, bd := a.c.date(), b.c.date(); ad != bd {
		if q.reverse {
			return ad < bd
		}
		return ad > bd
	}
	return a.ctr < b.ctr
}

func (q *commitQueue) put(c *commitNode) {
	q.items = heapPush(q.items, queueItem{c: c, ctr: q.counter}, q.less)
	q.counter++
}

func (q *commitQueue) get() *commitNode {
	if len(q.items) == 0 {
		return nil
	}
	var top queueItem
	q.items, top = heapPop(q.items, q.less)
	return top.c
}

// heapPush adds x to the binary heap items ordered by less (least first).
func heapPush[T any](items []T, x T, less func(a, b T) bool) []T {
	items = append(items, x)
	for i := len(items) - 1; i > 0; {
		p := (i - 1) / 2
		if !less(items[i], items[p]) {
			break
		}
		items[i], items[p] = items[p], items[i]
		i = p
	}
	return items
}

// heapPop removes and returns the least item of a non-empty heap.
func heapPop[T any](items []T, less func(a, b T) bool) ([]T, T) {
	top := items[0]
	n := len(items) - 1
	items[0] = items[n]
	items = items[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && less(items[r], items[l]) {
			m = r
		}
		if !less(items[m], items[i]) {
			break
		}
		items[i], items[m] = items[m], items[i]
		i = m
	}
	return items, top
}
