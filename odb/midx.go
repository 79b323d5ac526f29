package odb

import (
	"bytes"
	"encoding/binary"
	"path/filepath"

	"github.com/goblame/goblame/oid"
)

// Multi-pack-index (objects/pack/multi-pack-index), version 1:
//
//	"MIDX" | version 1 | hash version (1 SHA-1, 2 SHA-256) | chunk count C |
//	base count (0) | BE32 pack count P | (C+1) × (4-byte id, BE64 offset) |
//	chunks ... | checksum
//
// Chunks used here: PNAM (NUL-terminated .idx names), OIDF (fan-out), OIDL
// (sorted ids), OOFF (BE32 pack number, BE32 offset per object) and the
// optional LOFF (BE64 offsets, used only when present and bit 31 is set).

type multiPackIndex struct {
	path      string
	mapping   *mapping
	hashLen   int
	count     uint32
	fanout    []byte
	names     []byte
	offsets   []byte // OOFF
	large     []byte // LOFF, nil if absent
	packNames []string
	packs     []*pack // by pack number; nil where the pack is missing
}

// parseMultiPackIndex validates a MIDX file. Any inconsistency makes the
// whole file unusable; the caller then reads every pack through its own
// .idx, which is always correct (the MIDX is only an accelerator).
func parseMultiPackIndex(path string, data []byte, format oid.Format) (*multiPackIndex, error) {
	h := format.Size()
	if len(data) < 12+12+h {
		return nil, corrupt(path, -1, nil, "multi-pack-index too small")
	}
	if string(data[:4]) != "MIDX" {
		return nil, corrupt(path, 0, nil, "bad multi-pack-index signature")
	}
	if data[4] != 1 {
		return nil, corrupt(path, 4, nil, "multi-pack-index version %d not recognized", data[4])
	}
	wantHash := byte(1)
	if format == oid.SHA256 {
		wantHash = 2
	}
	if data[5] != wantHash {
		return nil, corrupt(path, 5, nil, "multi-pack-index hash version %d does not match version %d", data[5], wantHash)
	}
	chunks := int(data[6])
	packCount := binary.BigEndian.Uint32(data[8:12])
	m := &multiPackIndex{path: path, hashLen: h}
	tocEnd := 12 + (chunks+1)*12
	if tocEnd > len(data)-h {
		return nil, corrupt(path, 12, nil, "multi-pack-index chunk table runs past the end")
	}
	var pnam, oidf, oidl, ooff, loff []byte
	for i := 0; i < chunks; i++ {
		row := data[12+12*i:]
		id := string(row[:4])
		start := binary.BigEndian.Uint64(row[4:12])
		end := binary.BigEndian.Uint64(row[16:24])
		if start < uint64(tocEnd) || end < start || end > uint64(len(data)-h) {
			return nil, corrupt(path, int64(12+12*i), nil, "multi-pack-index chunk %q out of bounds", id)
		}
		chunk := data[start:end]
		switch id {
		case "PNAM":
			pnam = chunk
		case "OIDF":
			oidf = chunk
		case "OIDL":
			oidl = chunk
		case "OOFF":
			ooff = chunk
		case "LOFF":
			loff = chunk
		}
	}
	if pnam == nil || oidf == nil || oidl == nil || ooff == nil {
		return nil, corrupt(path, -1, nil, "multi-pack-index missing a required chunk")
	}
	if len(oidf) != 1024 {
		return nil, corrupt(path, -1, nil, "multi-pack-index fan-out chunk has the wrong size")
	}
	var prev uint32
	for i := 0; i < 256; i++ {
		n := binary.BigEndian.Uint32(oidf[4*i:])
		if n < prev {
			return nil, corrupt(path, -1, nil, "multi-pack-index fan-out is not monotonic")
		}
		prev = n
	}
	m.count = prev
	if uint64(len(oidl)) < uint64(m.count)*uint64(h) || uint64(len(ooff)) < uint64(m.count)*8 {
		return nil, corrupt(path, -1, nil, "multi-pack-index object chunks are too small for %d objects", m.count)
	}
	m.fanout = oidf
	m.names = oidl[:uint64(m.count)*uint64(h)]
	m.offsets = ooff[:uint64(m.count)*8]
	m.large = loff
	rest := pnam
	for i := uint32(0); i < packCount; i++ {
		n := bytes.IndexByte(rest, 0)
		if n <= 0 {
			return nil, corrupt(path, -1, nil, "multi-pack-index pack-name chunk is too short")
		}
		name := string(rest[:n])
		if filepath.Base(name) != name || filepath.Ext(name) != ".idx" {
			return nil, corrupt(path, -1, nil, "multi-pack-index names a bad pack index %q", name)
		}
		if len(m.packNames) > 0 && m.packNames[len(m.packNames)-1] >= name {
			return nil, corrupt(path, -1, nil, "multi-pack-index pack names out of order")
		}
		m.packNames = append(m.packNames, name)
		rest = rest[n+1:]
	}
	m.packs = make([]*pack, packCount)
	return m, nil
}

func (m *multiPackIndex) name(i uint32) []byte {
	o := int(i) * m.hashLen
	return m.names[o : o+m.hashLen]
}

func (m *multiPackIndex) bounds(b byte) (lo, hi uint32) {
	if b > 0 {
		lo = binary.BigEndian.Uint32(m.fanout[4*(int(b)-1):])
	}
	hi = binary.BigEndian.Uint32(m.fanout[4*int(b):])
	return lo, hi
}

func (m *multiPackIndex) find(raw []byte) (uint32, bool) {
	lo, hi := m.bounds(raw[0])
	for lo < hi {
		mid := lo + (hi-lo)/2
		c := bytes.Compare(m.name(mid), raw)
		if c == 0 {
			return mid, true
		}
		if c < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo, false
}

func (m *multiPackIndex) lowerBound(raw []byte) uint32 {
	lo, hi := m.bounds(raw[0])
	for lo < hi {
		mid := lo + (hi-lo)/2
		if bytes.Compare(m.name(mid), raw) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// entry returns the pack number and offset of the object at position i.
func (m *multiPackIndex) entry(i uint32) (uint32, uint64, error) {
	rec := m.offsets[8*int(i):]
	packNum := binary.BigEndian.Uint32(rec)
	off := uint64(binary.BigEndian.Uint32(rec[4:]))
	if packNum >= uint32(len(m.packs)) {
		return 0, 0, corrupt(m.path, -1, nil, "multi-pack-index names pack %d of %d", packNum, len(m.packs))
	}
	if m.large != nil && off&0x80000000 != 0 {
		k := off & 0x7fffffff
		if k >= uint64(len(m.large))/8 {
			return 0, 0, corrupt(m.path, -1, errBadLargeOffset, "bad multi-pack-index large offset")
		}
		off = binary.BigEndian.Uint64(m.large[8*k:])
	}
	return packNum, off, nil
}
