package odb

import (
	"bytes"
	"compress/flate"
	stdzlib "compress/zlib"
	"io"
	"math/rand/v2"
	"testing"
)

// testCorpus returns inputs of varied compressibility and size.
func testCorpus() [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var out [][]byte
	out = append(out, nil, []byte("a"), []byte("hello"), bytes.Repeat([]byte("a"), 100000))
	for _, size := range []int{10, 100, 1000, 5000, 40000, 70000, 300000} {
		random := make([]byte, size)
		for i := range random {
			random[i] = byte(rng.Uint32())
		}
		text := make([]byte, 0, size)
		for len(text) < size {
			text = append(text, []byte("line number ")...)
			text = append(text, byte('0'+rng.IntN(10)), byte('a'+rng.IntN(26)), '\n')
		}
		small := make([]byte, size)
		for i := range small {
			small[i] = "acgt"[rng.IntN(4)]
		}
		out = append(out, random, text[:size], small)
	}
	return out
}

func zlibAt(b []byte, level int) []byte {
	var buf bytes.Buffer
	w, _ := stdzlib.NewWriterLevel(&buf, level)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// inflateBoth decodes src into out as inflateZlib does without spare
// capacity, and again into a copy of out with fastSpare bytes of spare
// capacity (filled with junk), and fails unless both give the same
// results: the fast loop running into the spare bytes must change
// nothing but speed, errors included.
func inflateBoth(t testing.TB, d *flateDecoder, out, src []byte) (produced, consumed int, err error) {
	t.Helper()
	spare := make([]byte, len(out), len(out)+fastSpare)
	for i := range spare[:cap(spare)] {
		spare[:cap(spare)][i] = 0xa5
	}
	n2, used2, err2 := d.inflateZlib(spare, src, false, true)
	produced, consumed, err = d.inflateZlib(out, src, false, false)
	// (How much was produced before an error is not part of the
	// contract: the spare run may have gone one symbol further.)
	if err2 != err || err == nil && (n2 != produced || used2 != consumed || !bytes.Equal(spare, out)) {
		t.Fatalf("with spare capacity: n=%d used=%d err=%v, without: n=%d used=%d err=%v", n2, used2, err2, produced, consumed, err)
	}
	return produced, consumed, err
}

// TestFlateDecoderMatchesStdlib decodes streams of every compression level
// (stored, Huffman-only, fixed and dynamic blocks, long matches and runs)
// and compares with the input, in full and partial mode.
func TestFlateDecoderMatchesStdlib(t *testing.T) {
	var d flateDecoder
	levels := []int{flate.NoCompression, flate.HuffmanOnly, flate.BestSpeed, 2, 5, flate.DefaultCompression, flate.BestCompression}
	for ci, in := range testCorpus() {
		for _, level := range levels {
			z := zlibAt(in, level)
			// Trailing bytes after the stream (the next pack entry) are fine.
			src := append(bytes.Clone(z), "next entry"...)
			out := make([]byte, len(in))
			n, used, err := inflateBoth(t, &d, out, src)
			if err != nil || n != len(in) || used != len(z) || !bytes.Equal(out, in) {
				t.Fatalf("corpus %d level %d: n=%d used=%d/%d err=%v equal=%v", ci, level, n, used, len(z), err, bytes.Equal(out, in))
			}
			for _, k := range []int{0, 1, 7, 32, len(in) / 2} {
				if k > len(in) {
					continue
				}
				prefix := make([]byte, k)
				n, _, err := d.inflateZlib(prefix, src, true, false)
				if err != nil || n != k || !bytes.Equal(prefix, in[:k]) {
					t.Fatalf("corpus %d level %d partial %d: n=%d err=%v", ci, level, k, n, err)
				}
			}
			if len(in) > 0 {
				if _, _, err := inflateBoth(t, &d, make([]byte, len(in)-1), src); err == nil {
					t.Fatalf("corpus %d level %d: a stream longer than declared was accepted", ci, level)
				}
			}
			if _, _, err := inflateBoth(t, &d, make([]byte, len(in)+1), src); err == nil {
				t.Fatalf("corpus %d level %d: a stream shorter than declared was accepted", ci, level)
			}
			// Every truncation is an error.
			for _, cut := range []int{len(z) - 1, len(z) - 4, len(z) / 2, 3} {
				if cut < 0 || cut >= len(z) {
					continue
				}
				if _, _, err := inflateBoth(t, &d, make([]byte, len(in)), z[:cut]); err == nil {
					t.Fatalf("corpus %d level %d: stream cut at %d/%d accepted", ci, level, cut, len(z))
				}
			}
		}
	}
}

// TestFlateDecoderRejectsWhatZlibRejects feeds hand-made deflate streams.
func TestFlateDecoderRejectsWhatZlibRejects(t *testing.T) {
	var d flateDecoder
	wrap := func(deflate []byte, content []byte) []byte {
		z := []byte{0x78, 0x01}
		z = append(z, deflate...)
		var sum [4]byte
		a := adler(content)
		sum[0], sum[1], sum[2], sum[3] = byte(a>>24), byte(a>>16), byte(a>>8), byte(a)
		return append(z, sum[:]...)
	}
	cases := []struct {
		name    string
		deflate []byte
		size    int
	}{
		{"reserved block type", []byte{0x07}, 0},                                  // BFINAL=1, BTYPE=11
		{"stored lengths disagree", []byte{0x01, 0x01, 0x00, 0x00, 0x00, 'x'}, 1}, // LEN=1, NLEN=0
		{"fixed block, distance too far back", fixedBlock(func(w *bitWriter) {
			w.code(0x30+'a', 8) // literal 'a'
			w.code(1, 7)        // length symbol 257: length 3
			w.code(1, 5)        // distance symbol 1: distance 2 > 1 byte of output
			w.code(0, 7)        // end of block
		}), 4},
		{"fixed block, length symbol 286", fixedBlock(func(w *bitWriter) {
			w.code(0xc0+286-280, 8)
			w.code(0, 7)
		}), 4},
		{"fixed block, distance symbol 30", fixedBlock(func(w *bitWriter) {
			w.code(0x30+'a', 8)
			w.code(1, 7)
			w.code(30, 5)
			w.code(0, 7)
		}), 4},
		{"fixed block, no end of block", fixedBlock(func(w *bitWriter) {
			w.code(0x30+'a', 8)
		}), 1},
		{"dynamic block, too many length codes", []byte{0xfd, 0xff}, 0},
	}
	for _, c := range cases {
		if _, _, err := inflateBoth(t, &d, make([]byte, c.size), wrap(c.deflate, make([]byte, c.size))); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
	// The bit writer itself makes valid streams: 'a' then a match of 3 at
	// distance 1 is "aaaa".
	ok := fixedBlock(func(w *bitWriter) {
		w.code(0x30+'a', 8)
		w.code(1, 7)
		w.code(0, 5)
		w.code(0, 7)
	})
	out := make([]byte, 4)
	if _, _, err := inflateBoth(t, &d, out, wrap(ok, []byte("aaaa"))); err != nil || string(out) != "aaaa" {
		t.Fatalf("valid hand-made block: %q %v", out, err)
	}
	// Header checks.
	good := zlibAt([]byte("abc"), 6)
	for _, bad := range [][]byte{
		append([]byte{0x79, good[1]}, good[2:]...), // method 9
		append([]byte{0x78, 0x00}, good[2:]...),    // check bits wrong
		append([]byte{0x78, 0xbb}, good[2:]...),    // preset dictionary
		{0x78},
	} {
		if _, _, err := inflateBoth(t, &d, make([]byte, 3), bad); err == nil {
			t.Errorf("bad header %x accepted", bad[:min(2, len(bad))])
		}
	}
}

// bitWriter packs deflate bit fields (LSB first; Huffman codes MSB first).
type bitWriter struct {
	out  []byte
	nbit uint
}

func (w *bitWriter) bits(v uint32, n uint) {
	for i := uint(0); i < n; i++ {
		if w.nbit%8 == 0 {
			w.out = append(w.out, 0)
		}
		if v>>i&1 != 0 {
			w.out[len(w.out)-1] |= 1 << (w.nbit % 8)
		}
		w.nbit++
	}
}

func (w *bitWriter) code(c uint32, n uint) {
	for i := int(n) - 1; i >= 0; i-- {
		w.bits(c>>uint(i)&1, 1)
	}
}

// fixedBlock returns a final fixed-Huffman block with the given body.
func fixedBlock(body func(*bitWriter)) []byte {
	var w bitWriter
	w.bits(1, 1) // BFINAL
	w.bits(1, 2) // fixed Huffman
	body(&w)
	return w.out
}

func adler(b []byte) uint32 {
	a, s := uint32(1), uint32(0)
	for _, c := range b {
		a = (a + uint32(c)) % 65521
		s = (s + a) % 65521
	}
	return s<<16 | a
}

// FuzzFlateDecoder checks the decoder against compress/zlib on arbitrary
// input: whenever the standard library decodes a stream completely, this
// decoder must produce the same bytes; it must never panic.
func FuzzFlateDecoder(f *testing.F) {
	for _, in := range testCorpus()[:8] {
		f.Add(zlibAt(in, 6))
		f.Add(zlibAt(in, 1))
		f.Add(zlibAt(in, 0))
	}
	var d flateDecoder
	f.Fuzz(func(t *testing.T, src []byte) {
		zr, err := stdzlib.NewReader(bytes.NewReader(src))
		var want []byte
		stdOK := false
		if err == nil {
			want, err = io.ReadAll(io.LimitReader(zr, 1<<20))
			stdOK = err == nil && len(want) < 1<<20
		}
		size := len(want)
		out := make([]byte, size)
		_, _, derr := inflateBoth(t, &d, out, src)
		if stdOK && derr != nil {
			t.Fatalf("stdlib decoded %d bytes, decoder failed: %v", size, derr)
		}
		if stdOK && !bytes.Equal(out, want) {
			t.Fatalf("decoder output differs from stdlib")
		}
		// Partial decoding never panics either.
		d.inflateZlib(make([]byte, 16), src, true, false)
	})
}

func BenchmarkFlateDecoder(b *testing.B) {
	corpus := testCorpus()
	in := corpus[len(corpus)-2] // 300 kB of text
	z := zlibAt(in, 6)
	out := make([]byte, len(in))
	b.Run("wholebuffer", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		var d flateDecoder
		for b.Loop() {
			if _, _, err := d.inflateZlib(out, z, false, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		var src bytes.Reader
		var zr io.ReadCloser
		for b.Loop() {
			src.Reset(z)
			if zr == nil {
				zr, _ = stdzlib.NewReader(&src)
			} else {
				zr.(stdzlib.Resetter).Reset(&src, nil)
			}
			io.ReadFull(zr, out)
		}
	})
}
