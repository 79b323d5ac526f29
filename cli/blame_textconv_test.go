package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

// textconvScript has a file whose diff driver converts it before blame
// (git blame applies textconv by default): the converted text is blamed.
const textconvScript = `git init -q r && cd r
printf '*.dat diff=upper\n' >.gitattributes
printf 'alpha\nbeta\n' >data.dat
commit_all initial
printf 'alpha\nbeta\ngamma\n' >data.dat
commit_all second
git config diff.upper.textconv 'tr a-z A-Z <'
printf 'alpha\nBETA-edited\ngamma\n' >data.dat
`

func TestTextconvMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "textconv", textconvScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		for _, args := range [][]string{
			{"HEAD", "--", "data.dat"}, {"--no-textconv", "HEAD", "--", "data.dat"}, {"-p", "HEAD", "--", "data.dat"},
			{"--show-stats", "HEAD", "--", "data.dat"},
		} {
			compareWithGit(t, dir, format, nil, nil, args...)
		}
		// The edited work-tree file: lines not committed yet, dated now,
		// so these need git 2.39.x itself.
		for _, args := range [][]string{{"data.dat"}, {"--no-textconv", "data.dat"}} {
			compareWithLiveGit(t, dir, format, nil, nil, args...)
		}
	}
}

// textconvCopyScript copies lines of a file converted by textconv into
// another in a commit that changes two more such files, so that -C reads
// them as candidates ahead of the walk: the copy is found in the
// converted text only (the candidates' summaries must be of it, not of
// the blobs read).
const textconvCopyScript = `git init -q r && cd r
printf '*.dat diff=upper\n' >.gitattributes
printf 'the first line of a copied block\nthe second line of the copied block\nand a third line of that block\n' >src1.dat
printf 'something else entirely here\n' >src2.dat
printf 'Unrelated start\n' >dst.dat
commit_all initial
tr a-z A-Z <src1.dat >>dst.dat
printf 'changed\n' >>src1.dat
printf 'changed too\n' >>src2.dat
commit_all copy
git config diff.upper.textconv 'tr a-z A-Z <'
`

func TestTextconvCopiesMatchGit(t *testing.T) {
	dirs := fixtureDirs(t, "textconv-copy", textconvCopyScript)
	for _, format := range testgit.Formats {
		for _, args := range [][]string{
			{"-C", "HEAD", "--", "dst.dat"}, {"-C", "-C", "HEAD", "--", "dst.dat"},
			{"--no-textconv", "-C", "HEAD", "--", "dst.dat"},
		} {
			compareWithGit(t, dirs[format], format, nil, nil, args...)
		}
	}
}

// textconvEnvScript has diff drivers whose textconv commands show the
// environment git gives them (its exec path first on PATH and in
// GIT_EXEC_PATH), name a program that does not exist, name a program
// without the shell's special characters (run without a shell), and
// die of a signal (git's "died of signal" line) or of SIGPIPE (none), and
// an empty command (which git runs, and fails to).
const textconvEnvScript = `git init -q r && cd r
printf '*.env diff=env\n*.miss diff=miss\n*.plain diff=plain\n*.sig diff=sig\n*.pipe diff=pipe\n*.empty diff=empty\n' >.gitattributes
printf 'one\n' >a.env
cp a.env b.miss
cp a.env c.plain
cp a.env d.sig
cp a.env e.pipe
cp a.env f.empty
mkdir -p tools sub
printf '#!/bin/sh\necho "argv0=$0"\ncat "$1"\n' >tools/conv
printf 'echo no-shebang\ncat "$1"\n' >tools/conv2
printf 'echo x\n' >tools/noexec
chmod +x tools/conv tools/conv2
printf '*.rel diff=rel\n*.nosb diff=nosb\n*.noexec diff=noexec\n*.nonexist diff=nonexist\n' >sub/.gitattributes
cp a.env sub/g.rel
cp a.env sub/h.nosb
cp a.env sub/i.noexec
cp a.env sub/j.nonexist
commit_all initial
printf 'one\ntwo\n' >a.env
commit_all second
git config diff.env.textconv 'f() { echo "${PATH%%:*}"; echo "$GIT_EXEC_PATH"; cat "$1"; }; f'
git config diff.miss.textconv nosuchprog
git config diff.plain.textconv cat
git config diff.sig.textconv 'kill -TERM $$'
git config diff.pipe.textconv 'kill -PIPE $$'
git config diff.empty.textconv ''
git config diff.rel.textconv conv
git config diff.nosb.textconv conv2
git config diff.noexec.textconv ./tools/noexec
git config diff.nonexist.textconv /nonexistent/conv
`

func TestTextconvEnvironmentMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "textconv-env", textconvEnvScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		fixed := []string{"GIT_EXEC_PATH=/opt/git-core-test"}
		compareWithGit(t, dir, format, nil, fixed, "HEAD", "--", "a.env")
		compareWithGit(t, dir, format, nil, fixed, "HEAD", "--", "b.miss")
		compareWithGit(t, dir, format, nil, fixed, "HEAD", "--", "c.plain")
		compareWithGit(t, dir, format, nil, fixed, "HEAD", "--", "d.sig")
		compareWithGit(t, dir, format, nil, fixed, "HEAD", "--", "e.pipe")
		compareWithGit(t, dir, format, nil, fixed, "HEAD", "--", "f.empty")
		// A program found through a relative PATH entry, from the top of
		// the work tree where git runs it (also when blaming from a
		// subdirectory), with the path found as its argv[0]; a script
		// without "#!" (run by /bin/sh, as git's child retries it); a
		// path that cannot be executed, or does not exist.
		tools := append([]string{"PATH=tools:/usr/bin:/bin"}, fixed...)
		for _, d := range []string{dir, dir + "/sub"} {
			for _, f := range []string{"g.rel", "h.nosb", "i.noexec", "j.nonexist"} {
				if d == dir {
					f = "sub/" + f
				}
				compareWithGit(t, d, format, nil, tools, "HEAD", "--", f)
			}
		}
		// git dies when it first reads attributes, with a
		// GIT_ATTR_NOSYSTEM that is no boolean.
		for _, args := range [][]string{{"HEAD", "--", "c.plain"}, {"--no-textconv", "HEAD", "--", "c.plain"},
			{"--no-textconv", "-L", ":one", "HEAD", "--", "c.plain"}, {"--no-textconv", "--", "c.plain"}} {
			compareWithGit(t, dir, format, nil, []string{"GIT_ATTR_NOSYSTEM=maybe"}, args...)
			compareWithGit(t, dir, format, nil, []string{"GIT_ATTR_NOSYSTEM=1"}, args...)
		}
		// The exec path of the git installed, and a relative one (made
		// absolute from the fixture's directory on PATH): only against
		// git itself.
		compareWithLiveGit(t, dir, format, nil, nil, "HEAD", "--", "a.env")
		compareWithLiveGit(t, dir, format, nil, []string{"GIT_EXEC_PATH=core/../x"}, "HEAD", "--", "a.env")
	}
}

// renameAttrScript renames a file with an edit, so that following it
// scores the similarity of the two versions, which reads their diff
// drivers (diff_filespec_is_binary): git's first attribute read in a
// --no-textconv blame of a revision.
const renameAttrScript = `git init -q r && cd r
for i in 1 2 3 4 5 6 7 8 9 10; do echo "line $i"; done >a
commit_all one
git mv a d
echo "line 11" >>d
commit_all two
`

func TestRenameScoringReadsAttributesAsGit(t *testing.T) {
	dirs := fixtureDirs(t, "rename-attr", renameAttrScript)
	for _, format := range testgit.Formats {
		for _, env := range []string{"GIT_ATTR_NOSYSTEM=maybe", "GIT_ATTR_NOSYSTEM=1"} {
			compareWithGit(t, dirs[format], format, nil, []string{env}, "--no-textconv", "HEAD", "--", "d")
		}
	}
}

// renameCRLFScript renames a file whose lines lose their CRs: as text
// (CR before LF not hashed) the versions are alike and the rename is
// followed; marked binary by the diff attribute (-diff, the binary
// macro) they are not, and git gives every line to the rename.
const renameCRLFScript = `git init -q r && cd r
for i in 1 2 3 4 5 6 7 8 9 10; do printf 'x%d\n' $i; done >a
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do printf 'y%d\r\n' $i; done >>a
mkdir text binary macro
cp a text/a && cp a binary/a && cp a macro/a
printf '* -diff\n' >binary/.gitattributes
printf '* binary\n' >macro/.gitattributes
commit_all one
for d in text binary macro; do git mv $d/a $d/d && tr -d '\r' <$d/d >$d/t && mv $d/t $d/d; done
commit_all two
`

func TestRenameScoringBinaryDriverMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "rename-crlf", renameCRLFScript)
	for _, format := range testgit.Formats {
		for _, f := range []string{"text/d", "binary/d", "macro/d"} {
			compareWithGit(t, dirs[format], format, nil, nil, "HEAD", "--", f)
		}
	}
}

// textconvArgScript has a textconv command that prints the name it is
// handed (a committed version's temporary file reduced to its form,
// git-blob-XXXXXX/<basename>), and uncommitted versions to blame: the
// work-tree file, which git hands the command by its path, and
// --contents files, whose own names choose the diff driver (contents.txt
// has none, so only the committed versions are converted).
const textconvArgScript = `git init -q r && cd r
printf '*.dat diff=show\n' >.gitattributes
mkdir sub
printf 'alpha\nbeta\n' >sub/data.dat
commit_all initial
printf 'alpha\nbeta\ngamma\n' >sub/data.dat
commit_all second
cat >show.sh <<'EOS'
#!/bin/sh
case "$1" in
/*/git-blob-??????/*) echo "ARG[a blob file named ${1##*/}]" ;;
*) echo "ARG[$1]" ;;
esac
sed 's/^/> /' "$1"
EOS
chmod +x show.sh
git config diff.show.textconv ./show.sh
printf 'alpha\nbeta\ngamma\ndelta\n' >sub/data.dat
printf 'alpha\nBETA\ngamma\n' >contents.dat
cp contents.dat contents.txt
ln -s sub/data.dat link.dat
git clone -q --bare . ../bare.git
git -C ../bare.git config diff.pwd.textconv 'f() { pwd | sed "s,.*/,cwd ,"; cat "$1"; }; f'
mkdir -p ../bare.git/info && printf '*.dat diff=pwd\n' >../bare.git/info/attributes
`

