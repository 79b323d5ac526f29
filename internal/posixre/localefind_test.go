package posixre

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Where the expected answers come from: every one is glibc 2.36's
// (Debian 2.36-9+deb12u14, amd64), printed by a C program that calls
// newlocale(LC_CTYPE_MASK, name, 0) and then nl_langinfo_l(CODESET) and
// MB_CUR_MAX, run on the same files with the same LOCPATH and GCONV_PATH.
// Where a test brings its own locale archive, locale.alias or gconv
// directory, the program ran in a private mount namespace (unshare -m)
// with those files bind-mounted over /usr/lib/locale,
// /usr/share/locale/locale.alias and /usr/lib/x86_64-linux-gnu/gconv;
// the files were the ones the helpers below write (the synthetic archive
// included: glibc finding its names also checks archiveHash). An
// expectation is "CODESET MB_CUR_MAX", or "" for a name newlocale refuses.

// env returns a getenv over the given KEY, value pairs only.
func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

// describe formats what load found as the C program prints it.
func describe(c ctypeInfo, ok bool) string {
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s %d", c.codeset, c.mbCurMax)
}

type loadCase struct {
	name, want string
}

func checkLoads(t *testing.T, lf *localeFiles, getenv func(string) string, cases []loadCase) {
	t.Helper()
	for _, tc := range cases {
		if got := describe(lf.load(tc.name, getenv)); got != tc.want {
			t.Errorf("load(%q) = %q, glibc: %q", tc.name, got, tc.want)
		}
	}
}

