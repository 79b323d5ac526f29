package odb

// zlibReplay replays an inflate of a zlib stream as zlib's inflate()
// (1.2.x, the library git links) runs it, call by call: what each call
// returns, how much output it made, how much input it consumed, and the
// message it leaves for a data error. odb's own inflater is built for
// speed and stops at the first problem; git's messages about a damaged
// object depend on where zlib's state machine stops and which check it
// fails first (the header of a loose object is inflated into 32 bytes
// first, and zlib decodes the next symbol before it notices that the
// output is full), so the error paths replay the stream here. Nothing
// on a successful read comes through this file.
//
// The whole input is available from the first call (a loose object's
// file, a pack entry's window), so a call that runs out of input ends
// the stream for good; only a full output buffer is resumed by the next
// call, with the symbol already decoded.

// zlib's return codes (zlib.h).
const (
	zOK        = 0
	zStreamEnd = 1
	zNeedDict  = 2
	zDataError = -3
	zBufError  = -5
)

// The modes of the replay, in zlib's order where it matters: every mode
// before zCheck makes output or reads a block's data.
const (
	zHead = iota
	zDictID
	zDict
	zType
	zStored
	zCopy
	zTable
	zLen
	zLit
	zMatch
	zCheck
	zDone
	zBad
)

// zHuffman is a canonical Huffman code as zlib's inflate_table accepts
// it: complete, or (for literal/length and distance codes) incomplete
// with a single code of one bit, or empty.
type zHuffman struct {
	count  [16]uint16 // codes of each length
	symbol []uint16   // symbols ordered by code
	max    int        // longest code length (0: no codes)
}

