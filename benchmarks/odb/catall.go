package odbbench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// OpenRepo opens the object database of a repository given as a bare
// repository, a working copy or an objects directory, detecting the object
// format with git.
func OpenRepo(repo string, opts odb.Options) (*odb.DB, error) {
	objects := repo
	for _, cand := range []string{filepath.Join(repo, "objects"), filepath.Join(repo, ".git", "objects")} {
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			objects = cand
			break
		}
	}
	return odb.Open(objects, repoFormat(repo), opts)
}

// repoFormat reads extensions.objectFormat from the repository's config
// (without running git, whose start-up would be measured with ours).
func repoFormat(repo string) oid.Format {
	for _, cfg := range []string{filepath.Join(repo, "config"), filepath.Join(repo, ".git", "config"), filepath.Join(repo, "..", "config")} {
		b, err := os.ReadFile(cfg)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(strings.ToLower(strings.TrimSpace(line)), "=")
			if ok && strings.TrimSpace(k) == "objectformat" && strings.TrimSpace(v) == "sha256" {
				return oid.SHA256
			}
		}
		return oid.SHA1
	}
	return oid.SHA1
}

// writeObject prints one object the way git cat-file --batch does.
func writeObject(w *bufio.Writer, r *odb.Reader, id oid.ID, buf []byte) ([]byte, error) {
	typ, data, err := r.Read(id, buf)
	if err != nil {
		return buf, err
	}
	var hdr [128]byte
	h := id.AppendHex(hdr[:0])
	h = append(h, ' ')
	h = append(h, typ.String()...)
	h = append(h, ' ')
	h = strconv.AppendInt(h, int64(len(data)), 10)
	h = append(h, '\n')
	w.Write(h)
	w.Write(data)
	w.WriteByte('\n')
	return data, nil
}

// CatAll prints every object of db in git cat-file --batch format: in id
// order like --batch-all-objects, or in pack order like --unordered.
func CatAll(db *odb.DB, out io.Writer, unordered bool) error {
	w := bufio.NewWriterSize(out, 256<<10)
	r := db.NewReader()
	var buf []byte
	visit := func(id oid.ID) error {
		var err error
		buf, err = writeObject(w, r, id, buf)
		return err
	}
	var err error
	if unordered {
		err = db.ForEachObjectUnordered(visit)
	} else {
		err = db.ForEachObject(visit)
	}
	if err != nil {
		return err
	}
	return w.Flush()
}

// CatIDs prints the named objects in order, like git cat-file --batch.
func CatIDs(db *odb.DB, out io.Writer, ids []oid.ID) error {
	w := bufio.NewWriterSize(out, 256<<10)
	r := db.NewReader()
	var buf []byte
	for _, id := range ids {
		var err error
		if buf, err = writeObject(w, r, id, buf); err != nil {
			return err
		}
	}
	return w.Flush()
}

// HistoryBlobs lists the blob names of every version of path reachable
// from HEAD, newest first, without repeats: the blobs blame reads.
func HistoryBlobs(repo, path string, format oid.Format) ([]oid.ID, error) {
	out, err := exec.Command("git", "-C", repo, "log", "--format=", "--raw", "--no-abbrev", "--no-renames", "HEAD", "--", path).Output()
	if err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	var ids []oid.ID
	seen := map[oid.ID]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || !strings.HasPrefix(f[0], ":") {
			continue
		}
		id, err := oid.ParseHex(format, f[3])
		if err != nil || id.IsNull() || seen[id] {
			continue
		}
		seen[id] = true
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no history for %s", path)
	}
	return ids, nil
}

// HistoryTrees lists the root trees of the commits reachable from HEAD,
// newest first, without repeats: the trees a history walk reads.
func HistoryTrees(repo string, format oid.Format) ([]oid.ID, error) {
	out, err := exec.Command("git", "-C", repo, "log", "--format=%T", "HEAD").Output()
	if err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	var ids []oid.ID
	seen := map[oid.ID]bool{}
	for _, f := range strings.Fields(string(out)) {
		id, err := oid.ParseHex(format, f)
		if err != nil {
			return nil, err
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// ReadIDs reads object names, one per line.
func ReadIDs(path string, format oid.Format) ([]oid.ID, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ids []oid.ID
	for _, f := range strings.Fields(string(b)) {
		id, err := oid.ParseHex(format, f)
		if err != nil {
			return nil, fmt.Errorf("%s: %q: %w", path, f, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}
