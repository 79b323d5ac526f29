//go:build linux && cgo

// Command tablegen writes internal/charset's conversion tables
// (tables.bin, tables.go) and its table of names (names.go) by asking the
// C library's iconv, the one git converts with, how it converts.
//
// The names come from glibc's gconv configuration: the "module" lines of
// gconv-modules name the character sets, its "alias" lines their other
// names, and the converters built into libc add theirs (builtinNames
// below).
//
// The conversions are observed, not read from glibc's sources: for every
// character set iconv opens, tablegen converts each byte sequence of up to
// four bytes from the initial state (a sequence iconv calls incomplete is
// extended by one byte more), and each code point from U+0000 to
// U+10FFFF on its own, once as git runs iconv (one call, no flush at the
// end) and once flushed. A character set whose every sequence decodes to
// one or two code points with nothing held back is a table; one that
// holds a character back to combine it with the next (CP1255, CP1258,
// TCVN) gets its pairs probed as well; one whose sequences can decode to
// nothing (a shift sequence: ISO-2022-JP, the EBCDIC double-byte sets,
// UTF-7) is stateful and left out, so that goblame, like an iconv without
// the converter, keeps such text as it is. The converters that glibc runs
// between two character sets directly, not through Unicode
// (gconv-modules lines without INTERNAL: EUC-CN and BIG5, GBK and EUC-CN),
// are probed as byte-to-byte tables.
//
// Usage, from the repository root, on a machine with glibc's iconv
// (Debian: libc6; the committed tables come from glibc 2.36):
//
//	go run ./internal/charset/internal/gen/tablegen
package main

/*
#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>

enum { st_ok, st_incomplete, st_invalid, st_other };

static iconv_t open_conv(const char *to, const char *from) { return iconv_open(to, from); }
static int conv_failed(iconv_t cd) { return cd == (iconv_t)-1; }

// convert converts in[0:n] from the initial state in one call, as git
// does (*before bytes out), then flushes (*after bytes out in all).
static int convert(iconv_t cd, const char *in, size_t n, char *out, size_t cap, size_t *before, size_t *after) {
	iconv(cd, NULL, NULL, NULL, NULL);
	char *ip = (char *)in, *op = out;
	size_t il = n, ol = cap;
	int st = st_ok;
	if (iconv(cd, &ip, &il, &op, &ol) == (size_t)-1)
		st = errno == EINVAL ? st_incomplete : errno == EILSEQ ? st_invalid : st_other;
	*before = op - out;
	if (st == st_ok && iconv(cd, NULL, NULL, &op, &ol) == (size_t)-1)
		st = st_other;
	*after = op - out;
	return st;
}

// encode_all converts each code point below limit on its own (UTF-32LE
// in), recording its status, the lengths of its output before and after
// the flush, and at most 8 bytes of output.
static void encode_all(iconv_t cd, unsigned limit, unsigned char *status, unsigned char *before, unsigned char *after, unsigned char *bytes) {
	for (unsigned cp = 0; cp < limit; cp++) {
		if (cp >= 0xd800 && cp < 0xe000) {
			status[cp] = st_invalid;
			continue;
		}
		unsigned char in[4] = {cp, cp >> 8, cp >> 16, cp >> 24};
		char out[64];
		size_t b, a;
		int st = convert(cd, (const char *)in, 4, out, sizeof out, &b, &a);
		if (st == st_ok && a > 8)
			st = st_other;
		status[cp] = st;
		before[cp] = b;
		after[cp] = a;
		if (st == st_ok)
			memcpy(bytes + 8 * (size_t)cp, out, a);
	}
}
*/
import "C"

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

const (
	stOK         = C.st_ok
	stIncomplete = C.st_incomplete
	stInvalid    = C.st_invalid
)

