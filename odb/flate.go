package odb

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"sync"
)

// A whole-buffer zlib/deflate decoder (RFC 1950/1951).
//
// Pack entries and loose objects state their inflated size, so the output
// buffer can be allocated exactly once and the deflate stream decoded
// straight into it: back-references copy from the output itself, with no
// 32 KiB window to maintain and no second copy out of it, and the input is
// read 8 bytes at a time from the mapped file. This is the approach of
// libdeflate; streaming decoders (compress/flate, klauspost/compress) pay
// for both the window and an io.ByteReader per input byte. The measured
// difference is in doc.go.
//
// Validation follows zlib, since git reads with zlib: a bad header, an
// over-subscribed or (except for a single one-bit code) incomplete Huffman
// code, a missing end-of-block code, a distance reaching before the start
// of the output, a stream producing more or fewer bytes than declared, a
// truncated stream and a wrong Adler-32 checksum are all errors.

var (
	errZlibHeader   = errors.New("zlib: invalid header")
	errZlibChecksum = errors.New("zlib: invalid checksum")
	errZlibDict     = errors.New("zlib: preset dictionary not supported")
	errTruncated    = errors.New("deflate: truncated stream")
	errBadBlock     = errors.New("deflate: invalid block type")
	errStoredLen    = errors.New("deflate: invalid stored block lengths")
	errBadCodes     = errors.New("deflate: invalid Huffman code lengths")
	errBadSymbol    = errors.New("deflate: invalid literal/length or distance code")
	errFarDistance  = errors.New("deflate: distance too far back")
)

const (
	litTableBits  = 10 // primary lookup bits, literal/length code
	distTableBits = 8  // primary lookup bits, distance code
	clTableBits   = 7  // code-length code (codes are at most 7 bits)

	// Table entry layout: bits 0-4 code length (or, with entrySub, the
	// sub-table's index bits), bit 5 entrySub, bit 6 entryLiteral, bit 7
	// entryEOB, bits 8-11 extra bits to read after the code (lengths and
	// distances), bits 16-31 the value: literal byte, length or distance
	// base, code-length symbol, or the sub-table's offset. A zero entry is
	// an unused or invalid code.
	entrySub     = 1 << 5
	entryLiteral = 1 << 6
	entryEOB     = 1 << 7

	// Worst-case table sizes: the primary table plus sub-tables (zlib's
	// ENOUGH bounds for these primary sizes are 1334 and 402; these are
	// looser, computed as primary + 2^(15-bits) per possible prefix).
	litTableSize  = 1<<litTableBits + 288*(1<<(15-litTableBits))
	distTableSize = 1<<distTableBits + 32*(1<<(15-distTableBits))
)

var lengthBase = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
var lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
var distBase = [30]uint32{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
var distExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}

// codeLengthOrder is the order of the code-length code lengths in a
// dynamic block header.
var codeLengthOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// fixed Huffman tables, built once.
var (
	fixedOnce sync.Once
	fixedLit  []uint32
	fixedDist []uint32
)

func initFixed() {
	var lens [320]uint8
	for i := 0; i < 144; i++ {
		lens[i] = 8
	}
	for i := 144; i < 256; i++ {
		lens[i] = 9
	}
	for i := 256; i < 280; i++ {
		lens[i] = 7
	}
	for i := 280; i < 288; i++ {
		lens[i] = 8
	}
	for i := 288; i < 320; i++ {
		lens[i] = 5
	}
	var b huffBuilder
	fixedLit = make([]uint32, litTableSize)
	fixedDist = make([]uint32, distTableSize)
	// The fixed codes are complete by construction; symbols 286-287 and
	// 30-31 exist in the code but are invalid when decoded.
	b.build(fixedLit, lens[:288], litTableBits, codeFixedLitLen)
	b.build(fixedDist, lens[288:320], distTableBits, codeFixedDist)
}

// huffBuilder holds scratch space for building decoding tables.
type huffBuilder struct {
	count  [16]uint16
	offs   [16]uint16
	sorted [320]uint16
	used   [320]uint16 // the symbols with a length, in order
	maxLen [1 << litTableBits]uint8
	subOff [1 << litTableBits]uint16
	touch  [1 << litTableBits]uint16
}

