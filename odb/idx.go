package odb

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/goblame/goblame/oid"
)

// Pack index (.idx) layouts, both read from the mapping without copying:
//
//	v2: ff 74 4f 63 | BE32 2 | fan-out 256×BE32 | N ids | N CRC32 |
//	    N BE32 offsets (bit 31 set: index into the 64-bit table) |
//	    K BE64 large offsets | pack checksum | idx checksum
//	v1: fan-out 256×BE32 | N × (BE32 offset, id) | pack checksum | idx checksum

var idxV2Magic = []byte{0xff, 't', 'O', 'c'}

// packIndex is a view over a mapped .idx file.
type packIndex struct {
	path     string
	data     []byte
	hashLen  int
	version  int
	count    uint32
	fanout   []byte // 256 BE32
	names    []byte // v2: count*hashLen; v1: count*(4+hashLen) records
	stride   int    // distance between consecutive names
	nameOff  int    // offset of the name inside a record (v1: 4)
	crcs     []byte // v2: count BE32, the CRC-32 of each entry's bytes in the pack
	offsets  []byte // v2: count BE32
	large    []byte // v2: 64-bit offsets
	packHash []byte // checksum of the .pack this index describes
}

// indexFault is why git's load_idx refuses an index: its checks, in
// their order, made once (checkIndex) for both the library's error
// (parseIndex) and git's line (gitIndexLine).
type indexFault int

const (
	indexOK           indexFault = iota
	indexTooSmall                // under the fan-out and two checksums
	indexBadVersion              // v2 magic with another version
	indexNonMonotonic            // a fan-out entry below the one before
	indexWrongV1Size             // v1 not exactly its objects' size
	indexWrongV2Size             // v2 outside its objects' sizes
)

// checkIndex makes load_idx's checks of an index's bytes in git's order
// (its size first, then the version, the fan-out, the size for the
// count): the fault found first, with the version and object count read
// so far and the offset of the fault (-1: the size).
func checkIndex(data []byte, hashLen int) (fault indexFault, version, count uint32, at int64) {
	if len(data) < 4*256+2*hashLen {
		return indexTooSmall, 0, 0, -1
	}
	version = 1
	fanStart := 0
	if bytes.Equal(data[:4], idxV2Magic) {
		version = binary.BigEndian.Uint32(data[4:])
		if version != 2 {
			return indexBadVersion, version, 0, 4
		}
		fanStart = 8
	}
	for i := 0; i < 256; i++ {
		n := binary.BigEndian.Uint32(data[fanStart+4*i:])
		if n < count {
			return indexNonMonotonic, version, count, int64(fanStart + 4*i)
		}
		count = n
	}
	size, h, n := uint64(len(data)), uint64(hashLen), uint64(count)
	if version == 1 {
		if size != 4*256+2*h+n*(h+4) {
			return indexWrongV1Size, version, count, -1
		}
		return indexOK, version, count, 0
	}
	minSize := 8 + 4*256 + 2*h + n*(h+8)
	maxSize := minSize
	if n > 0 {
		maxSize += (n - 1) * 8 // at most one large offset per object but one
	}
	if size < minSize || size > maxSize {
		return indexWrongV2Size, version, count, -1
	}
	return indexOK, version, count, 0
}

// parseIndex validates the layout of a .idx file as git's load_idx does
// (checkIndex) and returns a view of it. An index git refuses fails with
// a *LookupError carrying the line git prints for it under gitName (its
// name for the file; see gitIndexLine) around the library's
// *CorruptError.
func parseIndex(path, gitName string, data []byte, format oid.Format) (*packIndex, error) {
	h := format.Size()
	fault, version, count, at := checkIndex(data, h)
	var err error
	switch fault {
	case indexTooSmall:
		err = corrupt(path, at, nil, "pack index too small (%d bytes)", len(data))
	case indexBadVersion:
		err = corrupt(path, at, nil, "unsupported pack index version %d", version)
	case indexNonMonotonic:
		err = corrupt(path, at, nil, "non-monotonic fan-out table")
	case indexWrongV1Size:
		err = corrupt(path, at, nil, "wrong index v1 file size: %d bytes for %d objects", len(data), count)
	case indexWrongV2Size:
		err = corrupt(path, at, nil, "wrong index v2 file size: %d bytes for %d objects", len(data), count)
	}
	if err != nil {
		return nil, &LookupError{Line: indexFaultLine(gitName, fault, version), Err: err}
	}
	x := &packIndex{path: path, data: data, hashLen: h, version: int(version), count: count}
	n, size := uint64(count), uint64(len(data))
	if version == 1 {
		x.fanout = data[:1024]
		x.names = data[1024 : 1024+n*uint64(h+4)]
		x.stride = h + 4
		x.nameOff = 4
	} else {
		x.fanout = data[8 : 8+1024]
		base := uint64(1032)
		x.names = data[base : base+n*uint64(h)]
		base += n * uint64(h)
		x.crcs = data[base : base+n*4]
		base += n * 4
		x.offsets = data[base : base+n*4]
		base += n * 4
		x.large = data[base : size-2*uint64(h)]
		x.stride = h
	}
	x.packHash = data[size-2*uint64(h) : size-uint64(h)]
	return x, nil
}