// ownConverters are the character sets internal/charset converts with
// code of its own, by glibc's name, with the Go expression of the
// converter.
var ownConverters = map[string]string{
	"ISO-10646/UTF8/": "utf8Charset{}",
	"UTF-16//":        "utf16{bom: true}",
	"UTF-16LE//":      "utf16{}",
	"UTF-16BE//":      "utf16{big: true}",
	"UTF-32//":        "ucs{width: 4, bom: true, max: 0x10FFFF}",
	"UTF-32LE//":      "ucs{width: 4, max: 0x10FFFF}",
	"UTF-32BE//":      "ucs{width: 4, big: true, max: 0x10FFFF}",
	"ISO-10646/UCS4/": "ucs{width: 4, big: true, max: 0x7FFFFFFF}",
	"UCS-4LE//":       "ucs{width: 4, max: 0x7FFFFFFF}",
	"INTERNAL":        "ucs{width: 4, max: 0x7FFFFFFF}",
	"ISO-10646/UCS2/": "ucs{width: 2, max: 0xFFFF}",
	"UNICODELITTLE//": "ucs{width: 2, max: 0xFFFF}",
	"UNICODEBIG//":    "ucs{width: 2, big: true, max: 0xFFFF}",
	"UNICODE//":       "ucs{width: 2, bom: true, max: 0xFFFF}",
	"ISO-2022-JP//":   "iso2022jp{}",
}

// builtinNames are the names of the converters built into libc (they are
// not in gconv-modules), each checked with iconv_open.
var builtinNames = map[string][]string{
	"ISO-10646/UTF8/": {"UTF8//", "UTF-8//", "ISO-IR-193//", "OSF05010001//", "ISO-10646/UTF-8/"},
	"ANSI_X3.4-1968//": {"ANSI_X3.4//", "ISO-IR-6//", "ANSI_X3.4-1986//", "ISO_646.IRV:1991//", "ASCII//",
		"ISO646-US//", "US-ASCII//", "US//", "IBM367//", "CP367//", "CSASCII//", "OSF00010020//"},
	"ISO-10646/UCS4/": {"UCS4//", "UCS-4//", "UCS-4BE//", "CSUCS4//", "ISO-10646//", "10646-1:1993//",
		"10646-1:1993/UCS4/", "OSF00010104//", "OSF00010105//", "OSF00010106//"},
	"UCS-4LE//":       nil,
	"INTERNAL":        {"WCHAR_T//"},
	"ISO-10646/UCS2/": {"UCS2//", "UCS-2//", "OSF00010100//", "OSF00010101//", "OSF00010102//"},
	"UNICODELITTLE//": {"UCS-2LE//"},
	"UNICODEBIG//":    {"UCS-2BE//"},
}

// skipped are character sets not probed: stateful ones whose sequences
// go on past four bytes.
var skipped = map[string]bool{"UTF-7//": true, "UTF-7-IMAP//": true}