// hermeticFiles is a localeFiles with no archive, no aliases and no
// iconv configuration (iconv's built-in aliases only), its default
// locale directory dir.
func hermeticFiles(t *testing.T, dir string) *localeFiles {
	empty := t.TempDir()
	return &localeFiles{archive: empty + "/locale-archive", dir: dir, gconvDirs: []string{empty}}
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fakeCtype returns the smallest LC_CTYPE glibc loads: the header, 86
// item offsets, then one word that every word item shares (MB_CUR_MAX
// among them) and one string for every string item (CODESET among them).
func fakeCtype(codeset string, mbCurMax uint32) []byte {
	ne := binary.NativeEndian
	head := 8 + 4*ctypeItems
	b := ne.AppendUint32(nil, ctypeMagic)
	b = ne.AppendUint32(b, ctypeItems)
	for i := 0; i < ctypeItems; i++ {
		off := head + 4
		if ctypeWordItem(i) {
			off = head
		}
		b = ne.AppendUint32(b, uint32(off))
	}
	b = ne.AppendUint32(b, mbCurMax)
	b = append(append(b, codeset...), 0)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// fakeCtypeCodesetOff is where fakeCtype's string starts.
const fakeCtypeCodesetOff = 8 + 4*ctypeItems + 4

func setItem(b []byte, item int, off uint32) []byte {
	b = bytes.Clone(b)
	binary.NativeEndian.PutUint32(b[8+4*item:], off)
	return b
}

func setWord(b []byte, at int, v uint32) []byte {
	b = bytes.Clone(b)
	binary.NativeEndian.PutUint32(b[at:], v)
	return b
}

// systemCUTF8 is Debian's C.utf8 locale directory.
const systemCUTF8 = "/usr/lib/locale/C.utf8"

func needSystemCUTF8(t *testing.T) {
	if _, err := os.Stat(systemCUTF8 + "/LC_CTYPE"); err != nil {
		t.Skipf("no %s/LC_CTYPE on this machine: %v", systemCUTF8, err)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestLocaleCharsetSystem asks about this machine's own locales, with
// neither LOCPATH nor GCONV_PATH set; glibc answered on a Debian 12
// machine whose only locale is the directory /usr/lib/locale/C.utf8.
func TestLocaleCharsetSystem(t *testing.T) {
	needSystemCUTF8(t)
	type want struct{ installed, utf8 bool }
	c, utf8, none := want{true, false}, want{true, true}, want{false, false}
	cases := []struct {
		name string
		want want
	}{
		{"C", c}, {"POSIX", c}, {"", c},
		{"C.UTF-8", utf8}, {"C.utf8", utf8}, {"C.UTF8", utf8}, {"C.utf-8", utf8}, {"C.Utf8", utf8},
		{"C.UTF-8@euro", utf8}, {"C.utf8@euro", utf8}, // the modifier is dropped
		{"C_XX.utf8", utf8}, // and so is the territory
		{"LC_CTYPE=C.utf8;LC_NUMERIC=C", utf8}, {"LC_TIME=C;LC_CTYPE=C.UTF-8", utf8},
		{"LC_CTYPE=POSIX;", c},
		{"C.utf8\x00junk", utf8}, // the C string ends at the NUL
		{"C.utf8@" + strings.Repeat("x", 255-len("C.utf8@")), utf8},
		{"C.utf8@" + strings.Repeat("x", 256-len("C.utf8@")), none}, // longer than 255
		{"c.utf8", none}, {"C.", none}, {"C.@", none}, {"C@x", none}, {"C_XX", none},
		{"C.latin1", none}, {"C.utf8.utf8", none}, {"C.iso", none},
		{"C.utf8@", utf8}, // an empty modifier is none
		{"xx", none}, {"_C.utf8", none}, {".utf8", none}, {"@x", none},
		{"../../etc/passwd", none}, {"C.utf8/", none}, {"C.UTF-8//", none},
		{"/usr/lib/locale/C.utf8", none}, // looked for under /usr/lib/locale, as /usr/lib/locale//usr/lib/locale/C.utf8
		{"C.utf8;", none}, {"LC_ALL=C.UTF-8;LC_CTYPE=C", none}, {"LC_CTYPE=C.UTF-8;x", utf8},
	}
	for _, tc := range cases {
		installed, isUTF8 := localeCharset(tc.name, env())
		if got := (want{installed, isUTF8}); got != tc.want {
			t.Errorf("localeCharset(%q) = %v, glibc: %v", tc.name, got, tc.want)
		}
	}

	// en_US.UTF-8 and de_DE.ISO-8859-1 are not installed on a bare Debian.
	if _, err := os.Stat("/usr/lib/locale/locale-archive"); err == nil {
		t.Skip("this machine has a locale archive")
	}
	if m, _ := filepath.Glob("/usr/lib/locale/[de][en]_*"); len(m) > 0 {
		t.Skipf("this machine has %v", m)
	}
	for _, name := range []string{"en_US.UTF-8", "de_DE.ISO-8859-1", "deutsch"} {
		if installed, _ := localeCharset(name, env()); installed {
			t.Errorf("localeCharset(%q) installed, glibc: not", name)
		}
	}
}

// TestLocaleCharsetLocpath searches a LOCPATH holding copies of C.utf8
// under other names.
func TestLocaleCharsetLocpath(t *testing.T) {
	needSystemCUTF8(t)
	root := t.TempDir()
	lp := filepath.Join(root, "lp")
	for _, name := range []string{"my_LOCALE.utf8", "plain", "xx_YY", "zz@mod"} {
		copyDir(t, systemCUTF8, filepath.Join(lp, name))
	}
	lf := systemLocaleFiles()
	lf.archive = root + "/no-archive"
	checkLoads(t, lf, env("LOCPATH", lp), []loadCase{
		{"my_LOCALE.utf8", "UTF-8 6"},
		{"my_LOCALE.UTF-8", "UTF-8 6"}, // the normalised codeset
		{"my_LOCALE.utf-8", "UTF-8 6"},
		{"my_LOCALE", ""}, // a codeset is dropped, never added
		{"my_LOCALE.latin1", ""},
		{"plain", "UTF-8 6"},
		{"plain.utf8", "UTF-8 6"},
		{"plain.UTF-8", "UTF-8 6"},
		{"plain.ISO-8859-1", ""}, // plain is found, but its charset is not ISO-8859-1
		{"plain.", ""},           // nor the empty one
		{"plain.@x", ""},
		{"plain@euro", "UTF-8 6"},
		{"plain_XX", "UTF-8 6"},
		{"plain_XX.UTF-8@x", "UTF-8 6"},
		{"xx_YY", "UTF-8 6"},
		{"xx_YY.ISO-8859-1", ""},
		{"xx_YY.utf8", "UTF-8 6"},
		{"zz", ""}, // a modifier is not added either
		{"zz@mod", "UTF-8 6"},
		{"zz_QQ@mod", "UTF-8 6"},
		{"zz.utf8@mod", "UTF-8 6"},
		{"C.utf8", "UTF-8 6"}, // /usr/lib/locale comes after LOCPATH
		{"C", "ANSI_X3.4-1968 1"},
		{"POSIX", "ANSI_X3.4-1968 1"},
	})

	// Names that are paths, when the path itself has no '_', '.' or '@'
	// to be taken for parts of the name.
	if strings.ContainsAny(lp, "_.@") {
		t.Skipf("%s looks like a locale name", lp)
	}
	// A name starting with '/' is still looked for under each directory:
	checkLoads(t, lf, env("LOCPATH", lp), []loadCase{{lp + "/plain", ""}})
	// an empty element at the end of LOCPATH is the directory "": a name
	// that starts with '/' is then a path. Empty elements elsewhere vanish.
	checkLoads(t, lf, env("LOCPATH", ":"), []loadCase{{lp + "/plain", "UTF-8 6"}, {lp + "/my_LOCALE.UTF-8", "UTF-8 6"}, {"C.utf8", "UTF-8 6"}})
	checkLoads(t, lf, env("LOCPATH", root+"/none:"), []loadCase{{lp + "/plain", "UTF-8 6"}})
	checkLoads(t, lf, env("LOCPATH", ":"+root+"/none"), []loadCase{{lp + "/plain", ""}})
	checkLoads(t, lf, env("LOCPATH", root+"/none::"+lp), []loadCase{{"plain", "UTF-8 6"}, {lp + "/plain", ""}})

	// A relative LOCPATH is relative to the working directory.
	t.Chdir(root)
	checkLoads(t, lf, env("LOCPATH", "lp"), []loadCase{{"plain", "UTF-8 6"}})
	checkLoads(t, lf, env("LOCPATH", "."), []loadCase{{"plain", ""}, {"lp/plain", ""}})
}

// ctypeScenario writes a LOCPATH of damaged LC_CTYPE files; it reports
// whether it could make the FIFO.
func ctypeScenario(t testing.TB, lp string) (fifo bool) {
	good := fakeCtype("UTF-8", 6) // 364 bytes, the string at 356
	files := map[string][]byte{
		"good":       good,
		"t0":         good[:0],
		"t7":         good[:7],
		"t8":         good[:8],
		"t352":       good[:352], // the table does not fit
		"t355":       good[:355], // the string's offset is past the end
		"t356":       good[:356], // at the end: an empty string
		"t358":       good[:358],
		"t361":       good[:361], // no NUL: the end of the file ends it
		"badmagic":   setWord(good, 0, ctypeMagic+1),
		"n85":        setWord(good, 4, 85),
		"nhuge":      setWord(good, 4, 1<<30),
		"misaligned": setItem(good, ctypeMbCurMax, 353),      // a word must be 4-aligned
		"nonascii":   setItem(good, 70, 354),                 // MAP_TO_NONASCII is a word too
		"oddstring":  setItem(good, ctypeCodesetName, 357),   // a string need not be aligned
		"pastend":    setItem(good, 80, uint32(len(good)+1)), // every offset is checked
		"atend":      setItem(good, 80, uint32(len(good))),
		"mb1":        fakeCtype("UTF-8", 1),
		"lower":      fakeCtype("utf-8", 6),
		"eucjp":      fakeCtype("EUC-JP", 3),
		"latin1":     fakeCtype("ISO-8859-1", 1),
	}
	// Ninety items: the four past LC_CTYPE's 86 are strings, unchecked
	// for alignment.
	table := 8 + 4*ctypeItems
	extra := setWord(good, 4, 90)
	extra = append(extra[:table:table], append([]byte{1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0}, extra[table:]...)...)
	for i := 0; i < ctypeItems; i++ {
		extra = setItem(extra, i, binary.NativeEndian.Uint32(extra[8+4*i:])+16)
	}
	files["extra"] = extra
	for name, data := range files {
		writeFile(t, filepath.Join(lp, name, "LC_CTYPE"), data)
	}
	writeFile(t, filepath.Join(lp, "sys", "LC_CTYPE", "SYS_LC_CTYPE"), good)
	if err := os.MkdirAll(filepath.Join(lp, "emptydir", "LC_CTYPE"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(lp, "link"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(lp, "good", "LC_CTYPE"), filepath.Join(lp, "link", "LC_CTYPE")); err != nil {
		t.Skipf("symlink: %v", err)
	}
	// glibc blocks for ever opening a FIFO.
	if err := os.MkdirAll(filepath.Join(lp, "fifo"), 0o755); err != nil {
		t.Fatal(err)
	}
	return exec.Command("mkfifo", filepath.Join(lp, "fifo", "LC_CTYPE")).Run() == nil
}

// TestLocaleCharsetCtypeFiles loads damaged LC_CTYPE files.
func TestLocaleCharsetCtypeFiles(t *testing.T) {
	lp := t.TempDir()
	fifo := ctypeScenario(t, lp)
	lf := hermeticFiles(t, t.TempDir())
	cases := []loadCase{
		{"good", "UTF-8 6"},
		{"t0", ""}, {"t7", ""}, {"t8", ""}, {"t352", ""}, {"t355", ""},
		{"t356", " 6"}, {"t358", "UT 6"}, {"t361", "UTF-8 6"},
		{"badmagic", ""}, {"n85", ""}, {"nhuge", ""}, {"misaligned", ""}, {"nonascii", ""},
		{"oddstring", "TF-8 6"}, {"pastend", ""}, {"atend", "UTF-8 6"}, {"extra", "UTF-8 6"},
		{"mb1", "UTF-8 1"}, {"lower", "utf-8 6"}, {"eucjp", "EUC-JP 3"}, {"latin1", "ISO-8859-1 1"},
		{"sys", "UTF-8 6"}, {"emptydir", ""}, {"link", "UTF-8 6"},
		{"good.UTF-8", "UTF-8 6"}, {"lower.UTF-8", "utf-8 6"}, {"lower.utf8", "utf-8 6"},
	}
	if fifo {
		cases = append(cases, loadCase{"fifo", ""}) // not installed, here
	}
	checkLoads(t, lf, env("LOCPATH", lp), cases)

	// What the caller is told: UTF-8 takes characters of more than one
	// byte and a charset iconv calls UTF-8.
	for name, want := range map[string]bool{"good": true, "lower": true, "mb1": false, "eucjp": false, "latin1": false, "t358": false} {
		if installed, utf8 := lf.charset(name, env("LOCPATH", lp)); !installed || utf8 != want {
			t.Errorf("charset(%q) = %v, %v; want true, %v", name, installed, utf8, want)
		}
	}
}

// gconvScenario writes a LOCPATH with three locales and, for each way
// glibc can know charset aliases, a gconv directory: "builtin" empty
// (iconv's built-in aliases only), "text" with gconv-modules files,
// "gconvpath" the same plus a GCONV_PATH directory read first.
func gconvScenario(t testing.TB, root string) {
	writeFile(t, root+"/lp/plain/LC_CTYPE", fakeCtype("UTF-8", 6))
	writeFile(t, root+"/lp/de_DE/LC_CTYPE", fakeCtype("ISO-8859-1", 1))
	writeFile(t, root+"/lp/ja/LC_CTYPE", fakeCtype("EUC-JP", 3))
	if err := os.MkdirAll(root+"/builtin", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{root + "/text", root + "/gconvpath"} {
		writeFile(t, dir+"/gconv-modules", []byte(`# aliases map to a module's name, which is not looked up again
alias	FOO//	ISO-8859-1//
alias	BAR//	ISO-10646/UTF8/
alias	LATIN1//	UTF-8//
module	ZZZ//	INTERNAL	zzz	1
alias	ZZZ//	ISO-8859-1//
  alias  lowercase// iso-8859-1// # comment
alias	NOTO//
module	ONLYTWO//	INTERNAL
alias	ONLYTWO//	ISO-8859-1//
`))
		writeFile(t, dir+"/gconv-modules.d/extra.conf", []byte("alias L1// ISO-8859-1//\nalias EUCJP// EUC-JP//\n"))
		writeFile(t, dir+"/gconv-modules.d/ignored.txt", []byte("alias UJIS// EUC-JP//\n"))
	}
	writeFile(t, root+"/extra/gconv-modules", []byte("alias LATIN1// ISO-8859-1//\n"))
}

func TestLocaleCharsetGconv(t *testing.T) {
	root := t.TempDir()
	gconvScenario(t, root)
	lp := root + "/lp"
	names := []string{
		"plain.UTF8", "plain.utf8", "plain.ISO-IR-193", "plain.OSF05010001", "plain.ISO-10646", "plain.FOO",
		"plain.BAR", "plain.LATIN1", "de_DE.l1", "de_DE.LATIN1", "de_DE.FOO", "de_DE.lowercase", "de_DE.zzz",
		"de_DE.NOTO", "de_DE.ONLYTWO", "de_DE.ISO8859-1", "de_DE.ISO-8859-1", "de_DE.UTF-8", "ja.EUC-JP",
		"ja.EUCJP", "ja.ujis", "ja.eucJP",
	}
	scenarios := []struct {
		dir, gconvPath string
		ok             string // the names glibc loads
	}{
		{"builtin", "", "plain.UTF8 plain.utf8 plain.ISO-IR-193 plain.OSF05010001 de_DE.ISO-8859-1 ja.EUC-JP"},
		{"text", "", "plain.UTF8 plain.utf8 plain.ISO-IR-193 plain.OSF05010001 plain.BAR de_DE.l1 de_DE.FOO de_DE.lowercase de_DE.ONLYTWO de_DE.ISO-8859-1 ja.EUC-JP ja.EUCJP ja.eucJP"},
		{"gconvpath", root + "/extra", "plain.UTF8 plain.utf8 plain.ISO-IR-193 plain.OSF05010001 plain.BAR de_DE.l1 de_DE.LATIN1 de_DE.FOO de_DE.lowercase de_DE.ONLYTWO de_DE.ISO-8859-1 ja.EUC-JP ja.EUCJP ja.eucJP"},
	}
	want := map[string]string{"plain": "UTF-8 6", "de_DE": "ISO-8859-1 1", "ja": "EUC-JP 3"}
	for _, sc := range scenarios {
		lf := hermeticFiles(t, t.TempDir())
		lf.gconvDirs = []string{root + "/" + sc.dir}
		var cases []loadCase
		for _, n := range names {
			tc := loadCase{name: n}
			if strings.Contains(" "+sc.ok+" ", " "+n+" ") {
				tc.want = want[n[:strings.IndexByte(n, '.')]]
			}
			cases = append(cases, tc)
		}
		t.Run(sc.dir, func(t *testing.T) {
			checkLoads(t, lf, env("LOCPATH", lp, "GCONV_PATH", sc.gconvPath), cases)
		})
	}

	// This machine's gconv-modules.cache, as glibc uses it.
	sys := systemLocaleFiles()
	cache := sys.gconvDir() + "/gconv-modules.cache"
	if _, err := os.Stat(cache); err != nil {
		t.Skipf("no iconv cache: %v", err)
	}
	lf := hermeticFiles(t, t.TempDir())
	lf.gconvDirs = []string{filepath.Dir(cache)}
	checkLoads(t, lf, env("LOCPATH", lp), []loadCase{
		{"plain.UTF8", "UTF-8 6"}, {"plain.utf8", "UTF-8 6"}, {"plain.ISO-IR-193", "UTF-8 6"}, {"plain.FOO", ""},
		{"plain.LATIN1", ""}, {"de_DE.l1", "ISO-8859-1 1"}, {"de_DE.LATIN1", "ISO-8859-1 1"}, {"de_DE.ISO8859-1", "ISO-8859-1 1"},
		{"de_DE.CP819", "ISO-8859-1 1"}, {"de_DE.88591", ""}, {"de_DE.UTF-8", ""}, {"ja.EUCJP", "EUC-JP 3"}, {"ja.ujis", "EUC-JP 3"},
	})
}

// archiveLocale is one name in a synthetic archive, with its LC_CTYPE.
type archiveLocale struct {
	name  string
	ctype []byte
}

// buildArchive writes a locale archive as localedef lays one out: the
// header, a name hash table of hashSize slots, the names, the locale
// records, the data. Every category of a locale points at its LC_CTYPE
// (glibc refuses the other categories' data, which LC_CTYPE_MASK does
// not need).
func buildArchive(locales []archiveLocale, hashSize int) []byte {
	align := func(n int) int { return (n + 15) &^ 15 }
	hashOff := archiveHeadSize
	strOff := hashOff + hashSize*archiveEntrySize
	var strs []byte
	nameOffs := make([]int, len(locales))
	for i, l := range locales {
		nameOffs[i] = strOff + len(strs)
		strs = append(append(strs, l.name...), 0)
	}
	recOff := align(strOff + len(strs))
	dataOff := align(recOff + len(locales)*archiveRecordSize)
	dataOffs := make([]int, len(locales))
	end := dataOff
	for i, l := range locales {
		dataOffs[i] = end
		end = align(end + len(l.ctype))
	}
	b := make([]byte, end)
	ne := binary.NativeEndian
	for i, v := range []int{0xde020109, 0, hashOff, len(locales), hashSize, strOff, len(strs), len(strs), recOff, len(locales), len(locales)} {
		ne.PutUint32(b[4*i:], uint32(v))
	}
	copy(b[strOff:], strs)
	for i, l := range locales {
		h := archiveHash(l.name)
		idx, incr := int(h%uint32(hashSize)), int(1+h%uint32(hashSize-2))
		for ne.Uint32(b[hashOff+idx*archiveEntrySize+4:]) != 0 {
			if idx += incr; idx >= hashSize {
				idx -= hashSize
			}
		}
		e := b[hashOff+idx*archiveEntrySize:]
		ne.PutUint32(e[0:], h)
		ne.PutUint32(e[4:], uint32(nameOffs[i]))
		ne.PutUint32(e[8:], uint32(recOff+i*archiveRecordSize))
		r := b[recOff+i*archiveRecordSize:]
		ne.PutUint32(r, 1)
		for c := 0; c < lcCategories; c++ {
			if c != lcAll {
				ne.PutUint32(r[4+8*c:], uint32(dataOffs[i]))
				ne.PutUint32(r[8+8*c:], uint32(len(l.ctype)))
			}
		}
		copy(b[dataOffs[i]:], l.ctype)
	}
	return b
}

// archiveScenario writes root/locale (an archive and two locale
// directories) and root/locale.alias.
func archiveScenario(t testing.TB, root string) []byte {
	archive := buildArchive([]archiveLocale{
		{"en_US.utf8", fakeCtype("UTF-8", 6)},
		{"de_DE.iso88591", fakeCtype("ISO-8859-1", 1)},
		{"ja_JP.eucjp", fakeCtype("EUC-JP", 3)},
		{"xx_XX", fakeCtype("UTF-8", 6)},
		{"mismatch.utf8", fakeCtype("ISO-8859-1", 1)},
		{"Bad.utf8", setWord(fakeCtype("UTF-8", 6), 0, 0)},
	}, 13)
	writeFile(t, root+"/locale/locale-archive", archive)
	writeFile(t, root+"/locale/Bad.utf8/LC_CTYPE", fakeCtype("KOI8-R", 1))
	writeFile(t, root+"/locale/u8/LC_CTYPE", fakeCtype("UTF-8", 6))
	writeFile(t, root+"/locale.alias", []byte(`# locale.alias
deutsch		de_DE.ISO-8859-1
japanese	ja_JP.eucJP
  dirAlias	u8	trailing words
#comment	en_US.UTF-8
onlyname
cut`+strings.Repeat(" ", 394)+`u8junk
x`+strings.Repeat(" ", 398)+`rest u8
`))
	return archive
}

func TestLocaleCharsetArchive(t *testing.T) {
	root := t.TempDir()
	archive := archiveScenario(t, root)
	lf := hermeticFiles(t, root+"/locale")
	lf.archive = root + "/locale/locale-archive"
	lf.aliases = []string{root + "/locale.alias"}
	checkLoads(t, lf, env(), []loadCase{
		{"en_US.utf8", "UTF-8 6"},
		{"en_US.UTF-8", "UTF-8 6"}, // looked up normalised
		{"en_US.UTF8", "UTF-8 6"},
		{"en_US", ""},       // the archive holds exact names only
		{"en_US@euro", ""},  //
		{"en_GB.UTF-8", ""}, //
		{"EN_US.utf8", ""},
		{"de_DE.ISO-8859-1", "ISO-8859-1 1"},
		{"de_DE.88591", "ISO-8859-1 1"},
		{"de_DE.LATIN1", ""},
		{"de_DE", ""},
		{"ja_JP.EUC-JP", "EUC-JP 3"},
		{"xx_XX", "UTF-8 6"},
		{"xx_XX.utf8", ""},
		{"mismatch.utf8", "ISO-8859-1 1"}, // no codeset check for the archive
		{"mismatch.UTF-8", "ISO-8859-1 1"},
		{"Bad.utf8", ""}, // its LC_CTYPE is damaged: the directory is found, but it is KOI8-R
		{"Bad", ""},
		{"deutsch", "ISO-8859-1 1"}, // aliases, ignoring case
		{"DEUTSCH", "ISO-8859-1 1"},
		{"japanese", "EUC-JP 3"},
		{"dirAlias", "UTF-8 6"}, // an alias for a directory
		{"#comment", ""},
		{"onlyname", ""},
		{"cut", "UTF-8 6"}, // glibc reads 399 bytes of a line: the alias is u8
		{"rest", ""},       // and skips the rest
		{"u8", "UTF-8 6"},
		{"u8.UTF-8", "UTF-8 6"},
		{"LC_CTYPE=deutsch;LC_TIME=C", "ISO-8859-1 1"},
	})
	// With LOCPATH set the archive is not read, and aliases come first.
	checkLoads(t, lf, env("LOCPATH", t.TempDir()), []loadCase{
		{"en_US.UTF-8", ""}, {"deutsch", ""}, {"dirAlias", "UTF-8 6"}, {"u8", "UTF-8 6"}, {"Bad.utf8", ""},
	})

	// Damaged archives, asked for en_US.UTF-8.
	for _, d := range damagedArchives(archive) {
		dir := t.TempDir()
		writeFile(t, dir+"/locale-archive", d.data)
		dl := hermeticFiles(t, dir)
		dl.archive = dir + "/locale-archive"
		if got := describe(dl.load("en_US.UTF-8", env())); got != d.want {
			t.Errorf("%s: load(en_US.UTF-8) = %q, glibc: %q", d.name, got, d.want)
		}
	}
}

type damagedArchive struct {
	name string
	data []byte
	want string // en_US.UTF-8's LC_CTYPE
}

func damagedArchives(archive []byte) []damagedArchive {
	ne := binary.NativeEndian
	word := func(at int) int { return int(ne.Uint32(archive[at:])) }
	hashOff, hashSize := word(8), word(16)
	entry := -1 // en_US.utf8's slot
	for i := 0; i < hashSize; i++ {
		if no := word(hashOff + 12*i + 4); no != 0 && bytes.HasPrefix(archive[no:], []byte("en_US.utf8\x00")) {
			entry = hashOff + 12*i
		}
	}
	record := word(entry + 8)
	full := bytes.Clone(archive) // every slot taken, none en_US.utf8: glibc searches for ever
	for i := 0; i < hashSize; i++ {
		if ne.Uint32(full[hashOff+12*i+4:]) == 0 {
			ne.PutUint32(full[hashOff+12*i:], 1)
			ne.PutUint32(full[hashOff+12*i+4:], uint32(word(20)))
		}
	}
	ne.PutUint32(full[entry:], 1)
	return []damagedArchive{
		{"intact", archive, "UTF-8 6"},
		{"empty", nil, ""},
		{"short header", archive[:30], ""},
		{"header only", archive[:archiveHeadSize], ""},
		{"cut in the tables", archive[:word(20)], ""},
		{"cut in its LC_CTYPE", archive[:word(record+4)+100], ""},
		{"cut in another locale", archive[:len(archive)-200], "UTF-8 6"}, // only the locale found is checked
		{"no magic", setWord(archive, 0, 0), "UTF-8 6"},                  // glibc does not check it
		{"hash size 2", setWord(archive, 16, 2), ""},
		{"hash size 0", setWord(archive, 16, 0), ""},
		{"strings past the end", setWord(archive, 24, uint32(len(archive))), ""},
		{"string sum wraps", setWord(archive, 24, uint32(1<<32-word(20)+10)), "UTF-8 6"}, // glibc sums in 32 bits
		{"records past the end", setWord(archive, 36, uint32(len(archive))), ""},
		{"hash value differs", setWord(archive, entry, 1), ""},
		{"name past the end", setWord(archive, entry+4, uint32(len(archive)-3)), ""},
		{"no record", setWord(archive, entry+8, 0), ""},
		{"LC_CTYPE past the end", setWord(archive, record+4, uint32(len(archive))), ""},
		{"LC_TIME past the end", setWord(archive, record+4+2*8+4, uint32(len(archive))), ""},
		{"LC_ALL slot", setWord(setWord(archive, record+4+6*8, 0xffffff00), record+8+6*8, 0xffffff00), "UTF-8 6"},
		{"LC_CTYPE too short", setWord(archive, record+8, 100), ""},
		{"sum wraps", setWord(setWord(archive, record+4+8, 0xffffff00), record+8+8, 0x200), ""}, // glibc crashes
		{"full table", full, ""},
	}
}

// TestLocaleCharsetLocaledef builds real locales with localedef, as
// directories in a LOCPATH and in an archive of their own, when this
// machine can (Debian's locales package gives the sources).
func TestLocaleCharsetLocaledef(t *testing.T) {
	if testing.Short() {
		t.Skip("localedef takes seconds")
	}
	localedef, err := exec.LookPath("localedef")
	if err != nil {
		t.Skip("no localedef")
	}
	root := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(localedef, args...).CombinedOutput(); err != nil {
			t.Skipf("localedef %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	lp := root + "/lp"
	if err := os.MkdirAll(lp, 0o755); err != nil {
		t.Fatal(err)
	}
	run("-i", "de_DE", "-f", "ISO-8859-1", lp+"/de_DE.ISO-8859-1")
	run("-i", "en_US", "-f", "UTF-8", lp+"/en_US.UTF-8")
	run("-i", "ja_JP", "-f", "EUC-JP", lp+"/ja_JP.EUC-JP")
	copyDir(t, lp+"/de_DE.ISO-8859-1", lp+"/de_DE")
	prefix := root + "/prefix"
	if err := os.MkdirAll(prefix+"/usr/lib/locale", 0o755); err != nil {
		t.Fatal(err)
	}
	run("--prefix="+prefix, "-i", "en_US", "-f", "UTF-8", "en_US.UTF-8")
	run("--prefix="+prefix, "-i", "de_DE", "-f", "ISO-8859-1", "de_DE.ISO-8859-1")
	run("--prefix="+prefix, "-i", "de_DE", "-f", "ISO-8859-15", "de_DE@euro")
	run("--prefix="+prefix, "-i", "fr_FR", "-f", "UTF-8", "fr_FR")

	aliases := root + "/locale.alias"
	writeFile(t, aliases, []byte("deutsch de_DE.ISO-8859-1\njapanese ja_JP.eucJP\nja_JP ja_JP.eucJP\n"))
	lf := systemLocaleFiles()
	lf.archive = root + "/no-archive"
	lf.aliases = []string{aliases}
	checkLoads(t, lf, env("LOCPATH", lp), []loadCase{
		{"de_DE.ISO-8859-1", "ISO-8859-1 1"}, {"de_DE.iso88591", "ISO-8859-1 1"}, {"de_DE.ISO8859-1", "ISO-8859-1 1"},
		{"de_DE.LATIN1", "ISO-8859-1 1"}, {"de_DE.l1", "ISO-8859-1 1"}, {"de_DE.88591", ""}, {"de_DE", "ISO-8859-1 1"},
		{"de_DE@euro", "ISO-8859-1 1"}, {"de_DE.UTF-8", ""}, {"deutsch", "ISO-8859-1 1"},
		{"en_US.UTF-8", "UTF-8 6"}, {"en_US.utf8", ""}, {"en_US", ""}, // a directory keeps localedef's name as given
		{"ja_JP.EUC-JP", "EUC-JP 3"}, {"ja_JP.eucJP", ""}, {"ja_JP", ""}, {"japanese", ""},
	})

	lf = systemLocaleFiles()
	lf.archive = prefix + "/usr/lib/locale/locale-archive"
	lf.dir = prefix + "/usr/lib/locale"
	lf.aliases = []string{aliases}
	checkLoads(t, lf, env(), []loadCase{
		{"en_US.UTF-8", "UTF-8 6"}, {"en_US.utf8", "UTF-8 6"}, {"en_US", ""},
		{"de_DE.ISO-8859-1", "ISO-8859-1 1"}, {"de_DE.88591", "ISO-8859-1 1"}, {"de_DE.LATIN1", ""}, {"de_DE", ""},
		{"de_DE@euro", "ISO-8859-15 1"}, {"de_DE.ISO-8859-15@euro", "ISO-8859-15 1"}, {"de_DE.latin9@euro", ""},
		{"fr_FR", "UTF-8 6"}, {"fr_FR.UTF-8", "UTF-8 6"}, {"fr", ""}, {"deutsch", "ISO-8859-1 1"},
	})
}

func TestLocaleNameParts(t *testing.T) {
	n := splitLocaleName("de_DE.UTF-8@euro")
	var variants []string
	for mask := n.parts; mask >= 0; mask-- {
		if mask&^n.parts == 0 && mask&(xpgCodeset|xpgNormCodeset) != xpgCodeset|xpgNormCodeset {
			variants = append(variants, n.variant(mask))
		}
	}
	want := "de_DE.UTF-8@euro de_DE.utf8@euro de_DE@euro de.UTF-8@euro de.utf8@euro de@euro de_DE.UTF-8 de_DE.utf8 de_DE de.UTF-8 de.utf8 de"
	if got := strings.Join(variants, " "); got != want {
		t.Errorf("variants:\n%s\nwant\n%s", got, want)
	}
	for in, want := range map[string]string{"UTF-8": "utf8", "ISO_8859-1": "iso88591", "8859-1": "iso88591", "-": "iso", "eucJP": "eucjp"} {
		if got := normalizeCodeset(in); got != want {
			t.Errorf("normalizeCodeset(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"utf8": "UTF8//", "UTF-8": "UTF-8//", "": "//", "iso-10646/utf8": "ISO-10646/UTF8/", "a/b/c/d": "A/B/C", "é x": "X//"} {
		if got := stripCharset(in); got != want {
			t.Errorf("stripCharset(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"en_US.UTF-8": "en_US.utf8", "en_US.UTF-8@euro": "en_US.utf8@euro", "en_US": "en_US", "en_US.": "en_US.", "en_US.@x": "en_US.@x", "en@x.UTF-8": "en@x.utf8"} {
		if got := archiveName(in); got != want {
			t.Errorf("archiveName(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"a": "a", "a:b": "a b", "a::b": "a b", ":a": "a", "a:": "a ''", ":": "''", "::": "''"} {
		var got []string
		for _, d := range splitLocpath(in) {
			if d == "" {
				d = "''"
			}
			got = append(got, d)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("splitLocpath(%q) = %q, want %q", in, got, want)
		}
	}
}

// The parsers of untrusted files must not panic, loop or read past the
// data they are given.
func FuzzLocaleCtype(f *testing.F) {
	f.Add(fakeCtype("UTF-8", 6))
	f.Add(fakeCtype("ISO-8859-1", 1)[:300])
	f.Fuzz(func(t *testing.T, data []byte) {
		readCtype(bytes.NewReader(data), 0, int64(len(data)), int64(len(data)))
		if len(data) > 8 {
			readCtype(bytes.NewReader(data), 8, int64(len(data))-8, int64(len(data)))
		}
	})
}

func FuzzLocaleArchive(f *testing.F) {
	f.Add(buildArchive([]archiveLocale{{"en_US.utf8", fakeCtype("UTF-8", 6)}}, 5), "en_US.utf8")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		archiveLookup(bytes.NewReader(data), int64(len(data)), name)
	})
}

func FuzzLocaleGconvCache(f *testing.F) {
	if data, err := os.ReadFile(systemLocaleFiles().gconvDir() + "/gconv-modules.cache"); err == nil {
		f.Add(data, "UTF-8//")
	}
	f.Add(make([]byte, 16), "X")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		if c, ok := parseGconvCache(data, int64(len(data))); ok {
			c.module(name)
		}
	})
}
