package blamecore

import "testing"

// TestReencodeMessage: logmsg_reencode's rules around the conversion
// (the conversions themselves are internal/charset's, compared with
// iconv there and with git blame in cli).
func TestReencodeMessage(t *testing.T) {
	const head = "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor J\xf6rg <j@example.com> 1 +0000\ncommitter C <c@example.com> 1 +0000\n"
	cases := []struct {
		name, body, output, want string
	}{
		{"latin-1 to the default UTF-8", head + "encoding ISO-8859-1\n\ncaf\xe9\n", "", "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor Jörg <j@example.com> 1 +0000\ncommitter C <c@example.com> 1 +0000\nencoding ISO-8859-1\n\ncafé\n"},
		{"--encoding=none", head + "encoding ISO-8859-1\n\ncaf\xe9\n", "none", head + "encoding ISO-8859-1\n\ncaf\xe9\n"},
		{"git's latin-1 fallback", head + "encoding latin-1\n\n\xe9\n", "UTF-8", "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor Jörg <j@example.com> 1 +0000\ncommitter C <c@example.com> 1 +0000\nencoding latin-1\n\né\n"},
		{"same encoding: not converted, not checked", head + "encoding utf8\n\n\xff\n", "UTF-8", head + "encoding utf8\n\n\xff\n"},
		{"same UTF by git's rule", head + "encoding utf16\n\nodd\n", "UTF-16", head + "encoding utf16\n\nodd\n"},
		{"same but for case", head + "encoding euc-jp\n\n\xff\n", "EUC-JP", head + "encoding euc-jp\n\n\xff\n"},
		{"invalid in its encoding: kept", head + "encoding EUC-JP\n\n\xa4\n", "UTF-8", head + "encoding EUC-JP\n\n\xa4\n"},
		{"unknown encoding: kept", head + "encoding x-nothing\n\n\xe9\n", "UTF-8", head + "encoding x-nothing\n\n\xe9\n"},
		{"not in the output encoding: kept", "author A <a@example.com> 1 +0000\n\n\xe6\x97\xa5\n", "ISO-8859-1", "author A <a@example.com> 1 +0000\n\n\xe6\x97\xa5\n"},
		{"a NUL ends the text converted", "author Zo\xc3\xab <z@example.com> 1 +0000\n\nok\x00\xff\n", "ISO-8859-1", "author Zo\xeb <z@example.com> 1 +0000\n\nok"},
		{"a NUL ends what is kept", "author Zo\xc3\xab <z@example.com> 1 +0000\n\n\xff\x00after", "ISO-8859-1", "author Zo\xc3\xab <z@example.com> 1 +0000\n\n\xff"},
		{"a header after the NUL does not count", "author J\xf6rg <j@example.com> 1 +0000\n\x00encoding ISO-8859-1\n", "UTF-8", "author J\xf6rg <j@example.com> 1 +0000\n"},
	}
	for _, c := range cases {
		if got := string(reencodeMessage([]byte(c.body), c.output)); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