func main() {
	dir := flag.String("gconv", "/usr/lib/x86_64-linux-gnu/gconv", "glibc's gconv directory (gconv-modules, gconv-modules.d)")
	out := flag.String("out", "internal/charset", "directory of package charset")
	glibc := flag.String("glibc", "2.36", "glibc version the tables come from")
	flag.Parse()

	files := []string{filepath.Join(*dir, "gconv-modules")}
	extra, _ := filepath.Glob(filepath.Join(*dir, "gconv-modules.d", "*.conf"))
	files = append(files, extra...)
	cfg := &config{names: map[string][]string{}, sets: map[string]bool{}}
	for _, f := range files {
		if err := cfg.read(f); err != nil {
			log.Fatalf("tablegen: %v", err)
		}
	}
	for set, aliases := range builtinNames {
		cfg.sets[set] = true
		cfg.names[set] = append(cfg.names[set], aliases...)
	}
	for set, names := range cfg.names {
		for _, n := range append([]string{set}, names...) {
			if n == "INTERNAL" {
				continue
			}
			cd := openConv("UTF-8", strings.TrimSuffix(n, "//"))
			if cd == nil {
				log.Fatalf("tablegen: iconv does not open %s (a name of %s)", n, set)
			}
			C.iconv_close(cd)
		}
	}

	var sets []string
	for set := range cfg.sets {
		if ownConverters[set] == "" && !skipped[set] {
			sets = append(sets, set)
		}
	}
	sort.Strings(sets)
	results := make([]*table, len(sets))
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				t, err := probeTable(sets[i])
				if err != nil {
					log.Printf("tablegen: %s left out: %v", sets[i], err)
					continue
				}
				results[i] = t
			}
		}()
	}
	for i := range sets {
		work <- i
	}
	close(work)
	wg.Wait()

	var tables []*table
	index := map[string]int{}
	for _, t := range results {
		if t != nil {
			index[t.set] = len(tables)
			tables = append(tables, t)
		}
	}
	var directs []*direct
	for _, p := range cfg.directs {
		if _, ok := index[p[0]]; !ok {
			continue
		}
		if _, ok := index[p[1]]; !ok {
			continue
		}
		d, err := probeDirect(p[0], p[1])
		if err != nil {
			log.Printf("tablegen: direct %s to %s left out: %v", p[0], p[1], err)
			continue
		}
		directs = append(directs, d)
	}

	var blob bytes.Buffer
	var src bytes.Buffer
	fmt.Fprintf(&src, "// Code generated by internal/charset/internal/gen/tablegen from glibc %s's iconv; DO NOT EDIT.\n\n", *glibc)
	src.WriteString("package charset\n\n")
	src.WriteString("// tables are the character sets converted by table, in the order of\n// their names; their data is in tables.bin.\n")
	src.WriteString("var tables = [...]table{\n")
	for _, t := range tables {
		off := blob.Len()
		blob.Write(t.encode())
		fmt.Fprintf(&src, "\t{name: %q, off: %d, end: %d},\n", strings.TrimSuffix(t.set, "//"), off, blob.Len())
	}
	src.WriteString("}\n\n")
	src.WriteString("// directs are the conversions glibc makes from one character set to\n// another without going through Unicode.\n")
	src.WriteString("var directs = [...]direct{\n")
	for _, d := range directs {
		off := blob.Len()
		blob.Write(d.encode())
		fmt.Fprintf(&src, "\t{from: %d, to: %d, off: %d, end: %d}, // %s to %s\n",
			index[d.from], index[d.to], off, blob.Len(), strings.TrimSuffix(d.from, "//"), strings.TrimSuffix(d.to, "//"))
	}
	src.WriteString("}\n")
	jis, err := probeISO2022JP()
	if err != nil {
		log.Fatalf("tablegen: ISO-2022-JP: %v", err)
	}
	off := blob.Len()
	blob.Write(jis.encode())
	src.WriteString("\n// iso2022jpJIS is JIS X 0208 as glibc's ISO-2022-JP converts it, the\n// bytes after ESC $ B.\n")
	fmt.Fprintf(&src, "var iso2022jpJIS = table{name: %q, off: %d, end: %d}\n", "ISO-2022-JP JIS X 0208", off, blob.Len())
	writeGo(filepath.Join(*out, "tables.go"), src.Bytes())
	if err := os.WriteFile(filepath.Join(*out, "tables.bin"), blob.Bytes(), 0o666); err != nil {
		log.Fatalf("tablegen: %v", err)
	}
	writeGo(filepath.Join(*out, "names.go"), namesSource(cfg, tables, index, *glibc))
	log.Printf("tablegen: %d tables, %d direct conversions, %d bytes of data", len(tables), len(directs), blob.Len())
}

func writeGo(path string, src []byte) {
	formatted, err := format.Source(src)
	if err != nil {
		log.Fatalf("tablegen: %s: %v", path, err)
	}
	if err := os.WriteFile(path, formatted, 0o666); err != nil {
		log.Fatalf("tablegen: %v", err)
	}
}

// namesSource is names.go: byName, a switch from each name to its
// converter.
func namesSource(cfg *config, tables []*table, index map[string]int, glibc string) []byte {
	type conv struct {
		set, expr string
	}
	var convs []conv
	for set, expr := range ownConverters {
		convs = append(convs, conv{set, expr})
	}
	for _, t := range tables {
		convs = append(convs, conv{t.set, fmt.Sprintf("&tables[%d]", index[t.set])})
	}
	sort.Slice(convs, func(i, j int) bool { return convs[i].set < convs[j].set })
	seen := map[string]string{}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/charset/internal/gen/tablegen from glibc %s's gconv-modules; DO NOT EDIT.\n\n", glibc)
	b.WriteString("package charset\n\n")
	b.WriteString("// byName returns the converter of a character set name in glibc's\n// normalised form (upper case, \"//\" or \"/<name>/\" appended), or nil.\n// A switch is compiled code: nothing is built when the program starts.\n")
	b.WriteString("func byName(name string) charset {\n\tswitch name {\n")
	for _, c := range convs {
		var ns []string
		for _, n := range append([]string{c.set}, cfg.names[c.set]...) {
			if n == "INTERNAL" {
				continue
			}
			if other, dup := seen[n]; dup {
				log.Fatalf("tablegen: %s names both %s and %s", n, other, c.set)
			}
			seen[n] = c.set
			ns = append(ns, n)
		}
		sort.Strings(ns)
		q := make([]string, len(ns))
		for i, n := range ns {
			q[i] = fmt.Sprintf("%q", n)
		}
		fmt.Fprintf(&b, "\tcase %s:\n\t\treturn %s\n", strings.Join(q, ", "), c.expr)
	}
	b.WriteString("\t}\n\treturn nil\n}\n")
	return b.Bytes()
}