// Kinds of Huffman code, which zlib validates differently and whose
// symbols decode to different table entries.
const (
	codeLengths     = iota // the code-length code: must be complete (or empty)
	codeLitLen             // literal/length code: complete, a single one-bit code, or empty
	codeDist               // distance code: same rules
	codeFixedLitLen        // the fixed codes, complete by construction
	codeFixedDist
)

// Table entries of each symbol but their code length, per kind of code
// (see symbolEntry), made once: build places hundreds of symbols per
// dynamic block. A symbol that is invalid when decoded (literal/length
// 286-287, distance 30-31) has 0, an invalid entry; every other entry is
// non-zero (a code-length symbol carries entryCodeLength for that).
var (
	entryBasesOnce sync.Once
	litEntryBases  [288]uint32
	distEntryBases [32]uint32
	clEntryBases   [19]uint32
)

// entryCodeLength marks code-length code entries (bit 12 is unused in
// them), so that symbol 0 is not the invalid entry.
const entryCodeLength = 1 << 12

func initEntryBases() {
	for sym := range litEntryBases {
		litEntryBases[sym] = symbolEntry(codeLitLen, uint16(sym), 0)
	}
	for sym := range distEntryBases {
		distEntryBases[sym] = symbolEntry(codeDist, uint16(sym), 0)
	}
	for sym := range clEntryBases {
		clEntryBases[sym] = symbolEntry(codeLengths, uint16(sym), 0) | entryCodeLength
	}
}

// entryBases returns the entries (but their code lengths) of the symbols
// of a code of the given kind.
func entryBases(kind int) []uint32 {
	entryBasesOnce.Do(initEntryBases)
	switch kind {
	case codeLitLen, codeFixedLitLen:
		return litEntryBases[:]
	case codeDist, codeFixedDist:
		return distEntryBases[:]
	}
	return clEntryBases[:]
}

// symbolEntry returns the table entry for a symbol of a code of the given
// kind and code length l; 0 (an invalid entry) for a symbol that is
// invalid when decoded (literal/length 286-287, distance 30-31).
func symbolEntry(kind int, sym uint16, l int) uint32 {
	switch kind {
	case codeLitLen, codeFixedLitLen:
		switch {
		case sym < 256:
			return uint32(sym)<<16 | entryLiteral | uint32(l)
		case sym == 256:
			return entryEOB | uint32(l)
		case sym < 286:
			i := sym - 257
			return uint32(lengthBase[i])<<16 | uint32(lengthExtra[i])<<8 | uint32(l)
		}
		return 0
	case codeDist, codeFixedDist:
		if sym < 30 {
			return distBase[sym]<<16 | uint32(distExtra[sym])<<8 | uint32(l)
		}
		return 0
	}
	return uint32(sym)<<16 | uint32(l)
}

