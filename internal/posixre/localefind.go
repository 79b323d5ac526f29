package posixre

// Finding a locale the way glibc does, without the C library.
//
// git's main calls setlocale(LC_CTYPE, ""); the cgo build of this
// package loads the same name with newlocale(LC_CTYPE_MASK, name, 0).
// localeCharset answers, from the files alone, the two questions that
// decide how git's regular expressions see characters: does glibc 2.36
// load an LC_CTYPE for this name (if not, git stays in the C locale), and
// is that LC_CTYPE's character set UTF-8. The rules, in glibc's order
// (locale/newlocale.c, locale/findlocale.c):
//
//  1. "C" and "POSIX" are built in and always load; so, here, does ""
//     (glibc would read the environment; our callers never pass it).
//     A name holding ';' is a composite, "LC_CTYPE=en_US.UTF-8;LC_TIME=C":
//     every clause must name a category and LC_CTYPE must be among
//     them, else newlocale fails (EINVAL); an empty LC_CTYPE= is C here.
//     (git's setlocale(LC_CTYPE, "") does not split composites: for it
//     the whole string is one name, which no locale has.)
//  2. A name longer than 255 bytes, or one that could climb directories
//     ("..", "../x", "x/..", "x/../y", or any '/' not at the start), is
//     refused (EINVAL). C.utf8 is not special in glibc 2.36: Debian
//     ships it as the directory /usr/lib/locale/C.utf8.
//  3. Without LOCPATH: the locale archive /usr/lib/locale/locale-archive
//     is searched for the name with its codeset normalised (lower case,
//     letters and digits only, "iso" before an all-digit one:
//     en_US.UTF-8 -> en_US.utf8), then for its alias from
//     /usr/share/locale/locale.alias (case-insensitive), normalised the
//     same way. The archive holds exact names only; an archive hit is
//     used as it is, with no codeset check.
//  4. Otherwise (or with LOCPATH set, which skips the archive entirely
//     and expands the alias before anything else) directories are
//     searched: each of LOCPATH's ':'-separated directories, then
//     /usr/lib/locale, for <dir>/<variant>/LC_CTYPE (a directory there
//     means its SYS_LC_CTYPE file). The variants of
//     language_territory.codeset@modifier are tried from the most
//     specific down: modifier kept longest, then territory, then the
//     codeset as written, then normalised (intl/l10nflist.c): for
//     de_DE.UTF-8@euro that is de_DE.UTF-8@euro, de_DE.utf8@euro,
//     de_DE@euro, de.UTF-8@euro, de.utf8@euro, de@euro, de_DE.UTF-8,
//     de_DE.utf8, de_DE, de.UTF-8, de.utf8, de; for each variant every
//     directory in turn. A modifier is never added, only dropped.
//  5. If the name had a codeset, the first file found must carry the
//     same character set, as iconv's configuration names them (its
//     alias table, gconv-modules.cache or gconv-modules): C.UTF8 finds
//     C.utf8 (UTF-8) and loads, xx_YY.ISO-8859-1 that finds only xx_YY
//     (UTF-8) fails; the search does not go on to the next variant.
//
// The LC_CTYPE data, in a file or an archive record, is a header (magic
// 0x20090720, a count of items) and a table of item offsets; glibc
// refuses it when the magic is wrong, there are fewer than its 86 items,
// the table does not fit, an offset points past the end or a word item
// is not 4-aligned (locale/loadlocale.c). Item 13 is MB_CUR_MAX, item 14
// the codeset name (locale/langinfo.h). The charset is UTF-8 when
// MB_CUR_MAX is above 1 and the codeset name is UTF-8 to iconv; glibc's
// UTF-8 locales say "UTF-8" and 6.
//
// Everything is read with ReadAt, in pieces no larger than the files,
// and nothing is written. Where corrupt data would crash glibc or make it
// loop for ever (an offset outside the archive, a full hash table, a
// FIFO in place of a file) the locale counts as not installed.
//
// Left out: the 32-bit mapping window of the archive, setuid programs
// (for which glibc ignores LOCPATH and GCONV_PATH), a GCONV_PATH set to
// the empty string (getenv cannot tell it from unset), and which of two
// alias lines for the same name wins (the first, here; glibc's bsearch
// may pick either).

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
	"runtime"
	"strings"
)

// localeCharset reports how glibc's newlocale(LC_CTYPE_MASK, name, 0) would load the locale called name:
// installed false when it would fail (the caller then uses the C locale); utf8 true when the loaded LC_CTYPE's charset is UTF-8.
func localeCharset(name string, getenv func(string) string) (installed, utf8 bool) {
	return systemLocaleFiles().charset(name, getenv)
}