// config is what gconv-modules says: the names of each character set and
// the sets converted directly into one another.
type config struct {
	names   map[string][]string
	sets    map[string]bool
	directs [][2]string
}

// read reads a gconv-modules file: "alias NAME SET" and
// "module FROM TO FILE [COST]" lines, "#" comments.
func (c *config) read(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(line)
		switch {
		case len(fields) >= 3 && fields[0] == "alias":
			set := strings.ToUpper(fields[2])
			c.names[set] = append(c.names[set], strings.ToUpper(fields[1]))
		case len(fields) >= 4 && fields[0] == "module":
			from, to := strings.ToUpper(fields[1]), strings.ToUpper(fields[2])
			for _, m := range []string{from, to} {
				if m != "INTERNAL" {
					c.sets[m] = true
				}
			}
			if from != "INTERNAL" && to != "INTERNAL" {
				c.directs = append(c.directs, [2]string{from, to})
			}
		}
	}
	return sc.Err()
}

func openConv(to, from string) C.iconv_t {
	cto, cfrom := C.CString(to), C.CString(from)
	defer C.free(unsafe.Pointer(cto))
	defer C.free(unsafe.Pointer(cfrom))
	cd := C.open_conv(cto, cfrom)
	if C.conv_failed(cd) != 0 {
		return nil
	}
	return cd
}

// leaf is a byte sequence iconv converts on its own: what it writes
// without and with the flush.
type leaf struct {
	in            []byte
	before, after []byte
	endFails      bool // converts only when something follows
}

// explore finds every sequence of at most four bytes iconv converts from
// the initial state with cd, extending those it calls incomplete. With a
// sentinel (a byte that converts to itself), a sequence iconv calls
// incomplete is tried again with the sentinel after it: glibc's EUC-CN to
// GBK converter calls every two-byte character at the end of its input
// incomplete.
func explore(cd C.iconv_t, maxLeaves int, sentinel []byte) ([]leaf, error) {
	var leaves []leaf
	in := (*C.char)(C.malloc(8))
	out := (*C.char)(C.malloc(256))
	defer C.free(unsafe.Pointer(in))
	defer C.free(unsafe.Pointer(out))
	inBytes := unsafe.Slice((*byte)(unsafe.Pointer(in)), 8)
	outBytes := unsafe.Slice((*byte)(unsafe.Pointer(out)), 256)
	queue := [][]byte{nil}
	for len(queue) > 0 {
		prefix := queue[0]
		queue = queue[1:]
		for b := 0; b < 256; b++ {
			seq := append(append([]byte(nil), prefix...), byte(b))
			copy(inBytes, seq)
			var before, after C.size_t
			st := C.convert(cd, in, C.size_t(len(seq)), out, 256, &before, &after)
			switch st {
			case stOK:
				leaves = append(leaves, leaf{
					in:     seq,
					before: append([]byte(nil), outBytes[:before]...),
					after:  append([]byte(nil), outBytes[:after]...),
				})
				if len(leaves) > maxLeaves {
					return nil, errors.New("too many sequences")
				}
			case stIncomplete:
				if sentinel != nil {
					before, after, st := convertBytes(cd, append(append([]byte(nil), seq...), sentinel...))
					if st == stOK && bytes.Equal(before, after) && bytes.HasSuffix(before, sentinel) && len(before) > len(sentinel) {
						out := before[:len(before)-len(sentinel)]
						leaves = append(leaves, leaf{in: seq, before: out, after: out, endFails: true})
						continue
					}
				}
				if len(seq) == 4 {
					return nil, fmt.Errorf("% x... is longer than four bytes", seq)
				}
				queue = append(queue, seq)
			case stInvalid:
			default:
				return nil, fmt.Errorf("converting % x: unexpected error", seq)
			}
		}
	}
	return leaves, nil
}

func runes(utf32 []byte) []rune {
	r := make([]rune, len(utf32)/4)
	for i := range r {
		r[i] = rune(binary.LittleEndian.Uint32(utf32[4*i:]))
	}
	return r
}

