package odb

import (
	"bytes"
	stdzlib "compress/zlib"
	"github.com/klauspost/compress/zlib"
	"io"
	"testing"
)

// packStreams returns the zlib stream and inflated size of every entry of
// the benchmark repository's packs (object bodies and delta data alike).
func packStreams(b *testing.B) (streams [][]byte, sizes []int) {
	objects, format, _, _ := benchRepo(b)
	db, err := Open(objects, format, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	set := db.state.Load()
	for _, p := range set.all {
		x, err := p.index()
		if err != nil {
			b.Fatal(err)
		}
		data, err := p.packData()
		if err != nil {
			b.Fatal(err)
		}
		for i := uint32(0); i < x.count; i++ {
			off, _ := x.offset(i)
			h, err := p.entryHeader(data, off)
			if err != nil {
				b.Fatal(err)
			}
			streams = append(streams, p.stream(data, &h))
			sizes = append(sizes, int(h.size))
		}
	}
	return streams, sizes
}

// BenchmarkInflate compares zlib decoders on every entry of the benchmark
// repository's packs, each decoder reused across streams, output into a
// right-sized reused buffer.
func BenchmarkInflate(b *testing.B) {
	streams, sizes := packStreams(b)
	var total int64
	for _, s := range sizes {
		total += int64(s)
	}
	maxSize := 0
	for _, s := range sizes {
		maxSize = max(maxSize, s)
	}
	out := make([]byte, maxSize)
	var cpu cpuMeter
	perObject := func(b *testing.B) {
		b.SetBytes(total)
		cpu.report(b, len(streams), "entry")
	}
	b.Run("klauspost", func(b *testing.B) {
		b.ReportAllocs()
		cpu = startCPU()
		var z klauspostInflater
		for b.Loop() {
			for i, s := range streams {
				if _, err := z.inflate(out[:sizes[i]], s); err != nil {
					b.Fatal(err)
				}
			}
		}
		perObject(b)
	})
	b.Run("wholebuffer", func(b *testing.B) {
		b.ReportAllocs()
		cpu = startCPU()
		d := new(flateDecoder)
		for b.Loop() {
			for i, s := range streams {
				if _, _, err := d.inflateZlib(out[:sizes[i]], s, false, false); err != nil {
					b.Fatal(err)
				}
			}
		}
		perObject(b)
	})
	b.Run("wholebuffer-first-byte", func(b *testing.B) {
		// Fixed cost per stream: header, first block's tables, one symbol.
		b.ReportAllocs()
		cpu = startCPU()
		d := new(flateDecoder)
		for b.Loop() {
			for i, s := range streams {
				if _, _, err := d.inflateZlib(out[:min(1, sizes[i])], s, true, false); err != nil {
					b.Fatal(err)
				}
			}
		}
		perObject(b)
	})
	b.Run("stdlib", func(b *testing.B) {
		b.ReportAllocs()
		cpu = startCPU()
		var src bytes.Reader
		var zr io.ReadCloser
		for b.Loop() {
			for i, s := range streams {
				src.Reset(s)
				var err error
				if zr == nil {
					zr, err = stdzlib.NewReader(&src)
				} else {
					err = zr.(stdzlib.Resetter).Reset(&src, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
				if _, err := io.ReadFull(zr, out[:sizes[i]]); err != nil {
					b.Fatal(err)
				}
			}
		}
		perObject(b)
	})
}

// klauspostInflater is the streaming decoder this package used first
// (klauspost/compress/zlib reset over a bytes.Reader), kept to measure the
// whole-buffer decoder against.
type klauspostInflater struct {
	src bytes.Reader
	zr  io.ReadCloser
}

func (z *klauspostInflater) inflate(out, src []byte) (int, error) {
	z.src.Reset(src)
	if z.zr == nil {
		zr, err := zlib.NewReader(&z.src)
		if err != nil {
			return 0, err
		}
		z.zr = zr
	} else if err := z.zr.(zlib.Resetter).Reset(&z.src, nil); err != nil {
		return 0, err
	}
	if _, err := io.ReadFull(z.zr, out); err != nil {
		return 0, err
	}
	return len(src) - z.src.Len(), nil
}