// localeFiles names the files glibc consults to load a locale; tests
// point them elsewhere.
type localeFiles struct {
	archive   string   // COMPLOCALEDIR "/locale-archive"
	dir       string   // COMPLOCALEDIR, searched after LOCPATH's directories
	aliases   []string // LOCALE_ALIAS_PATH's locale.alias files
	gconvDirs []string // GCONV_DIR, the iconv configuration (the first that exists)
}

func systemLocaleFiles() *localeFiles {
	gconv := []string{"/usr/lib64/gconv", "/usr/lib/gconv"}
	if t, ok := multiarchTriplets[runtime.GOARCH]; ok {
		gconv = append([]string{"/usr/lib/" + t + "/gconv"}, gconv...)
	}
	return &localeFiles{
		archive:   "/usr/lib/locale/locale-archive",
		dir:       "/usr/lib/locale",
		aliases:   []string{"/usr/share/locale/locale.alias"},
		gconvDirs: gconv,
	}
}

// multiarchTriplets maps GOARCH to the directory under /usr/lib where
// Debian's glibc keeps gconv.
var multiarchTriplets = map[string]string{
	"amd64":    "x86_64-linux-gnu",
	"386":      "i386-linux-gnu",
	"arm64":    "aarch64-linux-gnu",
	"arm":      "arm-linux-gnueabihf",
	"ppc64le":  "powerpc64le-linux-gnu",
	"ppc64":    "powerpc64-linux-gnu",
	"s390x":    "s390x-linux-gnu",
	"riscv64":  "riscv64-linux-gnu",
	"mips64le": "mips64el-linux-gnuabi64",
	"mipsle":   "mipsel-linux-gnu",
	"loong64":  "loongarch64-linux-gnu",
}

func (lf *localeFiles) charset(name string, getenv func(string) string) (installed, utf8 bool) {
	c, ok := lf.load(name, getenv)
	if !ok {
		return false, false
	}
	return true, c.isUTF8(lf, getenv)
}

// cLocale is the built-in C locale's LC_CTYPE.
var cLocale = ctypeInfo{codeset: "ANSI_X3.4-1968", mbCurMax: 1}

// load finds and reads the LC_CTYPE that newlocale would load for name.
func (lf *localeFiles) load(name string, getenv func(string) string) (ctypeInfo, bool) {
	if i := strings.IndexByte(name, 0); i >= 0 {
		name = name[:i] // the C string ends there
	}
	if strings.IndexByte(name, ';') >= 0 {
		ctype, ok := compositeCtype(name)
		if !ok {
			return ctypeInfo{}, false
		}
		name = ctype
	}
	if name == "" || name == "C" || name == "POSIX" {
		return cLocale, true
	}
	if !validLocaleName(name) {
		return ctypeInfo{}, false
	}
	var dirs []string
	if locpath := getenv("LOCPATH"); locpath == "" {
		if c, ok := lf.fromArchive(name); ok {
			return c, true
		}
		if alias, ok := lf.expandAlias(name); ok {
			if c, ok := lf.fromArchive(alias); ok {
				return c, true
			}
			name = alias
		}
		dirs = []string{lf.dir}
	} else {
		dirs = append(splitLocpath(locpath), lf.dir)
		if alias, ok := lf.expandAlias(name); ok {
			name = alias
		}
	}
	return lf.fromDirs(name, dirs, getenv)
}

// categoryNames are the names a composite locale name may give, all but
// LC_ALL.
var categoryNames = []string{
	"LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY",
	"LC_MESSAGES", "LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE",
	"LC_MEASUREMENT", "LC_IDENTIFICATION",
}

// compositeCtype returns the LC_CTYPE part of a composite name
// "CATEGORY=value;CATEGORY=value...": false when a clause names no
// category or LC_CTYPE is missing. Text after the last clause with an
// '=' is ignored, as newlocale does; a later LC_CTYPE wins.
func compositeCtype(name string) (string, bool) {
	ctype, found := "", false
	for rest := name; ; {
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			break
		}
		category, value := rest[:eq], rest[eq+1:]
		known := false
		for _, c := range categoryNames {
			known = known || c == category
		}
		if !known {
			return "", false
		}
		semi := strings.IndexByte(value, ';')
		if semi >= 0 {
			rest = value[semi+1:]
			value = value[:semi]
		}
		if category == "LC_CTYPE" {
			ctype, found = value, true
		}
		if semi < 0 {
			break
		}
	}
	return ctype, found
}

// validLocaleName refuses what glibc's findlocale.c refuses before it
// touches a file: over-long names and names that could leave the locale
// directory. A name with a '/' must start with one (and is then looked up
// under each directory like any other name).
func validLocaleName(name string) bool {
	switch {
	case len(name) > 255,
		strings.Contains(name, "/../"),
		name == "..",
		strings.HasPrefix(name, "../"),
		strings.HasSuffix(name, "/.."),
		strings.IndexByte(name, '/') >= 0 && name[0] != '/':
		return false
	}
	return true
}

