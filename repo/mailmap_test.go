package repo

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

const mailmapScript = `
git init -q r
cd r
cat >.mailmap <<'MMEOF'
# comment line
Proper Name <proper@example.com>
<fixed@example.com> <broken@Example.COM>
Both Changed <both@example.com> <old@example.com>
Name Only For Match <match@example.com> Specific Old <shared@example.com>
Other Person <other@example.com> other old <shared@example.com>
Simple For Shared <shared@example.com>
   Spaced   Name   <spaced@example.com>   trailing junk
Empty Target <empty@example.com> <>
Nobody <> <noemail@example.com>
 <onlyemail@example.com> <nameless@example.com>
Case Test <case@example.com> CaSe NaMe <CASE@EXAMPLE.COM>
No Close <unterminated@example.com
Twice <twice@example.com>
Twice Again <twice@example.com>
First <dup@example.com> Dup <dup@example.com>
Second <dup2@example.com> Dup <dup@example.com>
MMEOF
for who in "A <proper@example.com>" "B <broken@example.com>" "C <old@example.com>" "Specific Old <shared@example.com>" \
	"Unknown <shared@example.com>" "case name <case@example.com>"; do
	name=${who% <*}; email=${who#*<}; email=${email%>}
	test_tick
	echo "$who" >>file
	git add file
	GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$email" GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="$email" git commit -q -m "$who"
done
printf 'Blob Person <blob@example.com> <fromblob@example.com>\nProper Name Overridden <proper@example.com>\n' >mm
git add mm && commit_all mm
printf 'File Person <file@example.com> <fromfile@example.com>\nBlob Person Overridden <blob@example.com> <fromblob@example.com>\n' >../mmfile
git clone -q --bare . ../bare.git
git -C ../bare.git config mailmap.file ../mmfile
cd ..
mkdir link && cd link && git init -q && ln -s ../r/.mailmap .mailmap && commit_all x && cd ..
`

var mailmapIdentities = []string{
	"A <proper@example.com>", "a <PROPER@example.com>", "B <broken@example.com>", "B <BROKEN@example.com>",
	"C <old@example.com>", "Specific Old <shared@example.com>", "specific old <shared@example.com>",
	"Other Old <shared@example.com>", "Unknown <shared@example.com>", "X <spaced@example.com>",
	"X <empty@example.com>", "X <>", "X <noemail@example.com>", "X <nameless@example.com>",
	"case name <case@example.com>", "CASE NAME <Case@Example.Com>", "X <unterminated@example.com>",
	"X <twice@example.com>", "Dup <dup@example.com>", "Other <dup@example.com>", "X <blob@example.com>",
	"X <fromblob@example.com>", "X <fromfile@example.com>", "Nobody <nobody@example.com>",
}

// checkMailmap renders what "git check-mailmap" prints for identities.
func checkMailmap(m *Mailmap, ids []string) string {
	var b strings.Builder
	for _, id := range ids {
		lt := strings.IndexByte(id, '<')
		name := strings.TrimRight(id[:lt], " ")
		email := strings.TrimSuffix(id[lt+1:], ">")
		n, e := m.Map([]byte(name), []byte(email))
		if len(n) > 0 {
			fmt.Fprintf(&b, "%s <%s>\n", n, e)
		} else {
			fmt.Fprintf(&b, "<%s>\n", e)
		}
	}
	return b.String()
}

func TestMailmapMatchesGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "mailmap", f, mailmapScript)
		cases := []struct {
			dir string
			env []string
		}{
			{"r", nil},
			{"r", []string{"GIT_CONFIG_PARAMETERS='mailmap.blob'='HEAD:mm'"}},
			{"r", []string{"GIT_CONFIG_PARAMETERS='mailmap.blob'='HEAD:mm' 'mailmap.file'='../mmfile'"}},
			{"r", []string{"GIT_CONFIG_PARAMETERS='mailmap.blob'='HEAD'"}},
			{"r", []string{"GIT_CONFIG_PARAMETERS='mailmap.blob'='nosuch:x'"}},
			{"bare.git", nil},
			{"bare.git", []string{"GIT_CONFIG_PARAMETERS='mailmap.blob'='HEAD:mm'"}},
			{"link", nil},
		}
		for _, c := range cases {
			dir := filepath.Join(root, c.dir)
			res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Env: c.env, Args: append([]string{"check-mailmap"}, mailmapIdentities...)})
			r, err := Discover(EnvFromList(dir, testgit.Env(f, c.env...)))
			if err != nil {
				t.Fatal(err)
			}
			m, err := r.LoadMailmap(r.Objects.NewReader(), CommandParents{})
			if err != nil {
				t.Fatal(err)
			}
			got := checkMailmap(m, mailmapIdentities) + "--- stderr\n" + strings.Join(append(m.Messages, ""), "\n")
			want := string(res.Stdout) + "--- stderr\n" + string(res.Stderr)
			if got != want {
				t.Errorf("%s %s %v:\n got: %s\nwant: %s", f, c.dir, c.env, got, want)
			}
			// The mapping git log applies to every commit.
			logRes := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Env: c.env, Args: []string{"log", "--all", "--format=%an <%ae>|%cn <%ce>|%aN <%aE>|%cN <%cE>"}})
			if logRes.ExitCode != 0 {
				t.Fatalf("git log: %s", logRes)
			}
			for _, line := range strings.Split(strings.TrimSpace(string(logRes.Stdout)), "\n") {
				parts := strings.Split(line, "|")
				for k := 0; k < 2; k++ {
					id := parts[k]
					lt := strings.IndexByte(id, '<')
					n, e := m.Map([]byte(strings.TrimSuffix(id[:lt], " ")), []byte(strings.TrimSuffix(id[lt+1:], ">")))
					if got := fmt.Sprintf("%s <%s>", n, e); got != parts[k+2] {
						t.Errorf("%s %s: %q maps to %q, git log %q", f, c.dir, id, got, parts[k+2])
					}
				}
			}
		}
	}
}

