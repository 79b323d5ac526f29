package charset

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	cases := []struct{ name, key string }{
		{"ISO-8859-1", "ISO-8859-1//"},
		{"iso 8859-1", "ISO8859-1//"},
		{" iso-8859-1\t", "ISO-8859-1//"},
		{"ISO-8859-1/", "ISO-8859-1//"},
		{"ISO-8859-1//TRANSLIT", "ISO-8859-1//"},
		{"ISO-8859-1//TRANSLIT//IGNORE", "ISO-8859-1//"},
		{"ISO-8859-1///x", "ISO-8859-1//"},
		{"ISO-8859-1/x", "ISO-8859-1/X/"},
		{"iso,8859-1", "ISO,8859-1//"},
		{"iso-10646/utf8/", "ISO-10646/UTF8/"},
		{"ISO-10646/UTF8/x,y", "ISO-10646/UTF8/"},
		{"utf8", "UTF8//"},
		{"ISO_8859-1:1987", "ISO_8859-1:1987//"},
		{"latin\u00e91", "LATIN1//"},
	}
	for _, c := range cases {
		if got, ok := normalize(c.name); !ok || got != c.key {
			t.Errorf("normalize(%q) = %q, %v; want %q", c.name, got, ok, c.key)
		}
	}
	for _, name := range []string{"", " ", "//", ",/"} {
		if got, ok := normalize(name); ok {
			t.Errorf("normalize(%q) = %q, want no name", name, got)
		}
	}
}

