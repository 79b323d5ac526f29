// Package cquote reads the C-style quoted strings git writes where a
// name may hold unusual bytes (quote.c's unquote_c_style): "a\tb" with
// \a \b \f \n \r \t \v \\ \" and three-digit octal escapes. Paths in
// objects/info/alternates and patterns in .gitattributes use it. It also
// writes git's shell quoting (quote.c's sq_quote_buf: SingleQuote).
//
// # Security
//
// The input is untrusted; a malformed string is reported (ok false),
// never a panic.
package cquote

// Unquote decodes a C-style quoted string at the start of s (git's
// unquote_c_style) and returns it with the number of bytes consumed.
func Unquote(s []byte) ([]byte, int, bool) {
	if len(s) == 0 || s[0] != '"' {
		return nil, 0, false
	}
	var out []byte
	i := 1
	for {
		if i >= len(s) {
			return nil, 0, false
		}
		c := s[i]
		i++
		switch c {
		case '"':
			return out, i, true
		case '\\':
		default:
			out = append(out, c)
			continue
		}
		if i >= len(s) {
			return nil, 0, false
		}
		c = s[i]
		i++
		switch c {
		case 'a':
			c = '\a'
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		case 'v':
			c = '\v'
		case '\\', '"':
		case '0', '1', '2', '3':
			if i+1 >= len(s) || s[i] < '0' || s[i] > '7' || s[i+1] < '0' || s[i+1] > '7' {
				return nil, 0, false
			}
			c = (c-'0')<<6 | (s[i]-'0')<<3 | (s[i+1] - '0')
			i += 2
		default:
			return nil, 0, false
		}
		out = append(out, c)
	}
}