func TestMailmapLongLines(t *testing.T) {
	// Files are read 1023 bytes at a time (git's fgets buffer), so the
	// tail of a long line is parsed as a line of its own; blobs are not
	// split.
	long := strings.Repeat("x", 1100)
	text := "Real <real@example.com> " + long + " <old@example.com>\n"
	blob := ParseMailmap([]byte(text))
	if n, e := blob.Map([]byte("Someone"), []byte("old@example.com")); string(n) != "Someone" || string(e) != "old@example.com" {
		t.Errorf("blob, other name: %s <%s>", n, e)
	}
	if n, e := blob.Map([]byte(long), []byte("OLD@example.com")); string(n) != "Real" || string(e) != "real@example.com" {
		t.Errorf("blob, matching name: %s <%s>", n, e)
	}
	file := &Mailmap{byEmail: map[string]*mailmapEntry{}}
	file.addText([]byte(text), true)
	tail := long[1023-len("Real <real@example.com> "):]
	if n, e := file.Map([]byte("Someone"), []byte("old@example.com")); !bytes.Equal(n, []byte(tail)) || string(e) != "old@example.com" {
		t.Errorf("file: %q <%s>", n, e)
	}
	if n, e := file.Map([]byte("Someone"), []byte("real@example.com")); string(n) != "Real" || string(e) != "real@example.com" {
		t.Errorf("file, first piece: %s <%s>", n, e)
	}
}

func TestMailmapMapDoesNotAllocate(t *testing.T) {
	m := ParseMailmap([]byte("Proper <proper@example.com> <old@example.com>\nNamed <n@example.com> Old Name <old2@example.com>\n"))
	name, email := []byte("Someone"), []byte("OLD@example.com")
	other := []byte("nobody@example.com")
	oldName, oldEmail := []byte("old name"), []byte("old2@example.com")
	allocs := testing.AllocsPerRun(1000, func() {
		m.Map(name, email)
		m.Map(name, other)
		m.Map(oldName, oldEmail)
	})
	if allocs != 0 {
		t.Errorf("Map allocates %v times per call set", allocs)
	}
}

func BenchmarkMailmapMap(b *testing.B) {
	m := ParseMailmap([]byte("Proper <proper@example.com> <old@example.com>\nNamed <n@example.com> Old Name <old2@example.com>\n"))
	name, email := []byte("Someone"), []byte("OLD@example.com")
	b.ReportAllocs()
	for b.Loop() {
		m.Map(name, email)
	}
}

// syntheticMailmap is a mailmap of n lines in the four forms, with
// upper-case letters in the keys.
func syntheticMailmap(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "Proper Name%d <Proper%d@Example.com>\n", i, i)
		case 1:
			fmt.Fprintf(&b, "<proper%d@example.com> <Old%d@Example.com>\n", i, i)
		case 2:
			fmt.Fprintf(&b, "Proper %d <proper%d@example.com> <OLD%d@example.com>\n", i, i, i)
		default:
			fmt.Fprintf(&b, "Proper %d <proper%d@example.com> Old NAME %d <old%d@Example.COM>\n", i, i, i, i)
		}
	}
	return b.Bytes()
}

// TestParseMailmapAllocations: a mailmap's entries come from a few
// allocations per text, not a few per line (git/git's 318 lines took
// 1,236, 31 now): the map and the slabs grow with the text, their
// number does not. Only a line with an old name allocates, the map of
// names of its e-mail (two allocations where it is the e-mail's first).
func TestParseMailmapAllocations(t *testing.T) {
	for _, n := range []int{40, 400} {
		data := syntheticMailmap(n)
		withoutNames := bytes.Join(slices.DeleteFunc(bytes.SplitAfter(data, []byte("\n")), func(l []byte) bool {
			return bytes.Contains(l, []byte("Old NAME"))
		}), nil)
		for _, c := range []struct {
			data []byte
			max  float64
		}{{withoutNames, 12}, {data, 12 + 2*float64(n/4)}} {
			if allocs := testing.AllocsPerRun(20, func() { ParseMailmap(c.data) }); allocs > c.max {
				t.Errorf("%d lines (%d bytes): %v allocations, want at most %v", n, len(c.data), allocs, c.max)
			}
		}
	}
}

// TestMailmapReplacementsAreCapped: a replacement Map returns shares the
// mailmap's text; appending to it must not write over what follows.
func TestMailmapReplacementsAreCapped(t *testing.T) {
	m := ParseMailmap([]byte("A <a@x> <old@x>\nB <b@x> <old2@x>\n"))
	name, email := m.Map([]byte("n"), []byte("OLD@x"))
	if string(name) != "A" || string(email) != "a@x" {
		t.Fatalf("Map: %s <%s>", name, email)
	}
	_ = append(name, "XXXXXXXX"...)
	_ = append(email, "XXXXXXXX"...)
	if name, email := m.Map([]byte("n"), []byte("old2@x")); string(name) != "B" || string(email) != "b@x" {
		t.Errorf("after appending to the first replacement: %s <%s>", name, email)
	}
	if name, email := m.Map([]byte("n"), []byte("old@X")); string(name) != "A" || string(email) != "a@x" {
		t.Errorf("the first replacement again: %s <%s>", name, email)
	}
}

func BenchmarkParseMailmap(b *testing.B) {
	data := syntheticMailmap(320)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		ParseMailmap(data)
	}
}