// build fills table for the code with the given lengths (0 = unused
// symbol) and tableBits primary bits. It returns false for a code zlib's
// inflate_table rejects: over-subscribed, or incomplete beyond what kind
// allows.
func (b *huffBuilder) build(table []uint32, lens []uint8, tableBits uint, kind int) bool {
	// Count the lengths and list the symbols that have one, eight
	// lengths at a time: most symbols of a small stream's code are
	// unused (a delta of a few hundred bytes uses a few dozen of the
	// 286 literal/length symbols), and their zero lengths are skipped a
	// word at a time.
	b.count = [16]uint16{}
	used := b.used[:0]
	i := 0
	for ; i+8 <= len(lens); i += 8 {
		for w := binary.LittleEndian.Uint64(lens[i:]); w != 0; {
			k := bits.TrailingZeros64(w) / 8 // the next non-zero length
			l := uint8(w >> (8 * k))
			w &^= uint64(0xff) << (8 * k)
			b.count[l]++
			used = append(used, uint16(i+k))
		}
	}
	for ; i < len(lens); i++ {
		if l := lens[i]; l != 0 {
			b.count[l]++
			used = append(used, uint16(i))
		}
	}
	maxLen := 0
	left := 1
	for l := 1; l <= 15; l++ {
		left <<= 1
		left -= int(b.count[l])
		if left < 0 {
			return false // over-subscribed
		}
		if b.count[l] != 0 {
			maxLen = l
		}
	}
	if left > 0 && maxLen != 0 && (kind == codeLengths || ((kind == codeLitLen || kind == codeDist) && maxLen != 1)) {
		return false // incomplete
	}
	// Sort symbols by length, then value (canonical order).
	b.offs[1] = 0
	for l := 1; l < 15; l++ {
		b.offs[l+1] = b.offs[l] + b.count[l]
	}
	for _, sym := range used {
		l := lens[sym]
		b.sorted[b.offs[l]] = sym
		b.offs[l]++
	}
	// Assign canonical codes in order. The primary table is built the
	// way libdeflate builds it: while the codes of length l are placed,
	// it is 2^l entries long, each code in the one slot its reversed
	// bits name; before the next length it doubles by copying itself,
	// which replicates every shorter code into all the slots that start
	// with its bits. Sequential copies instead of 2^(tableBits-l)
	// strided stores per code: on small pack entries (a few hundred
	// bytes, one dynamic block each) filling the table was most of the
	// cost of a block.
	primary := table[:1<<tableBits]
	// Slots no code reaches (an incomplete code) must read as invalid:
	// the zero entries doubling starts from stay zero.
	primary[0], primary[1] = 0, 0
	size := 2
	bases := entryBases(kind)
	// code is the current canonical code; bit-reversed (its first bit
	// lowest) it is the index it has in the table.
	code := uint32(0)
	idx := 0
	nTouched := 0
	mask := uint32(1)<<tableBits - 1
	for l := 1; l <= 15; l++ {
		if uint(l) <= tableBits && l > 1 {
			copy(primary[size:2*size], primary[:size])
			size *= 2
		}
		for n := 0; n < int(b.count[l]); n++ {
			sym := b.sorted[idx]
			idx++
			rev := uint32(bits.Reverse16(uint16(code))) >> (16 - l)
			code++
			if uint(l) <= tableBits {
				e := bases[sym]
				if e != 0 {
					e |= uint32(l)
				}
				primary[rev] = e
			} else {
				p := rev & mask
				if b.maxLen[p] == 0 {
					b.touch[nTouched] = uint16(p)
					nTouched++
				}
				b.maxLen[p] = uint8(l) // lengths only grow in canonical order
			}
		}
		code <<= 1
		if l >= maxLen {
			// No longer codes: double up to the full size (the second
			// pass below recomputes the codes it needs).
			for size < len(primary) {
				copy(primary[size:2*size], primary[:size])
				size *= 2
			}
			break
		}
	}
	if nTouched == 0 {
		return true
	}
	// Second pass for long codes: lay out one sub-table per primary prefix.
	next := uint32(1) << tableBits
	for i := 0; i < nTouched; i++ {
		p := b.touch[i]
		subBits := uint32(b.maxLen[p]) - uint32(tableBits)
		b.subOff[p] = uint16(next)
		primary[p] = next<<16 | entrySub | subBits
		if left > 0 {
			clear(table[next : next+1<<subBits])
		}
		next += 1 << subBits
	}
	code = 0
	idx = 0
	for l := 1; l <= 15; l++ {
		for n := 0; n < int(b.count[l]); n++ {
			sym := b.sorted[idx]
			idx++
			if uint(l) > tableBits {
				rev := bits.Reverse32(code) >> (32 - l)
				p := rev & mask
				subBits := uint32(b.maxLen[p]) - uint32(tableBits)
				base := uint32(b.subOff[p])
				e := symbolEntry(kind, sym, l)
				for i := rev >> tableBits; i < 1<<subBits; i += 1 << (uint(l) - tableBits) {
					table[base+i] = e
				}
			}
			code++
		}
		code <<= 1
	}
	for i := 0; i < nTouched; i++ {
		b.maxLen[b.touch[i]] = 0
	}
	return true
}

