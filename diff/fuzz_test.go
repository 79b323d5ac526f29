package diff

import (
	"errors"
	"testing"
)

// FuzzDiff feeds arbitrary byte pairs and option bits to every entry
// point: nothing may panic, every result must be a valid edit script, the
// byte API and the prepared-file API must agree, and PrepareNear must
// prepare what Prepare does.
//
//	go test ./diff -run '^$' -fuzz FuzzDiff -fuzztime 5m
func FuzzDiff(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), []byte("a\nc\nd"), uint8(0))
	f.Add([]byte("\tx\r\n\n}\n"), []byte(" x\n\n\n}\n}\n"), uint8(0xff))
	f.Add([]byte(""), []byte("\n"), uint8(3))
	g := newPairGen(7)
	for _, k := range []string{"small", "dup", "code", "ws", "bytes", "tail"} {
		a, b := g.pair(k)
		f.Add(a, b, uint8(len(a)))
	}
	d := NewDiffer()
	f.Fuzz(func(t *testing.T, a, b []byte, bits uint8) {
		opts := Options{
			IndentHeuristic:  bits&1 != 0,
			Minimal:          bits&2 != 0,
			IgnoreWhitespace: bits&4 != 0,
			Algorithm:        Algorithm((bits >> 3) % 3),
		}
		for _, trim := range []bool{false, true} {
			var got []Hunk
			if trim {
				got = d.BlameDiff(nil, a, b, opts)
			} else {
				got = d.Diff(nil, a, b, opts)
			}
			if err := d.Err(); err != nil {
				if errors.Is(err, ErrHistogramOverflow) {
					continue
				}
				t.Fatal(err)
			}
			if _, err := checkScript(a, b, got, opts.IgnoreWhitespace); err != nil {
				t.Fatalf("trim=%v %+v: %v\n%s", trim, opts, err, formatHunks(got))
			}
			fa, _ := d.Prepare(nil, a, opts)
			fb, _ := d.PrepareNear(nil, b, fa, opts)
			var got2 []Hunk
			var err error
			if trim {
				got2, err = d.BlameDiffFiles(nil, fa, fb, opts)
			} else {
				got2, err = d.DiffFiles(nil, fa, fb, opts)
			}
			if err != nil || !hunksEqual(got, got2) {
				t.Fatalf("trim=%v %+v: file API %v\n%s\nbyte API\n%s", trim, opts, err, formatHunks(got2), formatHunks(got))
			}
		}
	})
}