// splitLocpath splits LOCPATH as glibc's argz_create_sep does: empty
// elements vanish, except that a trailing ':' leaves an empty directory
// "" (whose variants then resolve from the root: "/" + name).
func splitLocpath(locpath string) []string {
	var dirs []string
	for _, d := range strings.Split(locpath, ":") {
		if d != "" {
			dirs = append(dirs, d)
		}
	}
	if strings.HasSuffix(locpath, ":") {
		dirs = append(dirs, "")
	}
	return dirs
}

// normalizeCodeset is glibc's _nl_normalize_codeset: ASCII letters
// lowered and digits kept, everything else dropped, "iso" in front when
// no letter remains ("8859-1" -> "iso88591").
func normalizeCodeset(codeset string) string {
	var b strings.Builder
	letters := false
	for i := 0; i < len(codeset); i++ {
		switch c := codeset[i]; {
		case 'a' <= c && c <= 'z':
			letters = true
			b.WriteByte(c)
		case 'A' <= c && c <= 'Z':
			letters = true
			b.WriteByte(c + 'a' - 'A')
		case '0' <= c && c <= '9':
			b.WriteByte(c)
		}
	}
	if !letters {
		return "iso" + b.String()
	}
	return b.String()
}

// The parts of a locale name, as bits of a variant (intl/loadinfo.h).
const (
	xpgNormCodeset = 1 << iota
	xpgCodeset
	xpgTerritory
	xpgModifier
)

// localeName is a name split as language[_territory][.codeset][@modifier].
type localeName struct {
	language, territory, codeset, normCodeset, modifier string
	parts                                               int  // xpg bits of the parts present (and not empty)
	hasCodeset                                          bool // a '.' followed the language or territory, even with nothing after it
}

// splitLocaleName splits name as glibc's _nl_explode_name. A name that
// starts with '_', '.' or '@' has no language and is used whole.
func splitLocaleName(name string) localeName {
	n := localeName{language: name}
	end := strings.IndexAny(name, "_.@")
	if end <= 0 {
		return n
	}
	n.language, name = name[:end], name[end:]
	if name[0] == '_' {
		name = name[1:]
		i := strings.IndexAny(name, ".@")
		if i < 0 {
			i = len(name)
		}
		n.territory, name = name[:i], name[i:]
		if n.territory != "" {
			n.parts |= xpgTerritory
		}
	}
	if name != "" && name[0] == '.' {
		name = name[1:]
		i := strings.IndexByte(name, '@')
		if i < 0 {
			i = len(name)
		}
		n.codeset, name = name[:i], name[i:]
		n.hasCodeset = true
		if n.codeset != "" {
			n.parts |= xpgCodeset
			if norm := normalizeCodeset(n.codeset); norm != n.codeset {
				n.normCodeset = norm
				n.parts |= xpgNormCodeset
			}
		}
	}
	if name != "" && name[0] == '@' {
		n.modifier = name[1:]
		if n.modifier != "" {
			n.parts |= xpgModifier
		}
	}
	return n
}

// variant joins the parts in mask back into a name.
func (n *localeName) variant(mask int) string {
	s := n.language
	if mask&xpgTerritory != 0 {
		s += "_" + n.territory
	}
	if mask&xpgCodeset != 0 {
		s += "." + n.codeset
	}
	if mask&xpgNormCodeset != 0 {
		s += "." + n.normCodeset
	}
	if mask&xpgModifier != 0 {
		s += "@" + n.modifier
	}
	return s
}

// fromDirs searches dirs for name's variants, most specific first
// (every subset of the parts present, in decreasing order of the xpg
// bits; the codeset as written and normalised never together), each
// variant in every directory, and checks the codeset of the first
// LC_CTYPE found against the name's.
func (lf *localeFiles) fromDirs(name string, dirs []string, getenv func(string) string) (ctypeInfo, bool) {
	n := splitLocaleName(name)
	for mask := n.parts; mask >= 0; mask-- {
		if mask&^n.parts != 0 || mask&(xpgCodeset|xpgNormCodeset) == xpgCodeset|xpgNormCodeset {
			continue
		}
		v := n.variant(mask)
		for _, dir := range dirs {
			c, ok := loadCtypeFile(dir + "/" + v + "/LC_CTYPE")
			if !ok {
				continue
			}
			if n.hasCodeset && !lf.sameCharset(stripCharset(n.codeset), stripCharset(c.codeset), getenv) {
				return ctypeInfo{}, false
			}
			return c, true
		}
	}
	return ctypeInfo{}, false
}

