package blamecore

// entry is a run of lines of the final image that is suspected to come
// from one origin (git's struct blame_entry). Entries live on singly
// linked lists: an origin's suspects (sorted by sLno), the lists handed
// from a target to a parent, and the scoreboard's list of guilty entries.
type entry struct {
	next *entry

	lno      int     // first line in the final image (0-based)
	numLines int     // number of lines
	suspect  *origin // the origin suspected of these lines
	sLno     int     // first line in the suspect's blob (0-based)

	// score caches the -M/-C triviality score (0 = not computed).
	score int

	// ignored: the lines were passed on by --ignore-rev's fuzzy matching;
	// unblamable: an ignored commit kept them because no parent line
	// matched. Both survive splits and keep entries from coalescing.
	ignored, unblamable bool

	// trail is the way the lines came, when the blame records it
	// (Options.Record): the origins from the final one to suspect.
	trail *trail
}

// splitAt cuts e after n lines and returns the remainder, which is
// suspected on newSuspect (git's split_blame_at).
func (e *entry) splitAt(n int, newSuspect *origin) *entry {
	rest := &entry{
		suspect:    newSuspect,
		ignored:    e.ignored,
		unblamable: e.unblamable,
		lno:        e.lno + n,
		sLno:       e.sLno + n,
		numLines:   e.numLines - n,
		trail:      e.trail,
	}
	e.numLines = n
	e.score = 0
	return rest
}

// reverseOnto reverses the list head and appends tail to it.
func reverseOnto(head, tail *entry) *entry {
	for head != nil {
		next := head.next
		head.next = tail
		tail = head
		head = next
	}
	return tail
}

// mergeBySLno merges two lists sorted by sLno into one; on equal sLno
// the entries of a come first (git's blame_merge).
func mergeBySLno(a, b *entry) *entry {
	var head entry
	tail := &head
	for a != nil && b != nil {
		if a.sLno <= b.sLno {
			tail.next = a
			a = a.next
		} else {
			tail.next = b
			b = b.next
		}
		tail = tail.next
	}
	if a != nil {
		tail.next = a
	} else {
		tail.next = b
	}
	return head.next
}

// sortList sorts a list stably with less (a merge sort, as git's
// llist_mergesort).
func sortList(head *entry, less func(a, b *entry) bool) *entry {
	if head == nil || head.next == nil {
		return head
	}
	// split in halves
	slow, fast := head, head.next
	for fast != nil && fast.next != nil {
		slow = slow.next
		fast = fast.next.next
	}
	second := slow.next
	slow.next = nil
	a := sortList(head, less)
	b := sortList(second, less)
	var out entry
	tail := &out
	for a != nil && b != nil {
		if less(b, a) { // take b only if strictly less: stable
			tail.next = b
			b = b.next
		} else {
			tail.next = a
			a = a.next
		}
		tail = tail.next
	}
	if a != nil {
		tail.next = a
	} else {
		tail.next = b
	}
	return out.next
}

// lessBySuspect orders entries by suspect (creation order standing in for
// git's pointer order) and then sLno; see distribute.
func lessBySuspect(a, b *entry) bool {
	if a.suspect != b.suspect {
		return a.suspect.seq < b.suspect.seq
	}
	return a.sLno < b.sLno
}
