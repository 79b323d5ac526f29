// Tests of Utf8Width: git blame's author-column padding for names with
// wide, combining, zero-width, control and invalid UTF-8 characters;
// git log's %<(N) padding (the same utf8_strwidth) for every table
// boundary, or every code point with GOBLAME_EXHAUSTIVE=1; exhaustive
// checks of the decoder and the table lookup.

package format

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/goblame/goblame/internal/testgit"
)

func TestWidthTablesWellFormed(t *testing.T) {
	for name, table := range map[string][]widthInterval{"zero": zeroWidthTable[:], "double": doubleWidthTable[:]} {
		for i, iv := range table {
			if iv.first > iv.last || i > 0 && table[i-1].last >= iv.first {
				t.Errorf("%s table: interval %d (%X..%X) is empty, unsorted or overlapping", name, i, iv.first, iv.last)
			}
		}
		// runeWidth answers 1 below U+0300 without looking.
		if table[0].first < 0x300 {
			t.Errorf("%s table starts at %X, below runeWidth's shortcut", name, table[0].first)
		}
	}
	if inTable(0xAD, zeroWidthTable[:]) {
		t.Error("U+00AD SOFT HYPHEN is in the zero-width table")
	}
}

// naiveWidth is git_wcwidth by linear search, to check the binary search.
func naiveWidth(r uint32) int {
	if r == 0 {
		return 0
	}
	if r < 32 || r >= 0x7f && r < 0xa0 {
		return 0 // -1 in git, skipped by utf8_strwidth
	}
	for _, iv := range zeroWidthTable {
		if iv.first <= r && r <= iv.last {
			return 0
		}
	}
	for _, iv := range doubleWidthTable {
		if iv.first <= r && r <= iv.last {
			return 2
		}
	}
	return 1
}

// TestUtf8WidthEveryCodePoint checks every code point, encoded as UTF-8,
// against the linear-search reference (and the invalid ones against the
// byte-length rule).
func TestUtf8WidthEveryCodePoint(t *testing.T) {
	var buf [8]byte
	for r := rune(1); r <= 0x10FFFF; r++ {
		n := utf8.EncodeRune(buf[:], r)
		s := buf[:n]
		want := naiveWidth(uint32(r))
		if r >= 0xD800 && r <= 0xDFFF || r == 0xFFFE || r == 0xFFFF {
			// Go encodes surrogates as U+FFFD; encode them by hand.
			s = []byte{byte(0xE0 | r>>12), byte(0x80 | r>>6&0x3F), byte(0x80 | r&0x3F)}
			want = 3 // invalid for git: byte length
		}
		if got := Utf8Width(s); got != want {
			t.Fatalf("U+%04X (% x): width %d, want %d", r, s, got, want)
		}
		if got := Utf8WidthString(string(s)); got != want {
			t.Fatalf("U+%04X: Utf8WidthString %d, want %d", r, got, want)
		}
	}
}

// gitValid is git's pick_one_utf8_char acceptance in terms of Go's UTF-8
// rules: Go's, minus U+FFFE and U+FFFF.
func gitValid(s []byte) bool {
	r, size := utf8.DecodeRune(s)
	return !(r == utf8.RuneError && size <= 1) && size == len(s) && r != 0xFFFE && r != 0xFFFF
}

// TestDecodeEverySequence compares git's UTF-8 validity rules with an
// independent formulation for every one- to three-byte sequence and a
// spread of four-byte ones.
func TestDecodeEverySequence(t *testing.T) {
	check := func(s []byte) {
		_, size := decodeGitUTF8(s)
		valid := size == len(s)
		if s[0] < 0x80 {
			return
		}
		if want := gitValid(s); valid != want {
			t.Fatalf("% x: decodeGitUTF8 valid=%v (size %d), want %v", s, valid, size, want)
		}
	}
	for a := 0x80; a < 0x100; a++ {
		for b := 0; b < 0x100; b++ {
			check([]byte{byte(a), byte(b)})
			for c := 0; c < 0x100; c++ {
				check([]byte{byte(a), byte(b), byte(c)})
			}
		}
	}
	edge := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0xbf, 0xc0, 0xff}
	for a := 0xf0; a < 0x100; a++ {
		for b := 0; b < 0x100; b++ {
			for _, c := range edge {
				for _, d := range edge {
					check([]byte{byte(a), byte(b), c, d})
				}
			}
		}
	}
}