// loadCtypeFile reads an LC_CTYPE file, or the SYS_LC_CTYPE inside it
// when it is a directory. Only regular files are read: glibc would block
// on a FIFO, and fails on devices (their size is 0).
func loadCtypeFile(path string) (ctypeInfo, bool) {
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		path += "/SYS_LC_CTYPE"
		st, err = os.Stat(path)
	}
	if err != nil || !st.Mode().IsRegular() {
		return ctypeInfo{}, false
	}
	f, err := os.Open(path)
	if err != nil {
		return ctypeInfo{}, false
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return ctypeInfo{}, false // glibc cannot mmap an empty file
	}
	return readCtype(f, 0, st.Size(), st.Size())
}

// ctypeInfo is what an LC_CTYPE says about its character set.
type ctypeInfo struct {
	codeset  string // _NL_CTYPE_CODESET_NAME, nl_langinfo(CODESET)
	mbCurMax uint32 // _NL_CTYPE_MB_CUR_MAX
}

// isUTF8 reports whether text in this LC_CTYPE is UTF-8 to the C
// library: characters of more than one byte, in a charset iconv calls
// UTF-8 (glibc's own UTF-8 locales say "UTF-8", which needs no lookup).
func (c ctypeInfo) isUTF8(lf *localeFiles, getenv func(string) string) bool {
	if c.mbCurMax <= 1 {
		return false
	}
	return c.codeset == "UTF-8" || lf.sameCharset(stripCharset(c.codeset), "UTF-8//", getenv)
}

// The LC_CTYPE data format (locale/localeinfo.h, locale/langinfo.h,
// locale/categories.def).
const (
	ctypeMagic       = 0x20090720 // LIMAGIC(LC_CTYPE)
	ctypeItems       = 86         // _NL_NUM_LC_CTYPE: fewer and glibc refuses the data
	ctypeMbCurMax    = 13         // _NL_CTYPE_MB_CUR_MAX, a word
	ctypeCodesetName = 14         // _NL_CTYPE_CODESET_NAME, a string
)

// ctypeWordItem reports whether item i of LC_CTYPE is a 32-bit word,
// whose offset glibc requires to be 4-aligned.
func ctypeWordItem(i int) bool {
	switch {
	case i == 13, i == 17, i == 18, i == 19, i == 30, // MB_CUR_MAX, CLASS_OFFSET, MAP_OFFSET, INDIGITS_MB_LEN, INDIGITS_WC_LEN
		51 <= i && i <= 61,                 // OUTDIGIT0_WC..OUTDIGIT9_WC, TRANSLIT_TAB_SIZE
		i == 66, i == 68, i == 70, i == 71: // TRANSLIT_DEFAULT_MISSING_LEN, TRANSLIT_IGNORE_LEN, MAP_TO_NONASCII, NONASCII_CASE
		return true
	}
	return false
}

// readCtype checks LC_CTYPE data of size bytes at base in r, a file of
// fileSize bytes, as glibc's _nl_intern_locale_data does, and reads its
// charset. Strings and words may run past the data, as glibc reads them
// in its mapping; past the end of the file they read as zero bytes.
func readCtype(r io.ReaderAt, base, size, fileSize int64) (ctypeInfo, bool) {
	var head [8]byte
	if size < int64(len(head)) || !readFull(r, head[:], base, fileSize) {
		return ctypeInfo{}, false
	}
	ne := binary.NativeEndian
	if ne.Uint32(head[0:]) != ctypeMagic {
		return ctypeInfo{}, false
	}
	nstrings := int64(ne.Uint32(head[4:]))
	if nstrings < ctypeItems || 8+4*nstrings >= size {
		return ctypeInfo{}, false
	}
	var offsets [ctypeCodesetName + 1]uint32
	chunk := make([]byte, 4*1024)
	for i := int64(0); i < nstrings; {
		n := min(int64(len(chunk))/4, nstrings-i)
		b := chunk[:4*n]
		if !readFull(r, b, base+8+4*i, fileSize) {
			return ctypeInfo{}, false
		}
		for j := int64(0); j < n; j, i = j+1, i+1 {
			off := ne.Uint32(b[4*j:])
			if int64(off) > size || (i < ctypeItems && ctypeWordItem(int(i)) && off%4 != 0) {
				return ctypeInfo{}, false
			}
			if i < int64(len(offsets)) {
				offsets[i] = off
			}
		}
	}
	var word [4]byte
	readPadded(r, word[:], base+int64(offsets[ctypeMbCurMax]), fileSize)
	return ctypeInfo{
		codeset:  readCString(r, base+int64(offsets[ctypeCodesetName]), fileSize),
		mbCurMax: ne.Uint32(word[:]),
	}, true
}

