package blame

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/internal/gitdate"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// workTree builds the pseudo commit's inputs (git's
// fake_working_tree_commit): parents HEAD and MERGE_HEAD, the content of
// the working-tree file, --contents <file> or standard input converted
// as git's convert_to_git, and the index with the path replaced.
func (b *run) workTree(path string) (*blamecore.WorkTree, error) {
	r, opts := b.repo, b.opts
	if r.WorkTree == "" || !canChdir(r.WorkTree) {
		// (git's setup_work_tree goes there first, and dies when it
		// cannot: a GIT_WORK_TREE that is missing or not a directory.)
		return nil, fatalf("this operation must be run in a work tree")
	}
	// The path's entries; the whole index only for the pseudo-commit's
	// index (IndexFunc).
	ix, whole, err := r.ReadIndexFor(path)
	if err != nil {
		return nil, err
	}
	// What git's read of the index says (an extension it ignores), once
	// for each of fake_working_tree_commit's two reads.
	indexMessages := func() {
		for _, m := range ix.Messages {
			b.warn(m)
		}
	}
	indexMessages()
	head, _, err := r.Head()
	if err != nil {
		if errors.Is(err, fsread.ErrNotRegular) {
			return nil, err // a FIFO or device where a ref should be
		}
		return nil, fatalf("no such ref: HEAD")
	}
	t, _, err := b.rd.ReadHeader(head)
	if err == nil {
		// lookup_commit_reference's parse_object checks what it read
		// against the name (a damaged pack index can point at another
		// object) and gives nothing.
		var mismatch *odb.HashMismatchError
		var ce *odb.CorruptError
		_, _, rerr := b.rd.ReadVerified(head, nil)
		switch {
		case errors.As(rerr, &mismatch):
			return nil, &repo.Error{Kind: odb.ErrNotFound, Msg: fmt.Sprintf("no such commit %s", head), Before: []string{mismatch.GitLine()}}
		case errors.As(rerr, &ce) && ce.Git != nil:
			// its type read, but not its content: parse_object dies
			// reading it (HEAD taken from the commit-graph elsewhere
			// is not read).
			return nil, odb.ParseObjectFailure(rerr)
		}
	}
	if err == nil && t == object.Tag {
		// append_parent's lookup_commit_reference peels a tag (a HEAD
		// that is a symbolic ref to an annotated tag).
		c, lines, ok := b.commitReference(head)
		if !ok {
			return nil, &repo.Error{Kind: odb.ErrNotFound, Msg: fmt.Sprintf("no such commit %s", head), Before: lines}
		}
		head, t = c, object.Commit
	}
	if err != nil || t != object.Commit {
		if errors.Is(err, odb.ErrUnmappable) {
			return nil, odb.ErrUnmappable // git's death, in its words
		}
		if errors.Is(err, odb.ErrDeltaCycle) || errors.Is(err, odb.ErrDeltaTooDeep) {
			return nil, err // a hostile pack, which git does not report
		}
		var ce *odb.CorruptError
		if errors.As(err, &ce) && ce.Git != nil {
			// lookup_commit_reference's parse_object dies reading it.
			return nil, odb.ParseObjectFailure(err)
		}
		if lines := odb.LookupLines(err, 2); lines != nil {
			// parse_object's two lookups met an unusable pack.
			return nil, &repo.Error{Kind: odb.ErrNotFound, Msg: fmt.Sprintf("no such commit %s", head), Before: lines}
		}
		return nil, fatalf("no such commit %s", head)
	}
	// lookup_commit_reference parsed HEAD: the grafts are read now.
	if _, err := b.effectiveParents(true); err != nil {
		return nil, err
	}
	parents := []oid.ID{head}
	merges, err := r.MergeHeads()
	if err != nil {
		return nil, err
	}
	for _, m := range merges {
		// append_merge_parents: each through lookup_commit_reference,
		// git's death where it names no commit.
		c, lines, ok := b.commitReference(m)
		if !ok {
			return nil, &repo.Error{Kind: odb.ErrNotFound, Msg: fmt.Sprintf("no such commit %s", m), Before: lines}
		}
		parents = append(parents, c)
	}

	wt := &blamecore.WorkTree{Parents: parents, InIndex: len(ix.Entries(path)) > 0}
	if ix.OutOfOrder {
		// A damaged index: where git's diff against a parent meets
		// the path depends on the order of all its entries.
		full, err := whole()
		if err != nil {
			return nil, err
		}
		wt.IndexWalk = indexWalk(full, path)
	}
	wt.Time = uint64(b.now.Unix())
	wt.TZ = tzString(gitdate.DatestampOffset(b.now.Unix(), b.local))

	// verify_working_tree_path comes before the file is read (and a
	// clean filter, textconv or encoding runs on it): a path in neither
	// a parent nor the index dies here. A path in the index passes.
	if !wt.InIndex {
		if verr := b.verifyWorkTreePath(parents, path, false); verr != nil {
			return nil, verr
		}
	}
	var content []byte
	var mode uint32
	switch {
	case opts.Contents != nil:
		wt.Source = opts.ContentsName
		if wt.Source == "" {
			wt.Source = "standard input"
		}
		data, err := readContents(opts.Contents)
		if err != nil {
			return nil, fatalf("failed to read from stdin")
		}
		content = data
	default:
		readFrom := filepath.Join(r.WorkTree, path)
		var fi os.FileInfo
		if opts.contentsFileGiven() {
			wt.Source = opts.ContentsFile
			readFrom = b.r.TopPath(opts.ContentsFile) // ("" stays "")
			fi, err = os.Stat(readFrom)
			if err != nil {
				// git checks the path before the file it reads.
				if verr := b.verifyWorkTreePath(parents, path, wt.InIndex); verr != nil {
					return nil, verr
				}
				return nil, fatalf("Cannot stat '%s': %s", opts.ContentsFile, repo.Strerror(err))
			}
		} else {
			wt.Source = path
			fi, err = os.Lstat(readFrom)
			if err != nil {
				// The path must exist somewhere before its absence in
				// the work tree matters.
				if verr := b.verifyWorkTreePath(parents, path, wt.InIndex); verr != nil {
					return nil, verr
				}
				return nil, fatalf("Cannot lstat '%s': %s", path, repo.Strerror(err))
			}
		}
		switch {
		case fi.Mode().IsRegular():
			mode = object.ModeFile
			if fi.Mode()&0o100 != 0 {
				mode = object.ModeExec
			}
			// Read as the repository's files are (no *os.File: see
			// fsread.File), without a size limit, as git reads it.
			data, err := fsread.ReadFile(readFrom, math.MaxInt64)
			if err != nil {
				return nil, fatalf("cannot open or read '%s': %s", readFrom, repo.Strerror(err))
			}
			content = data
		case fi.Mode()&os.ModeSymlink != 0:
			mode = object.ModeSymlink
			target, err := os.Readlink(readFrom)
			if err != nil {
				return nil, fatalf("cannot readlink '%s': %s", readFrom, repo.Strerror(err))
			}
			content = []byte(target)
		default:
			name := path
			if opts.contentsFileGiven() {
				name = opts.ContentsFile
			}
			if verr := b.verifyWorkTreePath(parents, path, wt.InIndex); verr != nil {
				return nil, verr
			}
			return nil, fatalf("unsupported file type %s", name)
		}
	}
	if !opts.NoTextConv && opts.Contents == nil {
		name := path
		if opts.ContentsFile != "" {
			name = opts.ContentsFile
		}
		conv, err := b.textconvFile(name, mode)
		if err != nil {
			return nil, err
		}
		if conv != nil {
			content = conv
		}
	}
	// convert_to_git: the clean filter first (its configuration is read,
	// and checked, whether the path has one or not), then the rest.
	drivers, err := b.filterDrivers()
	if err != nil {
		return nil, err
	}
	converted, err := r.ConvertToGitFiltered(path, content, b.cleanFilter(path, drivers))
	if err != nil {
		return nil, err
	}
	indexMessages() // the index read again
	wt.Content = converted
	if mode == 0 {
		// Standard input: the index's mode, else a regular file.
		mode = object.ModeFile
		for _, e := range ix.Entries(path) {
			mode = e.Mode
			break
		}
	}
	wt.Mode = mode
	wt.BeforeDiff = func() error {
		warnings, err := r.CheckExcludeFiles()
		for _, w := range warnings {
			b.warn(w)
		}
		return err
	}
	wt.IndexFunc = func(id oid.ID) []blamecore.IndexEntry {
		full, err := whole()
		if err != nil {
			full = ix // not reached: the bytes parsed once already
		}
		return pseudoIndex(full, path, mode, id)
	}
	return wt, nil
}

