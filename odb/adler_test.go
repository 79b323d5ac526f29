package odb

import (
	"bytes"
	"hash/adler32"
	"math/rand/v2"
	"testing"
)

// TestAdler32MatchesStdlib compares adlerChecksum with hash/adler32 on every
// length up to a few blocks (all the tails and lane positions) of random
// bytes, of runs of 0xff (the largest sums) and of zeros, and on sizes
// around and well past the reduction block.
func TestAdler32MatchesStdlib(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 3*adlerBlock+100)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	inputs := map[string][]byte{
		"random": random,
		"0xff":   bytes.Repeat([]byte{0xff}, len(random)),
		"zero":   make([]byte, len(random)),
	}
	for name, data := range inputs {
		for n := 0; n <= len(data); n++ {
			if n > 300 && n%97 != 0 && (n < adlerBlock-20 || n > adlerBlock+20) {
				continue
			}
			if got, want := adlerChecksum(data[:n]), adler32.Checksum(data[:n]); got != want {
				t.Fatalf("%s[:%d]: %08x, want %08x", name, n, got, want)
			}
		}
	}
	big := bytes.Repeat([]byte{0xff}, 1<<20+3)
	if got, want := adlerChecksum(big), adler32.Checksum(big); got != want {
		t.Fatalf("1 MiB of 0xff: %08x, want %08x", got, want)
	}
}

func FuzzAdler32(f *testing.F) {
	f.Add([]byte("hello, world"))
	f.Fuzz(func(t *testing.T, p []byte) {
		if got, want := adlerChecksum(p), adler32.Checksum(p); got != want {
			t.Fatalf("%08x, want %08x", got, want)
		}
	})
}

func BenchmarkAdler32(b *testing.B) {
	p := make([]byte, 4096)
	b.SetBytes(int64(len(p)))
	b.ReportAllocs()
	for b.Loop() {
		adlerChecksum(p)
	}
}