// readFull reads len(b) bytes at off, all inside the file.
func readFull(r io.ReaderAt, b []byte, off, fileSize int64) bool {
	if off < 0 || off+int64(len(b)) > fileSize {
		return false
	}
	n, err := r.ReadAt(b, off)
	return n == len(b) && (err == nil || err == io.EOF)
}

// readPadded reads b at off, zero bytes past the end of the file.
func readPadded(r io.ReaderAt, b []byte, off, fileSize int64) {
	clear(b)
	if off < 0 || off >= fileSize {
		return
	}
	n := min(int64(len(b)), fileSize-off)
	if !readFull(r, b[:n], off, fileSize) {
		clear(b)
	}
}

// readCString reads the NUL-terminated string at off; the end of the
// file ends it too.
func readCString(r io.ReaderAt, off, fileSize int64) string {
	var s []byte
	buf := make([]byte, 64)
	for off >= 0 && off < fileSize {
		n := min(int64(len(buf)), fileSize-off)
		if !readFull(r, buf[:n], off, fileSize) {
			break
		}
		if i := bytes.IndexByte(buf[:n], 0); i >= 0 {
			return string(append(s, buf[:i]...))
		}
		s = append(s, buf[:n]...)
		off += n
		if len(buf) < 64*1024 {
			buf = make([]byte, 2*len(buf))
		}
	}
	return string(s)
}

// The locale archive (locale/locarchive.h): a header of 14 words, an
// open-addressing hash table of names, and per locale a record with the
// offset and length of each category's data.
const (
	archiveHeadSize   = 14 * 4
	archiveEntrySize  = 3 * 4      // hashval, name_offset, locrec_offset
	archiveRecordSize = 4 + 13*2*4 // refs, then offset and length for each of __LC_LAST categories
	lcAll             = 6          // the category index that has no data
	lcCategories      = 13         // __LC_LAST
)

// archiveName is the name the archive is searched for: the codeset part
// (from the first '.' to the next '@') normalised.
func archiveName(name string) string {
	dot := strings.IndexByte(name, '.')
	if dot < 0 || dot+1 == len(name) || name[dot+1] == '@' {
		return name
	}
	end := len(name)
	if at := strings.IndexByte(name[dot+1:], '@'); at >= 0 {
		end = dot + 1 + at
	}
	return name[:dot+1] + normalizeCodeset(name[dot+1:end]) + name[end:]
}

// archiveHash is the archive's name hash (locale/hashval.h).
func archiveHash(s string) uint32 {
	h := uint32(len(s))
	for i := 0; i < len(s); i++ {
		h = h<<9 | h>>(32-9)
		h += uint32(s[i])
	}
	if h == 0 {
		return ^uint32(0)
	}
	return h
}

// fromArchive looks name up in the locale archive and reads its
// LC_CTYPE. Like glibc it insists that the header's tables and every
// category's data lie inside the file.
func (lf *localeFiles) fromArchive(name string) (ctypeInfo, bool) {
	name = archiveName(name)
	f, err := os.Open(lf.archive)
	if err != nil {
		return ctypeInfo{}, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return ctypeInfo{}, false
	}
	return archiveLookup(f, st.Size(), name)
}

func archiveLookup(r io.ReaderAt, size int64, name string) (ctypeInfo, bool) {
	var head [archiveHeadSize]byte
	readPadded(r, head[:], 0, size) // glibc reads a short header from zero-filled pages
	word := func(b []byte, i int) uint32 { return binary.NativeEndian.Uint32(b[4*i:]) }
	hashOff, hashSize := int64(word(head[:], 2)), int64(word(head[:], 4))
	stringEnd := int64(word(head[:], 5) + word(head[:], 6)) // a 32-bit sum in glibc
	recordsEnd := int64(word(head[:], 8)) + int64(word(head[:], 9))*archiveRecordSize
	if max(hashOff+hashSize*archiveEntrySize, stringEnd, recordsEnd) > size || hashSize <= 2 {
		return ctypeInfo{}, false
	}
	hval := archiveHash(name)
	idx, incr := int64(hval)%hashSize, 1+int64(hval)%(hashSize-2)
	want := append([]byte(name), 0)
	got := make([]byte, len(want))
	var entry [archiveEntrySize]byte
	var record uint32
	for probes := int64(0); ; probes++ {
		if probes == hashSize || !readFull(r, entry[:], hashOff+idx*archiveEntrySize, size) {
			return ctypeInfo{}, false // glibc would search a full table for ever
		}
		nameOff := word(entry[:], 1)
		if nameOff == 0 {
			return ctypeInfo{}, false
		}
		if word(entry[:], 0) == hval && readFull(r, got, int64(nameOff), size) && bytes.Equal(got, want) {
			record = word(entry[:], 2)
			break
		}
		if idx += incr; idx >= hashSize {
			idx -= hashSize
		}
	}
	var rec [archiveRecordSize]byte
	if record == 0 || !readFull(r, rec[:], int64(record), size) {
		return ctypeInfo{}, false
	}
	for c := 0; c < lcCategories; c++ {
		// glibc sums in 32 bits and crashes on a record whose sum wraps.
		if c != lcAll && int64(word(rec[:], 1+2*c))+int64(word(rec[:], 2+2*c)) > size {
			return ctypeInfo{}, false
		}
	}
	return readCtype(r, int64(word(rec[:], 1)), int64(word(rec[:], 2)), size)
}