// table is what tablegen learnt of a character set converted by table.
type table struct {
	set      string
	skipTags bool          // the encoder writes nothing for U+E0000 to U+E007F
	decode   []mapping     // sequences and their code points
	runs     []run         // GB18030's four-byte sequences
	held     []byte        // single bytes the decoder holds back to combine
	compose  []composition // held code points and next bytes decoded as one code point
	encExc   []exception   // code points not encoded as the inverse of decode says
	starters []rune        // code points the encoder holds back to combine
	pairs    []pair        // pairs of code points encoded together
}

type mapping struct {
	in    []byte
	runes []rune
}

// run is a stretch of four-byte sequences in GB18030's order (the
// sequence's linear index) decoding to consecutive code points.
type run struct {
	linear, first, n int
}

// composition is what the decoder makes of the code point it holds back
// (pending) and the next byte: one code point, written or held back in
// turn.
type composition struct {
	pending rune
	second  byte
	r       rune
	held    bool
}

type exception struct {
	r      rune
	out    []byte
	cannot bool // iconv cannot encode r
}

type pair struct {
	first, second rune
	out           []byte
}

// gbLinear is the index of a four-byte sequence of GB18030's form
// [81-FE][30-39][81-FE][30-39], or -1.
func gbLinear(s []byte) int {
	if len(s) != 4 || s[0] < 0x81 || s[0] > 0xFE || s[1] < 0x30 || s[1] > 0x39 || s[2] < 0x81 || s[2] > 0xFE || s[3] < 0x30 || s[3] > 0x39 {
		return -1
	}
	return ((int(s[0]-0x81)*10+int(s[1]-0x30))*126+int(s[2]-0x81))*10 + int(s[3]-0x30)
}

func probeTable(set string) (*table, error) {
	name := strings.TrimSuffix(set, "//")
	dec := openConv("UTF-32LE", name)
	enc := openConv(name, "UTF-32LE")
	if dec == nil || enc == nil {
		return nil, errors.New("iconv does not open it")
	}
	defer C.iconv_close(dec)
	defer C.iconv_close(enc)
	leaves, err := explore(dec, 3<<20, nil)
	if err != nil {
		return nil, err
	}
	t := &table{set: set}
	single := map[byte][]rune{} // one-byte sequences
	for _, l := range leaves {
		after := runes(l.after)
		switch {
		case len(after) == 0:
			return nil, fmt.Errorf("stateful: % x decodes to nothing", l.in)
		case len(after) > 2:
			return nil, fmt.Errorf("% x decodes to %d code points", l.in, len(after))
		case !bytes.Equal(l.before, l.after):
			if len(l.in) != 1 || len(l.before) != 0 {
				return nil, fmt.Errorf("% x: %x before the flush, %x after", l.in, l.before, l.after)
			}
			t.held = append(t.held, l.in[0])
		}
		if len(l.in) == 1 {
			single[l.in[0]] = after
		}
		if i := gbLinear(l.in); i >= 0 && len(after) == 1 {
			if n := len(t.runs); n > 0 && t.runs[n-1].linear+t.runs[n-1].n == i && int(t.runs[n-1].first)+t.runs[n-1].n == int(after[0]) {
				t.runs[n-1].n++
			} else {
				t.runs = append(t.runs, run{linear: i, first: int(after[0]), n: 1})
			}
			continue
		}
		t.decode = append(t.decode, mapping{in: l.in, runes: after})
	}
	// Leaves come in breadth-first order: by length, then by bytes; runs
	// need the order of the linear index, which is the same.
	if len(t.held) > 0 {
		if len(single) != len(leaves) {
			return nil, errors.New("holds characters back but has multi-byte sequences")
		}
		if err := t.probeCompositions(dec, single); err != nil {
			return nil, err
		}
	}
	if err := t.probeEncoder(enc); err != nil {
		return nil, err
	}
	return t, nil
}

