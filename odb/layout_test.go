package odb

import (
	"testing"
)

// layout summarises how a DB stores its objects, so that each fixture can
// assert it really exercises what its name promises.
type layout struct {
	packs, midxs, midxPacks        int
	idxV1, largeOffsets            int
	full, ofs, ref, refBaseAfter   int
	maxDepth                       int
	refBaseOtherPack, refBaseLoose int
}

func describe(t *testing.T, db *DB) layout {
	t.Helper()
	var l layout
	set := db.state.Load()
	l.midxs = len(set.midxs)
	for _, m := range set.midxs {
		l.midxPacks += len(m.packs)
	}
	r := db.NewReader()
	for _, p := range set.all {
		x, err := p.index()
		if err != nil {
			t.Fatalf("index %s: %v", p.idxPath(), err)
		}
		data, err := p.packData()
		if err != nil {
			t.Fatalf("pack %s: %v", p.packPath(), err)
		}
		l.packs++
		if x.version == 1 {
			l.idxV1++
		}
		l.largeOffsets += len(x.large) / 8
		for i := uint32(0); i < x.count; i++ {
			off, err := x.offset(i)
			if err != nil {
				t.Fatal(err)
			}
			h, err := p.entryHeader(data, off)
			if err != nil {
				t.Fatal(err)
			}
			switch h.typ {
			case typeOfsDelta:
				l.ofs++
			case typeRefDelta:
				l.ref++
				boff, ok, _ := p.find(h.baseID)
				switch {
				case ok && boff > off:
					l.refBaseAfter++
				case !ok:
					loc, _ := db.locate(h.baseID, nil, nil)
					if loc.pack != nil {
						l.refBaseOtherPack++
					} else if loc.looseDir != "" {
						l.refBaseLoose++
					}
				}
			default:
				l.full++
			}
			if d := chainDepth(t, r, p, off); d > l.maxDepth {
				l.maxDepth = d
			}
		}
	}
	return l
}

// chainDepth counts the deltas between the entry at (p, off) and its base.
func chainDepth(t *testing.T, r *Reader, p *pack, off uint64) int {
	depth := 0
	for {
		data, _ := p.packData()
		h, err := p.entryHeader(data, off)
		if err != nil {
			t.Fatal(err)
		}
		switch h.typ {
		case typeOfsDelta:
			off = h.baseOff
		case typeRefDelta:
			loc, err := r.followRef(p, h.baseID)
			if err != nil || loc.pack == nil {
				return depth + 1
			}
			p, off = loc.pack, loc.offset
		default:
			return depth
		}
		depth++
	}
}