// expandAlias looks name up in the locale.alias files, ignoring ASCII
// case; the first line for a name wins.
func (lf *localeFiles) expandAlias(name string) (string, bool) {
	for _, path := range lf.aliases {
		data, ok := readSmallFile(path)
		if !ok {
			continue
		}
		for len(data) > 0 {
			line := data
			if i := bytes.IndexByte(data, '\n'); i >= 0 {
				line, data = data[:i], data[i+1:]
			} else {
				data = nil
			}
			if len(line) >= 399 {
				line = line[:399] // glibc reads lines into 400 bytes and skips the rest
			}
			fields := cFields(line, 2)
			if len(fields) == 2 && fields[0][0] != '#' && asciiEqualFold(fields[0], name) {
				return fields[1], true
			}
		}
	}
	return "", false
}

// readSmallFile reads a whole configuration file (of at most
// maxConfigFile bytes: a larger one is not read).
func readSmallFile(path string) ([]byte, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxConfigFile {
		return nil, false
	}
	data, err := os.ReadFile(path)
	return data, err == nil
}

// maxConfigFile bounds what readSmallFile reads: glibc's locale.alias
// and gconv-modules files are a few kilobytes.
const maxConfigFile = 4 << 20

// cFields returns up to n fields of line separated by C-locale white
// space; a NUL byte ends the line.
func cFields(line []byte, n int) []string {
	if i := bytes.IndexByte(line, 0); i >= 0 {
		line = line[:i]
	}
	var fields []string
	for len(fields) < n {
		start := 0
		for start < len(line) && isCSpace(line[start]) {
			start++
		}
		if start == len(line) {
			break
		}
		end := start
		for end < len(line) && !isCSpace(line[end]) {
			end++
		}
		fields = append(fields, string(line[start:end]))
		line = line[end:]
	}
	return fields
}

func isCSpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r'
}

func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if asciiUpper(a[i]) != asciiUpper(b[i]) {
			return false
		}
	}
	return true
}

func asciiUpper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// stripCharset is how glibc writes a charset name for iconv before it
// compares two (iconv/gconv_charset.h strip): ASCII letters and digits
// upper-cased, "_-.,:" kept, at most two '/' kept and the rest dropped,
// and '/' added to make two ("utf8" -> "UTF8//").
func stripCharset(s string) string {
	var b strings.Builder
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '_', c == '-', c == '.', c == ',', c == ':':
			b.WriteByte(asciiUpper(c))
		case c == '/':
			if slashes++; slashes == 3 {
				i = len(s)
				continue
			}
			b.WriteByte('/')
		}
	}
	for ; slashes < 2; slashes++ {
		b.WriteByte('/')
	}
	return b.String()
}

// sameCharset reports whether iconv takes the stripped charset names a
// and b for one charset (glibc's __gconv_compare_alias): through
// gconv-modules.cache, unless GCONV_PATH is set or the cache is unusable,
// else through the gconv-modules files and iconv's built-in aliases.
func (lf *localeFiles) sameCharset(a, b string, getenv func(string) string) bool {
	if a == b {
		return true // both lookups give the same answer
	}
	gconvPath := getenv("GCONV_PATH")
	dir := lf.gconvDir()
	if gconvPath == "" {
		if cache, ok := loadGconvCache(dir + "/gconv-modules.cache"); ok {
			ia, oka := cache.module(a)
			ib, okb := cache.module(b)
			return oka && okb && ia == ib
		}
	}
	conf := readGconvConf(gconvPath, dir)
	return conf.canonical(a) == conf.canonical(b)
}

func (lf *localeFiles) gconvDir() string {
	for _, d := range lf.gconvDirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	if len(lf.gconvDirs) > 0 {
		return lf.gconvDirs[0]
	}
	return "/nonexistent"
}

// gconvCache is iconvconfig's gconv-modules.cache (iconv/iconvconfig.h):
// a header of a magic word and five 16-bit offsets, then a hash table
// from every charset name and alias to the index of its module.
type gconvCache struct {
	data                []byte // the first 1<<19 bytes at most: the hash table and its strings lie there
	size                int64
	stringOff, hashSize uint32
	hashOff             uint32
}