// flateDecoder decodes whole zlib streams into caller-sized buffers. Its
// tables are reused; it allocates nothing after creation.
type flateDecoder struct {
	lit   [litTableSize]uint32
	dist  [distTableSize]uint32
	cl    [1 << clTableBits]uint32
	lens  [320]uint8
	build huffBuilder
}

// bitReader reads little-endian bit fields from a byte slice, 8 bytes at a
// time. Reads past the end yield zero bytes and are counted, so that a
// truncated stream is detected once decoding stops.
type bitReader struct {
	src  []byte
	pos  int // next byte to load; may pass len(src) by the zero bytes supplied
	buf  uint64
	n    uint // valid bits in buf
	over int  // zero bytes supplied past the end of src
}

func (br *bitReader) refill() {
	if br.pos+8 <= len(br.src) {
		br.buf |= binary.LittleEndian.Uint64(br.src[br.pos:]) << br.n
		br.pos += int((63 - br.n) >> 3)
		br.n |= 56
		return
	}
	for br.n <= 56 {
		if br.pos < len(br.src) {
			br.buf |= uint64(br.src[br.pos]) << br.n
		} else {
			br.over++
		}
		br.pos++
		br.n += 8
	}
}

// consumed returns the number of source bytes used so far (rounded up to
// whole bytes); more than len(src) means the stream was truncated.
func (br *bitReader) consumed() int {
	return br.pos - int(br.n>>3)
}

func (br *bitReader) bits(n uint) uint32 {
	v := uint32(br.buf & (1<<n - 1))
	br.buf >>= n
	br.n -= n
	return v
}

// inflateZlib decodes the zlib stream at the start of src into out, which
// has exactly the declared length; the stream must fill it and end there.
// With partial set, decoding instead stops as soon as out is full (the
// stream is not checked further) and a stream ending earlier is not an
// error: the number of bytes produced is returned. consumed is the length
// of the whole zlib stream; in partial mode, when out filled before the
// stream ended, it is how many bytes the decoder read to make out
// (rounded up to whole bytes: the stream goes on past them).
//
// With spare set, the capacity of out beyond its length is the decoder's
// to overwrite: when there are at least fastSpare bytes of it, the fast
// loop runs to the end of out instead of stopping fastSpare bytes short
// of it (most of a small stream), spilling into the spare bytes. Results
// and errors are the same either way (produced, after an error, may count
// one symbol more; in partial mode, consumed may count the bytes of the
// symbol that spilled).
func (d *flateDecoder) inflateZlib(out, src []byte, partial, spare bool) (produced, consumed int, err error) {
	if len(src) < 2 {
		return 0, 0, errTruncated
	}
	cmf, flg := src[0], src[1]
	if cmf&0x0f != 8 || cmf>>4 > 7 || (uint16(cmf)<<8|uint16(flg))%31 != 0 {
		return 0, 0, errZlibHeader
	}
	if flg&0x20 != 0 {
		return 0, 0, errZlibDict
	}
	br := bitReader{src: src, pos: 2}
	o, done, err := d.inflate(&br, out, partial, spare && cap(out)-len(out) >= fastSpare)
	if err != nil {
		return o, 0, err
	}
	if !done {
		return o, br.consumed(), nil // partial: out is full
	}
	// The Adler-32 trailer follows the deflate data, byte-aligned.
	end := br.consumed()
	if end+4 > len(src) {
		return o, 0, errTruncated
	}
	if partial && o < len(out) {
		out = out[:o]
	} else if o != len(out) {
		return o, 0, errShortStream
	}
	if adlerChecksum(out) != binary.BigEndian.Uint32(src[end:]) {
		return o, 0, errZlibChecksum
	}
	return o, end + 4, nil
}

// inflate decodes deflate blocks into out. done reports that the final
// block ended; it is false only in partial mode when out filled first.
func (d *flateDecoder) inflate(br *bitReader, out []byte, partial, spare bool) (o int, done bool, err error) {
	for {
		br.refill()
		if br.over > 8 {
			return o, false, errTruncated
		}
		final := br.bits(1)
		switch br.bits(2) {
		case 0:
			o, err = d.stored(br, out, o, partial)
		case 1:
			fixedOnce.Do(initFixed)
			o, err = decodeBlock(br, out, o, fixedLit, fixedDist, partial, spare)
		case 2:
			if err = d.readDynamic(br); err == nil {
				o, err = decodeBlock(br, out, o, d.lit[:], d.dist[:], partial, spare)
			}
		default:
			return o, false, errBadBlock
		}
		if err != nil {
			if err == errOutputFull {
				return o, false, nil
			}
			return o, false, err
		}
		if final == 1 {
			return o, true, nil
		}
	}
}