func TestOpen(t *testing.T) {
	latin1 := []byte("caf\xe9")
	for _, from := range []string{"ISO-8859-1", "latin1", "latin-1", "LATIN-1", "l1", "iso8859-1", "ISO_8859-1:1987", "cp819"} {
		dst, src, ok := Open("UTF-8", from)
		if !ok {
			t.Errorf("Open(UTF-8, %q) failed", from)
			continue
		}
		got, err := src.NewDecoder().Bytes(latin1)
		if err == nil {
			got, err = dst.NewEncoder().Bytes(got)
		}
		if err != nil || string(got) != "café" {
			t.Errorf("%s to UTF-8: %q, %v", from, got, err)
		}
	}
	for _, from := range []string{"nonsense", "iso,8859-1", "ISO-8859-1/x", "UTF-16BE-BOM", "", "UTF-7", "ISO-2022-KR"} {
		if _, _, ok := Open("UTF-8", from); ok {
			t.Errorf("Open(UTF-8, %q) succeeded", from)
		}
	}
	if _, _, ok := Open("latin-2", "UTF-8"); ok {
		t.Errorf("Open(latin-2, UTF-8) succeeded; git falls back for latin-1 only")
	}

	// git's own spellings of UTF-16 with a byte order mark.
	encode := func(to, s string) string {
		dst, _, ok := Open(to, "UTF-8")
		if !ok {
			t.Fatalf("Open(%q, UTF-8) failed", to)
		}
		out, err := dst.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	if got := encode("UTF-16LE-BOM", "a"); got != "\xff\xfea\x00" {
		t.Errorf("UTF-16LE-BOM: %q", got)
	}
	if got := encode("UTF-16LE-BOM", ""); got != "\xff\xfe" {
		t.Errorf("UTF-16LE-BOM of nothing: %q (git writes the mark)", got)
	}
	if got := encode("utf16be-bom", "a"); got != "\xfe\xff\x00a" {
		t.Errorf("UTF-16BE-BOM: %q", got)
	}
	if got := encode("UTF-16", "a"); got != "\xff\xfea\x00" {
		t.Errorf("UTF-16: %q", got)
	}
	_, src, _ := Open("UTF-8", "UTF-16LE-BOM")
	if got, err := src.NewDecoder().Bytes([]byte("\xfe\xff\x00a")); err != nil || string(got) != "a" {
		t.Errorf("UTF-16LE-BOM read with a big-endian mark: %q, %v", got, err)
	}

	// UTF-8 and ASCII fail on invalid input, as iconv does.
	for _, c := range []struct{ name, in string }{{"UTF-8", "caf\xe9"}, {"utf8", "\xed\xa0\x80"}, {"US-ASCII", "caf\xc3\xa9"}} {
		if out, err := Lookup(c.name).NewDecoder().Bytes([]byte(c.in)); err == nil {
			t.Errorf("%s decoded %q to %q", c.name, c.in, out)
		}
	}
	if Lookup("ascii") == nil || Lookup("ANSI_X3.4-1968") == nil || Lookup("iso-ir-193") == nil {
		t.Error("built-in names of ASCII and UTF-8 not found")
	}
	if lookup("cp1252") != &tables[tableIndex(t, "CP1252")] || lookup("UTF-16LE") != (utf16{}) {
		t.Error("cp1252 or UTF-16LE mapped to the wrong encoding")
	}
}

// tableNames returns every name of names.go with the character set it is
// a name of.
func tableNames(t *testing.T) map[string]string {
	src, err := os.ReadFile("names.go")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	caseLine := regexp.MustCompile(`(?m)^\tcase (.*):\n\t\treturn (.*)$`)
	quoted := regexp.MustCompile(`"([^"]*)"`)
	for _, m := range caseLine.FindAllStringSubmatch(string(src), -1) {
		for _, q := range quoted.FindAllStringSubmatch(m[1], -1) {
			names[q[1]] = m[2]
		}
	}
	if len(names) < 300 {
		t.Fatalf("only %d names in names.go", len(names))
	}
	return names
}

func requireIconv(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("iconv")
	if err != nil {
		t.Skip("no iconv program")
	}
	if out, err := exec.Command(path, "--version").Output(); err != nil || !bytes.Contains(out, []byte("GLIBC")) && !bytes.Contains(out, []byte("GNU libc")) {
		t.Skip("iconv is not glibc's")
	}
	return path
}

// iconv runs glibc's iconv program, which opens its conversion as
// iconv_open does (__gconv_create_spec, __gconv_open).
func iconv(path, to, from string, in []byte) ([]byte, bool) {
	cmd := exec.Command(path, "-f", from, "-t", to)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	return out, err == nil
}

// TestNamesMatchIconv checks that iconv accepts every name of the table,
// spelled as git users write them, and rejects the names Lookup rejects.
func TestNamesMatchIconv(t *testing.T) {
	path := requireIconv(t)
	names := tableNames(t)
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		spelled := strings.ToLower(strings.TrimSuffix(n, "//"))
		if Lookup(spelled) == nil {
			t.Errorf("Lookup(%q) = nil", spelled)
		}
		if _, ok := iconv(path, "UTF-8", spelled, nil); !ok {
			t.Errorf("iconv does not know %q (%s)", spelled, names[n])
		}
	}
	for _, n := range []string{"latin-1", "iso,8859-1", "ISO-8859-1/x", "UTF-16LE-BOM", "nonsense"} {
		if Lookup(n) != nil {
			t.Errorf("Lookup(%q) found an encoding", n)
		}
		if _, ok := iconv(path, "UTF-8", n, nil); ok {
			t.Errorf("iconv knows %q", n)
		}
	}
}