// pseudoIndex is the pseudo commit's index: ix's stage-0 entries with
// path replaced by the uncommitted version (git's fake_working_tree_commit
// adds it to the index in memory).
func pseudoIndex(ix *repo.Index, path string, mode uint32, id oid.ID) []blamecore.IndexEntry {
	index := make([]blamecore.IndexEntry, 0, len(ix.EntryList)+1)
	replaced := false
	for _, e := range ix.EntryList {
		if e.Path == path {
			if !replaced {
				index = append(index, blamecore.IndexEntry{Path: path, Mode: mode, ID: id})
				replaced = true
			}
			continue
		}
		if e.Stage != 0 {
			continue
		}
		if !replaced && e.Path > path {
			index = append(index, blamecore.IndexEntry{Path: path, Mode: mode, ID: id})
			replaced = true
		}
		index = append(index, blamecore.IndexEntry{Path: e.Path, Mode: e.Mode, ID: e.ID})
	}
	if !replaced {
		index = append(index, blamecore.IndexEntry{Path: path, Mode: mode, ID: id})
	}
	return index
}

// commitReference is lookup_commit_reference of id, as append_parent
// makes it: tags peeled to the commit; ok false where the object is
// missing or unreadable (no line) or is no commit (git's error line).
func (b *run) commitReference(id oid.ID) (oid.ID, []string, bool) {
	cur := id
	for range 1000 {
		typ, data, err := b.rd.Read(cur, nil)
		if err != nil {
			return oid.ID{}, nil, false
		}
		switch typ {
		case object.Commit:
			return cur, nil, true
		case object.Tag:
			t, err := object.ParseTag(b.repo.Format, data)
			if err != nil {
				return oid.ID{}, nil, false
			}
			cur = t.Object
		default:
			return oid.ID{}, []string{fmt.Sprintf("error: object %s is a %s, not a commit", cur, typ)}, false
		}
	}
	return oid.ID{}, nil, false
}

// verifyWorkTreePath is git's check that the path exists in a parent or
// in the index before the file is read.
func (b *run) verifyWorkTreePath(parents []oid.ID, path string, inIndex bool) error {
	if inIndex {
		return nil
	}
	hist := blamecore.NewObjectHistory(b.rd, b.repo.Format)
	for _, p := range parents {
		if hist.PathIsBlob(p, path) {
			return nil
		}
	}
	return &blamecore.PathError{Path: path, WorkTree: true}
}

// tzString formats a UTC offset in seconds as git's "%+05d" of hhmm.
func tzString(offset int) string {
	sign := byte('+')
	if offset < 0 {
		sign = '-'
		offset = -offset
	}
	hhmm := offset/3600*100 + offset%3600/60
	s := strconv.Itoa(hhmm)
	for len(s) < 4 {
		s = "0" + s
	}
	return string(sign) + s
}

// canChdir reports whether a process could make dir its working
// directory: a directory it may search.
func canChdir(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir() && syscall.Access(dir, 1) == nil
}
