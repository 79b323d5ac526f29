package blamecore

import "github.com/goblame/goblame/internal/binheap"

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
	q.items = binheap.Push(q.items, queueItem{c: c, ctr: q.counter}, q.less)
	q.counter++
}

func (q *commitQueue) get() *commitNode {
	if len(q.items) == 0 {
		return nil
	}
	var top queueItem
	q.items, top = binheap.Pop(q.items, q.less)
	return top.c
}
