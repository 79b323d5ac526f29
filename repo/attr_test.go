package repo

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
)

const attrScript = `
git init -q r
cd r
mkdir -p a/b/c docs sub/deep linked idx
cat >.gitattributes <<'ATTR'
# top level
[attr]mymacro text eol=crlf -diff
[attr]other mymacro ident
*.c text diff=cpp
*.bin binary
*.txt text=auto whitespace=trailing
docs/ export-ignore
docs/** linguist-documentation
/rooted.c -text
a/**/deep.c mymacro
"quoted name.c" quoted
*.m other
!negated.c x
*.sh eol=lf !diff
bad line with! invalid=
*.inv good bad@name
[attr] spaced
*.Upper UPPER
ATTR
cat >a/.gitattributes <<'ATTR'
*.c -text diff
[attr]local not-allowed
b/*.c from-a
*.h !text
ATTR
cat >a/b/.gitattributes <<'ATTR'
*.c eol=lf
c/ dironly
ATTR
printf '*.c linked\n' >target-attrs
ln -s ../target-attrs linked/.gitattributes
printf '*.x from-index\n' >idx/.gitattributes
mkdir -p idx/deeper/deepest idx/wt
printf '*.x from-deeper\n*.y from-deeper\n' >idx/deeper/.gitattributes
printf '*.y from-deepest\n' >idx/deeper/deepest/.gitattributes
printf '*.x from-wt-index\n' >idx/wt/.gitattributes
git add idx/.gitattributes idx/deeper idx/wt
rm idx/.gitattributes idx/deeper/.gitattributes idx/deeper/deepest/.gitattributes
printf '*.x from-wt-file\n' >idx/wt/.gitattributes
printf '*.c info-wins\n*.txt -whitespace\n' >.git/info/attributes
printf '*.g from-global\n[attr]gmac g1 g2\n*.gm gmac\n' >../global-attrs
git config core.attributesFile ../global-attrs
# core.ignoreCase: patterns match names whatever the case of their
# ASCII letters (git's fspathncmp and WM_CASEFOLD).
cd .. && cp -r r icase && git -C icase config core.ignoreCase true
`

var attrPaths = []string{
	"x.c", "x.bin", "x.txt", "docs/readme", "docs/sub/page.md", "rooted.c", "sub/rooted.c", "a/x.c",
	"a/b/x.c", "a/b/c/x.c", "a/b/c/", "a/q/deep.c", "a/deep.c", "quoted name.c", "m.m", "negated.c",
	"run.sh", "x.inv", "x.upper", "x.Upper", "X.UPPER", "X.C", "A/B/X.c", "Docs/Readme", "ROOTED.c", "a/x.H", "a/Q/DEEP.c",
	"a/x.h", "linked/l.c", "idx/f.x", "f.g", "f.gm", "docs/",
	"a/b/c", "deep/a/b/x.c", "spaced", "[attr]",
	// Attribute files in the index alone, at several depths, and one
	// whose work-tree copy differs from the index's.
	"idx/deeper/deepest/f.y", "idx/deeper/f.x", "idx/deeper/deepest/f.x", "idx/wt/f.x",
}

func TestAttributesMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "attributes", f, attrScript)
		for _, sub := range []string{"r", "r/a", "icase"} {
			dir := filepath.Join(root, sub)
			r, err := Discover(EnvFromList(dir, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			var warnings []string
			r.WarningHandler = func(l string) { warnings = append(warnings, l) }
			for _, p := range attrPaths {
				// check-attr takes paths relative to the cwd; ours are
				// relative to the top.
				arg := p
				if sub == "r/a" {
					arg = "../" + p
				}
				warnings = warnings[:0]
				res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: []string{"check-attr", "-a", "--", arg}})
				var b strings.Builder
				for _, a := range r.AllAttributes(p) {
					fmt.Fprintf(&b, "%s: %s: %s\n", quoteCheckAttrPath(arg), a.Name, a.Value)
				}
				if got := b.String(); got != string(res.Stdout) {
					t.Errorf("%s %s %q:\n got: %s\nwant: %s", f, sub, p, got, res.Stdout)
				}
				_ = warnings
			}
			// Named attributes, unspecified ones included.
			names := []string{"text", "diff", "eol", "ident", "mymacro", "nosuch", "binary", "merge", "linked"}
			for _, p := range []string{"x.c", "a/b/x.c", "x.bin", "m.m", "run.sh", "linked/l.c"} {
				arg := p
				if sub == "r/a" {
					arg = "../" + p
				}
				res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: append(append([]string{"check-attr"}, names...), "--", arg)})
				got := r.Attributes(p, names...)
				var b strings.Builder
				for _, n := range names {
					fmt.Fprintf(&b, "%s: %s: %s\n", arg, n, got[n])
				}
				if b.String() != string(res.Stdout) {
					t.Errorf("%s %s named %q:\n got: %s\nwant: %s", f, sub, p, b.String(), res.Stdout)
				}
			}
		}
	}
}

// TestAttributeWarningsMatchGit compares the messages git prints while
// reading the attribute files with the repository's warnings.
func TestAttributeWarningsMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "attributes", f, attrScript)
		dir := filepath.Join(root, "r")
		for _, p := range []string{"x.c", "a/b/c/x.c", "linked/l.c"} {
			res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: []string{"check-attr", "-a", "--", p}})
			r, err := Discover(EnvFromList(dir, testgit.Env(f)))
			if err != nil {
				t.Fatal(err)
			}
			var warnings []string
			r.WarningHandler = func(l string) { warnings = append(warnings, l) }
			r.AllAttributes(p)
			got := strings.Join(append(warnings, ""), "\n")
			if got != string(res.Stderr) {
				t.Errorf("%s %s:\n got: %s\nwant: %s", f, p, got, res.Stderr)
			}
		}
	}
}

