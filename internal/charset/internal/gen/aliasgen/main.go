// Command aliasgen writes internal/charset/names.go, the table of
// character set names glibc's iconv_open accepts for the encodings
// goblame converts with golang.org/x/text.
//
// git converts commit messages (--encoding, i18n.logOutputEncoding, a
// commit's encoding header) and working-tree-encoding files with iconv, so
// a name means what glibc's gconv configuration says: the "module" lines of
// gconv-modules name the character sets, its "alias" lines their other
// names, and glibc's gconv_builtin.h adds the names of the converters built
// into libc (UTF-8 and ASCII among them), which are listed here.
//
// Usage, from the repository root, on a machine with glibc's gconv files
// (Debian: libc6; the tables committed come from glibc 2.36):
//
//	go run ./internal/charset/internal/gen/aliasgen -out internal/charset/names.go
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// converters maps glibc's name of a character set to the Go expression
// (in package charset) of the x/text encoding that converts it. Only
// character sets whose x/text tables agree with glibc's on ordinary text
// are listed; for any other name goblame, like an iconv without the
// converter, leaves the bytes unconverted.
var converters = map[string]string{
	"ANSI_X3.4-1968//": "ascii",
	"ISO-10646/UTF8/":  "utf8Strict",
	"UTF-16//":         "utf16{bom: true}",
	"UTF-16LE//":       "utf16{}",
	"UTF-16BE//":       "utf16{big: true}",
	"ISO-8859-1//":     "charmap.ISO8859_1",
	"ISO-8859-2//":     "charmap.ISO8859_2",
	"ISO-8859-3//":     "charmap.ISO8859_3",
	"ISO-8859-4//":     "charmap.ISO8859_4",
	"ISO-8859-5//":     "charmap.ISO8859_5",
	"ISO-8859-6//":     "charmap.ISO8859_6",
	"ISO-8859-7//":     "charmap.ISO8859_7",
	"ISO-8859-8//":     "charmap.ISO8859_8",
	"ISO-8859-9//":     "charmap.ISO8859_9",
	"ISO-8859-10//":    "charmap.ISO8859_10",
	"ISO-8859-13//":    "charmap.ISO8859_13",
	"ISO-8859-14//":    "charmap.ISO8859_14",
	"ISO-8859-15//":    "charmap.ISO8859_15",
	"ISO-8859-16//":    "charmap.ISO8859_16",
	"KOI8-R//":         "charmap.KOI8R",
	"KOI8-U//":         "charmap.KOI8U",
	"MACINTOSH//":      "charmap.Macintosh",
	"IBM874//":         "charmap.Windows874",
	"CP1250//":         "charmap.Windows1250",
	"CP1251//":         "charmap.Windows1251",
	"CP1252//":         "charmap.Windows1252",
	"CP1253//":         "charmap.Windows1253",
	"CP1254//":         "charmap.Windows1254",
	"CP1255//":         "charmap.Windows1255",
	"CP1256//":         "charmap.Windows1256",
	"CP1257//":         "charmap.Windows1257",
	"CP1258//":         "charmap.Windows1258",
	"IBM037//":         "charmap.CodePage037",
	"IBM437//":         "charmap.CodePage437",
	"IBM850//":         "charmap.CodePage850",
	"IBM852//":         "charmap.CodePage852",
	"IBM855//":         "charmap.CodePage855",
	"IBM858//":         "charmap.CodePage858",
	"IBM860//":         "charmap.CodePage860",
	"IBM862//":         "charmap.CodePage862",
	"IBM863//":         "charmap.CodePage863",
	"IBM865//":         "charmap.CodePage865",
	"IBM866//":         "charmap.CodePage866",
	"IBM1047//":        "charmap.CodePage1047",
	"IBM1140//":        "charmap.CodePage1140",
	"EUC-JP//":         "japanese.EUCJP",
	"SJIS//":           "japanese.ShiftJIS",
	"ISO-2022-JP//":    "japanese.ISO2022JP",
	"EUC-KR//":         "korean.EUCKR",
	"GBK//":            "simplifiedchinese.GBK",
	"GB18030//":        "simplifiedchinese.GB18030",
	"BIG5//":           "traditionalchinese.Big5",
}

