package cli

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// encodingScript commits in several encodings (the commit's encoding
// header), with author names in them, and keeps work-tree files in
// others (working-tree-encoding), each changing its own line.
const encodingScript = `git init -q r && cd r
printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n' >file
commit_all initial
enc_commit () { # enc_commit ENCODING LINE AUTHOR SUMMARY: in ENCODING
	test_tick
	sed -i "s/^$2\$/$2 changed/" file
	git add file
	GIT_AUTHOR_NAME="$(printf '%s' "$3" | iconv -f UTF-8 -t "$1")" \
		git -c i18n.commitEncoding="$1" commit -q -m "$(printf '%s' "$4" | iconv -f UTF-8 -t "$1")"
}
enc_commit ISO-8859-1 1 'Jörg Åström' 'café crème'
enc_commit KOI8-R 2 'Пётр' 'Привет, мир'
enc_commit SHIFT_JIS 3 '山田' '日本語のテキスト'
enc_commit EUC-KR 4 '김' '한국어'
enc_commit CP1252 5 'François' '€ “quoted”'
enc_commit GBK 6 '王' '简体中文'
enc_commit BIG5 7 '陳' '繁體中文'
# Names git knows only by its fallback, or iconv not at all.
test_tick
sed -i 's/^8$/8 changed/' file
GIT_AUTHOR_NAME="$(printf 'J\366rg')" git -c i18n.commitEncoding=latin-1 commit -q -am "$(printf 'latin-1 \351')"
test_tick
sed -i 's/^9$/9 changed/' file
GIT_AUTHOR_NAME="$(printf 'J\366rg')" git -c i18n.commitEncoding=no-such-charset commit -q -am "$(printf 'unknown \351')"
# Work-tree files in other encodings, changed after the commit.
printf '*.sjis working-tree-encoding=SJIS\n*.l1 working-tree-encoding=latin-1\n*.koi working-tree-encoding=koi8r\n' >.gitattributes
printf 'a\nb\n' >j.sjis; printf 'a\nb\n' >t.l1; printf 'a\nb\n' >r.koi
commit_all attributes
printf 'a\n日本\n' | iconv -f UTF-8 -t SJIS >j.sjis
printf 'a\ncaf\351\n' >t.l1
printf 'a\nмир\n' | iconv -f UTF-8 -t KOI8-R >r.koi
`

// TestEncodingsMatchGit converts commit messages to and from the
// encodings git users name, spelled as they spell them, and reads
// work-tree files in working-tree-encodings, as git does through iconv.
func TestEncodingsMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		dir := filepath.Join(testgit.Fixture(t, "cli-encodings", format, encodingScript), "r")
		compareWithGit(t, dir, format, nil, nil, "file")
		compareWithGit(t, dir, format, nil, nil, "-p", "file")
		for _, enc := range []string{
			"none", "UTF-8", "utf8", "ISO-8859-1", "iso-8859-1", "latin1", "latin-1", "l1", "iso 8859-1",
			"ISO8859-1", "ISO_8859-1:1987", "ISO-8859-1//IGNORE", "ISO-8859-15", "ascii", "US-ASCII",
			"cp1252", "windows-1252", "koi8-r", "KOI8R", "SJIS", "Shift_JIS", "euc-jp", "EUC-KR", "GBK",
			"cp936", "GB18030", "UTF-16", "UTF-16LE", "UTF-16BE", "UTF-16LE-BOM",
			"UTF-16BE-BOM", "ISO-10646/UTF8/", "nonsense", "latin-2",
			// Not here: BIG5 output (x/text's Big5 has the HKSCS letters
			// glibc's lacks: it converts the Cyrillic author where git
			// keeps the bytes) and "//TRANSLIT" (iconv transliterates what
			// the target cannot hold; goblame keeps the bytes).
		} {
			compareWithGit(t, dir, format, nil, nil, "--encoding="+enc, "-p", "file")
		}
		// Changed in the work tree: lines not committed yet, which git
		// dates now, so these need git 2.39.x itself.
		for _, f := range []string{"j.sjis", "t.l1", "r.koi"} {
			compareWithLiveGit(t, dir, format, nil, nil, f)
		}
	}
}
