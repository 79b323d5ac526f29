package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// specialScript builds repositories around one history: a shallow clone,
// a bare clone (HEAD:.mailmap), grafts, a replace ref, a linked worktree,
// a merge in progress with a conflict, a latin-1 commit, a symlink, an
// empty file, CRLF under core.autocrlf, a binary file and a long line.
const specialScript = `git init -q r && cd r
printf 'one\ntwo\nthree\nfour\nfive\n' >file
printf 'target\n' >target
ln -s target link
: >empty
printf 'a\r\nb\r\nc\r\n' >crlf
printf 'bin\000ary\nx\n' >binary
head -c 5000 /dev/zero | tr '\0' 'y' >long; echo >>long
commit_all initial
sed -i 's/^two$/TWO/' file
ln -sf file link
commit_all second
test_tick
printf 'J\xf6rg Latin <joerg@example.com>\n' >/dev/null
git -c i18n.commitEncoding=ISO-8859-1 commit -q --allow-empty -m "$(printf 'caf\xe9 summary')"
sed -i 's/^four$/FOUR/' file
GIT_AUTHOR_NAME="$(printf 'J\xf6rg')" git -c i18n.commitEncoding=ISO-8859-1 commit -q -am "$(printf 'latin \xe9')"
test_tick
sed -i 's/^five$/FIVE/' file
printf 'Mapped Name <mapped@example.com> <author@example.com>\n' >.mailmap
commit_all "mailmap"
git checkout -q -b side HEAD~2
sed -i 's/^one$/one (side)/' file
commit_all side
git checkout -q main
sed -i 's/^one$/one (main)/' file
commit_all main-one
git merge -q side || true
cd ..
git clone -q --bare r bare.git
git clone -q --depth 2 "file://$PWD/r" shallow
git clone -q r grafted
( cd grafted && git rev-parse HEAD~1 >.git/info/grafts && git branch dup HEAD~1 && git tag dup HEAD )
# Grafts and objects enough for a 4-digit prefix of two of them (written
# to ambiguous-prefix: 1,500 blobs make one all but certain).
git clone -q r ambig
mkdir blobs
for i in $(seq 1500); do echo "blob $i" >blobs/$i; done
( cd ambig && git rev-parse HEAD~1 >.git/info/grafts &&
  ls ../blobs/* | git hash-object -w --stdin-paths >/dev/null &&
  git cat-file --batch-all-objects --batch-check='%(objectname)' | cut -c1-4 | sort | uniq -d | head -n 1 >../ambiguous-prefix )
rm -r blobs
git clone -q r replaced
( cd replaced && git replace "$(git rev-parse HEAD~2)" "$(git rev-parse HEAD~4)" )
( cd r && git worktree add -q ../wt HEAD~1 && cd ../wt && printf 'wt line\n' >>file )
git clone -q r crlf
( cd crlf && git config core.autocrlf true && printf 'a\r\nB\r\nc\r\n' >crlf )
git -C r rev-parse HEAD~3 >revs
git init -q unborn && echo x >unborn/file
`

// ambiguousPrefix is the 4-digit prefix of two objects of the special
// fixture's ambig repository.
func ambiguousPrefix(t *testing.T, root string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "ambiguous-prefix"))
	if p := strings.TrimSpace(string(b)); err != nil || len(p) != 4 {
		t.Fatalf("the fixture has no ambiguous prefix (%q, %v)", b, err)
	}
	return strings.TrimSpace(string(b))
}

func TestSpecialRepositoriesMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, format := range testgit.Formats {
		root := testgit.Fixture(t, "cli-special", format, specialScript)
		cases := []struct {
			dir  string
			args []string
		}{
			{"r", []string{"HEAD", "--", "link"}},
			{"r", []string{"HEAD", "--", "empty"}}, {"r", []string{"-p", "HEAD", "--", "empty"}}, {"r", []string{"-L", "1", "HEAD", "--", "empty"}},
			{"r", []string{"HEAD", "--", "crlf"}}, {"r", []string{"HEAD", "--", "binary"}}, {"r", []string{"HEAD", "--", "long"}},
			{"r", []string{"HEAD~2", "--", "file"}}, {"r", []string{"-p", "HEAD~2", "--", "file"}},
			{"r", []string{"--encoding=none", "-p", "HEAD~2", "--", "file"}}, {"r", []string{"--encoding=ISO-8859-1", "HEAD~2", "--", "file"}},
			{"r", []string{"-e", "HEAD", "--", "file"}}, {"r", []string{"link"}}, {"r", []string{"HEAD", "--", "nosuch"}},
			{"bare.git", []string{"file"}}, {"bare.git", []string{"-p", "file"}}, {"bare.git", []string{"HEAD"}},
			{"bare.git", []string{"--contents", "-", "file"}},
			{"shallow", []string{"file"}}, {"shallow", []string{"-p", "HEAD", "--", "file"}}, {"shallow", []string{"--root", "HEAD", "--", "file"}},
			{"grafted", []string{"HEAD", "--", "file"}}, {"grafted", []string{"-p", "HEAD", "--", "file"}},
			// git reads the grafts (and prints their hint) when it first
			// parses a commit: before the deaths that follow.
			{"grafted", []string{"nosuch"}}, {"grafted", []string{"HEAD", "--", "nosuch"}},
			{"grafted", []string{"--contents", "/nonexistent", "file"}}, {"grafted", []string{"--contents", "/nonexistent", "HEAD", "--", "file"}},
			{"grafted", []string{"--reverse", "--contents", "/nonexistent", "HEAD", "--", "file"}},
			{"grafted", []string{"HEAD", "HEAD~1", "--", "file"}}, {"grafted", []string{"HEAD~2", "--", "file"}},
			{"grafted", []string{"-L", "9,10", "HEAD", "--", "file"}},
			// Message searches parse commits: the grafts' hint comes
			// first, and their parents are the grafts' (a message past
			// a graft is not reached).
			{"grafted", []string{":/nomatch", "--", "file"}}, {"grafted", []string{"HEAD^{/nomatch}", "--", "file"}},
			// -S "": git opens "" (no such file), not the top of the
			// work tree.
			{"grafted", []string{"-S", "", "HEAD", "--", "file"}},
			{"grafted", []string{":/second", "--", "file"}}, {"grafted", []string{"HEAD^{/second}", "--", "file"}},
			{"grafted", []string{":/mailmap", "--", "file"}}, {"grafted", []string{":/side", "--", "file"}},
			// A revision that parsed a commit read them for the whole
			// command: a later argument's death comes after their hint.
			{"grafted", []string{"HEAD~1", "nosuch", "--", "file"}}, {"grafted", []string{"HEAD~1", "HEAD..nosuch", "--", "file"}},
			{"grafted", []string{"HEAD~1", "HEAD~9", "--", "file"}}, {"grafted", []string{"HEAD~1", "--ignore-rev", "nosuch", "--", "file"}},
			{"grafted", []string{"HEAD~1", "--ignore-rev", "HEAD~9", "--", "file"}},
			// ... between the warnings of an ambiguous ref name (dup, a
			// branch and a tag), where git printed them.
			{"grafted", []string{"--reverse", "dup~1..dup", "--", "file"}}, {"grafted", []string{"dup~1", "dup~9", "--", "file"}},
			{"grafted", []string{"dup~1", "nosuch", "--", "file"}}, {"grafted", []string{"--ignore-rev", "dup~1", "--ignore-rev", "dup~9", "--", "file"}},
			// A --default that names nothing dies as
			// diagnose_missing_default does (after the grafts' hint when
			// it parsed a commit): a new repository's HEAD names its
			// branch, anything else is a broken branch.
			{"grafted", []string{"--default", "HEAD~9", "--", "file"}}, {"grafted", []string{"--default", "HEAD~1", "--", "file"}},
			{"r", []string{"--default", "nosuch", "--", "file"}}, {"unborn", []string{"--default", "HEAD", "file"}},
			{"unborn", []string{"--default", "nosuch", "file"}},
			// An --ignore-rev that parses a commit (~N) reads them too,
			// before its own death or a later one; one that does not
			// (HEAD) does not.
			{"grafted", []string{"--ignore-rev", "HEAD~9", "file"}}, {"grafted", []string{"--ignore-rev", "HEAD~9", "HEAD", "--", "file"}},
			{"grafted", []string{"--ignore-rev", "HEAD~1", "--ignore-rev", "nosuch", "file"}},
			{"grafted", []string{"--ignore-rev", "HEAD", "--ignore-rev", "nosuch", "file"}},
			{"grafted", []string{"--ignore-rev", "HEAD~1", "--ignore-rev", "HEAD~9", "file"}},
			{"grafted", []string{"--ignore-rev", "HEAD~1", "file"}},
			{"grafted", []string{"--ignore-rev", "HEAD~1", "-L", "9,10", "HEAD", "--", "file"}},
			// An ambiguous --ignore-rev lists the candidates before the
			// death.
			{"ambig", []string{"--ignore-rev", ambiguousPrefix(t, root), "file"}},
			{"ambig", []string{"--ignore-rev", ambiguousPrefix(t, root) + "~1", "file"}},
			{"ambig", []string{"--ignore-rev", "HEAD~1", "--ignore-rev", ambiguousPrefix(t, root), "file"}},
			{"replaced", []string{"HEAD", "--", "file"}}, {"replaced", []string{"-p", "HEAD", "--", "file"}},
			{"wt", []string{"HEAD", "--", "file"}},
		}
		for _, c := range cases {
			compareWithGit(t, filepath.Join(root, c.dir), format, []byte("buffer\n"), nil, c.args...)
		}
		// Work trees with uncommitted lines (the merge in progress, the
		// CRLF file changed), which git dates now: these need git 2.39.x
		// itself.
		for _, c := range []struct {
			dir  string
			args []string
		}{
			{"r", []string{"file"}}, {"r", []string{"-p", "file"}}, {"crlf", []string{"crlf"}}, {"crlf", []string{"-p", "crlf"}},
			// The linked worktree's own uncommitted line.
			{"wt", []string{"file"}}, {"wt", []string{"-p", "file"}},
			// MERGE_HEAD has no .mailmap: rename detection reads the
			// buffer, which is not in the object store.
			{"r", []string{"--contents", "-", ".mailmap"}},
		} {
			compareWithLiveGit(t, filepath.Join(root, c.dir), format, []byte("buffer\n"), nil, c.args...)
		}
		// A mailmap.blob that parses a commit reads the command's grafts:
		// their hint is printed once.
		mailmapBlob := []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=mailmap.blob", "GIT_CONFIG_VALUE_0=HEAD~1:.mailmap"}
		compareWithGit(t, filepath.Join(root, "grafted"), format, nil, mailmapBlob, "HEAD", "--", "file")
		compareWithGit(t, filepath.Join(root, "grafted"), format, nil, mailmapBlob, "-e", "HEAD~1", "--", "file")
		// Revisions read from a file with -S (graft lines): revs, written
		// by the script, holds HEAD~3.
		dir := filepath.Join(root, "r")
		compareWithGit(t, dir, format, nil, nil, "-S", filepath.Join(root, "revs"), "HEAD~3", "--", "file")
		// Its grafts are there for the revisions' resolution too (git
		// reads them first): HEAD~3 has no parent then.
		compareWithGit(t, dir, format, nil, nil, "-S", filepath.Join(root, "revs"), "HEAD~4", "--", "file")
		compareWithGit(t, dir, format, nil, nil, "-S", filepath.Join(root, "revs"), "HEAD", "^HEAD~3^!", "--", "file")
		compareWithGit(t, dir, format, nil, nil, "-S", "/nonexistent/revs", "file")
	}
}
