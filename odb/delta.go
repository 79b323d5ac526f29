package odb

import "errors"

// Delta data (patch-delta.c): two LEB128 sizes (base, result), then
// instructions until the end of the buffer:
//
//	1xxxxxxx  copy: bits 0-3 select up to four little-endian offset bytes,
//	          bits 4-6 up to three size bytes; a size of 0 means 0x10000
//	0xxxxxxx  insert the next 1-127 literal bytes (value 0 is reserved)

// minDeltaLen is the shortest delta git accepts (DELTA_SIZE_MIN): two
// one-byte sizes and a two-byte instruction.
const minDeltaLen = 4

var (
	errDeltaTooShort   = errors.New("delta shorter than its header")
	errDeltaBaseSize   = errors.New("delta base size does not match the base")
	errDeltaOpcodeZero = errors.New("unexpected delta opcode 0")
	errDeltaWild       = errors.New("delta replay has gone wild")
	errDeltaResultSize = errors.New("delta result size does not match its instructions")
)

// deltaVarint reads one LEB128 size of a delta header.
func deltaVarint(b []byte, pos int) (uint64, int, bool) {
	var v uint64
	var shift uint
	for {
		if pos >= len(b) || shift > 63 {
			return 0, pos, false
		}
		c := b[pos]
		pos++
		v |= uint64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			return v, pos, true
		}
	}
}

// deltaHeader returns the declared base and result sizes of delta data and
// the offset of its first instruction.
func deltaHeader(delta []byte) (baseSize, resultSize uint64, ops int, err error) {
	if len(delta) < minDeltaLen {
		return 0, 0, 0, errDeltaTooShort
	}
	baseSize, pos, ok := deltaVarint(delta, 0)
	if !ok {
		return 0, 0, 0, errDeltaTooShort
	}
	resultSize, pos, ok = deltaVarint(delta, pos)
	if !ok {
		return 0, 0, 0, errDeltaTooShort
	}
	return baseSize, resultSize, pos, nil
}

// deltaResultLen walks the instructions of ops (delta data after its
// header) against a base of baseLen bytes, checking every copy and insert,
// and returns the exact length they produce. Nothing is allocated from the
// declared result size until this pass has confirmed it.
func deltaResultLen(ops []byte, baseLen int) (uint64, error) {
	var total uint64
	for i := 0; i < len(ops); {
		next, isCopy, off, size, err := deltaOp(ops, i)
		if err != nil {
			return 0, err
		}
		// (off is read from four bytes: through uint32 it is right
		// where int has 32 bits too.)
		if isCopy && uint64(uint32(off))+uint64(size) > uint64(baseLen) {
			return 0, errDeltaWild
		}
		total += uint64(size)
		i = next
	}
	return total, nil
}

// applyDelta replays ops (delta data after its header) against base into
// out, which must have exactly the result length. Every copy is checked
// against the base and the output; a mismatch is an error, never a panic.
// It decodes the instructions itself, unrolled, rather than through
// deltaOp as the prefix replay and the counting passes do: it replays
// every delta of every blob a walk reads, the hot path of blob reads.
func applyDelta(out, base, ops []byte) error {
	pos := 0
	for i := 0; i < len(ops); {
		cmd := ops[i]
		i++
		if cmd&0x80 != 0 {
			var off, size int
			if cmd&0x01 != 0 {
				if i >= len(ops) {
					return errDeltaWild
				}
				off = int(ops[i])
				i++
			}
			if cmd&0x02 != 0 {
				if i >= len(ops) {
					return errDeltaWild
				}
				off |= int(ops[i]) << 8
				i++
			}
			if cmd&0x04 != 0 {
				if i >= len(ops) {
					return errDeltaWild
				}
				off |= int(ops[i]) << 16
				i++
			}
			if cmd&0x08 != 0 {
				if i >= len(ops) {
					return errDeltaWild
				}
				off |= int(ops[i]) << 24
				i++
			}
			if cmd&0x10 != 0 {
				if i >= len(ops) {
					return errDeltaWild
				}
				size = int(ops[i])
				i++
			}
			if cmd&0x20 != 0 {
				if i >= len(ops) {
					return errDeltaWild
				}
				size |= int(ops[i]) << 8
				i++
			}
			if cmd&0x40 != 0 {
				if i >= len(ops) {
					return errDeltaWild
				}
				size |= int(ops[i]) << 16
				i++
			}
			if size == 0 {
				size = 0x10000
			}
			if off < 0 || off > len(base) || size > len(base)-off || size > len(out)-pos {
				return errDeltaWild
			}
			pos += copy(out[pos:pos+size], base[off:off+size])
		} else if cmd != 0 {
			n := int(cmd)
			if n > len(ops)-i || n > len(out)-pos {
				return errDeltaWild
			}
			pos += copy(out[pos:pos+n], ops[i:i+n])
			i += n
		} else {
			return errDeltaOpcodeZero
		}
	}
	if pos != len(out) {
		return errDeltaResultSize
	}
	return nil
}

// deltaOp decodes the instruction at ops[i]: a copy of size bytes from
// off in the base, or (isCopy false) an insert of the size bytes that
// follow it, which start at off in ops. next is where the next
// instruction starts. An instruction cut short is errDeltaWild, opcode 0
// errDeltaOpcodeZero.
func deltaOp(ops []byte, i int) (next int, isCopy bool, off, size int, err error) {
	cmd := ops[i]
	i++
	if cmd&0x80 == 0 {
		n := int(cmd)
		if n == 0 {
			return i, false, 0, 0, errDeltaOpcodeZero
		}
		if n > len(ops)-i {
			return i, false, 0, 0, errDeltaWild
		}
		return i + n, false, i, n, nil
	}
	for bit := uint(0); bit < 7; bit++ {
		if cmd&(1<<bit) == 0 {
			continue
		}
		if i >= len(ops) {
			return i, true, 0, 0, errDeltaWild
		}
		v := int(ops[i])
		i++
		if bit < 4 {
			off |= v << (8 * bit)
		} else {
			size |= v << (8 * (bit - 4))
		}
	}
	if size == 0 {
		size = 0x10000
	}
	return i, true, off, size, nil
}

// deltaCopyReach returns how many leading bytes of the base the
// instructions making the first need bytes of the result copy from: the
// end of the furthest base byte they reach (ops have been checked by
// deltaResultLen).
func deltaCopyReach(ops []byte, need int) int {
	reach, pos := 0, 0
	for i := 0; i < len(ops) && pos < need; {
		next, isCopy, off, size, err := deltaOp(ops, i)
		if err != nil {
			break
		}
		take := min(size, need-pos)
		if isCopy {
			reach = max(reach, off+take)
		}
		pos += take
		i = next
	}
	return reach
}

// applyDeltaPrefix replays ops against base (the first bytes of the
// delta's base, as many as deltaCopyReach asked for) until out is full,
// and reports whether it filled out with every copy inside base.
func applyDeltaPrefix(out, base, ops []byte) bool {
	pos := 0
	for i := 0; i < len(ops) && pos < len(out); {
		next, isCopy, off, size, err := deltaOp(ops, i)
		if err != nil {
			return false
		}
		take := min(size, len(out)-pos)
		if isCopy {
			if off < 0 || off > len(base) || take > len(base)-off {
				return false
			}
			copy(out[pos:pos+take], base[off:off+take])
		} else {
			copy(out[pos:pos+take], ops[off:off+take])
		}
		pos += take
		i = next
	}
	return pos == len(out)
}