func TestUtf8WidthKnown(t *testing.T) {
	for s, want := range map[string]int{
		"":                       0,
		"A U Thor":               8,
		"漢字":                     4,
		"日本語 名前":                 11,
		"e\u0301e\u0301":         2,
		"Tab\there":              7,
		"bad\xff\xfename":        9,
		"Soft\u00adHyphen":       11,
		"a\x00\xff":              1, // a C string ends at the NUL
		"\xff\x00abc":            1, // invalid before the NUL: its byte length
		"\u1100\u1161\u11a8":     2,
		"\U0001FAE8":             1, // SHAKING FACE is Unicode 15: not wide in git 2.39.5
		"\U0001F600":             2,
		"C1\u0085":               2,
		"\xf4\x8f\xbf\xbf":       1,
		"\xf4\x90\x80\x80":       4,
		"trunc\xe6\x97":          7,
		"\xc0\xaf":               2,
		"\xed\xa0\x80":           3,
		"\xef\xbf\xbe":           3,
		"4 years, 11 months ago": 22,
	} {
		if got := Utf8Width([]byte(s)); got != want {
			t.Errorf("Utf8Width(%q) = %d, want %d", s, got, want)
		}
		if got := Utf8WidthString(s); got != want {
			t.Errorf("Utf8WidthString(%q) = %d, want %d", s, got, want)
		}
	}
	for r, want := range map[rune]int{'a': 1, '\t': 0, 0x300: 0, 0x4E00: 2, -1: 1, 0x10FFFF: 1} {
		if got := RuneWidth(r); got != want {
			t.Errorf("RuneWidth(%U) = %d, want %d", r, got, want)
		}
	}
}

// blameAuthors are author names for the blame author-column test: wide,
// combining, zero-width, format, control and invalid UTF-8.
var blameAuthors = []string{
	"A U Thor",
	"日本語 名前",
	"Zoë Ünïcode",
	"e\u0301e\u0301 decomposed",
	"Tab\there",
	"bad\xff\xfename",
	"Soft\u00adHyphen",
	"Zero\u200bWidth",
	"BOM\ufeffx",
	"\u1100\u1161\u11a8 Hangul",
	"Emoji \U0001F600",
	"Fullwidth \uff21\uff22",
	"Overlong \xc0\xaf",
	"Surrogate \xed\xa0\x80",
	"NonChar \xef\xbf\xbe",
	"Max \xf4\x8f\xbf\xbf",
	"Big \xf4\x90\x80\x80",
	"Trunc \xe6\x97 x",
	"C1 \xc2\x85",
	"DEL\x7f",
	"Comb\u20dd",
	"Arabic\u0600",
	"Tag\U000E0041",
	"Variation\ufe0f",
	"Kana \uff76\uff9e",
	"Unicode15 \U0001FAE8",
	"CJK Ext B \U00020000",
	"Bell\a",
}

// shellQuote quotes s for bash as $'...' with every byte escaped.
func shellQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "\\x%02x", s[i])
	}
	b.WriteString("'")
	return b.String()
}

// TestUtf8WidthBlameAuthors is the end-to-end check: git blame pads every
// author name to the widest one, measured with utf8_strwidth.
func TestUtf8WidthBlameAuthors(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	var script strings.Builder
	script.WriteString("git init -q\nparent=\n: >file\n")
	for i, name := range blameAuthors {
		fmt.Fprintf(&script, "echo 'line %d' >>file\ngit add file\ntree=$(git write-tree)\n", i+1)
		fmt.Fprintf(&script, "name=%s\n", shellQuote(name))
		fmt.Fprintf(&script, "c=$(printf 'tree %%s\\n%%sauthor %%s <a@example.com> 1112912053 -0700\\ncommitter C O Mitter <c@example.com> 1112912053 -0700\\n\\nc\\n' \"$tree\" \"$parent\" \"$name\" | git hash-object -t commit -w --literally --stdin)\n")
		script.WriteString("parent=\"parent $c\n\"\n")
	}
	script.WriteString("git update-ref refs/heads/main $c\n")
	longest := 0
	for _, name := range blameAuthors {
		longest = max(longest, Utf8Width([]byte(name)))
	}
	compared := 0
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, "format-blame-authors", format, script.String())
		res := g.Run(testgit.Case{Dir: dir, Format: format, Args: []string{"blame", "main", "--", "file"}})
		if res.ExitCode != 0 {
			t.Fatalf("git blame: %s", res)
		}
		lines := strings.Split(strings.TrimSuffix(string(res.Stdout), "\n"), "\n")
		if len(lines) != len(blameAuthors) {
			t.Fatalf("%d blame lines, want %d", len(lines), len(blameAuthors))
		}
		for i, line := range lines {
			_, got, ok := strings.Cut(line, " (")
			if !ok {
				t.Fatalf("unexpected line %q", line)
			}
			name := blameAuthors[i]
			want := fmt.Sprintf("%s%s 2005-04-07 15:14:13 -0700 %2d) line %d", name,
				strings.Repeat(" ", longest-Utf8Width([]byte(name))), i+1, i+1)
			compared++
			if got != want {
				t.Errorf("%s: author %q:\n got %q\nwant %q", format, name, got, want)
			}
		}
	}
	t.Logf("compared %d author columns (widest name %d columns)", compared, longest)
}

