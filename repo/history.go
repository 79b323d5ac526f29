package repo

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"syscall"

	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// openObjects opens the object store: the primary object directory,
// GIT_ALTERNATE_OBJECT_DIRECTORIES and objects/info/alternates, with
// core.multiPackIndex and goblame.maxObjectSize, and installs replace refs unless
// GIT_NO_REPLACE_OBJECTS is set or core.useReplaceRefs is false.
func (r *Repository) openObjects() error {
	opts := odb.Options{ObjectsDirName: r.objectDirName, WorkDir: r.gitCwd}
	if v, ok := r.env.Lookup("GIT_ALTERNATE_OBJECT_DIRECTORIES"); ok {
		opts.ExtraAlternates = odb.ParseAlternateList(v)
	}
	// A value that is no boolean is ReadSettings' error, where git
	// dies of it (after the command line is parsed).
	if b, ok, err := r.Config.Bool("core.multipackindex"); err == nil && ok && !b {
		opts.DisableMultiPackIndex = true
	}
	// goblame.maxObjectSize (git's size units: 4g) raises or lowers the
	// size an object may declare (odb's 1 GiB by default; 0 or less: no
	// limit but what its compressed bytes can inflate to).
	if n, ok, err := r.Config.Int64("goblame.maxobjectsize"); err != nil {
		return err
	} else if ok {
		opts.MaxObjectBytes = n
		if n == 0 {
			opts.MaxObjectBytes = -1
		}
	}
	db, err := odb.Open(r.objectDir, r.Format, opts)
	if err != nil {
		return &Error{Kind: ErrNotRepository, Msg: "unable to open object directory " + r.objectDir, Err: err}
	}
	// Damage the DB reads around (a multi-pack-index it ignores) is in
	// db.Warnings, for each unit of work on the repository to report.
	r.Objects = db
	repl, err := r.replacements()
	if err != nil {
		db.Close()
		return err
	}
	r.replaced = repl
	if len(repl) > 0 {
		db.SetReplacements(repl)
	}
	return nil
}

// UseReplaceRefs reports whether replace refs apply: not when
// GIT_NO_REPLACE_OBJECTS is set (to anything) or core.useReplaceRefs is
// false.
func (r *Repository) UseReplaceRefs() (bool, error) {
	if _, ok := r.env.Lookup("GIT_NO_REPLACE_OBJECTS"); ok {
		return false, nil
	}
	b, ok, err := r.Config.Bool("core.usereplacerefs")
	if err != nil {
		return false, err
	}
	return !ok || b, nil
}

// ReplaceRefBase is where replace refs live: GIT_REPLACE_REF_BASE or
// "refs/replace/".
func (r *Repository) ReplaceRefBase() string {
	if v, ok := r.env.Lookup("GIT_REPLACE_REF_BASE"); ok {
		return v
	}
	return "refs/replace/"
}

