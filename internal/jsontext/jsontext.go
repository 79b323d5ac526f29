// Package jsontext writes JSON text by hand, for the records goblame
// encodes (the library's MarshalJSON methods and format's --json output):
// encoding/json, with its reflection, would be linked into the command,
// whose start-up it slows.
//
// # Concurrency
//
// The functions are pure.
package jsontext

import "unicode/utf8"

// AppendString appends s as a JSON string: quotes, backslashes and
// control characters escaped (and U+2028, U+2029, which JavaScript
// cannot take in a string literal), invalid UTF-8 replaced by U+FFFD, as
// encoding/json does.
func AppendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, '\\', 'n')
		case r == '\t':
			b = append(b, '\\', 't')
		case r == '\r':
			b = append(b, '\\', 'r')
		case r < 0x20 || r == 0x2028 || r == 0x2029:
			b = append(b, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		default:
			b = utf8.AppendRune(b, r) // utf8.RuneError for invalid bytes
		}
	}
	return append(b, '"')
}
