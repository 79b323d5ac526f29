package odb

import (
	"bytes"
	"container/heap"
	"slices"

	"github.com/goblame/goblame/oid"
)

// ForEachObject calls fn once for every stored object (every pack, through
// its multi-pack-index where there is one, and every loose object, in the
// main directory and the alternates) in ascending id order. Objects stored
// more than once are reported once. The virtual empty tree is reported
// only if stored. An error from fn stops the walk and is returned.
func (db *DB) ForEachObject(fn func(oid.ID) error) error {
	set := db.state.Load()
	h := &cursorHeap{}
	for _, m := range set.midxs {
		m := m
		c := &cursor{count: m.count, name: m.name}
		c.keep = func(i uint32) bool {
			num, _, err := m.entry(i)
			return err == nil && m.packs[num] != nil
		}
		h.push(c)
	}
	for _, p := range set.packs {
		x, err := p.index()
		if err != nil {
			continue
		}
		h.push(&cursor{count: x.count, name: x.name})
	}
	var loose [][]byte
	for _, dir := range db.dirs {
		db.forEachLoose(dir, "", func(id oid.ID) error {
			loose = append(loose, id.Bytes())
			return nil
		})
	}
	if len(loose) > 0 {
		slices.SortFunc(loose, bytes.Compare)
		h.push(&cursor{count: uint32(len(loose)), name: func(i uint32) []byte { return loose[i] }})
	}
	heap.Init(h)
	var last []byte
	for h.Len() > 0 {
		c := (*h)[0]
		name := c.name(c.pos)
		if last == nil || !bytes.Equal(name, last) {
			if err := fn(oid.FromBytes(db.format, name)); err != nil {
				return err
			}
			last = name
		}
		c.pos++
		c.skip()
		if c.pos >= c.count {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
	return nil
}

// cursor walks one sorted list of ids.
type cursor struct {
	pos, count uint32
	name       func(uint32) []byte
	keep       func(uint32) bool // nil: keep everything
}

func (c *cursor) skip() {
	for c.keep != nil && c.pos < c.count && !c.keep(c.pos) {
		c.pos++
	}
}

type cursorHeap []*cursor

func (h *cursorHeap) push(c *cursor) {
	c.skip()
	if c.pos < c.count {
		*h = append(*h, c)
	}
}
func (h cursorHeap) Len() int { return len(h) }
func (h cursorHeap) Less(i, j int) bool {
	return bytes.Compare(h[i].name(h[i].pos), h[j].name(h[j].pos)) < 0
}
func (h cursorHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursorHeap) Push(x any)   { *h = append(*h, x.(*cursor)) }
func (h *cursorHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}

// ForEachObjectUnordered calls fn once for every stored object, in the
// order that reads fastest: each pack's entries by pack offset (so delta
// bases come before their deltas and the delta-base cache serves them),
// then loose objects. It is the order of git cat-file --batch-all-objects
// --unordered. Objects stored more than once are reported once.
func (db *DB) ForEachObjectUnordered(fn func(oid.ID) error) error {
	set := db.state.Load()
	sources := len(set.midxs) + len(set.packs)
	var seen map[oid.ID]struct{}
	visit := func(id oid.ID) error {
		if seen != nil {
			if _, dup := seen[id]; dup {
				return nil
			}
			seen[id] = struct{}{}
		}
		return fn(id)
	}
	hasLoose := false
	for _, dir := range db.dirs {
		db.forEachLoose(dir, "", func(oid.ID) error {
			hasLoose = true
			return errStopIteration
		})
	}
	if hasLoose {
		sources++
	}
	if sources > 1 || len(db.dirs) > 1 {
		seen = map[oid.ID]struct{}{}
	}
	var packs []*pack
	for _, m := range set.midxs {
		for _, p := range m.packs {
			if p != nil {
				packs = append(packs, p)
			}
		}
	}
	packs = append(packs, set.packs...)
	for _, p := range packs {
		x, err := p.index()
		if err != nil {
			continue
		}
		for _, i := range packOrder(x) {
			if err := visit(oid.FromBytes(db.format, x.name(i))); err != nil {
				return err
			}
		}
	}
	for _, dir := range db.dirs {
		if err := db.forEachLoose(dir, "", visit); err != nil {
			return err
		}
	}
	return nil
}

type stopIteration struct{}

func (stopIteration) Error() string { return "stop" }

var errStopIteration error = stopIteration{}

// packOrder returns the index positions of a pack sorted by pack offset.
func packOrder(x *packIndex) []uint32 {
	type posOff struct {
		off uint64
		pos uint32
	}
	order := make([]posOff, x.count)
	for i := range order {
		off, err := x.offset(uint32(i))
		if err != nil {
			off = ^uint64(0)
		}
		order[i] = posOff{off, uint32(i)}
	}
	slices.SortFunc(order, func(a, b posOff) int {
		switch {
		case a.off < b.off:
			return -1
		case a.off > b.off:
			return 1
		}
		return 0
	})
	out := make([]uint32, len(order))
	for i, o := range order {
		out[i] = o.pos
	}
	return out
}