// build makes the code of lengths; ok is false where inflate_table
// refuses it (an over-subscribed set, or an incomplete one other than a
// single one-bit code; codeLengths: any incomplete set).
func (h *zHuffman) build(lengths []uint8, codeLengths bool) bool {
	h.count = [16]uint16{}
	for _, l := range lengths {
		h.count[l]++
	}
	h.max = 0
	for l := 15; l >= 1; l-- {
		if h.count[l] != 0 {
			h.max = l
			break
		}
	}
	var offs [16]uint16
	h.symbol = h.symbol[:0]
	if h.max == 0 {
		return true // no codes: every code read is invalid
	}
	left := 1
	for l := 1; l <= 15; l++ {
		left <<= 1
		left -= int(h.count[l])
		if left < 0 {
			return false
		}
	}
	if left > 0 && (codeLengths || h.max != 1) {
		return false
	}
	for l := 1; l < 15; l++ {
		offs[l+1] = offs[l] + h.count[l]
	}
	n := 0
	for _, c := range h.count[1:] {
		n += int(c)
	}
	if cap(h.symbol) < n {
		h.symbol = make([]uint16, n)
	}
	h.symbol = h.symbol[:n]
	for s, l := range lengths {
		if l != 0 {
			h.symbol[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	return true
}

// zlibReplay is one inflate stream being replayed.
type zlibReplay struct {
	in   []byte
	pos  int    // input bytes consumed (pulled into hold)
	hold uint64 // bit buffer, least significant bit first
	bits uint

	out []byte // everything inflated so far

	mode    int
	last    bool // the block being read is the last one
	msg     string
	lit     zHuffman
	dist    zHuffman
	fixed   bool // the current block uses the fixed codes
	stored  int  // bytes left of a stored block
	length  int  // bytes left of the match being copied
	offset  int  // its distance
	literal byte // the literal decoded but not yet written
	lens    [320]uint8
}

func newZlibReplay(in []byte) *zlibReplay { return &zlibReplay{in: in} }

// need makes n bits available, pulling whole bytes as zlib's NEEDBITS
// does; false when the input ends first.
func (z *zlibReplay) need(n uint) bool {
	for z.bits < n {
		if z.pos >= len(z.in) {
			return false
		}
		z.hold |= uint64(z.in[z.pos]) << z.bits
		z.pos++
		z.bits += 8
	}
	return true
}

func (z *zlibReplay) peek(n uint) uint32 { return uint32(z.hold & (1<<n - 1)) }

func (z *zlibReplay) drop(n uint) { z.hold >>= n; z.bits -= n }

// decode reads one symbol of h without consuming it: the symbol, its
// code length, and ok=false when the input ends first. An invalid code
// (one an incomplete or empty code leaves unassigned) is symbol -1 with
// the length zlib gives its table entry (1).
func (z *zlibReplay) decode(h *zHuffman) (sym int, n uint, ok bool) {
	if h.max == 0 {
		if !z.need(1) {
			return 0, 0, false
		}
		return -1, 1, true
	}
	code, first, index := 0, 0, 0
	for l := 1; l <= h.max; l++ {
		if !z.need(uint(l)) {
			return 0, 0, false
		}
		code |= int(z.hold>>(l-1)) & 1
		count := int(h.count[l])
		if code-first < count {
			return int(h.symbol[index+code-first]), uint(l), true
		}
		index += count
		first += count
		first <<= 1
		code <<= 1
	}
	return -1, uint(h.max), true
}

func (z *zlibReplay) bad(msg string) { z.msg = msg; z.mode = zBad }

var (
	zLengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	zLengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	zDistBase    = [30]uint32{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	zDistExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	zOrder       = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

// setFixed installs the fixed codes (all 288 literal/length and 32
// distance symbols: 286, 287, 30 and 31 decode as invalid).
func (z *zlibReplay) setFixed() {
	var l [288]uint8
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	z.lit.build(l[:], false)
	var d [32]uint8
	for i := range d {
		d[i] = 5
	}
	z.dist.build(d[:], false)
}

// call runs inflate() once with room for room more bytes of output;
// finish is Z_FINISH. It returns zlib's status.
func (z *zlibReplay) call(room int, finish bool) int {
	startIn, startOut := z.pos, len(z.out)
	limit := len(z.out) + room
	ret := z.run(limit)
	if ret == zOK && (finish || (z.pos == startIn && len(z.out) == startOut)) {
		ret = zBufError
	}
	return ret
}

// run steps the stream until it ends, fails, needs input it does not
// have, or needs to write past limit.
func (z *zlibReplay) run(limit int) int {
	for {
		switch z.mode {
		case zHead:
			if !z.need(16) {
				return zOK
			}
			if (z.peek(8)<<8+uint32(z.hold>>8&0xff))%31 != 0 {
				z.bad("incorrect header check")
				continue
			}
			if z.peek(4) != 8 {
				z.bad("unknown compression method")
				continue
			}
			z.drop(4)
			if z.peek(4)+8 > 15 {
				z.bad("invalid window size")
				continue
			}
			dict := z.hold&0x200 != 0 // FDICT (bit 13, four dropped)
			z.hold, z.bits = 0, 0
			if dict {
				z.mode = zDictID
			} else {
				z.mode = zType
			}
		case zDictID:
			if !z.need(32) {
				return zOK
			}
			z.hold, z.bits = 0, 0
			z.mode = zDict
		case zDict:
			return zNeedDict
		case zType:
			if z.last {
				z.drop(z.bits & 7)
				z.mode = zCheck
				continue
			}
			if !z.need(3) {
				return zOK
			}
			z.last = z.peek(1) == 1
			z.drop(1)
			switch z.peek(2) {
			case 0:
				z.mode = zStored
			case 1:
				z.setFixed()
				z.mode = zLen
			case 2:
				z.mode = zTable
			default:
				z.bad("invalid block type")
			}
			z.drop(2)
		case zStored:
			z.drop(z.bits & 7)
			if !z.need(32) {
				return zOK
			}
			if z.hold&0xffff != (z.hold>>16&0xffff)^0xffff {
				z.bad("invalid stored block lengths")
				continue
			}
			z.stored = int(z.hold & 0xffff)
			z.hold, z.bits = 0, 0
			z.mode = zCopy
		case zCopy:
			if z.stored == 0 {
				z.mode = zType
				continue
			}
			// Stored bytes come straight from the input, after the
			// bit buffer (which is empty here).
			n := min(z.stored, len(z.in)-z.pos, limit-len(z.out))
			if n == 0 {
				return zOK
			}
			z.out = append(z.out, z.in[z.pos:z.pos+n]...)
			z.pos += n
			z.stored -= n
		case zTable:
			if st, done := z.table(); !done {
				return st
			}
		case zLen:
			sym, n, ok := z.decode(&z.lit)
			if !ok {
				return zOK
			}
			switch {
			case sym < 0 || sym > 285:
				z.drop(n)
				z.bad("invalid literal/length code")
			case sym < 256:
				z.drop(n)
				z.literal = byte(sym)
				z.mode = zLit
			case sym == 256:
				z.drop(n)
				z.mode = zType
			default:
				// The length's extra bits, the distance code and its
				// extra bits, each read as zlib's states read them.
				i := sym - 257
				if !z.need(n + uint(zLengthExtra[i])) {
					return zOK
				}
				z.drop(n)
				z.length = int(zLengthBase[i]) + int(z.peek(uint(zLengthExtra[i])))
				z.drop(uint(zLengthExtra[i]))
				d, dn, ok := z.decode(&z.dist)
				if !ok {
					return zOK
				}
				if d < 0 || d > 29 {
					z.drop(dn)
					z.bad("invalid distance code")
					continue
				}
				if !z.need(dn + uint(zDistExtra[d])) {
					return zOK
				}
				z.drop(dn)
				z.offset = int(zDistBase[d]) + int(z.peek(uint(zDistExtra[d])))
				z.drop(uint(zDistExtra[d]))
				z.mode = zMatch
			}
		case zLit:
			if len(z.out) >= limit {
				return zOK
			}
			z.out = append(z.out, z.literal)
			z.mode = zLen
		case zMatch:
			if len(z.out) >= limit {
				return zOK
			}
			if z.offset > len(z.out) {
				z.bad("invalid distance too far back")
				continue
			}
			for z.length > 0 && len(z.out) < limit {
				z.out = append(z.out, z.out[len(z.out)-z.offset])
				z.length--
			}
			if z.length == 0 {
				z.mode = zLen
			}
		case zCheck:
			if !z.need(32) {
				return zOK
			}
			want := uint32(z.hold)
			want = want>>24 | want>>8&0xff00 | want<<8&0xff0000 | want<<24
			if want != adlerChecksum(z.out) {
				z.bad("incorrect data check")
				continue
			}
			z.hold, z.bits = 0, 0
			z.mode = zDone
		case zDone:
			return zStreamEnd
		default:
			return zDataError
		}
	}
}

// table reads a dynamic block's header and builds its codes; done is
// false when it stopped (st is then what the call returns).
func (z *zlibReplay) table() (st int, done bool) {
	// The whole header is read before anything is built, as zlib's
	// TABLE, LENLENS and CODELENS states do; running out of input ends
	// the stream, so nothing read here needs to be given back.
	if !z.need(14) {
		return zOK, false
	}
	nlen := int(z.peek(5)) + 257
	z.drop(5)
	ndist := int(z.peek(5)) + 1
	z.drop(5)
	ncode := int(z.peek(4)) + 4
	z.drop(4)
	if nlen > 286 || ndist > 30 {
		z.bad("too many length or distance symbols")
		return 0, true
	}
	var cl [19]uint8
	for i := 0; i < ncode; i++ {
		if !z.need(3) {
			return zOK, false
		}
		cl[zOrder[i]] = uint8(z.peek(3))
		z.drop(3)
	}
	var codes zHuffman
	if !codes.build(cl[:], true) {
		z.bad("invalid code lengths set")
		return 0, true
	}
	lens := z.lens[:nlen+ndist]
	for have := 0; have < len(lens); {
		sym, n, ok := z.decode(&codes)
		if !ok {
			return zOK, false
		}
		if sym < 0 {
			sym = 0 // an empty code-length code reads every code as 0
		}
		if sym < 16 {
			z.drop(n)
			lens[have] = uint8(sym)
			have++
			continue
		}
		var extra uint
		var base int
		switch sym {
		case 16:
			extra, base = 2, 3
		case 17:
			extra, base = 3, 3
		default:
			extra, base = 7, 11
		}
		if !z.need(n + extra) {
			return zOK, false
		}
		z.drop(n)
		if sym == 16 && have == 0 {
			z.bad("invalid bit length repeat")
			return 0, true
		}
		var l uint8
		if sym == 16 {
			l = lens[have-1]
		}
		repeat := base + int(z.peek(extra))
		z.drop(extra)
		if have+repeat > len(lens) {
			z.bad("invalid bit length repeat")
			return 0, true
		}
		for ; repeat > 0; repeat-- {
			lens[have] = l
			have++
		}
	}
	if lens[256] == 0 {
		z.bad("invalid code -- missing end-of-block")
		return 0, true
	}
	if !z.lit.build(lens[:nlen], false) {
		z.bad("invalid literal/lengths set")
		return 0, true
	}
	if !z.dist.build(lens[nlen:], false) {
		z.bad("invalid distances set")
		return 0, true
	}
	z.mode = zLen
	return 0, true
}

// availIn is the input a call has not consumed.
func (z *zlibReplay) availIn() int { return len(z.in) - z.pos }

// zlibErrorLine is the line git's git_inflate prints for a status other
// than Z_OK, Z_STREAM_END and Z_BUF_ERROR ("" for those).
func (z *zlibReplay) zlibErrorLine(st int) string {
	var what string
	switch st {
	case zOK, zStreamEnd, zBufError:
		return ""
	case zNeedDict:
		what = "needs dictionary"
	case zDataError:
		what = "data stream error"
	default:
		what = "unknown error"
	}
	msg := "no message"
	if st == zDataError && z.msg != "" {
		msg = z.msg
	}
	return "error: inflate: " + what + " (" + msg + ")"
}
