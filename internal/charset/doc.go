// Package charset converts text between character sets as git does, by
// the names git hands to iconv: a commit's "encoding" header, --encoding
// and i18n.logOutputEncoding, a working-tree-encoding attribute.
//
// git converts with glibc's iconv (utf8.c, reencode_string_len), so a name
// is looked up as iconv_open looks it up: suffixes such as "//TRANSLIT"
// are dropped, the name is upper-cased with every character other than
// letters, digits and "_-.,:" removed, and matched against glibc's
// character set names and aliases (gconv-modules, the converters built
// into libc). git's own spellings come first ("UTF-16LE-BOM" and
// "UTF-16BE-BOM" for output) and last ("latin-1" for ISO-8859-1, the
// official spelling of UTF-8, when iconv knows no such name). Reencode is
// reencode_string_len; a conversion that iconv cannot open or that fails
// on the text gives no result, and git then keeps the text as it is.
//
// # Conversions
//
// A conversion is what glibc 2.36's iconv does with a whole text in one
// call, from the initial state and without the flush git never makes: a
// character a converter holds back at the end to see whether the next
// one combines with it (CP1255, CP1258 and TCVN decoding, BIG5-HKSCS and
// the JIS X 0213 sets encoding) is not written. Where gconv-modules
// converts two character sets into one another directly (EUC-CN and
// BIG5, which turns simplified characters into traditional ones; GBK to
// EUC-CN and back), Reencode does the same, with glibc's quirks (its
// EUC-CN to GBK converter calls a two-byte character at the very end of
// the text incomplete).
//
// The Unicode forms are goblame's own code (unicode.go): UTF-8 of up to
// six bytes as glibc's, UTF-16, UTF-32, UCS-2, UCS-4, strict as iconv is.
// Every other character set glibc converts statelessly, some 250 from
// ISO-8859-x, KOI8-R and windows-125x to EUC-JP, Shift_JIS, EUC-KR, UHC,
// GB2312, GBK, GB18030, BIG5, BIG5-HKSCS and EUC-TW, is a table (table.go):
// byte sequences of one to four bytes, each decoding to one or two code
// points, code points encoding to bytes, pairs held back and combined.
// The tables are not glibc's sources translated: internal/gen/tablegen
// asks the installed iconv how it converts every sequence and every code
// point, and writes what it answers (tables.bin, tables.go, names.go). The
// package's tests compare every table with the iconv program, sequence by
// sequence and code point by code point.
//
// ISO-2022-JP, which git's own tests commit in, is code (iso2022jp.go)
// over a probed JIS X 0208 table. The other stateful character sets
// (ISO-2022-JP-1, -2 and -3, ISO-2022-KR and -CN, UTF-7, the EBCDIC
// double-byte sets with shifts, TSCII) have no converter here: goblame
// keeps such text as it is, where git converts it. So do "//TRANSLIT"
// conversions where iconv would transliterate (that depends on the
// locale).
//
// # Security
//
// The text converted is untrusted (commit messages, work-tree files):
// every sequence is bounds-checked, a byte decodes to at most two code
// points and a code point encodes to at most seven bytes, and nothing
// panics (FuzzReencode). The table data is the package's own, embedded,
// read with checked varints; data that does not unpack makes its
// character set fail to convert.
//
// # Start-up
//
// Nothing is built when the program starts: the name table is a switch
// (names.go), not a map, and the tables are static data unpacked the
// first time a character set converts something (golang.org/x/text's
// ianaindex builds 54 KB of maps at initialisation, its unicode package
// tables too).
//
// # Concurrency
//
// Everything here is safe for concurrent use; the x/text Decoder and
// Encoder values Lookup's encodings return are not.
package charset

//go:generate go run ./internal/gen/tablegen -out .