// replacements reads the replace refs: each ref under the replace base
// whose last path component is a hex object name maps that object to
// the ref's value.
func (r *Repository) replacements() (map[oid.ID]oid.ID, error) {
	use, err := r.UseReplaceRefs()
	if err != nil || !use {
		return nil, err
	}
	m := map[oid.ID]oid.ID{}
	hexLen := r.Format.HexSize()
	base := r.ReplaceRefBase()
	err = r.refStore().forEachRef(base, func(name string, id oid.ID) error {
		// (git names the ref without the base in its messages.)
		name = strings.TrimPrefix(name, base)
		last := name[strings.LastIndexByte(name, '/')+1:]
		if len(last) < hexLen {
			r.warn("warning: bad replace ref name: " + name)
			return nil
		}
		orig, err := oid.ParseHex(r.Format, last[:hexLen])
		if err != nil {
			r.warn("warning: bad replace ref name: " + name)
			return nil
		}
		if _, dup := m[orig]; dup {
			return newError(ErrBadRef, "duplicate replace ref: %s", name)
		}
		m[orig] = id
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Replacements returns the replace refs in effect (original -> replacement),
// nil when there are none or replacing is disabled.
func (r *Repository) Replacements() map[oid.ID]oid.ID { return r.replaced }

// HasReplacements reports whether replace refs are in effect; git ignores
// the commit-graph then.
func (r *Repository) HasReplacements() bool { return len(r.replaced) > 0 }

// commitGraphConsidered reports whether git's first use of the
// commit-graph (prepare_commit_graph) goes as far as reading the grafts:
// core.commitGraph is on (or GIT_TEST_COMMIT_GRAPH) and no replace ref is
// in effect (commit_graph_compatible checks those first).
func (r *Repository) commitGraphConsidered() bool {
	if r.HasReplacements() {
		return false
	}
	if on, err := r.env.envBool("GIT_TEST_COMMIT_GRAPH", false); err == nil && on {
		return true
	}
	b, ok, err := r.Config.Bool("core.commitgraph")
	return err == nil && (!ok || b)
}

// ShallowFile returns the path of the shallow file: GIT_SHALLOW_FILE
// (an empty value means none) or <common>/shallow.
func (r *Repository) ShallowFile() string {
	if v, ok := r.env.Lookup("GIT_SHALLOW_FILE"); ok {
		if v == "" {
			return ""
		}
		return join(r.gitCwd, v)
	}
	return r.CommonDir + "/shallow"
}

// ReadShallow reads the shallow file: one hex commit name per line,
// each a commit whose parents are cut off. A line that does not start
// with a full hex name is git's fatal "bad shallow line: <line>".
func (r *Repository) ReadShallow() (map[oid.ID]bool, error) {
	path := r.ShallowFile()
	if path == "" {
		return nil, nil
	}
	data, err := fsread.ReadFile(path, 0)
	if err != nil {
		return nil, nil
	}
	m := map[oid.ID]bool{}
	hexLen := r.Format.HexSize()
	// git reads with fgets into a 1024-byte buffer: longer lines are
	// read in pieces, each piece a line of its own.
	for len(data) > 0 {
		n := bytes.IndexByte(data, '\n') + 1
		if n == 0 {
			n = len(data)
		}
		if n > 1023 {
			n = 1023
		}
		line := data[:n]
		data = data[n:]
		if len(line) < hexLen {
			return nil, newError(ErrBadRef, "bad shallow line: %s", cString(string(line)))
		}
		id, err := oid.ParseHexBytes(r.Format, line[:hexLen])
		if err != nil {
			return nil, newError(ErrBadRef, "bad shallow line: %s", cString(string(line)))
		}
		m[id] = true
	}
	return m, nil
}

// Shallow returns the commits the shallow file cuts off (nil when the
// repository is not shallow, or the file cannot be read: ReadShallow
// reports that).
func (r *Repository) Shallow() map[oid.ID]bool {
	m, _ := r.ReadShallow()
	return m
}

// GraftFile returns GIT_GRAFT_FILE or <common>/info/grafts.
func (r *Repository) GraftFile() string {
	path, _ := r.graftFile(false)
	return path
}

// graftFile is GraftFile and the name git's messages call it by; after
// setup_work_tree (inWorkTree: a work-tree blame went to the top of the
// work tree before it read a commit), a relative GIT_GRAFT_FILE is taken
// from there and the repository's name reparented (fromWorkTree).
func (r *Repository) graftFile(inWorkTree bool) (path, name string) {
	cwd := r.WorkDir(inWorkTree)
	if v, ok := r.env.Lookup("GIT_GRAFT_FILE"); ok {
		if v == "" {
			return "", "" // git opens "": no such file
		}
		return join(cwd, v), v
	}
	name = r.commonDirName
	if inWorkTree {
		name = r.fromWorkTree(name)
	}
	return r.CommonDir + "/info/grafts", name + "/info/grafts"
}

// graftDeprecationHint is what git prints (as "hint:" lines) whenever it
// reads an info/grafts file, unless advice.graftFileDeprecated is false.
var graftDeprecationHint = []string{
	"hint: Support for <GIT_DIR>/info/grafts is deprecated",
	"hint: and will be removed in a future Git version.",
	"hint: ",
	"hint: Please use \"git replace --convert-graft-file\"",
	"hint: to convert the grafts into replace refs.",
	"hint: ",
	"hint: Turn this message off by running",
	"hint: \"git config advice.graftFileDeprecated false\"",
}

// ReadGrafts reads info/grafts (GIT_GRAFT_FILE). messages are the lines
// git prints to standard error while doing so: the deprecation hint,
// "error: bad graft data: <line>" for lines it skips and "error:
// duplicate graft data: <line>" for repeated commits (the first wins).
// A missing file gives no grafts.
func (r *Repository) ReadGrafts() (grafts map[oid.ID][]oid.ID, messages []string, err error) {
	return r.readGrafts(false)
}

func (r *Repository) readGrafts(inWorkTree bool) (grafts map[oid.ID][]oid.ID, messages []string, err error) {
	path, name := r.graftFile(inWorkTree)
	data, err := fsread.ReadFile(path, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil, nil, nil
		}
		return nil, []string{"warning: unable to access '" + name + "': " + errnoText(err)}, nil
	}
	if b, ok, _ := r.Config.Bool("advice.graftfiledeprecated"); !ok || b {
		messages = append(messages, graftDeprecationHint...)
	}
	grafts, more := parseGrafts(data, r.Format, false)
	return grafts, append(messages, more...), nil
}

// Grafts returns the grafts of info/grafts (GIT_GRAFT_FILE): commit ->
// replacement parent list (empty for "no parents").
func (r *Repository) Grafts() (map[oid.ID][]oid.ID, error) {
	g, _, err := r.ReadGrafts()
	return g, err
}

// ParseGraftFile reads a graft file as "git blame -S <file>" does: lines
// "<commit> [<parent>...]", '#' comments, a later line for the same
// commit replacing an earlier one, bad lines skipped. A file that cannot
// be opened is an error whose text is git's fatal message ("reading
// graft file 'x' failed: No such file or directory").
func ParseGraftFile(path string, format oid.Format) (map[oid.ID][]oid.ID, error) {
	g, _, err := ReadGraftFile(path, path, format)
	return g, err
}

// ReadGraftFile is ParseGraftFile that also returns the "error: bad graft
// data: <line>" lines git prints for the lines it skips. When the file
// cannot be opened for another reason than its absence, git's "warning:
// unable to access" line is in the error's Before lines. Messages call
// the file name (the path as given).
func ReadGraftFile(path, name string, format oid.Format) (map[oid.ID][]oid.ID, []string, error) {
	data, err := fsread.ReadFileOrPipe(path, 0)
	if err != nil {
		e := &Error{Kind: ErrBadRef, Msg: "reading graft file '" + name + "' failed: " + errnoText(err), Err: err}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			e.Before = []string{"warning: unable to access '" + name + "': " + errnoText(err)}
		}
		return nil, nil, e
	}
	g, msgs := parseGrafts(data, format, true)
	return g, msgs, nil
}

// parseGrafts parses graft lines (read_graft_line): trailing whitespace
// is dropped, empty and '#' lines skipped, then a hex name and any number
// of whitespace-separated hex names.
func parseGrafts(data []byte, format oid.Format, replaceDups bool) (map[oid.ID][]oid.ID, []string) {
	grafts := map[oid.ID][]oid.ID{}
	var msgs []string
	hexLen := format.HexSize()
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), len(data)+1)
	sc.Split(scanLinesKeepCR)
	for sc.Scan() {
		raw := sc.Text()
		line := strings.TrimRight(raw, " \t\n\r")
		if line == "" || line[0] == '#' {
			continue
		}
		var ids []oid.ID
		ok := true
		p := line
		for {
			if len(p) < hexLen {
				ok = false
				break
			}
			id, err := oid.ParseHex(format, p[:hexLen])
			if err != nil {
				ok = false
				break
			}
			ids = append(ids, id)
			p = p[hexLen:]
			if p == "" {
				break
			}
			if !isConfigSpace(p[0]) {
				ok = false
				break
			}
			p = p[1:]
		}
		if !ok {
			msgs = append(msgs, "error: bad graft data: "+line)
			continue
		}
		if _, dup := grafts[ids[0]]; dup && !replaceDups {
			msgs = append(msgs, "error: duplicate graft data: "+strings.TrimRight(raw, "\n"))
			continue
		}
		grafts[ids[0]] = ids[1:]
	}
	return grafts, msgs
}