var errOutputFull = errors.New("output full") // internal: partial decoding done

func (d *flateDecoder) stored(br *bitReader, out []byte, o int, partial bool) (int, error) {
	// Skip to a byte boundary, then LEN and NLEN.
	br.bits(br.n & 7)
	br.refill()
	length := br.bits(16)
	nlen := br.bits(16)
	if uint16(length) != ^uint16(nlen) {
		return o, errStoredLen
	}
	// Give back the whole bytes still buffered.
	start := br.consumed()
	if start+int(length) > len(br.src) {
		return o, errTruncated
	}
	n := int(length)
	if n > len(out)-o {
		if !partial {
			return o, errLongStream
		}
		copy(out[o:], br.src[start:start+len(out)-o])
		return len(out), errOutputFull
	}
	copy(out[o:o+n], br.src[start:start+n])
	br.pos = start + n
	br.buf, br.n = 0, 0
	return o + n, nil
}

// readDynamic reads a dynamic block header and builds its tables.
func (d *flateDecoder) readDynamic(br *bitReader) error {
	br.refill()
	nlit := int(br.bits(5)) + 257
	ndist := int(br.bits(5)) + 1
	ncl := int(br.bits(4)) + 4
	if nlit > 286 || ndist > 30 {
		return errBadCodes
	}
	var clLens [19]uint8
	for i := 0; i < ncl; i++ {
		if br.n < 3 {
			br.refill()
		}
		clLens[codeLengthOrder[i]] = uint8(br.bits(3))
	}
	if !d.build.build(d.cl[:], clLens[:], clTableBits, codeLengths) {
		return errBadCodes
	}
	lens := d.lens[:nlit+ndist]
	for i := 0; i < len(lens); {
		if br.n < 16 {
			br.refill()
		}
		e := d.cl[br.buf&(1<<clTableBits-1)]
		n := uint(e & 31)
		if n == 0 {
			return errBadCodes
		}
		br.buf >>= n
		br.n -= n
		sym := e >> 16
		switch {
		case sym < 16:
			lens[i] = uint8(sym)
			i++
			continue
		case sym == 16:
			if i == 0 {
				return errBadCodes
			}
			prev := lens[i-1]
			rep := 3 + int(br.bits(2))
			if i+rep > len(lens) {
				return errBadCodes
			}
			for ; rep > 0; rep-- {
				lens[i] = prev
				i++
			}
		default:
			var rep int
			if sym == 17 {
				rep = 3 + int(br.bits(3))
			} else {
				rep = 11 + int(br.bits(7))
			}
			if i+rep > len(lens) {
				return errBadCodes
			}
			clear(lens[i : i+rep])
			i += rep
		}
	}
	if br.over > 8 {
		return errTruncated
	}
	if lens[256] == 0 {
		return errBadCodes // no end-of-block code
	}
	if !d.build.build(d.lit[:], lens[:nlit], litTableBits, codeLitLen) {
		return errBadCodes
	}
	if !d.build.build(d.dist[:], lens[nlit:], distTableBits, codeDist) {
		return errBadCodes
	}
	return nil
}

// fastSpare is the margin decodeFast keeps before the end of the output:
// a whole match (258 bytes), copied 8 bytes at a time.
const fastSpare = 258 + 8

