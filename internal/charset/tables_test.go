package charset

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func tableIndex(t *testing.T, name string) int {
	t.Helper()
	for i := range tables {
		if tables[i].name == name {
			return i
		}
	}
	t.Fatalf("no table %s", name)
	return -1
}

// sequences returns every byte sequence of a trie with its value, in the
// order of the bytes.
func (tr *trie) sequences() (seqs [][]byte, values []uint32) {
	var walk func(n int, prefix []byte)
	walk = func(n int, prefix []byte) {
		node := tr.nodes[n]
		for i, cell := range node.cells {
			seq := append(append([]byte(nil), prefix...), node.lo+byte(i))
			switch {
			case cell == 0:
			case cell&childCell != 0:
				walk(int(cell&^childCell), seq)
			default:
				seqs = append(seqs, seq)
				values = append(values, cell-1)
			}
		}
	}
	if len(tr.nodes) > 0 {
		walk(0, nil)
	}
	return seqs, values
}

// iconvFlags runs glibc's iconv program with flags ("-c" to leave out
// what does not convert) on in, from a file: iconv reads a file whole and
// converts it in one call, as git does (standard input it converts in
// blocks, and glibc's EUC-CN to GBK converter fails on a two-byte
// character at the end of a block).
func iconvFlags(t *testing.T, path string, in []byte, args ...string) ([]byte, bool) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(in); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, err := exec.Command(path, append(args, f.Name())...).Output()
	os.Remove(f.Name())
	return out, err == nil
}

func encodeUTF8(rs []rune) []byte {
	b, _ := utf8Charset{}.encode(nil, rs)
	return b
}

// TestTablesMatchIconv decodes every sequence of every table, each
// followed by a newline (so that a decoder holding a character back
// writes it), with goblame and with iconv; encodes every code point of
// planes 0 and 14, and 1 and 2 where the table has any, the same way
// (iconv -c leaving out those it cannot encode); and decodes random bytes, valid or not. With -short,
// only the tables of the character sets people commit in most.
func TestTablesMatchIconv(t *testing.T) {
	path := requireIconv(t)
	short := map[string]bool{"ISO-8859-1": true, "EUC-JP": true, "SJIS": true, "EUC-KR": true, "GBK": true,
		"GB18030": true, "BIG5": true, "KOI8-R": true, "CP1252": true, "CP1258": true}
	for i := range tables {
		tab := &tables[i]
		if testing.Short() && !short[tab.name] {
			continue
		}
		t.Run(tab.name, func(t *testing.T) {
			t.Parallel()
			s := tab.unpacked()
			if s == nil {
				t.Fatal("table data does not unpack")
			}
			seqs, _ := s.dec.sequences()
			var in []byte
			for _, seq := range seqs {
				in = append(append(in, seq...), '\n')
			}
			if s.runs != nil { // GB18030's four-byte sequences, a sample
				for linear := int32(0); linear < 1_600_000; linear += 97 {
					b := [4]byte{byte(0x81 + linear/12600), byte(0x30 + linear/1260%10), byte(0x81 + linear/10%126), byte(0x30 + linear%10)}
					if _, ok := s.fourByte(b[:]); ok {
						in = append(append(in, b[:]...), '\n')
					}
				}
			}
			want, ok := iconvFlags(t, path, in, "-f", tab.name, "-t", "UTF-8")
			got, gotOK := tab.decode(nil, in)
			if !ok || !gotOK || !bytes.Equal(encodeUTF8(got), want) {
				t.Errorf("decoding every sequence: goblame %v, iconv %v; %s", gotOK, ok, firstDiff(encodeUTF8(got), want))
			}

			// Planes 1 and 2 only where the table has something there.
			planes := []rune{0, 14}
			for r := range s.enc {
				if r > 0xFFFF && !isTag(r) || s.runs != nil {
					planes = []rune{0, 1, 2, 14}
					break
				}
			}
			var all []rune
			for _, plane := range planes {
				for r := plane << 16; r < (plane+1)<<16; r++ {
					if !isSurrogate(r) && r != '\n' {
						all = append(all, r, '\n')
					}
				}
			}
			want, _ = iconvFlags(t, path, encodeUTF8(all), "-c", "-f", "UTF-8", "-t", tab.name)
			newline, _ := tab.encode(nil, []rune{'\n'})
			var mine []byte
			for i := 0; i < len(all); i += 2 {
				if b, ok := tab.encode(nil, all[i:i+1]); ok && !s.starters[all[i]] {
					mine = append(mine, b...)
				} else if ok {
					// Held back, then written before the newline.
					b, _ := tab.encode(nil, []rune{all[i], 'a'})
					mine = append(mine, b[:len(b)-1]...)
				}
				mine = append(mine, newline...)
			}
			if !bytes.Equal(mine, want) {
				t.Errorf("encoding every code point: %s", firstDiff(mine, want))
			}

			// Random text: sequences, now and then a random byte.
			rng := rand.New(rand.NewSource(int64(i)))
			for n := 0; n < 6; n++ {
				var text []byte
				for k := 0; k < 40; k++ {
					if rng.Intn(12) == 0 {
						text = append(text, byte(rng.Intn(256)))
					} else {
						text = append(text, seqs[rng.Intn(len(seqs))]...)
					}
				}
				if n%2 == 0 {
					text = append(text, '\n')
				}
				checkDecode(t, path, tab, text)
			}
		})
	}
}

