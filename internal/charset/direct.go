package charset

import "sync"

// direct is a conversion glibc's iconv makes from one character set to
// another without going through Unicode, because gconv-modules has a
// module for the pair (EUC-CN and BIG5, which turns simplified characters
// into traditional ones and back; GBK to EUC-CN and back; IBM1008 and
// IBM420): each sequence of the source and the bytes it becomes.
type direct struct {
	from, to int // indexes of tables
	off, end int

	once  sync.Once
	state *directState // nil if the data does not unpack
}

type directState struct {
	dec  trie
	outs []directOut
}

type directOut struct {
	b packed
	// endFails: glibc's converter calls the sequence incomplete when
	// nothing follows it (EUC-CN to GBK, for two-byte characters).
	endFails bool
}

// directBetween returns glibc's direct conversion from src to dst, or nil.
func directBetween(src, dst charset) *direct {
	s, ok := src.(*table)
	if !ok {
		return nil
	}
	d, ok := dst.(*table)
	if !ok {
		return nil
	}
	for i := range directs {
		if &tables[directs[i].from] == s && &tables[directs[i].to] == d {
			return &directs[i]
		}
	}
	return nil
}

func (d *direct) convert(dst, src []byte) ([]byte, bool) {
	d.once.Do(func() {
		if d.off >= 0 && d.off <= d.end && d.end <= len(tableData) {
			d.state = unpackDirect(tableData[d.off:d.end])
		}
	})
	s := d.state
	if s == nil {
		return nil, false
	}
	for i := 0; i < len(src); {
		v, n, ok := s.dec.lookup(src[i:])
		if !ok || int(v) >= len(s.outs) {
			return nil, false
		}
		out := s.outs[v]
		if out.endFails && i+n == len(src) {
			return nil, false
		}
		dst = out.b.appendTo(dst)
		i += n
	}
	return dst, true
}

// unpackDirect reads the data of a direct conversion (described in
// internal/gen/tablegen, at direct.encode); nil if it is malformed.
func unpackDirect(data string) *directState {
	r := &reader{data: data}
	n := r.count()
	s := &directState{outs: make([]directOut, 0, n)}
	keys := make([]uint64, 0, n)
	values := make([]uint32, 0, n)
	var key uint64
	for i := 0; i < n && r.err == nil; i++ {
		key += r.uint()
		v := r.uint()
		b, ok := pack(r.bytes(int(v >> 1)))
		if !ok {
			return nil
		}
		keys = append(keys, key)
		values = append(values, uint32(len(s.outs)))
		s.outs = append(s.outs, directOut{b: b, endFails: v&1 != 0})
	}
	if r.err != nil || r.off != len(r.data) || !s.dec.build(keys, values) {
		return nil
	}
	return s
}