// decodeBlock decodes one Huffman-coded block. With spare, out has at
// least fastSpare bytes of capacity past its length that decodeFast may
// write.
func decodeBlock(br *bitReader, out []byte, o int, lit, dist []uint32, partial, spare bool) (int, error) {
	const litMask = 1<<litTableBits - 1
	const distMask = 1<<distTableBits - 1
	fast := out
	if spare {
		fast = out[:len(out)+fastSpare]
	}
	o, done, err := decodeFast(br, fast, o, (*[litTableSize]uint32)(lit), (*[distTableSize]uint32)(dist))
	if o > len(out) {
		// Run into the spare bytes: the symbol that took o past the end
		// is the one the careful loop reports as too long (nothing else
		// is checked first: decodeFast stops after it), or, decoding a
		// prefix, the one that filled out.
		if partial {
			return len(out), errOutputFull
		}
		return o, errLongStream
	}
	if done || err != nil {
		return o, err
	}
	buf, n := br.buf, br.n
	for {
		if n < 32 {
			br.buf, br.n = buf, n
			br.refill()
			buf, n = br.buf, br.n
			if br.over > 8 {
				return o, errTruncated
			}
		}
		e := lit[buf&litMask]
		if e&entrySub != 0 {
			e = lit[(e>>16)+uint32(buf>>litTableBits)&(1<<(e&31)-1)]
		}
		l := uint(e & 31)
		if l == 0 {
			br.buf, br.n = buf, n
			return o, errBadSymbol
		}
		buf >>= l
		n -= l
		if e&entryLiteral != 0 {
			if o >= len(out) {
				br.buf, br.n = buf, n
				if partial {
					return o, errOutputFull
				}
				return o, errLongStream
			}
			out[o] = byte(e >> 16)
			o++
			continue
		}
		if e&entryEOB != 0 {
			br.buf, br.n = buf, n
			return o, nil
		}
		// A length: n >= 32 - 15 = 17 here, enough for its 5 extra bits;
		// then refill for the distance (15 code bits + 13 extra bits).
		extra := uint(e>>8) & 15
		length := int(e>>16) + int(uint32(buf)&(1<<extra-1))
		buf >>= extra
		n -= extra
		if n < 32 {
			br.buf, br.n = buf, n
			br.refill()
			buf, n = br.buf, br.n
		}
		e = dist[buf&distMask]
		if e&entrySub != 0 {
			e = dist[(e>>16)+uint32(buf>>distTableBits)&(1<<(e&31)-1)]
		}
		l = uint(e & 31)
		if l == 0 {
			br.buf, br.n = buf, n
			return o, errBadSymbol
		}
		buf >>= l
		n -= l
		extra = uint(e>>8) & 15
		distance := int(e>>16) + int(uint32(buf)&(1<<extra-1))
		buf >>= extra
		n -= extra
		if distance > o {
			br.buf, br.n = buf, n
			return o, errFarDistance
		}
		if length > len(out)-o {
			br.buf, br.n = buf, n
			if partial {
				length = len(out) - o
				copyMatch(out, o, distance, length)
				return len(out), errOutputFull
			}
			return o, errLongStream
		}
		copyMatch(out, o, distance, length)
		o += length
	}
}