// checkDecode compares goblame's decoding of text with iconv's, where
// iconv's flush at the end writes nothing more than git gets.
func checkDecode(t *testing.T, path string, tab *table, text []byte) {
	t.Helper()
	got, gotOK := tab.decode(nil, text)
	want, ok := iconvFlags(t, path, text, "-f", tab.name, "-t", "UTF-8")
	if ok && gotOK && !bytes.Equal(encodeUTF8(got), want) && tab.state.anyHeld {
		// iconv flushes what the decoder holds back; git does not.
		if held, _ := tab.decode(nil, append(slices.Clip(text), '\n')); bytes.Equal(encodeUTF8(held), append(want, '\n')) {
			return
		}
	}
	if ok != gotOK || ok && !bytes.Equal(encodeUTF8(got), want) {
		t.Errorf("decoding % x: goblame %q, %v; iconv %q, %v", text, encodeUTF8(got), gotOK, want, ok)
	}
}

func firstDiff(got, want []byte) string {
	n := min(len(got), len(want))
	for i := 0; i < n; i++ {
		if got[i] != want[i] {
			lo := max(0, i-16)
			return fmt.Sprintf("at byte %d: goblame % x, iconv % x", i, got[lo:min(len(got), i+16)], want[lo:min(len(want), i+16)])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("goblame %d bytes, iconv %d", len(got), len(want))
	}
	return "equal"
}

// TestHeldBackMatchesGit checks what git gets where glibc's converters
// hold a character back: the decoder of CP1258 or CP1255 and the encoder
// of BIG5-HKSCS write it only when the next character shows that it does
// not combine, and nothing at the end (git does not flush iconv).
func TestHeldBackMatchesGit(t *testing.T) {
	cases := []struct{ to, from, in, want string }{
		{"UTF-8", "CP1258", "a\xec\n", "á\n"},
		{"UTF-8", "CP1258", "Vi\xf2\xeat", "Vịê"},
		{"UTF-8", "CP1258", "\xe2\xec\xf2\n", "ấ\u0323\n"},
		{"BIG5-HKSCS", "UTF-8", "Ê\u0304Ê\n", "\x88\x62\x88\x66\n"},
		{"BIG5-HKSCS", "UTF-8", "aÊ", "a"},
	}
	for _, c := range cases {
		got, ok := Reencode([]byte(c.in), c.to, c.from)
		if !ok || string(got) != c.want {
			t.Errorf("%s to %s of %q: %q, %v; want %q", c.from, c.to, c.in, got, ok, c.want)
		}
	}
	path := requireIconv(t)
	for _, name := range []string{"CP1255", "CP1258", "TCVN5712-1"} {
		tab := &tables[tableIndex(t, name)]
		s := tab.unpacked()
		rng := rand.New(rand.NewSource(1))
		var held []byte
		for b := range 256 {
			if s.held[b] {
				held = append(held, byte(b))
			}
		}
		var marks []byte
		for k := range s.compose {
			marks = append(marks, k.next)
		}
		slices.Sort(marks)
		marks = slices.Compact(marks)
		for n := 0; n < 40; n++ {
			var text []byte
			for k := 0; k < 30; k++ {
				switch rng.Intn(3) {
				case 0:
					text = append(text, held[rng.Intn(len(held))])
				default:
					text = append(text, marks[rng.Intn(len(marks))])
				}
			}
			checkDecode(t, path, tab, append(text, '\n'))
		}
	}
	// Every pair BIG5-HKSCS and EUC-JISX0213 and SHIFT_JISX0213 encode
	// together, in text.
	for _, name := range []string{"BIG5HKSCS", "EUC-JISX0213", "SHIFT_JISX0213"} {
		tab := &tables[tableIndex(t, name)]
		s := tab.unpacked()
		if len(s.encPairs) == 0 {
			t.Errorf("%s: no pairs", name)
		}
		var text []rune
		for k := range s.encPairs {
			text = append(text, k[0], k[1], 'a', k[0], 'b', k[0], k[0], k[1], '\n')
		}
		got, gotOK := tab.encode(nil, text)
		want, ok := iconvFlags(t, path, encodeUTF8(text), "-f", "UTF-8", "-t", name)
		if ok != gotOK || !bytes.Equal(got, want) {
			t.Errorf("%s: encoding pairs: %v %v %s", name, gotOK, ok, firstDiff(got, want))
		}
	}
}

// TestDirectsMatchIconv converts every sequence of the source of each of
// glibc's direct conversions, and checks the end of text where the
// converter wants more.
func TestDirectsMatchIconv(t *testing.T) {
	path := requireIconv(t)
	for i := range directs {
		d := &directs[i]
		from, to := tables[d.from].name, tables[d.to].name
		if _, ok := d.convert(nil, nil); !ok || d.state == nil {
			t.Fatalf("%s to %s: data does not unpack", from, to)
		}
		// In pieces smaller than the blocks iconv reads (32 KiB), which
		// its EUC-CN to GBK converter does not convert across.
		seqs, _ := d.state.dec.sequences()
		for len(seqs) > 0 {
			var in []byte
			for len(seqs) > 0 && len(in) < 30000 {
				in = append(append(in, seqs[0]...), '\n')
				seqs = seqs[1:]
			}
			want, ok := iconvFlags(t, path, in, "-f", from, "-t", to)
			got, gotOK := d.convert(nil, in)
			if !ok || !gotOK || !bytes.Equal(got, want) {
				t.Errorf("%s to %s: goblame %v, iconv %v; %s", from, to, gotOK, ok, firstDiff(got, want))
			}
		}
		seqs, _ = d.state.dec.sequences()
		for k, seq := range seqs {
			if k%401 != 0 {
				continue
			}
			want, ok := iconvFlags(t, path, seq, "-f", from, "-t", to)
			got, gotOK := d.convert(nil, seq)
			if ok != gotOK || !bytes.Equal(got, want) {
				t.Errorf("%s to %s of % x alone: goblame % x, %v; iconv % x, %v", from, to, seq, got, gotOK, want, ok)
			}
		}
	}
	if got, ok := Reencode([]byte("\xbc\xf2\xcc\xe5\n"), "big5", "GB2312"); !ok || string(got) != "\xc2\xb2\xc5\xe9\n" {
		t.Errorf("GB2312 to BIG5: % x, %v; want glibc's traditional characters", got, ok)
	}
	if _, ok := Reencode([]byte("\xbc\xf2\xcc\xe5"), "GBK", "GB2312"); ok {
		t.Errorf("GB2312 to GBK converted a two-byte character at the end; glibc calls it incomplete")
	}
}

// TestUnicodeFormsMatchIconv converts byte sequences, valid and not, from
// and to the UTF and UCS forms.
func TestUnicodeFormsMatchIconv(t *testing.T) {
	path := requireIconv(t)
	rng := rand.New(rand.NewSource(2))
	units := []string{"\x00", "a", "\xfe", "\xff", "\xd8", "\xdc", "\x10", "\x11", "\x7f", "\x80", "\x0e"}
	var inputs []string
	for n := 0; n < 80; n++ {
		var b strings.Builder
		for k := rng.Intn(9); k > 0; k-- {
			b.WriteString(units[rng.Intn(len(units))])
		}
		inputs = append(inputs, b.String())
	}
	names := []string{"UTF-16", "UTF-16LE", "UTF-16BE", "UTF-32", "UTF-32LE", "UTF-32BE", "UCS-2", "UCS-2LE",
		"UCS-2BE", "UNICODE", "UCS-4", "UCS-4LE", "WCHAR_T", "UTF-8"}
	for _, name := range names {
		c := lookup(name)
		for _, in := range inputs {
			want, ok := iconv(path, "UTF-8", name, []byte(in))
			rs, gotOK := c.decode(nil, []byte(in))
			if ok != gotOK || ok && !bytes.Equal(encodeUTF8(rs), want) {
				t.Errorf("%s: decoding % x: % x, %v; iconv % x, %v", name, in, encodeUTF8(rs), gotOK, want, ok)
			}
		}
		for _, in := range []string{"", "a", "é€", "😀x", "caf\xe9", "a\xc3", "\ufeffa", "a\U000E0041b", "\xf4\x90\x80\x80", "\xfd\xbf\xbf\xbf\xbf\xbf"} {
			want, ok := iconv(path, name, "UTF-8", []byte(in))
			got, gotOK := Reencode([]byte(in), name, "UTF-8")
			if ok != gotOK || ok && !bytes.Equal(got, want) {
				t.Errorf("%s: encoding %q: % x, %v; iconv % x, %v", name, in, got, gotOK, want, ok)
			}
		}
	}
}

// FuzzReencode converts arbitrary bytes between character sets of every
// kind (tables, held-back pairs, four-byte runs, direct conversions,
// ISO-2022-JP, the Unicode forms): no conversion may panic, and valid
// UTF-8 converts to UTF-8 again.
func FuzzReencode(f *testing.F) {
	names := []string{"UTF-8", "EUC-JP", "SJIS", "GB18030", "BIG5-HKSCS", "CP1258", "CP1255", "EUC-CN",
		"BIG5", "GBK", "ISO-2022-JP", "UTF-16", "UCS-4", "EUC-TW", "ISO-8859-1", "IBM037"}
	for _, seed := range []string{"", "a\n", "caf\xc3\xa9", "\xa4\xa2\xff", "\x81\x30\x81\x30", "\x1b$BF|\x1b(B", "Vi\xf2\xeat", "\x88\x62"} {
		f.Add([]byte(seed), uint8(0), uint8(1))
	}
	f.Fuzz(func(t *testing.T, text []byte, from, to uint8) {
		src, dst := names[int(from)%len(names)], names[int(to)%len(names)]
		Reencode(text, dst, src)
		if u, ok := Reencode(text, "UTF-8", src); ok && src == "UTF-8" {
			if _, ok := Reencode(u, src, "UTF-8"); !ok {
				t.Errorf("%q: UTF-8 to UTF-8 failed", text)
			}
		}
	})
}
