package odb

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Hand-made packs for cases git will not write: REF_DELTA bases outside the
// pack, cycles, chains past the depth limit, damaged deltas.

// testEntry is one entry of a hand-made pack.
type testEntry struct {
	typ     uint8  // 1-4, typeOfsDelta or typeRefDelta
	body    []byte // object content, or delta data for deltas
	ofsBase int    // typeOfsDelta: index of the base entry in the pack
	refBase oid.ID // typeRefDelta: id of the base
	id      oid.ID // the name the index gives this entry
	// declaredSize overrides the size in the entry header when >= 0.
	declaredSize int64
	// rawStream replaces the zlib stream when non-nil.
	rawStream []byte
	// ofsDistance overrides the OFS_DELTA distance when non-zero.
	ofsDistance uint64
}

func fullEntry(format oid.Format, typ object.Type, content []byte) testEntry {
	return testEntry{typ: uint8(typ), body: content, id: oid.HashObject(format, typ.String(), content), declaredSize: -1}
}

// deltaFor encodes result as a delta against base: the common prefix as
// one copy (split to honour the 0xffffff size limit), the rest as inserts.
func deltaFor(base, result []byte) []byte {
	var d []byte
	d = appendLEB(d, uint64(len(base)))
	d = appendLEB(d, uint64(len(result)))
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

func appendLEB(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

var testZlibWriter = zlib.NewWriter(nil)

func zlibBytes(b []byte) []byte {
	var buf bytes.Buffer
	testZlibWriter.Reset(&buf)
	testZlibWriter.Write(b)
	testZlibWriter.Close()
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

// encodeOfs writes an OFS_DELTA distance (big-endian groups, +1 bias).
func encodeOfs(d uint64) []byte {
	buf := []byte{byte(d & 0x7f)}
	for d >>= 7; d > 0; d >>= 7 {
		d--
		buf = append([]byte{0x80 | byte(d&0x7f)}, buf...)
	}
	return buf
}

// writeTestPack writes pack-<name>.pack and .idx (v2) into packDir and
// returns the path without suffix.
func writeTestPack(t testing.TB, packDir string, format oid.Format, name string, entries []testEntry) string {
	t.Helper()
	var pack bytes.Buffer
	pack.WriteString("PACK")
	binary.Write(&pack, binary.BigEndian, uint32(2))
	binary.Write(&pack, binary.BigEndian, uint32(len(entries)))
	offsets := make([]uint64, len(entries))
	crcs := make([]uint32, len(entries))
	for i, e := range entries {
		offsets[i] = uint64(pack.Len())
		size := uint64(len(e.body))
		if e.declaredSize >= 0 {
			size = uint64(e.declaredSize)
		}
		var raw []byte
		raw = append(raw, encodeEntryHeader(e.typ, size)...)
		switch e.typ {
		case typeOfsDelta:
			d := offsets[i] - offsets[e.ofsBase]
			if e.ofsDistance != 0 {
				d = e.ofsDistance
			}
			raw = append(raw, encodeOfs(d)...)
		case typeRefDelta:
			raw = append(raw, e.refBase.Bytes()...)
		}
		stream := e.rawStream
		if stream == nil {
			stream = zlibBytes(e.body)
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
	slices.SortFunc(order, func(a, b int) int { return entries[a].id.Compare(entries[b].id) })
	var idx bytes.Buffer
	idx.Write(idxV2Magic)
	binary.Write(&idx, binary.BigEndian, uint32(2))
	var fan [256]uint32
	for _, e := range entries {
		fan[e.id.Raw()[0]]++
	}
	var total uint32
	for i := range fan {
		total += fan[i]
		binary.Write(&idx, binary.BigEndian, total)
	}
	for _, i := range order {
		idx.Write(entries[i].id.Bytes())
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

// writeLoose writes a loose object file with the given raw (uncompressed)
// bytes, header included, under the name id.
func writeLoose(t testing.TB, objects string, id oid.ID, raw []byte) string {
	t.Helper()
	hexID := id.String()
	dir := filepath.Join(objects, hexID[:2])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, hexID[2:])
	if err := os.WriteFile(path, zlibBytes(raw), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func looseBytes(typ object.Type, content []byte) []byte {
	return append([]byte(typ.String()+" "+strconv.Itoa(len(content))+"\x00"), content...)
}

// emptyObjects makes an empty objects directory.
func emptyObjects(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "objects")
	if err := os.MkdirAll(filepath.Join(dir, "pack"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