// probeCompositions finds what the decoder does with a character it
// holds back: starting from each held byte, it converts the sequence
// followed by each byte; where the two combine into one code point, which
// is written or held back in turn, the longer sequence is probed too.
func (t *table) probeCompositions(dec C.iconv_t, single map[byte][]rune) error {
	held := map[byte]bool{}
	for _, b := range t.held {
		held[b] = true
	}
	type state struct {
		in      []byte
		pending rune
	}
	var queue []state
	for _, b := range t.held {
		queue = append(queue, state{[]byte{b}, single[b][0]})
	}
	seen := map[[2]rune]composition{}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		for second := range 256 {
			s := byte(second)
			if single[s] == nil {
				continue
			}
			in := append(append([]byte(nil), st.in...), s)
			before, after, status := convertBytes(dec, in)
			if status != stOK {
				return fmt.Errorf("% x: does not convert", in)
			}
			gb, ga := runes(before), runes(after)
			wantAfter := append([]rune{st.pending}, single[s]...)
			wantBefore := wantAfter
			if held[s] {
				wantBefore = []rune{st.pending}
			}
			if slices.Equal(gb, wantBefore) && slices.Equal(ga, wantAfter) {
				continue
			}
			var c composition
			switch {
			case len(gb) == 1 && slices.Equal(gb, ga):
				c = composition{st.pending, s, gb[0], false}
			case len(gb) == 0 && len(ga) == 1:
				c = composition{st.pending, s, ga[0], true}
			default:
				return fmt.Errorf("% x: %x before the flush, %x after", in, before, after)
			}
			key := [2]rune{st.pending, rune(s)}
			if prev, ok := seen[key]; ok {
				if prev != c {
					return fmt.Errorf("% x: combines as %+v and as %+v", in, prev, c)
				}
				continue
			}
			seen[key] = c
			t.compose = append(t.compose, c)
			if c.held {
				queue = append(queue, state{in, c.r})
			}
		}
	}
	sort.Slice(t.compose, func(i, j int) bool {
		a, b := t.compose[i], t.compose[j]
		return a.pending < b.pending || a.pending == b.pending && a.second < b.second
	})
	return nil
}

func convertBytes(cd C.iconv_t, in []byte) (before, after []byte, st C.int) {
	cin := C.CBytes(in)
	out := (*C.char)(C.malloc(256))
	defer C.free(cin)
	defer C.free(unsafe.Pointer(out))
	var b, a C.size_t
	st = C.convert(cd, (*C.char)(cin), C.size_t(len(in)), out, 256, &b, &a)
	outBytes := unsafe.Slice((*byte)(unsafe.Pointer(out)), 256)
	return append([]byte(nil), outBytes[:b]...), append([]byte(nil), outBytes[:a]...), st
}

func utf32(rs ...rune) []byte {
	b := make([]byte, 4*len(rs))
	for i, r := range rs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(r))
	}
	return b
}

// probeEncoder encodes every code point on its own and records where
// iconv differs from the inverse of the decoder (the first sequence, in
// the order of length and bytes, that decodes to the code point alone).
func (t *table) probeEncoder(enc C.iconv_t) error {
	const limit = 0x110000
	status := make([]byte, limit)
	before := make([]byte, limit)
	after := make([]byte, limit)
	out := make([]byte, 8*limit)
	C.encode_all(enc, limit, (*C.uchar)(&status[0]), (*C.uchar)(&before[0]), (*C.uchar)(&after[0]), (*C.uchar)(&out[0]))
	inverse := t.inverse()
	seconds := map[rune][]rune{}
	for _, m := range t.decode {
		if len(m.runes) == 2 {
			seconds[m.runes[0]] = append(seconds[m.runes[0]], m.runes[1])
		}
	}
	for r := rune(0); r < limit; r++ {
		var got []byte
		switch status[r] {
		case stOK:
			got = out[8*int(r) : 8*int(r)+int(after[r])]
			if before[r] != after[r] {
				if before[r] != 0 {
					return fmt.Errorf("U+%04X: %d bytes before the flush, %d after", r, before[r], after[r])
				}
				t.starters = append(t.starters, r)
			}
		case stInvalid:
		default:
			return fmt.Errorf("encoding U+%04X: unexpected error", r)
		}
		want, ok := inverse[r]
		if status[r] == stOK && ok && bytes.Equal(got, want) || status[r] != stOK && !ok {
			continue
		}
		if isTag(r) && status[r] == stOK && len(got) == 0 && !ok {
			continue // skipTags below
		}
		t.encExc = append(t.encExc, exception{r: r, out: append([]byte(nil), got...), cannot: status[r] != stOK})
	}
	t.skipTags = true
	for r := rune(0xE0000); r <= 0xE007F; r++ {
		if status[r] != stOK || after[r] != 0 {
			t.skipTags = false
		}
	}
	if !t.skipTags {
		for r := rune(0xE0000); r <= 0xE007F; r++ {
			if status[r] == stOK && after[r] == 0 {
				return fmt.Errorf("U+%04X encodes to nothing, but not every tag character does", r)
			}
		}
	}
	for _, first := range t.starters {
		for _, second := range seconds[first] {
			before, after, st := convertBytes(enc, utf32(first, second))
			if st != stOK || !bytes.Equal(before, after) {
				return fmt.Errorf("U+%04X U+%04X: %x before the flush, %x after", first, second, before, after)
			}
			t.pairs = append(t.pairs, pair{first, second, before})
		}
	}
	return nil
}