// TestTextconvArgumentMatchesGit: the name a textconv command is handed
// and the driver of an uncommitted version, as git's
// fake_working_tree_commit and prepare_temp_file choose them (-s leaves
// out the dates of the uncommitted lines, so git's goldens hold); where
// the temporary files go, and where the command runs.
func TestTextconvArgumentMatchesGit(t *testing.T) {
	dirs := fixtureDirs(t, "textconv-arg", textconvArgScript)
	for _, format := range testgit.Formats {
		for _, args := range [][]string{
			{"-s", "HEAD", "--", "sub/data.dat"},
			{"-s", "--", "sub/data.dat"},
			{"-s", "--contents", "contents.dat", "--", "sub/data.dat"},
			{"-s", "--contents", "contents.txt", "--", "sub/data.dat"},
			{"-s", "--contents", "nonexistent", "--", "sub/none.dat"},
			// A symbolic link is read through, but git's textconv
			// sees the link: its target's text, in a temporary file.
			{"-s", "--contents", "link.dat", "--", "sub/data.dat"},
		} {
			compareWithGit(t, dirs[format], format, nil, nil, args...)
		}
		// The temporary directory git makes its files in.
		for _, tmp := range []string{"TMPDIR=nonexistent-dir", "TMPDIR=contents.txt"} {
			compareWithGit(t, dirs[format], format, nil, []string{tmp}, "-s", "HEAD", "--", "sub/data.dat")
		}
		// A bare repository's programs run where git runs: its
		// directory when found from there, below it too.
		bare := filepath.Join(filepath.Dir(dirs[format]), "bare.git")
		compareWithGit(t, bare, format, nil, nil, "-s", "HEAD", "--", "sub/data.dat")
		compareWithGit(t, filepath.Join(bare, "refs"), format, nil, nil, "-s", "HEAD", "--", "sub/data.dat")
	}
	// A --contents file outside the work tree, named absolutely: its
	// driver comes from the attribute files of its own directories
	// (git's attribute stack takes "/x" for the first one). The name
	// depends on the machine, so only git itself is compared.
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, ".gitattributes"), []byte("*.out diff=show\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "c.out"), []byte("alpha\nBETA\ngamma\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range testgit.Formats {
		compareWithLiveGit(t, dirs[format], format, nil, nil, "-s", "--contents", filepath.Join(outside, "c.out"), "--", "sub/data.dat")
	}
}

// attrViewsScript commits a .gitattributes naming a textconv driver, then
// removes it from the work tree only (r), and keeps a copy of the
// repository with it (whole).
const attrViewsScript = `git init -q r && cd r
printf '*.txt diff=up\n' >.gitattributes
printf 'alpha\nbeta\n' >f.txt
commit_all one
git config diff.up.textconv 'tr a-z A-Z <'
cp -r . ../whole
rm .gitattributes
printf '*.txt diff=up\n' >.git/.gitattributes
`

// TestAttributesAsBlameReadsThem: git reads the attributes of a blame of a
// commit from where it runs, without the index, which it never reads
// then: a .gitattributes removed from the work tree (the index still has
// it) names no driver there, while a work-tree blame, which has read the
// index, takes the index's copy; started outside the work tree (GIT_DIR
// and GIT_WORK_TREE), a blame of a commit finds no .gitattributes, a
// work-tree blame (which went to the top) finds them.
func TestAttributesAsBlameReadsThem(t *testing.T) {
	dirs := fixtureDirs(t, "attr-views", attrViewsScript)
	for _, format := range testgit.Formats {
		dir := dirs[format]
		compareWithGit(t, dir, format, nil, nil, "-s", "HEAD", "--", "f.txt")
		compareWithGit(t, dir, format, nil, nil, "-s", "f.txt")
		// Inside the git directory of a repository that is not bare,
		// git reads the .gitattributes where it runs: there.
		compareWithGit(t, filepath.Join(dir, ".git"), format, nil, nil, "-s", "HEAD", "--", "f.txt")
		outside := filepath.Dir(dir)
		env := []string{"GIT_DIR=whole/.git", "GIT_WORK_TREE=whole"}
		compareWithGit(t, outside, format, nil, env, "-s", "HEAD", "--", "f.txt")
		compareWithGit(t, outside, format, nil, env, "-s", "f.txt")
	}
}