// TestConversionsMatchIconv converts sample texts to and from every
// character set of names.go with goblame and with glibc's iconv, through
// Lookup's x/text encodings.
func TestConversionsMatchIconv(t *testing.T) {
	if testing.Short() {
		t.Skip("runs iconv about 1,000 times")
	}
	path := requireIconv(t)
	samples := []string{
		"plain ASCII text, 1 + 2 = 3 ~ {}",
		"café crème Jörg Øresund Ångström naïve",
		"Zażółć gęślą jaźń Čeština Dvořák",
		"Привет, мир! Ёлка",
		"Καλημέρα κόσμε",
		"שלום עולם",
		"مرحبا بالعالم",
		"ğüşıöç İstanbul",
		"€ – “quotes” ‘single’ …",
		"日本語のテキスト、カタカナ",
		"한국어 텍스트",
		"简体中文文本",
		"繁體中文文本",
		"สวัสดีครับ",
		"emoji 😀 outside the BMP",
	}
	// The character sets people commit in, and the Unicode forms; every
	// table is compared whole in TestTablesMatchIconv.
	names := []string{"UTF-8", "ISO-8859-1", "ISO-8859-2", "ISO-8859-5", "ISO-8859-7", "ISO-8859-9",
		"ISO-8859-15", "EUC-JP", "SJIS", "CP932", "EUC-KR", "UHC", "EUC-CN", "GBK", "GB18030", "BIG5",
		"BIG5-HKSCS", "EUC-TW", "KOI8-R", "KOI8-U", "CP1250", "CP1251", "CP1252", "CP1253", "CP1254",
		"CP1255", "CP1256", "CP1257", "CP1258", "TIS-620", "ASCII", "IBM037", "UTF-16", "UTF-32",
		"UCS-2", "UCS-4"}
	sets := tableNames(t)
	for _, name := range names {
		set := sets[name+"//"]
		if set == "" {
			set = sets[name]
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			enc := Lookup(name)
			for _, s := range samples {
				want, ok := iconv(path, name, "UTF-8", []byte(s))
				got, err := enc.NewEncoder().Bytes([]byte(s))
				if ok != (err == nil) || ok && !bytes.Equal(got, want) {
					t.Errorf("%s (%s): encoding %q: goblame %q, %v; iconv %q, %v", name, set, s, got, err, want, ok)
					continue
				}
				if !ok {
					continue
				}
				// Back, compared with iconv (not with s: a character set
				// can encode two code points alike), the newline so that
				// a decoder holding a character back writes it.
				text := append(want, '\n')
				wantBack, ok := iconv(path, "UTF-8", name, text)
				back, err := enc.NewDecoder().Bytes(text)
				if ok != (err == nil) || ok && !bytes.Equal(back, wantBack) {
					t.Errorf("%s (%s): decoding %q: goblame %q, %v; iconv %q, %v", name, set, text, back, err, wantBack, ok)
				}
			}
		})
	}
}

// TestUTF16MatchesIconv decodes byte sequences, valid and not, as UTF-16
// with and without a byte order mark.
func TestUTF16MatchesIconv(t *testing.T) {
	path := requireIconv(t)
	inputs := []string{
		"", "a\x00", "\x00a", "a", "a\x00b", "\xff\xfea\x00", "\xfe\xff\x00a", "\xff\xfe", "\xfe\xff",
		"\x3d\xd8\x00\xde", "\xd8\x3d\xde\x00", "\x00\xd8", "\x00\xdc", "\x00\xd8a\x00", "\x3d\xd8\x00",
		"\xff\xfe\xff\xfea\x00", "\xe9\x00\xac\x20", "\x00\xe9\x20\xac",
	}
	for _, name := range []string{"UTF-16", "UTF-16LE", "UTF-16BE", "UTF16", "utf-16le"} {
		enc := Lookup(name)
		for _, in := range inputs {
			want, ok := iconv(path, "UTF-8", name, []byte(in))
			got, err := enc.NewDecoder().Bytes([]byte(in))
			if ok != (err == nil) || ok && !bytes.Equal(got, want) {
				t.Errorf("%s: decoding %q: %q, %v; iconv %q, %v", name, in, got, err, want, ok)
			}
		}
		for _, in := range []string{"", "a", "é€", "😀x", "caf\xe9", "a\xc3"} {
			want, ok := iconv(path, name, "UTF-8", []byte(in))
			got, err := enc.NewEncoder().Bytes([]byte(in))
			if ok != (err == nil) || ok && !bytes.Equal(got, want) {
				t.Errorf("%s: encoding %q: %q, %v; iconv %q, %v", name, in, got, err, want, ok)
			}
		}
	}
}
