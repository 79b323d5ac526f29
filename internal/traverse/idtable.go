package traverse

import (
	"encoding/binary"

	"github.com/goblame/goblame/oid"
)

// idTable is an open-addressing hash set of commits keyed by their IDs.
// Object IDs are uniformly distributed, so their first eight bytes are the
// hash: no hashing, and the key lives in the Commit, so a slot is one
// pointer (a Go map would store a copy of each 33-byte ID and rehash
// them as it grows).
type idTable struct {
	slots []*Commit // length is a power of two, at most 3/4 full
	n     int
}

func idHash(id *oid.ID) uint64 {
	raw := id.Raw()
	return binary.LittleEndian.Uint64(raw[:8])
}

func (t *idTable) get(id oid.ID) *Commit {
	if len(t.slots) == 0 {
		return nil
	}
	mask := uint64(len(t.slots) - 1)
	for i := idHash(&id) & mask; ; i = (i + 1) & mask {
		c := t.slots[i]
		if c == nil || c.obj.id == id {
			return c
		}
	}
}

// put adds c, whose ID must not be in the table yet.
func (t *idTable) put(c *Commit) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	t.insert(c)
	t.n++
}

func (t *idTable) insert(c *Commit) {
	mask := uint64(len(t.slots) - 1)
	i := idHash(&c.obj.id) & mask
	for t.slots[i] != nil {
		i = (i + 1) & mask
	}
	t.slots[i] = c
}

func (t *idTable) grow() {
	old := t.slots
	t.slots = make([]*Commit, max(1024, 2*len(old)))
	for _, c := range old {
		if c != nil {
			t.insert(c)
		}
	}
}
