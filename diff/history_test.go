package diff

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/goblame/goblame/internal/testgit"
	"github.com/goblame/goblame/oid"
)

// Real pairs: every consecutive pair of versions of files with a long
// history, diffed by git log -p -U0 (the same xdiff call blame makes, in a
// repository) and by goblame.

// historyPair is one commit's change to the file: the old and new blob
// names and the hunks git printed.
type historyPair struct {
	commit   string
	old, new string
	hunks    []Hunk
}

// logPairs runs one git log -p -U0 --raw over path's history and returns
// the pairs, newest first: git 2.39.5's, from the goldens without git
// 2.39.x when golden is set (in a fixture), else git 2.39.x's own, or
// none (false) without it.
func logPairs(t *testing.T, dir string, format oid.Format, path string, limit int, args []string, golden bool) ([]historyPair, bool) {
	t.Helper()
	cmdArgs := []string{"-c", "diff.interHunkContext=0", "log", "-p", "--raw", "--no-abbrev", "--no-renames", "--no-color", "--no-ext-diff", "--text", "-U0", "--format=commit %H"}
	if limit > 0 {
		cmdArgs = append(cmdArgs, "-n", strconv.Itoa(limit))
	}
	cmdArgs = append(cmdArgs, args...)
	cmdArgs = append(cmdArgs, "--", path)
	var res testgit.Result
	if golden {
		res = testgit.Golden(t).Run(testgit.Case{Dir: dir, Format: format, Args: cmdArgs})
	} else if !testgit.HaveTargetGit() {
		return nil, false
	} else {
		// A copy fetched by hand may be another user's.
		var err error
		if res, err = testgit.Run(dir, format, nil, nil, "git", append([]string{"-c", "safe.directory=*"}, cmdArgs...)...); err != nil {
			t.Fatal(err)
		}
	}
	if res.ExitCode != 0 {
		t.Fatalf("git %s: %s", strings.Join(cmdArgs, " "), res)
	}
	var pairs []historyPair
	var cur *historyPair
	sc := bufio.NewScanner(bytes.NewReader(res.Stdout))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "commit "):
			pairs = append(pairs, historyPair{commit: line[7:]})
			cur = &pairs[len(pairs)-1]
		case strings.HasPrefix(line, ":") && cur != nil && cur.old == "":
			// :100644 100644 old new M\tpath
			f := strings.Fields(line)
			if len(f) >= 5 {
				cur.old, cur.new = f[2], f[3]
			}
		case strings.HasPrefix(line, "@@ -") && cur != nil:
			h, err := parseHunkHeader(line)
			if err != nil {
				t.Fatal(err)
			}
			cur.hunks = append(cur.hunks, h)
		}
	}
	// Keep modifications of a regular file (skip creations, deletions,
	// merges without a diff).
	out := pairs[:0]
	for _, p := range pairs {
		if p.old != "" && strings.Trim(p.old, "0") != "" && strings.Trim(p.new, "0") != "" {
			out = append(out, p)
		}
	}
	return out, true
}

// readBlobs reads blobs by name with one git cat-file --batch: any git
// will do, the bytes are the ones their names hash.
func readBlobs(t *testing.T, dir string, format oid.Format, names []string) map[string][]byte {
	t.Helper()
	var in bytes.Buffer
	for _, n := range names {
		in.WriteString(n + "\n")
	}
	// (A copy fetched by hand may be another user's.)
	res, err := testgit.Run(dir, format, in.Bytes(), nil, "git", "-c", "safe.directory=*", "cat-file", "--batch")
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("git cat-file --batch: %v %s", err, res.Stderr)
	}
	blobs := map[string][]byte{}
	out := res.Stdout
	for len(out) > 0 {
		nl := bytes.IndexByte(out, '\n')
		hdr := strings.Fields(string(out[:nl]))
		out = out[nl+1:]
		if len(hdr) != 3 {
			t.Fatalf("cat-file: unexpected header %q", hdr)
		}
		size, _ := strconv.Atoi(hdr[2])
		if oid.HashObject(format, hdr[1], out[:size]).String() != hdr[0] {
			t.Fatalf("cat-file gave %s bytes that do not hash to %s", hdr[1], hdr[0])
		}
		blobs[hdr[0]] = out[:size]
		out = out[size+1:]
	}
	return blobs
}