func isTag(r rune) bool { return 0xE0000 <= r && r <= 0xE007F }

func (t *table) inverse() map[rune][]byte {
	inv := map[rune][]byte{}
	for _, m := range t.decode {
		if len(m.runes) == 1 {
			if _, ok := inv[m.runes[0]]; !ok {
				inv[m.runes[0]] = m.in
			}
		}
	}
	for _, r := range t.runs {
		for i := 0; i < r.n; i++ {
			cp := rune(r.first + i)
			if _, ok := inv[cp]; !ok {
				inv[cp] = gbSequence(r.linear + i)
			}
		}
	}
	return inv
}

func gbSequence(linear int) []byte {
	return []byte{byte(0x81 + linear/12600), byte(0x30 + linear/1260%10), byte(0x81 + linear/10%126), byte(0x30 + linear%10)}
}

// The data of a table, in tables.bin, is a sequence of unsigned varints
// (signed ones zigzag-encoded): flags (1: the encoder skips the tag
// characters U+E0000 to U+E007F), then sections, each a count and its
// items:
//
//	decode:   key delta, (code point delta << 1 | two code points), [second code point]
//	          (a key is the sequence's length << 32 | its bytes, big-endian)
//	runs:     linear index delta (from the end of the last run), first code point delta, length
//	held:     byte
//	compose:  pending code point, next byte, code point << 1 | held back
//	encExc:   code point delta, length + 1 (0: cannot encode), bytes
//	starters: code point delta
//	pairs:    first code point, second code point, length, bytes
func (t *table) encode() []byte {
	var w writer
	flags := uint64(0)
	if t.skipTags {
		flags |= 1
	}
	w.uint(flags)
	w.uint(uint64(len(t.decode)))
	var key uint64
	var cp rune
	for _, m := range t.decode {
		k := seqKey(m.in)
		w.uint(k - key)
		key = k
		two := uint64(0)
		if len(m.runes) == 2 {
			two = 1
		}
		w.uint(zigzag(int64(m.runes[0]-cp))<<1 | two)
		cp = m.runes[0]
		if two == 1 {
			w.uint(uint64(m.runes[1]))
		}
	}
	w.uint(uint64(len(t.runs)))
	end, cpEnd := 0, 0
	for _, r := range t.runs {
		w.uint(uint64(r.linear - end))
		w.uint(zigzag(int64(r.first - cpEnd)))
		w.uint(uint64(r.n))
		end, cpEnd = r.linear+r.n, r.first+r.n
	}
	w.uint(uint64(len(t.held)))
	for _, b := range t.held {
		w.uint(uint64(b))
	}
	w.uint(uint64(len(t.compose)))
	for _, c := range t.compose {
		held := uint64(0)
		if c.held {
			held = 1
		}
		w.uint(uint64(c.pending))
		w.uint(uint64(c.second))
		w.uint(uint64(c.r)<<1 | held)
	}
	w.uint(uint64(len(t.encExc)))
	cp = 0
	for _, e := range t.encExc {
		w.uint(uint64(e.r - cp))
		cp = e.r
		if e.cannot {
			w.uint(0)
			continue
		}
		w.uint(uint64(len(e.out)) + 1)
		w.buf = append(w.buf, e.out...)
	}
	w.uint(uint64(len(t.starters)))
	cp = 0
	for _, r := range t.starters {
		w.uint(uint64(r - cp))
		cp = r
	}
	w.uint(uint64(len(t.pairs)))
	for _, p := range t.pairs {
		w.uint(uint64(p.first))
		w.uint(uint64(p.second))
		w.bytes(p.out)
	}
	return w.buf
}

