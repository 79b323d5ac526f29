package cquote

import "strings"

// SingleQuote quotes s for a POSIX shell as git's sq_quote_buf does: in
// single quotes, where each single quote and exclamation mark closes the
// quotes, is written after a backslash, and opens them again. git writes
// the "-c" settings it hands to the commands it runs this way
// (GIT_CONFIG_PARAMETERS), and names paths in some messages so.
func SingleQuote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' || c == '!' {
			b.WriteString("'\\")
			b.WriteByte(c)
			b.WriteByte('\'')
			continue
		}
		b.WriteByte(c)
	}
	b.WriteByte('\'')
	return b.String()
}