// compareHistory checks every pair of path's history under each flag set
// and returns the number of comparisons. In a fixture, the default flag
// set's git output is kept in the goldens; the others' (600 KB more) and
// a real repository's are compared with git 2.39.x only.
func compareHistory(t *testing.T, dir string, format oid.Format, path string, limit int, alg Algorithm, fixture bool) int {
	t.Helper()
	d := NewDiffer()
	n := 0
	for _, fs := range gitFlagSets(alg) {
		pairs, ok := logPairs(t, dir, format, path, limit, fs.args, fixture && fs.name == "default")
		if !ok {
			continue
		}
		if len(pairs) == 0 {
			t.Fatalf("%s: no history", path)
		}
		var names []string
		for _, p := range pairs {
			names = append(names, p.old, p.new)
		}
		blobs := readBlobs(t, dir, format, names)
		// Prepare each blob once, the newer first and the older near it,
		// as blame does; each version serves as the old side of one pair
		// and the new side of the next.
		files := map[string]*File{}
		prep := func(name string, near *File) *File {
			if f := files[name]; f != nil {
				return f
			}
			f, err := d.PrepareNear(nil, blobs[name], near, fs.opts)
			if err != nil {
				t.Fatal(err)
			}
			files[name] = f
			return f
		}
		bad := 0
		for _, p := range pairs {
			fb := prep(p.new, nil)
			fa := prep(p.old, fb)
			got, err := d.BlameDiffFiles(nil, fa, fb, fs.opts)
			n++
			if err != nil || !hunksEqual(got, p.hunks) {
				bad++
				if bad <= 3 {
					file := writeReproducer(t, testPair{name: fmt.Sprintf("history-%s-%s", filepath.Base(path), p.commit[:12]), a: blobs[p.old], b: blobs[p.new]}, fs, p.hunks)
					t.Errorf("%s at %s [%s]: differs from git (err %v, reproducer %s)\ngot:\n%swant:\n%s", path, p.commit, fs.name, err, file, formatHunks(got), formatHunks(p.hunks))
				}
			}
			// The byte API must agree too.
			if got2 := d.BlameDiff(nil, blobs[p.old], blobs[p.new], fs.opts); !hunksEqual(got2, p.hunks) {
				t.Errorf("%s at %s [%s]: BlameDiff differs from git", path, p.commit, fs.name)
			}
		}
		if bad > 0 {
			t.Errorf("%s [%s]: %d of %d pairs differ", path, fs.name, bad, len(pairs))
		}
	}
	return n
}