// scanLinesKeepCR splits at '\n' only.
func scanLinesKeepCR(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}

// EffectiveParents merges what reshapes history the way git's graft
// table does: info/grafts, then every shallow commit as having no
// parents (a shallow entry replaces a graft of the same commit). The
// result maps commit -> parents; a commit absent from it keeps the
// parents its object lists. messages are as for ReadGrafts.
func (r *Repository) EffectiveParents() (map[oid.ID][]oid.ID, []string, error) {
	return r.effectiveParents(false)
}

// EffectiveParentsInWorkTree is EffectiveParents as a work-tree blame
// reads them, from the top of the work tree (see graftFile).
func (r *Repository) EffectiveParentsInWorkTree() (map[oid.ID][]oid.ID, []string, error) {
	return r.effectiveParents(true)
}

func (r *Repository) effectiveParents(inWorkTree bool) (map[oid.ID][]oid.ID, []string, error) {
	g, msgs, err := r.readGrafts(inWorkTree)
	if err != nil {
		return nil, msgs, err
	}
	shallow, err := r.ReadShallow()
	if err != nil {
		return nil, msgs, err
	}
	if len(shallow) > 0 && g == nil {
		g = map[oid.ID][]oid.ID{}
	}
	for id := range shallow {
		g[id] = nil
	}
	return g, msgs, nil
}