// name returns the raw id at position i (a view into the mapping).
func (x *packIndex) name(i uint32) []byte {
	o := int(i)*x.stride + x.nameOff
	return x.names[o : o+x.hashLen]
}

// bounds returns the range of positions whose ids start with byte b.
func (x *packIndex) bounds(b byte) (lo, hi uint32) {
	if b > 0 {
		lo = binary.BigEndian.Uint32(x.fanout[4*(int(b)-1):])
	}
	hi = binary.BigEndian.Uint32(x.fanout[4*int(b):])
	return lo, hi
}

// find searches for raw id. It returns the position of the id, or the
// position where it would be inserted and false.
func (x *packIndex) find(raw []byte) (uint32, bool) {
	lo, hi := x.bounds(raw[0])
	lo, hi = x.narrow(raw, lo, hi)
	for lo < hi {
		mid := lo + (hi-lo)/2
		c := compareID(x.name(mid), raw)
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

// narrow shrinks [lo, hi), the fan-out range of raw, to a few entries
// around raw's place, keeping what find's binary search relies on: every
// name before lo sorts before raw, and raw's place is at most hi. Object
// IDs are uniformly distributed hashes, so the 32 bits after raw's first
// byte say where in the range it falls, to within a few dozen entries on
// the largest packs; from there steps doubling in size bracket it. A
// binary search over a whole range probes a new part of the index (a
// cache line, often a page) at each of its first steps; this one probes
// the guessed place and its neighbourhood. A range that is not uniform
// (a hand-made index) costs at most twice a binary search.
func (x *packIndex) narrow(raw []byte, lo, hi uint32) (uint32, uint32) {
	n := hi - lo
	if n < 16 || len(raw) < 5 {
		return lo, hi
	}
	guess := lo + uint32(uint64(binary.BigEndian.Uint32(raw[1:5]))*uint64(n)>>32)
	step := uint32(8)
	if compareID(x.name(guess), raw) < 0 {
		// raw's place is after guess: step up until a name is not
		// before raw.
		lo = guess + 1
		for {
			if hi-lo <= step {
				return lo, hi
			}
			probe := lo + step
			if compareID(x.name(probe), raw) >= 0 {
				return lo, probe + 1
			}
			lo = probe + 1
			step *= 2
		}
	}
	// raw's place is at guess or before it: step down until a name
	// sorts before raw.
	hi = guess + 1
	for {
		if hi-1-lo <= step {
			return lo, hi
		}
		probe := hi - 1 - step
		if compareID(x.name(probe), raw) < 0 {
			return probe + 1, hi
		}
		hi = probe + 1
		step *= 2
	}
}

// compareID is bytes.Compare for object IDs (at least 8 bytes long):
// IDs almost always differ in their first eight bytes, compared as one
// number.
func compareID(a, b []byte) int {
	if len(a) >= 8 && len(b) >= 8 {
		x, y := binary.BigEndian.Uint64(a), binary.BigEndian.Uint64(b)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return bytes.Compare(a, b)
}

// lowerBound returns the first position whose id is >= raw (raw may be
// shorter than a full id: a prefix padded by the caller).
func (x *packIndex) lowerBound(raw []byte) uint32 {
	lo, hi := x.bounds(raw[0])
	for lo < hi {
		mid := lo + (hi-lo)/2
		if bytes.Compare(x.name(mid), raw) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// crc returns the CRC-32 a version 2 index records for the entry of the
// object at position i (its header and zlib stream as the pack holds
// them); a version 1 index records none (crcs is nil).
func (x *packIndex) crc(i uint32) uint32 {
	return binary.BigEndian.Uint32(x.crcs[4*i:])
}

var errBadLargeOffset = errors.New("large offset index out of range")

// offset returns the pack offset of the object at position i.
func (x *packIndex) offset(i uint32) (uint64, error) {
	if x.version == 1 {
		o := int(i) * x.stride
		return uint64(binary.BigEndian.Uint32(x.names[o:])), nil
	}
	v := binary.BigEndian.Uint32(x.offsets[4*int(i):])
	if v&0x80000000 == 0 {
		return uint64(v), nil
	}
	// git's check_pack_index_ptr: the entry may lie in the file's
	// trailing checksums, not in its last 8 bytes (nor past them).
	k := uint64(v & 0x7fffffff)
	at := uint64(len(x.data)-len(x.large)-2*x.hashLen) + 8*k
	if at >= uint64(len(x.data))-8 {
		return 0, corrupt(x.path, int64(1032+uint64(x.count)*uint64(x.hashLen+4)+4*uint64(i)), errBadLargeOffset, "bad pack offset entry")
	}
	return binary.BigEndian.Uint64(x.data[at:]), nil
}
