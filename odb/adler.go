package odb

import "encoding/binary"

// Adler-32 (RFC 1950), the checksum that ends every zlib stream. The
// standard library's hash/adler32 adds one byte at a time (about five
// instructions a byte); adlerChecksum below adds sixteen at a time from two
// 64-bit loads, with a few multiplications: in a blame most inflated
// bytes are small pack entries, where the checksum was a fifth of the
// cost of inflating.

const (
	adlerMod = 65521
	// adlerBlock is how many bytes may be added before the sums are
	// reduced modulo adlerMod without overflowing 32 bits (zlib's NMAX,
	// 5552, is a multiple of 8).
	adlerBlock = 5552
	// Byte lanes: even bytes in the low half of each 16-bit lane.
	adlerLanes = 0x00ff00ff00ff00ff
)

// adlerChecksum returns the Adler-32 checksum of p.
func adlerChecksum(p []byte) uint32 {
	s1, s2 := uint32(1), uint32(0)
	for len(p) > 0 {
		n := min(len(p), adlerBlock)
		block := p[:n]
		p = p[n:]
		i := 0
		for ; i+16 <= len(block); i += 16 {
			b := block[i : i+16 : i+16]
			x1 := binary.LittleEndian.Uint64(b[:8])
			x2 := binary.LittleEndian.Uint64(b[8:])
			// Bytes 0, 2, 4, 6 (even) and 1, 3, 5, 7 (odd) of each
			// word in the low halves of four 16-bit lanes.
			even1, odd1 := x1&adlerLanes, (x1>>8)&adlerLanes
			even2, odd2 := x2&adlerLanes, (x2>>8)&adlerLanes
			// The top lane of a product with a lane-wise constant is
			// the sum of each lane times the constant in the mirrored
			// lane; no lower lane of these products, or of their sum,
			// reaches 2^16, so nothing carries into the top one.
			sum := uint32(((even1 + odd1 + even2 + odd2) * 0x0001000100010001) >> 48)
			// s2 gains s1 for each of the 16 bytes, and each byte once
			// for every byte from it to the end: 16 for byte 0, 1 for
			// byte 15.
			weighted := uint32((even1*0x0010000e000c000a + odd1*0x000f000d000b0009 +
				even2*0x0008000600040002 + odd2*0x0007000500030001) >> 48)
			s2 += 16*s1 + weighted
			s1 += sum
		}
		for _, c := range block[i:] {
			s1 += uint32(c)
			s2 += s1
		}
		s1 %= adlerMod
		s2 %= adlerMod
	}
	return s2<<16 | s1
}
