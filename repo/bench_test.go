package repo

import (
	"path/filepath"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// bigIndexScript makes an index of 20000 entries in nested directories.
const bigIndexScript = `
git init -q r
cd r
echo x >f
blob=$(git hash-object -w f)
awk -v b="$blob" 'BEGIN { for (i = 0; i < 20000; i++) printf "100644 %s\tdir%03d/sub%02d/file%05d.txt\n", b, i % 200, i % 37, i }' |
	git update-index --add --index-info
test_tick
git commit -q -m big
`

func benchRepo(b *testing.B, name, script, sub string) (*Repository, string) {
	b.Helper()
	testgit.RequireGit(b)
	root := testgit.Fixture(b, name, oid.SHA1, script)
	dir := filepath.Join(root, sub)
	r, err := Discover(EnvFromList(dir, testgit.Env(oid.SHA1)))
	if err != nil {
		b.Fatal(err)
	}
	return r, dir
}

// BenchmarkDiscover measures opening a repository: the walk, the
// repository format, the whole configuration and the object store.
func BenchmarkDiscover(b *testing.B) {
	_, dir := benchRepo(b, "revisions", revScript, "r/d/e")
	env := EnvFromList(dir, testgit.Env(oid.SHA1))
	b.ReportAllocs()
	for b.Loop() {
		r, err := Discover(env)
		if err != nil {
			b.Fatal(err)
		}
		r.Close()
	}
}

func BenchmarkResolveRevision(b *testing.B) {
	r, _ := benchRepo(b, "revisions", revScript, "r")
	rd := r.Objects.NewReader()
	for _, spec := range []string{"HEAD", "main~20", "v1^{tree}", "HEAD:d/e/file", "side^2"} {
		b.Run(spec, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = r.ResolveRevision(rd, spec)
			}
		})
	}
}

func BenchmarkReadIndex(b *testing.B) {
	r, _ := benchRepo(b, "bigindex", bigIndexScript, "r")
	b.ReportAllocs()
	for b.Loop() {
		ix, err := r.ReadIndex()
		if err != nil || len(ix.EntryList) != 20000 {
			b.Fatal(err, len(ix.EntryList))
		}
	}
}

// BenchmarkReadIndexFor reads the index for one path, as a working-tree
// blame does: the 20,000 entries scanned, one kept.
func BenchmarkReadIndexFor(b *testing.B) {
	r, _ := benchRepo(b, "bigindex", bigIndexScript, "r")
	b.ReportAllocs()
	for b.Loop() {
		ix, _, err := r.ReadIndexFor("dir005/sub05/file00005.txt")
		if err != nil || len(ix.EntryList) != 1 {
			b.Fatal(err, len(ix.EntryList))
		}
	}
}

func BenchmarkAttributes(b *testing.B) {
	r, _ := benchRepo(b, "attributes", attrScript, "r")
	b.ReportAllocs()
	for b.Loop() {
		r.Attributes("a/b/c/x.c", "diff", "text", "eol")
	}
}

func BenchmarkLoadConfig(b *testing.B) {
	r, _ := benchRepo(b, "config-syntax", configScript, "repo")
	b.ReportAllocs()
	for b.Loop() {
		if err := r.loadConfig(); err != nil {
			b.Fatal(err)
		}
	}
}