const gconvCacheMagic = 0x20010324

func loadGconvCache(path string) (*gconvCache, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < 16 {
		return nil, false
	}
	data := make([]byte, min(st.Size(), 1<<19))
	if !readFull(f, data, 0, st.Size()) {
		return nil, false
	}
	return parseGconvCache(data, st.Size())
}

// parseGconvCache checks the header of a cache of size bytes whose
// start is data, as glibc's __gconv_load_cache does.
func parseGconvCache(data []byte, size int64) (*gconvCache, bool) {
	if len(data) < 16 {
		return nil, false
	}
	c := &gconvCache{data: data, size: size}
	ne := binary.NativeEndian
	half := func(i int) uint32 { return uint32(ne.Uint16(c.data[4+2*i:])) }
	c.stringOff, c.hashOff, c.hashSize = half(0), half(1), half(2)
	moduleOff, otherOff := half(3), half(4)
	if ne.Uint32(c.data) != gconvCacheMagic ||
		int64(c.stringOff) >= c.size || int64(c.hashOff) >= c.size || c.hashSize == 0 ||
		int64(c.hashOff)+int64(c.hashSize)*4 > c.size ||
		int64(moduleOff) >= c.size || int64(otherOff) > c.size {
		return nil, false
	}
	return c, true
}

// hashString is gconv's hashpjw (intl/hash-string.c), to 32 bits.
func hashString(s string) uint32 {
	var h uint32
	for i := 0; i < len(s); i++ {
		h = h<<4 + uint32(s[i])
		if g := h & 0xf0000000; g != 0 {
			h ^= g >> 24
			h ^= g
		}
	}
	return h
}

// module returns the module index that the cache's hash table gives
// name.
func (c *gconvCache) module(name string) (uint32, bool) {
	if name == "" || c.hashSize == 2 { // glibc would divide by zero
		return 0, false
	}
	hval := hashString(name)
	idx := hval % c.hashSize
	step := 1 + hval%uint32(int32(c.hashSize)-2) // in C an int, converted for the unsigned %
	limit := c.size - int64(c.stringOff)
	for probes := uint32(0); probes < c.hashSize && idx < c.hashSize; probes++ {
		at := int64(c.hashOff) + 4*int64(idx)
		if at+4 > int64(len(c.data)) {
			return 0, false
		}
		strOff := uint32(binary.NativeEndian.Uint16(c.data[at:]))
		if strOff == 0 {
			return 0, false
		}
		if int64(strOff) < limit && c.stringAt(c.stringOff+strOff) == name {
			return uint32(binary.NativeEndian.Uint16(c.data[at+2:])), true
		}
		if idx += step; idx >= c.hashSize {
			idx -= c.hashSize
		}
	}
	return 0, false
}

func (c *gconvCache) stringAt(off uint32) string {
	if int64(off) >= int64(len(c.data)) {
		return ""
	}
	s := c.data[off:]
	if i := bytes.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return string(s)
}

// gconvConf is the alias table glibc builds from the gconv-modules
// files when it cannot use the cache (iconv/gconv_conf.c): the first
// alias for a name wins, and an alias whose name is already a module's
// (or a module whose name is already an alias) is dropped.
type gconvConf struct {
	aliases map[string]string
	modules map[string]bool
}

func (g *gconvConf) addAlias(from, to string) {
	if _, ok := g.aliases[from]; !ok && !g.modules[from] {
		g.aliases[from] = to
	}
}

func (g *gconvConf) addModule(from string) {
	if _, ok := g.aliases[from]; !ok {
		g.modules[from] = true
	}
}

// canonical is the name an alias stands for, else the name itself.
func (g *gconvConf) canonical(name string) string {
	if to, ok := g.aliases[name]; ok {
		return to
	}
	return name
}

// readGconvConf reads gconv-modules and gconv-modules.d/*.conf (in
// directory order) in each of GCONV_PATH's directories and then
// defaultDir, and adds iconv's built-in modules and aliases.
func readGconvConf(gconvPath, defaultDir string) *gconvConf {
	g := &gconvConf{aliases: map[string]string{}, modules: map[string]bool{}}
	var dirs []string
	if gconvPath != "" {
		wd, _ := os.Getwd()
		for _, d := range strings.Split(gconvPath, ":") {
			switch {
			case d == "":
			case d[0] != '/':
				dirs = append(dirs, wd+"/"+d)
			default:
				dirs = append(dirs, d)
			}
		}
	}
	dirs = append(dirs, defaultDir)
	for _, dir := range dirs {
		dir = strings.TrimSuffix(dir, "/") + "/"
		g.readFile(dir + "gconv-modules")
		d, err := os.Open(dir + "gconv-modules.d")
		if err != nil {
			continue
		}
		entries, _ := d.ReadDir(-1) // in directory order, as readdir
		d.Close()
		for _, e := range entries {
			if n := e.Name(); e.Type().IsRegular() && len(n) > len(".conf") && strings.HasSuffix(n, ".conf") {
				g.readFile(dir + "gconv-modules.d/" + n)
			}
		}
	}
	// The UCS-2 module in the other byte order is built in as
	// UNICODEBIG// on little-endian machines, UNICODELITTLE// on
	// big-endian ones, and the alias names follow.
	reversed, aliases := "UNICODEBIG//", builtinGconvAliasesLE
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 {
		reversed, aliases = "UNICODELITTLE//", builtinGconvAliasesBE
	}
	for _, m := range append(builtinGconvModules, reversed) {
		g.addModule(m)
	}
	for _, a := range append(builtinGconvAliasesCommon, aliases...) {
		g.addAlias(a[0], a[1])
	}
	return g
}

