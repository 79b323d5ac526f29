package blamecore

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// spansByMap is hashSpans as git's diffcore-delta counts: each chunk's
// bytes added to its hash's entry in a table, the table then listed by
// hash.
func spansByMap(data []byte, isText bool) *spanCounts {
	counts := map[uint32]uint32{}
	var accum1, accum2 uint32
	n := 0
	for i := 0; i < len(data); i++ {
		c := uint32(data[i])
		if isText && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old1 := accum1
		accum1 = (accum1 << 7) ^ (accum2 >> 25)
		accum2 = (accum2 << 7) ^ (old1 >> 25)
		accum1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(accum1+accum2*0x61)%spanHashBase] += uint32(n)
		n = 0
		accum1, accum2 = 0, 0
	}
	sc := &spanCounts{}
	for h := range counts {
		sc.hashes = append(sc.hashes, h)
	}
	slices.Sort(sc.hashes)
	for _, h := range sc.hashes {
		sc.counts = append(sc.counts, counts[h])
	}
	return sc
}

// TestHashSpans: hashSpans' fingerprints are the table's, on texts of
// repeated and distinct lines, CRLF, lines over 64 bytes, no final
// newline, and binary data (a NUL: CRs kept).
func TestHashSpans(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for round := range 400 {
		var b bytes.Buffer
		for range rng.IntN(300) {
			switch rng.IntN(6) {
			case 0:
				b.WriteString("\n")
			case 1:
				b.WriteString("a repeated line\r\n")
			case 2:
				b.Write(bytes.Repeat([]byte{byte('a' + rng.IntN(26))}, rng.IntN(200)))
				b.WriteString("\n")
			case 3:
				b.WriteByte(byte(rng.IntN(256)))
			default:
				for range rng.IntN(40) {
					b.WriteByte(byte(' ' + rng.IntN(95)))
				}
				b.WriteString("\n")
			}
		}
		data := b.Bytes()
		for _, binary := range []int{-1, 0, 1} {
			isText := binary == 0 || binary == -1 && bytes.IndexByte(data[:min(len(data), 8000)], 0) < 0
			got, want := hashSpans(data, binary), spansByMap(data, isText)
			if !slices.Equal(got.hashes, want.hashes) || !slices.Equal(got.counts, want.counts) {
				t.Fatalf("round %d, binary %d: %d hashes, want %d", round, binary, len(got.hashes), len(want.hashes))
			}
		}
	}
}
