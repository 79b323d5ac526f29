// Package binheap is a binary heap over a slice, ordered by a function
// (least first): the priority queues of blame's walk, of its trace and
// of the path look-ahead.
package binheap

// Push adds x to the binary heap items ordered by less (least first)
// and returns the heap.
func Push[T any](items []T, x T, less func(a, b T) bool) []T {
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

// Pop removes the least item of a non-empty heap and returns the heap
// and the item.
func Pop[T any](items []T, less func(a, b T) bool) ([]T, T) {
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