// historyScript builds a fixture script that commits versions of two
// files generated from seed: a code file edited like source code, and a
// text file with many repeated and blank lines. The versions are written
// to a directory named by their hash (a script holding them would exceed
// the argument size limit of bash -c); the script names that hash, so the
// fixture cache is keyed by the content.
func historyScript(t *testing.T, seed uint64, versions int) string {
	g := newPairGen(seed)
	code := g.codeFile(12)
	text := g.lines(300, g.dupLine)
	type version struct{ code, text []byte }
	var all []version
	h := sha256.New()
	for v := 0; v < versions; v++ {
		if v > 0 {
			switch g.n(3) {
			case 0:
				code = g.insertCode(code, 1+g.n(2))
			case 1:
				code = g.edit(code, 1+g.n(4), func() string { return g.codeBlock("\t", 1)[0] })
			default:
				code = g.wsChange(g.edit(code, 1, func() string { return "\n" }), 1+g.n(3))
			}
			text = g.edit(text, 1+g.n(6), g.dupLine)
		}
		cv, tv := join(code), join(text)
		if v%7 == 3 {
			cv, tv = bytes.TrimSuffix(cv, []byte("\n")), bytes.TrimSuffix(tv, []byte("\n"))
		}
		all = append(all, version{cv, tv})
		h.Write(cv)
		h.Write([]byte{0})
		h.Write(tv)
		h.Write([]byte{0})
	}
	sum := hex.EncodeToString(h.Sum(nil))[:20]
	// Kept with the user's fixtures (testgit.CacheRoot): a directory of
	// another user's is one this user's script may not read.
	root := testgit.CacheRoot()
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "goblame-diff-history-"+sum)
	if _, err := os.Stat(filepath.Join(dir, ".done")); err != nil {
		tmp, err := os.MkdirTemp(root, "goblame-diff-history-tmp-")
		if err != nil {
			t.Fatal(err)
		}
		for v, ver := range all {
			if err := os.WriteFile(filepath.Join(tmp, fmt.Sprintf("%04d.code.go", v)), ver.code, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(tmp, fmt.Sprintf("%04d.notes.txt", v)), ver.text, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(tmp, ".done"), nil, 0o644)
		if err := os.Rename(tmp, dir); err != nil {
			os.RemoveAll(tmp) // another process won the race
		}
	}
	return fmt.Sprintf(`# content %s
git init -q
for v in $(seq -f %%04g 0 %d); do
	cp "%s/$v.code.go" code.go
	cp "%s/$v.notes.txt" notes.txt
	commit_all "version $v"
done
`, sum, versions-1, dir, dir)
}

// TestFixtureHistory compares every consecutive version pair of two files
// in a fixture repository with git log -p -U0, in both object formats.
func TestFixtureHistory(t *testing.T) {
	testgit.Golden(t) // skips without git
	versions := 80
	if longRun() {
		versions = 400
	}
	script := historyScript(t, 20240601, versions)
	total := 0
	for _, format := range testgit.Formats {
		dir := testgit.Fixture(t, fmt.Sprintf("diff-history-%d", versions), format, script)
		for _, path := range []string{"code.go", "notes.txt"} {
			for _, alg := range []Algorithm{Myers, Histogram, Patience} {
				if alg != Myers && format != oid.SHA1 {
					continue
				}
				total += compareHistory(t, dir, format, path, 0, alg, true)
			}
		}
	}
	t.Logf("%d version pairs compared with git", total)
}

// TestRealRepositories compares the histories of long-lived files in real
// repositories, when a clone is available: GOBLAME_DIFF_REPOS lists
// "gitdir:path,path;gitdir:path" entries; by default the local mirrors of
// git/git, go-git/go-git and GitoxideLabs/gitoxide are used if present.
// Without GOBLAME_DIFF_LONG only the latest 20 changes of each file are
// compared.
func TestRealRepositories(t *testing.T) {
	testgit.RequireGitFor(t, "real repositories are copies fetched by hand, not fixtures a script builds, so no golden outputs can be kept for them")
	spec := os.Getenv("GOBLAME_DIFF_REPOS")
	if spec == "" {
		spec = "/work/.mirror/git+git/repo:diff.c,Makefile,README.md,builtin/blame.c;" +
			"/work/.mirror/go-git+go-git/repo:repository.go,worktree.go,plumbing/object/commit.go;" +
			"/work/.mirror/GitoxideLabs+gitoxide/repo:README.md,Cargo.toml,gix/src/lib.rs"
	}
	limit := 20
	if longRun() {
		limit = 0
	}
	found := false
	for _, entry := range strings.Split(spec, ";") {
		dir, paths, ok := strings.Cut(entry, ":")
		if !ok {
			t.Fatalf("GOBLAME_DIFF_REPOS: bad entry %q", entry)
		}
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		found = true
		for _, path := range strings.Split(paths, ",") {
			n := compareHistory(t, dir, oid.SHA1, path, limit, Myers, false)
			t.Logf("%s %s: %d comparisons (version pairs x option sets)", filepath.Base(filepath.Dir(dir)), path, n)
		}
	}
	if !found {
		t.Skip("no real repository available (set GOBLAME_DIFF_REPOS)")
	}
}
