package repo

import "encoding/binary"

// ewahBitmap is a decoded EWAH-compressed bitmap (the format of the
// split index's delete and replace bitmaps): a bit count, 64-bit words
// where each "running length word" says how many words of all-zero or
// all-one bits come next (bit 0: the bit, bits 1-32: the count) and how
// many literal words follow it (bits 33-63).
type ewahBitmap struct {
	words []uint64
}

// readEWAH decodes one bitmap from the start of data and returns it
// with the number of bytes it occupied.
func readEWAH(data []byte) (ewahBitmap, int, bool) {
	if len(data) < 8 {
		return ewahBitmap{}, 0, false
	}
	n := binary.BigEndian.Uint32(data[4:])
	need := 8 + uint64(n)*8 + 4
	if uint64(len(data)) < need {
		return ewahBitmap{}, 0, false
	}
	words := make([]uint64, n)
	for i := range words {
		words[i] = binary.BigEndian.Uint64(data[8+8*i:])
	}
	return ewahBitmap{words: words}, int(need), true
}

// each calls fn with the position of every set bit in increasing order;
// fn returning false stops the iteration.
func (b ewahBitmap) each(fn func(pos uint64) bool) {
	var pos uint64
	for p := 0; p < len(b.words); {
		rlw := b.words[p]
		run := (rlw >> 1) & 0xffffffff
		literals := int(rlw >> 33)
		if rlw&1 != 0 {
			for k := uint64(0); k < run*64; k++ {
				if !fn(pos) {
					return
				}
				pos++
			}
		} else {
			pos += run * 64
		}
		p++
		for k := 0; k < literals && p < len(b.words); k++ {
			w := b.words[p]
			for c := 0; c < 64; c++ {
				if w&(1<<c) != 0 && !fn(pos) {
					return
				}
				pos++
			}
			p++
		}
	}
}
