// Package charset finds the encoding git converts text with, by the name
// git hands to iconv: a commit's "encoding" header, --encoding and
// i18n.logOutputEncoding, a working-tree-encoding attribute.
//
// git converts with glibc's iconv (utf8.c, reencode_string_len), so a name
// is looked up as iconv_open looks it up: suffixes such as "//TRANSLIT"
// are dropped, the name is upper-cased with every character other than
// letters, digits and "_-.,:" removed, and matched against glibc's
// character set names and aliases (gconv-modules, the converters built
// into libc). git's own spellings come first ("UTF-16LE-BOM" and
// "UTF-16BE-BOM" for output) and last ("latin-1" for ISO-8859-1 when iconv
// knows no such name).
//
// The conversions are golang.org/x/text's charmaps and East Asian
// encodings; UTF-8, ASCII and UTF-16 are goblame's own, strict as iconv
// is (x/text's replace what is invalid). Where a character set has no
// x/text encoding, Open reports that it cannot convert, and callers keep
// the bytes as they are, as git does when iconv_open fails. Known
// differences from glibc's tables: x/text decodes the C1 controls
// (0x80-0x9F) of ISO-8859-2 to -16 and the bytes its charmaps leave
// undefined as U+FFFD where glibc decodes the former and fails on the
// latter; a handful of code points in KOI8-U, MACINTOSH and CP1255; the
// East Asian encodings follow the WHATWG Encoding Standard (Shift_JIS as
// Windows-31J, EUC-KR as UHC).
//
// # Start-up
//
// The name table is a switch (names.go, generated from glibc's
// gconv-modules by internal/gen/aliasgen), not a map: a map literal is
// built by the package's initialisation on every run, goblame's included,
// whether or not anything is converted (golang.org/x/text's ianaindex
// builds 54 KB of maps that way).
//
// # Concurrency
//
// Everything here is safe for concurrent use; the encodings' Decoder and
// Encoder values are not.
package charset

//go:generate go run ./internal/gen/aliasgen -out names.go