func seqKey(s []byte) uint64 {
	k := uint64(len(s)) << 32
	var v uint64
	for _, b := range s {
		v = v<<8 | uint64(b)
	}
	return k | v
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

type writer struct{ buf []byte }

func (w *writer) uint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

func (w *writer) bytes(b []byte) {
	w.uint(uint64(len(b)))
	w.buf = append(w.buf, b...)
}

// probeISO2022JP finds the JIS X 0208 of glibc's ISO-2022-JP: the pairs
// of bytes 21-7E it decodes after ESC $ B (and the same after ESC $ @),
// and what it writes after ESC $ B for each code point it encodes that
// way from the initial state. The rest of ISO-2022-JP (ASCII, JIS X 0201
// Roman's ¥ and ‾, when the encoder switches) is code in package charset,
// tested against iconv there.
func probeISO2022JP() (*table, error) {
	dec := openConv("UTF-32LE", "ISO-2022-JP")
	enc := openConv("ISO-2022-JP", "UTF-32LE")
	if dec == nil || enc == nil {
		return nil, errors.New("iconv does not open it")
	}
	defer C.iconv_close(dec)
	defer C.iconv_close(enc)
	t := &table{set: "ISO-2022-JP//"}
	for a := 0x21; a <= 0x7E; a++ {
		for b := 0x21; b <= 0x7E; b++ {
			var got [2][]byte
			for k, esc := range []string{"\x1b$B", "\x1b$@"} {
				before, after, st := convertBytes(dec, append([]byte(esc), byte(a), byte(b)))
				switch {
				case st == stOK && bytes.Equal(before, after) && len(after) == 4:
					got[k] = after
				case st == stInvalid:
				default:
					return nil, fmt.Errorf("%s %02x %02x: %x, %x", esc, a, b, before, after)
				}
			}
			if !bytes.Equal(got[0], got[1]) {
				return nil, fmt.Errorf("%02x %02x: ESC $ B and ESC $ @ differ", a, b)
			}
			if got[0] != nil {
				t.decode = append(t.decode, mapping{in: []byte{byte(a), byte(b)}, runes: runes(got[0])})
			}
		}
	}
	inverse := t.inverse()
	for r := rune(0); r < 0x110000; r++ {
		if isSurrogate(r) {
			continue
		}
		before, after, st := convertBytes(enc, utf32(r))
		var jis []byte
		switch {
		case st == stInvalid:
		case st != stOK:
			return nil, fmt.Errorf("U+%04X: unexpected error", r)
		case r < 0x80 && bytes.Equal(before, []byte{byte(r)}):
			continue
		case (r == 0xA5 || r == 0x203E) && len(before) == 4 && string(before[:3]) == "\x1b(J":
			continue
		case len(before) == 5 && string(before[:3]) == "\x1b$B" && string(after[5:]) == "\x1b(B":
			jis = before[3:]
		default:
			return nil, fmt.Errorf("U+%04X: %x before the flush, %x after", r, before, after)
		}
		want, ok := inverse[r]
		if jis != nil && ok && bytes.Equal(jis, want) || jis == nil && !ok {
			continue
		}
		t.encExc = append(t.encExc, exception{r: r, out: jis, cannot: jis == nil})
	}
	return t, nil
}

func isSurrogate(r rune) bool { return 0xD800 <= r && r <= 0xDFFF }

// direct is a conversion glibc makes between two character sets without
// Unicode: each sequence of the source and the bytes it becomes.
type direct struct {
	from, to string
	leaves   []leaf
}

func probeDirect(from, to string) (*direct, error) {
	cd := openConv(strings.TrimSuffix(to, "//"), strings.TrimSuffix(from, "//"))
	if cd == nil {
		return nil, errors.New("iconv does not open it")
	}
	defer C.iconv_close(cd)
	leaves, err := explore(cd, 1<<20, []byte{'\n'})
	if err != nil {
		return nil, err
	}
	for _, l := range leaves {
		if len(l.after) == 0 || !bytes.Equal(l.before, l.after) {
			return nil, fmt.Errorf("% x: %x before the flush, %x after", l.in, l.before, l.after)
		}
	}
	return &direct{from: from, to: to, leaves: leaves}, nil
}

// The data of a direct conversion is a count and, for each sequence, its
// key delta (as in a table), its output length << 1 | 1 if it converts only
// when something follows, and its output.
func (d *direct) encode() []byte {
	var w writer
	w.uint(uint64(len(d.leaves)))
	var key uint64
	for _, l := range d.leaves {
		k := seqKey(l.in)
		w.uint(k - key)
		key = k
		endFails := uint64(0)
		if l.endFails {
			endFails = 1
		}
		w.uint(uint64(len(l.after))<<1 | endFails)
		w.buf = append(w.buf, l.after...)
	}
	return w.buf
}
