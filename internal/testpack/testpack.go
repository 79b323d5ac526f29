// Package testpack writes pack files, their .idx and loose objects by
// hand, for tests of cases git will not write: REF_DELTA bases outside
// the pack, delta cycles, chains deeper than any git makes, damaged
// entries and streams. It is test code: it fails the test on I/O errors.
package testpack

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// The pack entry types of deltas (gitformat-pack).
const (
	OfsDelta = 6
	RefDelta = 7
)

var idxV2Magic = []byte{0xff, 't', 'O', 'c'}

// Entry is one entry of a hand-made pack.
type Entry struct {
	Type    uint8  // 1-4, OfsDelta or RefDelta
	Body    []byte // object content, or delta data for deltas
	OfsBase int    // OfsDelta: index of the base entry in the pack
	RefBase oid.ID // RefDelta: id of the base
	ID      oid.ID // the name the index gives this entry
	// DeclaredSize overrides the size in the entry header when >= 0.
	DeclaredSize int64
	// RawStream replaces the zlib stream when non-nil.
	RawStream []byte
	// OfsDistance overrides the OFS_DELTA distance when non-zero.
	OfsDistance uint64
}

// Full is an entry holding content whole, as an object of type typ.
func Full(format oid.Format, typ object.Type, content []byte) Entry {
	return Entry{Type: uint8(typ), Body: content, ID: oid.HashObject(format, typ.String(), content), DeclaredSize: -1}
}

// Delta encodes result as a delta against base: the common prefix as
// one copy (split to honour the 0xffffff size limit), the rest as inserts.
func Delta(base, result []byte) []byte {
	var d []byte
	d = AppendLEB(d, uint64(len(base)))
	d = AppendLEB(d, uint64(len(result)))
	n := 0
	for n < len(base) && n < len(result) && base[n] == result[n] {
		n++
	}
	for off := 0; off < n; {
		size := min(n-off, 0xffff)
		d = append(d, copyOp(off, size)...)
		off += size
	}
	rest := result[n:]
	for len(rest) > 0 {
		k := min(len(rest), 127)
		d = append(d, byte(k))
		d = append(d, rest[:k]...)
		rest = rest[k:]
	}
	return d
}

// copyOp encodes a copy instruction with only the non-zero bytes present.
func copyOp(off, size int) []byte {
	op := []byte{0x80}
	for i := 0; i < 4; i++ {
		if b := byte(off >> (8 * i)); b != 0 {
			op[0] |= 1 << i
			op = append(op, b)
		}
	}
	if size != 0x10000 {
		for i := 0; i < 3; i++ {
			if b := byte(size >> (8 * i)); b != 0 {
				op[0] |= 0x10 << i
				op = append(op, b)
			}
		}
	}
	return op
}

// AppendLEB appends v as a delta header size (little-endian groups of 7
// bits).
func AppendLEB(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// zlibWriters keeps writers for reuse: a new one costs hundreds of
// kilobytes, and a pack may have tens of thousands of entries.
var zlibWriters = sync.Pool{New: func() any { return zlib.NewWriter(nil) }}

// Zlib compresses b as git does a pack entry or loose object.
func Zlib(b []byte) []byte {
	var buf bytes.Buffer
	w := zlibWriters.Get().(*zlib.Writer)
	w.Reset(&buf)
	w.Write(b)
	w.Close()
	zlibWriters.Put(w)
	return buf.Bytes()
}

// encodeEntryHeader writes the type/size varint of a pack entry.
func encodeEntryHeader(typ uint8, size uint64) []byte {
	c := typ<<4 | byte(size&15)
	size >>= 4
	var out []byte
	for size > 0 {
		out = append(out, c|0x80)
		c = byte(size & 0x7f)
		size >>= 7
	}
	return append(out, c)
}

// EncodeOfs writes an OFS_DELTA distance (big-endian groups, +1 bias).
func EncodeOfs(d uint64) []byte {
	buf := []byte{byte(d & 0x7f)}
	for d >>= 7; d > 0; d >>= 7 {
		d--
		buf = append([]byte{0x80 | byte(d&0x7f)}, buf...)
	}
	return buf
}

// Write writes pack-<name>.pack and .idx (v2) into packDir and
// returns the path without suffix.
func Write(t testing.TB, packDir string, format oid.Format, name string, entries []Entry) string {
	t.Helper()
	var pack bytes.Buffer
	pack.WriteString("PACK")
	binary.Write(&pack, binary.BigEndian, uint32(2))
	binary.Write(&pack, binary.BigEndian, uint32(len(entries)))
	offsets := make([]uint64, len(entries))
	crcs := make([]uint32, len(entries))
	for i, e := range entries {
		offsets[i] = uint64(pack.Len())
		size := uint64(len(e.Body))
		if e.DeclaredSize >= 0 {
			size = uint64(e.DeclaredSize)
		}
		var raw []byte
		raw = append(raw, encodeEntryHeader(e.Type, size)...)
		switch e.Type {
		case OfsDelta:
			d := offsets[i] - offsets[e.OfsBase]
			if e.OfsDistance != 0 {
				d = e.OfsDistance
			}
			raw = append(raw, EncodeOfs(d)...)
		case RefDelta:
			raw = append(raw, e.RefBase.Bytes()...)
		}
		stream := e.RawStream
		if stream == nil {
			stream = Zlib(e.Body)
		}
		raw = append(raw, stream...)
		crcs[i] = crc32.ChecksumIEEE(raw)
		pack.Write(raw)
	}
	h := oid.NewHasher(format)
	h.Write(pack.Bytes())
	packSum := h.Sum(nil)
	pack.Write(packSum)

	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return entries[a].ID.Compare(entries[b].ID) })
	var idx bytes.Buffer
	idx.Write(idxV2Magic)
	binary.Write(&idx, binary.BigEndian, uint32(2))
	var fan [256]uint32
	for _, e := range entries {
		fan[e.ID.Raw()[0]]++
	}
	var total uint32
	for i := range fan {
		total += fan[i]
		binary.Write(&idx, binary.BigEndian, total)
	}
	for _, i := range order {
		idx.Write(entries[i].ID.Bytes())
	}
	for _, i := range order {
		binary.Write(&idx, binary.BigEndian, crcs[i])
	}
	for _, i := range order {
		binary.Write(&idx, binary.BigEndian, uint32(offsets[i]))
	}
	idx.Write(packSum)
	h = oid.NewHasher(format)
	h.Write(idx.Bytes())
	idx.Write(h.Sum(nil))

	if err := os.MkdirAll(packDir, 0o755); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(packDir, "pack-"+name)
	if err := os.WriteFile(base+".pack", pack.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".idx", idx.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return base
}

// WriteLoose writes a loose object file with the given raw (uncompressed)
// bytes, header included, under the name id.
func WriteLoose(t testing.TB, objects string, id oid.ID, raw []byte) string {
	t.Helper()
	hexID := id.String()
	dir := filepath.Join(objects, hexID[:2])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, hexID[2:])
	if err := os.WriteFile(path, Zlib(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// LooseBytes is a loose object's uncompressed bytes: header and content.
func LooseBytes(typ object.Type, content []byte) []byte {
	return append([]byte(typ.String()+" "+strconv.Itoa(len(content))+"\x00"), content...)
}