// builtinAliases are gconv_builtin.h's BUILTIN_ALIAS lines for the
// converters above that libc has built in.
var builtinAliases = map[string][]string{
	"ISO-10646/UTF8/": {"UTF8//", "UTF-8//", "ISO-IR-193//", "OSF05010001//", "ISO-10646/UTF-8/"},
	"ANSI_X3.4-1968//": {"ANSI_X3.4//", "ISO-IR-6//", "ANSI_X3.4-1986//", "ISO_646.IRV:1991//", "ASCII//",
		"ISO646-US//", "US-ASCII//", "US//", "IBM367//", "CP367//", "CSASCII//", "OSF00010020//"},
}

func main() {
	dir := flag.String("gconv", "/usr/lib/x86_64-linux-gnu/gconv", "glibc's gconv directory (gconv-modules, gconv-modules.d)")
	out := flag.String("out", "internal/charset/names.go", "Go file to write")
	glibc := flag.String("glibc", "2.36", "glibc version the gconv files come from")
	flag.Parse()

	files := []string{filepath.Join(*dir, "gconv-modules")}
	extra, _ := filepath.Glob(filepath.Join(*dir, "gconv-modules.d", "*.conf"))
	files = append(files, extra...)
	names := map[string][]string{} // character set -> its names
	modules := map[string]bool{}
	for _, f := range files {
		if err := readConfig(f, names, modules); err != nil {
			log.Fatalf("aliasgen: %v", err)
		}
	}
	for set, aliases := range builtinAliases {
		modules[set] = true
		names[set] = append(names[set], aliases...)
	}

	seen := map[string]string{}
	var sets []string
	for set := range converters {
		if !modules[set] {
			log.Fatalf("aliasgen: %s is not a character set of %s", set, *dir)
		}
		sets = append(sets, set)
		for _, n := range append([]string{set}, names[set]...) {
			if other, dup := seen[n]; dup {
				log.Fatalf("aliasgen: %s names both %s and %s", n, other, set)
			}
			seen[n] = set
		}
	}
	sort.Strings(sets)

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/charset/internal/gen/aliasgen from glibc %s's gconv-modules; DO NOT EDIT.\n\n", *glibc)
	b.WriteString("package charset\n\n")
	b.WriteString("import (\n\t\"golang.org/x/text/encoding\"\n\t\"golang.org/x/text/encoding/charmap\"\n\t\"golang.org/x/text/encoding/japanese\"\n\t\"golang.org/x/text/encoding/korean\"\n\t\"golang.org/x/text/encoding/simplifiedchinese\"\n\t\"golang.org/x/text/encoding/traditionalchinese\"\n)\n\n")
	b.WriteString("// byName returns the encoding of a character set name in glibc's\n// normalised form (upper case, \"//\" or \"/<name>/\" appended), or nil.\n// A switch is compiled code: nothing is built when the program starts.\n")
	b.WriteString("func byName(name string) encoding.Encoding {\n\tswitch name {\n")
	for _, set := range sets {
		ns := append([]string{set}, names[set]...)
		sort.Strings(ns)
		fmt.Fprintf(&b, "\tcase %s:\n\t\treturn %s\n", quoteAll(ns), converters[set])
	}
	b.WriteString("\t}\n\treturn nil\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("aliasgen: %v", err)
	}
	if err := os.WriteFile(*out, src, 0o666); err != nil {
		log.Fatalf("aliasgen: %v", err)
	}
}

// readConfig reads a gconv-modules file: "alias NAME SET" and
// "module FROM TO FILE [COST]" lines, "#" comments.
func readConfig(path string, names map[string][]string, modules map[string]bool) error {
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
			names[set] = append(names[set], strings.ToUpper(fields[1]))
		case len(fields) >= 4 && fields[0] == "module":
			for _, m := range fields[1:3] {
				if m != "INTERNAL" {
					modules[strings.ToUpper(m)] = true
				}
			}
		}
	}
	return sc.Err()
}

func quoteAll(ns []string) string {
	q := make([]string, len(ns))
	for i, n := range ns {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