// readFile adds the "alias FROM TO" and "module FROM TO FILE [COST]"
// lines of one configuration file; names are upper-cased, '#' starts a
// comment.
func (g *gconvConf) readFile(path string) {
	data, ok := readSmallFile(path)
	if !ok {
		return
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := cFields(line, 4)
		if len(f) < 3 || f[0] != "alias" && f[0] != "module" || f[0] == "module" && len(f) < 4 {
			continue
		}
		if f[0] == "alias" {
			g.addAlias(strings.ToUpper(f[1]), strings.ToUpper(f[2]))
		} else {
			g.addModule(strings.ToUpper(f[1]))
		}
	}
}

// iconv's built-in conversions and aliases (iconv/gconv_builtin.h),
// whose names the configuration files cannot take over.
var builtinGconvModules = []string{
	"INTERNAL", "ISO-10646/UCS4/", "UCS-4LE//", "ISO-10646/UTF8/",
	"ISO-10646/UCS2/", "ANSI_X3.4-1968//",
}

var builtinGconvAliasesCommon = [][2]string{
	{"UCS4//", "ISO-10646/UCS4/"}, {"UCS-4//", "ISO-10646/UCS4/"},
	{"UCS-4BE//", "ISO-10646/UCS4/"}, {"CSUCS4//", "ISO-10646/UCS4/"},
	{"ISO-10646//", "ISO-10646/UCS4/"}, {"10646-1:1993//", "ISO-10646/UCS4/"},
	{"10646-1:1993/UCS4/", "ISO-10646/UCS4/"}, {"OSF00010104//", "ISO-10646/UCS4/"},
	{"OSF00010105//", "ISO-10646/UCS4/"}, {"OSF00010106//", "ISO-10646/UCS4/"},
	{"WCHAR_T//", "INTERNAL"},
	{"UTF8//", "ISO-10646/UTF8/"}, {"UTF-8//", "ISO-10646/UTF8/"},
	{"ISO-IR-193//", "ISO-10646/UTF8/"}, {"OSF05010001//", "ISO-10646/UTF8/"},
	{"ISO-10646/UTF-8/", "ISO-10646/UTF8/"},
	{"UCS2//", "ISO-10646/UCS2/"}, {"UCS-2//", "ISO-10646/UCS2/"},
	{"OSF00010100//", "ISO-10646/UCS2/"}, {"OSF00010101//", "ISO-10646/UCS2/"},
	{"OSF00010102//", "ISO-10646/UCS2/"},
	{"ANSI_X3.4//", "ANSI_X3.4-1968//"}, {"ISO-IR-6//", "ANSI_X3.4-1968//"},
	{"ANSI_X3.4-1986//", "ANSI_X3.4-1968//"}, {"ISO_646.IRV:1991//", "ANSI_X3.4-1968//"},
	{"ASCII//", "ANSI_X3.4-1968//"}, {"ISO646-US//", "ANSI_X3.4-1968//"},
	{"US-ASCII//", "ANSI_X3.4-1968//"}, {"US//", "ANSI_X3.4-1968//"},
	{"IBM367//", "ANSI_X3.4-1968//"}, {"CP367//", "ANSI_X3.4-1968//"},
	{"CSASCII//", "ANSI_X3.4-1968//"}, {"OSF00010020//", "ANSI_X3.4-1968//"},
}

var builtinGconvAliasesLE = [][2]string{
	{"UNICODELITTLE//", "ISO-10646/UCS2/"}, {"UCS-2LE//", "ISO-10646/UCS2/"},
	{"UCS-2BE//", "UNICODEBIG//"},
}

var builtinGconvAliasesBE = [][2]string{
	{"UNICODEBIG//", "ISO-10646/UCS2/"}, {"UCS-2BE//", "ISO-10646/UCS2/"},
	{"UCS-2LE//", "UNICODELITTLE//"},
}