// widthProbe is a string whose width git measures through
// git log --format='%<(N)%s': the subject "<" + payload + ">".
type widthProbe struct{ payload string }

// fastImportStream writes one commit per probe on refs/heads/main.
func fastImportStream(probes []widthProbe) []byte {
	var b strings.Builder
	for i, p := range probes {
		msg := "<" + p.payload + ">\n"
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\ncommitter C O Mitter <c@example.com> %d +0000\ndata %d\n%s\n",
			i+1, 1112912053+i, len(msg), msg)
	}
	return []byte(b.String())
}

// widthBoundaryProbes are the code points at and around every interval
// boundary of both tables, one per probe, plus the control ranges.
func widthBoundaryProbes() []widthProbe {
	seen := map[rune]bool{}
	var probes []widthProbe
	add := func(r rune) {
		if r < 0x20 || r > 0x10FFFF || r >= 0xD800 && r <= 0xDFFF || r == 0xFFFE || r == 0xFFFF || r == '\n' || seen[r] {
			return
		}
		seen[r] = true
		probes = append(probes, widthProbe{string(r)})
	}
	for _, table := range [][]widthInterval{zeroWidthTable[:], doubleWidthTable[:]} {
		for _, iv := range table {
			for _, r := range []rune{rune(iv.first) - 1, rune(iv.first), rune(iv.last), rune(iv.last) + 1} {
				add(r)
			}
		}
	}
	for r := rune(0x20); r < 0x300; r++ {
		add(r)
	}
	for _, r := range []rune{0x10FFFF, 0x10FFFE, 0xFFFD, 0xE000, 0xF8FF, 0x1FAE8, 0x1F600} {
		add(r)
	}
	for _, s := range []string{"\t", "\r", "\x01\x1f", "\xc0\xaf", "\xed\xa0\x80", "\xef\xbf\xbe",
		"\xef\xbf\xbf", "\xf4\x90\x80\x80", "\xf8\x88\x80\x80\x80", "\xe6\x97", "\xff", "\x80",
		"ab\xe6", "\xc2", "\xe0\x80\x80", "\xf0\x80\x80\x80", "\xf5\x80\x80\x80"} {
		probes = append(probes, widthProbe{s})
	}
	return probes
}

// widthAllProbes covers every valid code point from U+0080, 64 to a
// probe (a wrong width anywhere changes the sum).
func widthAllProbes() []widthProbe {
	var probes []widthProbe
	var b strings.Builder
	n := 0
	for r := rune(0x80); r <= 0x10FFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF || r == 0xFFFE || r == 0xFFFF {
			continue
		}
		b.WriteRune(r)
		n++
		if n == 64 {
			probes = append(probes, widthProbe{b.String()})
			b.Reset()
			n = 0
		}
	}
	if n > 0 {
		probes = append(probes, widthProbe{b.String()})
	}
	return probes
}

// exhaustive reports whether the long differential runs are wanted:
//
//	GOBLAME_EXHAUSTIVE=1 go test ./format/
func exhaustive() bool { return os.Getenv("GOBLAME_EXHAUSTIVE") != "" }