// decodeFast is decodeBlock's main loop for the bulk of a stream, where
// at least 16 input bytes remain (so the bit buffer refills with one 8-byte
// load) and at least 258+8 output bytes remain (so a literal or a whole
// match fits, and short matches may be copied 8 bytes at a time, spilling
// past their end into space the next symbols overwrite). It returns with
// done=false, the bit reader updated, when either margin runs out or the
// block needs the careful loop; done=true at the end of the block.
func decodeFast(br *bitReader, out []byte, o int, lit *[litTableSize]uint32, dist *[distTableSize]uint32) (int, bool, error) {
	const litMask = 1<<litTableBits - 1
	const distMask = 1<<distTableBits - 1
	src := br.src
	pos := br.pos
	buf, n := br.buf, br.n
	if br.over > 0 {
		return o, false, nil
	}
	for pos+16 <= len(src) && o+258+8 <= len(out) {
		// Branchless refill: afterwards 56 <= n <= 63.
		buf |= binary.LittleEndian.Uint64(src[pos:]) << n
		pos += int((63 - n) >> 3)
		n |= 56
		e := lit[buf&litMask]
		if e&entrySub != 0 {
			e = lit[(e>>16)+uint32(buf>>litTableBits)&(1<<(e&31)-1)]
		}
		l := uint(e & 31)
		if e&entryLiteral != 0 {
			buf >>= l
			n -= l
			out[o] = byte(e >> 16)
			o++
			// At least 56-15 = 41 bits remain: decode up to two more
			// literals before refilling.
			e = lit[buf&litMask]
			if e&entrySub != 0 {
				e = lit[(e>>16)+uint32(buf>>litTableBits)&(1<<(e&31)-1)]
			}
			if e&entryLiteral == 0 {
				continue
			}
			l = uint(e & 31)
			buf >>= l
			n -= l
			out[o] = byte(e >> 16)
			o++
			e = lit[buf&litMask]
			if e&entrySub != 0 {
				e = lit[(e>>16)+uint32(buf>>litTableBits)&(1<<(e&31)-1)]
			}
			if e&entryLiteral == 0 {
				continue
			}
			l = uint(e & 31)
			buf >>= l
			n -= l
			out[o] = byte(e >> 16)
			o++
			continue
		}
		if l == 0 || e&entryEOB != 0 {
			// Invalid code or end of block: let the careful loop report
			// or finish it.
			break
		}
		buf >>= l
		n -= l
		extra := uint(e>>8) & 15
		length := int(e>>16) + int(uint32(buf)&(1<<extra-1))
		buf >>= extra
		n -= extra
		if n < 32 {
			buf |= binary.LittleEndian.Uint64(src[pos:]) << n
			pos += int((63 - n) >> 3)
			n |= 56
		}
		e = dist[buf&distMask]
		if e&entrySub != 0 {
			e = dist[(e>>16)+uint32(buf>>distTableBits)&(1<<(e&31)-1)]
		}
		l = uint(e & 31)
		if l == 0 {
			br.pos, br.buf, br.n = pos, buf, n
			return o, false, errBadSymbol
		}
		buf >>= l
		n -= l
		extra = uint(e>>8) & 15
		distance := int(e>>16) + int(uint32(buf)&(1<<extra-1))
		buf >>= extra
		n -= extra
		if distance > o {
			br.pos, br.buf, br.n = pos, buf, n
			return o, false, errFarDistance
		}
		from := o - distance
		if distance >= 8 {
			// Five words whatever the length (most matches are
			// shorter than 40 bytes: no loop to mispredict), then
			// the rest of a longer one.
			w := out[from : from+40]
			d := out[o : o+40]
			binary.LittleEndian.PutUint64(d[0:], binary.LittleEndian.Uint64(w[0:]))
			binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(w[8:]))
			binary.LittleEndian.PutUint64(d[16:], binary.LittleEndian.Uint64(w[16:]))
			binary.LittleEndian.PutUint64(d[24:], binary.LittleEndian.Uint64(w[24:]))
			binary.LittleEndian.PutUint64(d[32:], binary.LittleEndian.Uint64(w[32:]))
			for i := 40; i < length; i += 8 {
				binary.LittleEndian.PutUint64(out[o+i:], binary.LittleEndian.Uint64(out[from+i:]))
			}
		} else if distance == 1 {
			b := out[from]
			for i := 0; i < length; i++ {
				out[o+i] = b
			}
		} else {
			for i := 0; i < length; i++ {
				out[o+i] = out[from+i]
			}
		}
		o += length
	}
	br.pos, br.buf, br.n = pos, buf, n
	return o, false, nil
}

// copyMatch copies length bytes from distance back, where the source may
// overlap the destination (a run).
func copyMatch(out []byte, o, distance, length int) {
	src := o - distance
	if distance >= 8 && length <= 32 && len(out)-o >= 40 {
		// Short match with room to spare: 8-byte words, each reading
		// bytes already written (distance >= 8), possibly past length.
		for i := 0; i < length; i += 8 {
			binary.LittleEndian.PutUint64(out[o+i:], binary.LittleEndian.Uint64(out[src+i:]))
		}
		return
	}
	if distance >= length {
		copy(out[o:o+length], out[src:src+length])
		return
	}
	// Overlapping: the pattern of distance bytes repeats; copy it in
	// growing chunks.
	for length > 0 {
		k := copy(out[o:o+length], out[src:o])
		o += k
		length -= k
	}
}