// quoteCheckAttrPath quotes as check-attr prints paths (C-style when
// they contain special bytes; the fixture has only spaces, which are
// not quoted).
func quoteCheckAttrPath(p string) string { return p }

// A large index, one .gitattributes in the index alone, deep below.
const attrBigIndexScript = `
git init -q r
cd r
blob=$(printf 'x\n' | git hash-object -w --stdin)
attrs=$(printf '*.c from-index\n' | git hash-object -w --stdin)
awk -v b="$blob" 'BEGIN { for (i = 0; i < 6000; i++) printf "100644 %s\tdir%02d/file%05d.c\n", b, i % 50, i }' |
	git update-index --index-info
printf '100644 %s\tdir07/deep/.gitattributes\n100644 %s\tdir07/deep/x.c\n' "$attrs" "$blob" |
	git update-index --index-info
`

// TestAttributesReadOnlyTheirIndexEntries checks that the attribute files
// an index holds are read without parsing the whole index: bytes
// allocated, a count that does not depend on the machine, stay far below
// what the index's 6,000 entries take parsed (about 1.5 MB; reading
// only the attribute entries takes 74–133 KB); and in one pass over it,
// however many directories are asked about (as -C asks about every
// candidate path's); in none after ReadIndexFor's pass, which collects
// them.
func TestAttributesReadOnlyTheirIndexEntries(t *testing.T) {
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "attributes-big-index", f, attrBigIndexScript)
		r, err := Discover(EnvFromList(filepath.Join(root, "r"), testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(r.IndexFile()); err != nil || st.Size() <= indexMapBytes {
			t.Fatalf("index %v, %v: want one larger than %d bytes, which is mapped", st, err, indexMapBytes)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got := r.Attributes("dir07/deep/x.c", "from-index")
		runtime.ReadMemStats(&after)
		if got["from-index"] != "set" {
			t.Fatalf("%s: from-index %q, want set", f, got["from-index"])
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<10 {
			t.Errorf("%s: reading the attributes allocated %d bytes, want at most 256 KiB", f, alloc)
		}
		for i := 0; i < 50; i++ {
			p := fmt.Sprintf("dir%02d/file%05d.c", i, i)
			if got := r.Attributes(p, "from-index")["from-index"]; got != "unspecified" {
				t.Errorf("%s: %s: from-index %q, want unset", f, p, got)
			}
		}
		if got := r.Attributes("dir07/deep/x.c", "from-index")["from-index"]; got != "set" {
			t.Errorf("%s: from-index %q after the other directories, want set", f, got)
		}
		if n := r.attrCheck.index.passes; n != 1 {
			t.Errorf("%s: %d passes over the index for 51 directories' attributes, want 1", f, n)
		}
		// A working-tree blame's pass over the index for its file
		// collects the attribute files too: no pass of their own.
		r2, err := Discover(EnvFromList(filepath.Join(root, "r"), testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		ix, _, err := r2.ReadIndexFor("dir07/deep/x.c")
		if err != nil || len(ix.EntryList) != 1 || ix.EntryList[0].Path != "dir07/deep/x.c" {
			t.Fatalf("%s: ReadIndexFor: %v, %+v: want the file's entry alone", f, err, ix)
		}
		if got := r2.Attributes("dir07/deep/x.c", "from-index")["from-index"]; got != "set" {
			t.Errorf("%s: from-index %q after ReadIndexFor, want set", f, got)
		}
		if n := r2.attrCheck.index.passes; n != 0 {
			t.Errorf("%s: %d passes over the index for the attributes after ReadIndexFor, want 0", f, n)
		}
	}
}

// attrSplitIndexScript keeps attribute files in the index alone, some in
// the shared index of a split index and one in its own part (a split
// index is read whole, not in a filtered pass).
const attrSplitIndexScript = `
git init -q r
cd r
mkdir -p d/e
printf '*.x from-top\n' >.gitattributes
printf '*.x from-d\n*.y from-d\n' >d/.gitattributes
printf 'x\n' >d/e/f.x
git add .gitattributes d
git update-index --split-index
printf '*.y from-e\n' >d/e/.gitattributes
git add d/e/.gitattributes
rm .gitattributes d/.gitattributes d/e/.gitattributes
`

// TestAttributesFromSplitIndexMatchGit compares the attributes read from
// a split index's attribute files with git check-attr's.
func TestAttributesFromSplitIndexMatchGit(t *testing.T) {
	testgit.Golden(t) // skips without git
	for _, f := range testgit.Formats {
		root := testgit.Fixture(t, "attributes-split-index", f, attrSplitIndexScript)
		dir := filepath.Join(root, "r")
		if m, _ := filepath.Glob(filepath.Join(dir, ".git", "sharedindex.*")); len(m) == 0 {
			t.Fatalf("%s: no shared index: the fixture is not a split index", f)
		}
		r, err := Discover(EnvFromList(dir, testgit.Env(f)))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"f.x", "d/f.x", "d/f.y", "d/e/f.x", "d/e/f.y", "d/e/g/f.y"} {
			res := testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: f, Args: []string{"check-attr", "-a", "--", p}})
			var b strings.Builder
			for _, a := range r.AllAttributes(p) {
				fmt.Fprintf(&b, "%s: %s: %s\n", quoteCheckAttrPath(p), a.Name, a.Value)
			}
			if got := b.String(); got != string(res.Stdout) {
				t.Errorf("%s %q:\n got: %s\nwant: %s", f, p, got, res.Stdout)
			}
		}
	}
}
