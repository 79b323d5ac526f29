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
	q.items = append(q.items, queueItem{c: c, ctr: q.counter})
	q.counter++
	i := len(q.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(q.items[i], q.items[p]) {
			break
		}
		q.items[i], q.items[p] = q.items[p], q.items[i]
		i = p
	}
}

func (q *commitQueue) get() *commitNode {
	n := len(q.items)
	if n == 0 {
		return nil
	}
	top := q.items[0].c
	n--
	q.items[0] = q.items[n]
	q.items = q.items[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && q.less(q.items[r], q.items[l]) {
			m = r
		}
		if !q.less(q.items[m], q.items[i]) {
			break
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
	return top
}