// MergeHeads reads $GIT_DIR/MERGE_HEAD (absent: none). Each line must
// start with a full hex name; otherwise the error is git's fatal
// "unknown line in '<path>': <line>" (the line keeps its newline, as
// git prints it).
func (r *Repository) MergeHeads() ([]oid.ID, error) {
	path := r.GitDir + "/MERGE_HEAD"
	data, err := fsread.ReadFile(path, 0)
	if err != nil {
		if _, dir := fsread.DirSize(err); dir || errors.Is(err, fs.ErrNotExist) {
			// (git opens a directory, and its first read ends the list.)
			return nil, nil
		}
		return nil, newError(ErrBadRef, "cannot open '%s' for reading", r.gitDirName+"/MERGE_HEAD")
	}
	var ids []oid.ID
	hexLen := r.Format.HexSize()
	for len(data) > 0 {
		n := bytes.IndexByte(data, '\n') + 1
		if n == 0 {
			n = len(data)
		}
		line := data[:n]
		data = data[n:]
		if len(line) < hexLen {
			return nil, newError(ErrBadRef, "unknown line in '%s': %s", r.gitDirName+"/MERGE_HEAD", cString(string(line)))
		}
		id, err := oid.ParseHexBytes(r.Format, line[:hexLen])
		if err != nil {
			return nil, newError(ErrBadRef, "unknown line in '%s': %s", r.gitDirName+"/MERGE_HEAD", cString(string(line)))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// BisectTerms are the terms of the bisection under way (git's
// read_bisect_terms): the first two lines of BISECT_TERMS, "bad" and
// "good" without one.
func (r *Repository) BisectTerms() (bad, good string, err error) {
	data, err := fsread.ReadFile(r.GitDir+"/BISECT_TERMS", 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "bad", "good", nil
		}
		if _, dir := fsread.DirSize(err); dir {
			return "", "", nil // (fopen opens a directory; its reads end at once)
		}
		return "", "", newError(ErrBadRef, "could not read file '%s': %s", r.gitDirName+"/BISECT_TERMS", Strerror(err))
	}
	line := func() string {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			l := string(data)
			data = nil
			return l
		}
		l := string(data[:i])
		data = data[i+1:]
		return l
	}
	return line(), line(), nil
}

// Close releases the object store.
func (r *Repository) Close() error {
	if r.Objects != nil {
		return r.Objects.Close()
	}
	return nil
}

// warn hands a warning line to the repository's warning handler.
func (r *Repository) warn(line string) {
	if r == nil {
		return
	}
	if r.WarningHandler != nil {
		r.WarningHandler(line)
		return
	}
	r.Warnings = append(r.Warnings, line)
}