// TestUtf8WidthAgainstGitLog measures widths with git's pretty-format
// padding, which uses the same utf8_strwidth: the table boundaries by
// default (from the golden file where git 2.39.x is not installed), every
// code point with GOBLAME_EXHAUSTIVE=1 (with git 2.39.x itself: megabytes
// of output).
func TestUtf8WidthAgainstGitLog(t *testing.T) {
	g := testgit.Golden(t) // skips without git
	probes := widthBoundaryProbes()
	name := "format-width-boundaries"
	// The column every subject is padded to: wider than any probe (else
	// git does not pad, and the width read below is wrong).
	pad := 32
	if exhaustive() {
		testgit.RequireGit(t)
		probes = append(probes, widthAllProbes()...)
		name = "format-width-all"
		pad = 1000
	}
	stream := fastImportStream(probes)
	sum := sha256.Sum256(stream)
	streamPath := filepath.Join(os.TempDir(), "goblame-"+name+"-"+hex.EncodeToString(sum[:8])+".fi")
	if _, err := os.Stat(streamPath); err != nil {
		if err := os.WriteFile(streamPath+".tmp", stream, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(streamPath+".tmp", streamPath); err != nil {
			t.Fatal(err)
		}
	}
	format := testgit.Formats[0]
	dir := testgit.Fixture(t, name, format, "git init -q\ngit fast-import --quiet <\""+streamPath+"\"\n")
	c := testgit.Case{Dir: dir, Format: format, Args: []string{"log", "-z", "--reverse", fmt.Sprintf("--format=%%<(%d)%%s", pad), "main"}}
	var res testgit.Result
	if exhaustive() {
		var live bool
		if res, live = g.Live(c); !live {
			t.Fatal("no git 2.39.x after RequireGit")
		}
	} else {
		res = g.Run(c)
	}
	if res.ExitCode != 0 {
		t.Fatalf("git log: %s", res)
	}
	entries := strings.Split(strings.TrimSuffix(string(res.Stdout), "\x00"), "\x00")
	if len(entries) != len(probes) {
		t.Fatalf("git log printed %d entries for %d probes", len(entries), len(probes))
	}
	for i, e := range entries {
		subject := "<" + probes[i].payload + ">"
		if !strings.HasPrefix(e, subject) {
			t.Fatalf("entry %d is %q, want it to start with %q", i, e, subject)
		}
		gitWidth := pad - (len(e) - len(subject))
		if got := Utf8Width([]byte(subject)); got != gitWidth {
			t.Errorf("width of %q (% x): %d, git %d", subject, probes[i].payload, got, gitWidth)
		}
	}
	t.Logf("compared the widths of %d strings with git", len(probes))
}

func BenchmarkUtf8WidthASCII(b *testing.B) {
	name := []byte("A U Thor Author-Name")
	b.ReportAllocs()
	b.SetBytes(int64(len(name)))
	for b.Loop() {
		Utf8Width(name)
	}
}

func BenchmarkUtf8WidthCJK(b *testing.B) {
	name := []byte("日本語 名前 Zoë Ünïcode")
	b.ReportAllocs()
	b.SetBytes(int64(len(name)))
	for b.Loop() {
		Utf8Width(name)
	}
}

func TestUtf8WidthAllocations(t *testing.T) {
	name := []byte("日本語 名前 Zoë Ünïcode \xff")
	if a := testing.AllocsPerRun(100, func() { Utf8Width(name) }); a != 0 {
		t.Errorf("Utf8Width allocates %.1f times", a)
	}
}

// naiveUtf8Width is utf8_strwidth written the plain way, byte by byte,
// as the reference for the fast paths.
func naiveUtf8Width(s []byte) int {
	n := 0
	for n < len(s) && s[n] != 0 {
		n++
	}
	s = s[:n]
	width := 0
	for i := 0; i < len(s); {
		if s[i] < 0x80 {
			width += naiveWidth(uint32(s[i]))
			i++
			continue
		}
		r, size := decodeGitUTF8(s[i:])
		if size == 0 {
			return len(s)
		}
		width += naiveWidth(r)
		i += size
	}
	return width
}

// TestUtf8WidthASCIIBlocks puts each special byte at each position of
// strings long enough for the eight-byte fast path.
func TestUtf8WidthASCIIBlocks(t *testing.T) {
	specials := []byte{0x00, 0x01, 0x09, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xc3, 0xe6, 0xff}
	for length := 1; length <= 26; length++ {
		for p := 0; p < length; p++ {
			for _, b := range specials {
				s := []byte(strings.Repeat("a", length))
				s[p] = b
				if got, want := Utf8Width(s), naiveUtf8Width(s); got != want {
					t.Fatalf("Utf8Width(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}

func FuzzUtf8Width(f *testing.F) {
	for _, name := range blameAuthors {
		f.Add([]byte(name))
	}
	f.Add([]byte("A U Thor <author@example.com>\x00tail"))
	f.Fuzz(func(t *testing.T, s []byte) {
		want := naiveUtf8Width(s)
		if got := Utf8Width(s); got != want {
			t.Errorf("Utf8Width(%q) = %d, want %d", s, got, want)
		}
		if got := Utf8WidthString(string(s)); got != want {
			t.Errorf("Utf8WidthString(%q) = %d, want %d", s, got, want)
		}
	})
}
