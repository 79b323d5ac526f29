package charset

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestISO2022JPMatchesIconv decodes and encodes random text in
// ISO-2022-JP: escape sequences, known or not, cut short or not, ASCII
// and control characters, JIS X 0208 pairs, bytes no set has.
func TestISO2022JPMatchesIconv(t *testing.T) {
	path := requireIconv(t)
	jis := iso2022jpJIS.unpacked()
	if jis == nil {
		t.Fatal("table data does not unpack")
	}
	pairs, values := jis.dec.sequences()
	pieces := []string{"\x1b(B", "\x1b(J", "\x1b$B", "\x1b$@", "\x1bX", "\x1b(Z", "\x1b$(D", "\x1b$A",
		"a", "\\", "~", "\n", " ", "\x7f", "\x0e", "\x1b", "\x80", "\xa4\xa2", "\x21\x7f", "\x22\x2f"}
	rng := rand.New(rand.NewSource(3))
	for n := 0; n < 300; n++ {
		var text []byte
		for k := rng.Intn(12); k > 0; k-- {
			if rng.Intn(3) == 0 {
				text = append(text, pairs[rng.Intn(len(pairs))]...)
			} else {
				text = append(text, pieces[rng.Intn(len(pieces))]...)
			}
		}
		want, ok := iconvFlags(t, path, text, "-f", "ISO-2022-JP", "-t", "UTF-8")
		got, gotOK := iso2022jp{}.decode(nil, text)
		if ok != gotOK || ok && !bytes.Equal(encodeUTF8(got), want) {
			t.Errorf("decoding %q: goblame %q, %v; iconv %q, %v", text, encodeUTF8(got), gotOK, want, ok)
		}
	}
	runes := []rune{'a', 'Z', '\\', '~', '\n', ' ', 0x7F, 0x1B, 0x0E, 0xA5, 0x203E, 0xE9, 0xFF5E, 0xE0041, 0x3000}
	for n := 0; n < 300; n++ {
		var text []rune
		for k := rng.Intn(12); k > 0; k-- {
			if rng.Intn(3) == 0 {
				text = append(text, rune(values[rng.Intn(len(values))]))
			} else {
				text = append(text, runes[rng.Intn(len(runes))])
			}
		}
		want, ok := iconvFlags(t, path, encodeUTF8(text), "-f", "UTF-8", "-t", "ISO-2022-JP")
		got, gotOK := iso2022jp{}.encode(nil, text)
		// iconv's flush ends the text in ASCII; git does not flush.
		if gotOK && ok && !bytes.Equal(got, want) && bytes.Equal(append(got, "\x1b(B"...), want) {
			got = want
		}
		if ok != gotOK || ok && !bytes.Equal(got, want) {
			t.Errorf("encoding %q: goblame %q, %v; iconv %q, %v", string(text), got, gotOK, want, ok)
		}
	}
	if got, ok := Reencode([]byte("日本"), "ISO-2022-JP", "UTF-8"); !ok || string(got) != "\x1b$BF|K\\" {
		t.Errorf("UTF-8 to ISO-2022-JP of text ending in kanji: %q, %v; git gets no ESC ( B", got, ok)
	}
}
