package odb

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIndexFindMatchesBinarySearch checks find's narrowed search against a
// plain binary search over v2-shaped indexes of random IDs, of IDs
// crowded into a few fan-out buckets and within them into a sliver of
// the range (the guess lands far from the answer), and of IDs sharing
// long prefixes: for every ID, and for absent IDs just before, just after
// and between them, the position and the found flag must be the same.
func TestIndexFindMatchesBinarySearch(t *testing.T) {
	const h = 20
	rng := rand.New(rand.NewPCG(7, 9))
	shapes := map[string]func(i int) []byte{
		"uniform": func(int) []byte {
			id := make([]byte, h)
			for k := range id {
				id[k] = byte(rng.Uint32())
			}
			return id
		},
		"crowded": func(i int) []byte {
			id := make([]byte, h)
			id[0] = byte(i % 3)
			id[1] = 0xff
			id[2] = byte(rng.IntN(2))
			for k := 3; k < h; k++ {
				id[k] = byte(rng.Uint32())
			}
			return id
		},
		"shared prefix": func(i int) []byte {
			id := make([]byte, h)
			id[0] = 0x42
			binary.BigEndian.PutUint32(id[12:], uint32(i/3))
			binary.BigEndian.PutUint32(id[16:], rng.Uint32())
			return id
		},
	}
	for name, gen := range shapes {
		for _, n := range []int{0, 1, 15, 16, 17, 100, 5000} {
			var ids [][]byte
			for i := 0; i < n; i++ {
				ids = append(ids, gen(i))
			}
			slices.SortFunc(ids, bytes.Compare)
			ids = slices.CompactFunc(ids, bytes.Equal)
			x := &packIndex{hashLen: h, stride: h, fanout: bytes.Repeat([]byte{0}, 1024)}
			for _, id := range ids {
				x.names = append(x.names, id...)
			}
			for b := 0; b < 256; b++ {
				c, _ := slices.BinarySearchFunc(ids, []byte{byte(b + 1)}, bytes.Compare)
				if b == 255 {
					c = len(ids)
				}
				binary.BigEndian.PutUint32(x.fanout[4*b:], uint32(c))
			}
			x.count = uint32(len(ids))
			var probes [][]byte
			for _, id := range ids {
				probes = append(probes, id)
				for _, d := range []int{-1, 1} {
					p := bytes.Clone(id)
					for k := h - 1; k >= 0; k-- { // id+d, with carries
						p[k] += byte(d)
						if d > 0 && p[k] != 0 || d < 0 && p[k] != 0xff {
							break
						}
					}
					probes = append(probes, p)
				}
			}
			for i := 0; i < 200; i++ {
				probes = append(probes, shapes["uniform"](i))
			}
			for _, p := range probes {
				want, wantOK := slices.BinarySearchFunc(ids, p, bytes.Compare)
				got, gotOK := x.find(p)
				if int(got) != want || gotOK != wantOK {
					t.Fatalf("%s, %d ids: find(%x) = %d, %v; binary search %d, %v", name, len(ids), p, got, gotOK, want, wantOK)
				}
			}
		}
	}
}
