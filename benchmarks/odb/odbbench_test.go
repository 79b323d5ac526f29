package odbbench

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/odb"
)

// generated is the benchmark's repository. The tests compare object
// contents with git cat-file's, which any git prints alike (they are the
// bytes the ids name), so any git will do.
func generated(t *testing.T) string {
	t.Helper()
	testgit.RequireAnyGit(t)
	repo, err := Generated()
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

func gitOutput(t *testing.T, repo string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// TestCatAllMatchesGit checks that the goblame side of every measurement
// prints exactly what git cat-file --batch prints.
func TestCatAllMatchesGit(t *testing.T) {
	repo := generated(t)
	db, err := OpenRepo(repo, odb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	var ours bytes.Buffer
	if err := CatAll(db, &ours, false); err != nil {
		t.Fatal(err)
	}
	want := gitOutput(t, repo, nil, "cat-file", "--batch", "--batch-all-objects")
	if !bytes.Equal(ours.Bytes(), want) {
		t.Fatalf("CatAll: %d bytes, git %d bytes, not identical", ours.Len(), len(want))
	}
	objects := len(headers(want))

	ours.Reset()
	if err := CatAll(db, &ours, true); err != nil {
		t.Fatal(err)
	}
	want = gitOutput(t, repo, nil, "cat-file", "--batch", "--batch-all-objects", "--unordered")
	if !slices.Equal(headers(ours.Bytes()), headers(want)) || ours.Len() != len(want) {
		t.Fatalf("CatAll unordered: %d bytes, git %d bytes", ours.Len(), len(want))
	}

	ids, err := HistoryBlobs(repo, GeneratedFile, db.Format())
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) < 500 {
		t.Fatalf("only %d versions of %s", len(ids), GeneratedFile)
	}
	var list strings.Builder
	for _, id := range ids {
		list.WriteString(id.String() + "\n")
	}
	ours.Reset()
	if err := CatIDs(db, &ours, ids); err != nil {
		t.Fatal(err)
	}
	want = gitOutput(t, repo, []byte(list.String()), "cat-file", "--batch")
	if !bytes.Equal(ours.Bytes(), want) {
		t.Fatalf("CatIDs: %d bytes, git %d bytes, not identical", ours.Len(), len(want))
	}
	t.Logf("%d objects and %d versions of %s identical to git cat-file --batch", objects, len(ids), GeneratedFile)
}

// headers returns the sorted header lines of cat-file --batch output.
func headers(out []byte) []string {
	var hs []string
	for len(out) > 0 {
		nl := bytes.IndexByte(out, '\n')
		line := string(out[:nl])
		f := strings.Fields(line)
		size := 0
		for _, c := range f[2] {
			size = size*10 + int(c-'0')
		}
		hs = append(hs, line)
		out = out[nl+1+size+1:]
	}
	slices.Sort(hs)
	return hs
}

// TestCompareRuns runs the whole comparison once on the generated
// repository, catall built from source.
func TestCompareRuns(t *testing.T) {
	repo := generated(t)
	bin := filepath.Join(t.TempDir(), "catall")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/goblame/goblame/benchmarks/odb/catall").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ms, err := Compare(Config{Repo: repo, File: GeneratedFile, Runs: 1, Catall: bin}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 {
		t.Fatalf("%d measurements", len(ms))
	}
	for _, m := range ms {
		if !m.SameOutput {
			t.Errorf("%s: goblame's output differs from git's", m.Mode)
		}
		if m.Git[0].CPU <= 0 || m.Goblame[0].Wall <= 0 {
			t.Errorf("%s: nothing measured: %+v %+v", m.Mode, m.Git[0], m.Goblame[0])
		}
	}
	t.Logf("\n%s", Table(ms))
}
