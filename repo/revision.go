package repo

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/goblame/goblame/internal/gitdate"
	"github.com/goblame/goblame/internal/posixre"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// Revision is one object a revision argument names, in the order git's
// revision machinery adds it to its pending list. Name is what git
// records for it (used in blame's "Non commit <name>?" and "More than
// one commit to dig from <a> and <b>?"): the argument without a leading
// '^', the side of a range ("A" of "A..B", "HEAD" for an empty side), or
// the commit named for each parent of "A^@". ID is the object as named:
// a tag stays a tag (callers peel).
type Revision struct {
	Name     string
	ID       oid.ID
	Type     object.Type
	Negative bool
	// FromObject: git parsed the commit from its object (parse_object:
	// the ends of "A..B" and "A...B", a peel such as ^{commit}, a ~0),
	// where a name alone looks a commit up in the commit-graph first
	// (get_reference); what git parsed from the graph already (a range's
	// end the other end's walk reached) stays so. A commit named through
	// a tag is read from its object either way.
	FromObject bool
	// Parent: a parent named with ^@ or ^! (add_parents_only), which
	// git takes for a commit without reading it; a file that holds
	// something else fails the walk's parse of it later.
	Parent bool
}

// Lookup flags of git's get_oid family: the disambiguation hint for
// short names and quiet mode.
const (
	lookCommit = 1 << iota
	lookCommittish
	lookTree
	lookTreeish
	lookBlob
	lookQuiet

	lookDisambiguators = lookCommit | lookCommittish | lookTree | lookTreeish | lookBlob
)

// minimumAbbrev is the shortest hex prefix git resolves (MINIMUM_ABBREV).
const minimumAbbrev = 4

// resolver is the state of one revision lookup: the messages git would
// print ("error:" and "hint:" lines of an ambiguous short name, peel
// errors) and lazily read repository data.
type resolver struct {
	r       *Repository
	rd      *odb.Reader
	before  []string
	index   *Index
	parents map[oid.ID][]oid.ID
	loaded  bool
	// src is the command's grafts (nil Read: read here), readLines what
	// reading them printed when this resolution read them first.
	src       CommandParents
	readLines []string
	buf       []byte
	unread    map[oid.ID]bool       // commits reported missing or not commits
	parsed    map[oid.ID]parsedFrom // objects git has parsed by now (see parse)
	// parseOrder, when set, collects the objects parsed, in the order
	// git parsed them (ParseRevisionArgsParsed).
	parseOrder *[]oid.ID
	// commits holds the parents of the commits parsed: git has made
	// commit objects of them (lookup_commit), and a later read that
	// finds another type is an error (object_as_type).
	commits map[oid.ID]bool
	// rowMarks, when set, holds more of parsed and commits, by
	// commit-graph row (a long merge-base walk's or ~N's; see
	// rowMarks). It is not used where parseOrder is set.
	rowMarks *rowMarks
	// unreadable is the first read that failed on a delta cycle or a
	// chain too deep: git has no message for these (it loops forever on
	// a cycle, and reads any depth), so rather than call the revision
	// bad, resolution fails with this.
	unreadable error
	reads      int // reads made, the failed ones included
	// lookupErr is the first read that failed for an unusable pack
	// (odb.LookupError), lookupID the object of the failed type read
	// of a revision argument (get_reference's).
	lookupErr error
	lookupID  oid.ID
}

// readFailed notes err of a read that failed; see unreadable.
func (res *resolver) readFailed(err error) {
	first := res.reads == 0
	res.reads++
	var ce *odb.CorruptError
	var le *odb.LookupError
	if res.lookupErr == nil && errors.As(err, &le) {
		res.lookupErr = err
	}
	switch {
	case res.unreadable != nil:
	case errors.As(err, &ce) && ce.Git != nil:
		// git dies in the read of a damaged object; the first object
		// of an expression it reads as parse_object does, its type
		// and size first.
		if first {
			err = odb.ParseObjectFailure(err)
		}
		res.unreadable = err
	case errors.Is(err, odb.ErrUnmappable):
		res.unreadable = odb.ErrUnmappable // git's message, whole
	case errors.Is(err, odb.ErrDeltaCycle) || errors.Is(err, odb.ErrDeltaTooDeep):
		res.unreadable = err
	}
}

// fatalError is an error that stops resolution the way git's die() does
// (rather than making the argument "bad").
type fatalError struct{ err error }

func (f fatalError) Error() string { return f.err.Error() }

// ResolveRevision resolves one revision expression to an object name
// as git's get_oid does for blame's revision arguments: a full or
// abbreviated hex name (at least 4 digits; an ambiguous one fails with
// git's "error: short object ID x is ambiguous" and candidate hints), a
// ref name with git's DWIM rules (x, refs/x, refs/tags/x, refs/heads/x,
// refs/remotes/x, refs/remotes/x/HEAD), HEAD and "@", "describe" output
// (name-g<hex>), rev~n, rev^n, rev^{commit|tree|blob|tag|object|},
// rev:path (a tree entry) and :path / :n:path (an index entry; "./" and
// "../" are relative to the prefix).
//
// A spec that names nothing fails with an *Error of kind ErrBadRevision
// (or ErrAmbiguous) whose text is git blame's "bad revision 'spec'" and
// whose Before lines are what git printed before it. Warnings (an
// ambiguous ref name, a dangling symbolic ref) go to the warning handler.
// Reflog counts and dates (<ref>@{n}, @{n}, <ref>@{yesterday},
// @{2005-04-07}), @{-n}, <branch>@{upstream} (@{u}), <branch>@{push},
// rev^{/regex} and :/regex resolve.
func (r *Repository) ResolveRevision(rd *odb.Reader, spec string) (oid.ID, error) {
	return r.ResolveRevisionWith(rd, spec, CommandParents{})
}

// CommandParents is how a command's revision resolutions share the
// parents info/grafts and the shallow file make: git reads them once,
// when it first parses a commit (a revision "~N" or "^N" walks
// parents), printing the grafts' deprecation hint then. The zero value
// reads them for each resolution and prints nothing but a failed
// resolution's Before lines.
type CommandParents struct {
	// Read returns them (EffectiveParents) with the lines reading them
	// printed: those from the first call only, as a command reads them
	// once.
	Read func() (map[oid.ID][]oid.ID, []string, error)
	// Print writes a line that a resolution that succeeded printed (the
	// hint of a read it made first); a failed resolution puts its lines
	// among its error's Before lines, in the order git printed them.
	Print func(line string)
	// GraphWarnings, when set, gives the lines git prints loading the
	// commit-graph, the first time the command asks (none after): the
	// resolution asks where git first loads it, at its first commit
	// parsed or taken from the graph.
	GraphWarnings func() []string
}

// ResolveRevisionWith is ResolveRevision with the grafts and shallow
// boundary of the command the resolution belongs to.
func (r *Repository) ResolveRevisionWith(rd *odb.Reader, spec string, parents CommandParents) (oid.ID, error) {
	res := &resolver{r: r, rd: rd, src: parents}
	id, ok, err := res.getOIDWithContext(spec, 0)
	if err != nil {
		return oid.ID{}, res.fatal(err)
	}
	if !ok {
		return oid.ID{}, res.badRevision(spec)
	}
	res.printRead()
	return id, nil
}

// printRead prints, through the command's Print, the lines of the
// grafts' read this resolution made first: it succeeded, so nothing
// else prints them.
func (res *resolver) printRead() {
	if res.src.Print != nil {
		for _, l := range res.readLines {
			res.src.Print(l)
		}
	}
}

// note is a line git prints as it resolves and goes on (an object it
// passes over): out now through the command's Print while nothing is
// held for a death, else held among the error's Before lines, or
// printed once the resolution succeeds (readLines), as loadParents does
// with the grafts' hints.
func (res *resolver) note(line string) {
	if res.src.Print != nil && len(res.before) == 0 && res.lookupErr == nil {
		res.src.Print(line)
		return
	}
	res.before = append(res.before, line)
	res.readLines = append(res.readLines, line)
}

func (res *resolver) badRevision(arg string) error {
	if res.unreadable != nil {
		return res.unreadable
	}
	res.lookupID = oid.ID{} // resolution failed before get_reference
	before := append(append([]string(nil), res.before...), res.lookupLines()...)
	kind := ErrBadRevision
	for _, l := range res.before {
		if strings.HasPrefix(l, "error: short object ID ") {
			kind = ErrAmbiguous
		}
	}
	return &Error{Kind: kind, Msg: "bad revision '" + arg + "'", Before: before}
}

// IsRevision is blame's test for telling a revision from a path among
// its arguments (is_a_rev): the word resolves and the object exists. It
// prints nothing; git prints an ambiguity error here too, which
// ResolveRevision's error carries.
func (r *Repository) IsRevision(rd *odb.Reader, arg string) bool {
	res := &resolver{r: r, rd: rd}
	id, ok, err := res.getOIDWithContext(arg, 0)
	if err != nil || !ok {
		return false
	}
	_, _, err = rd.ReadHeader(id)
	return err == nil
}

// Peel follows id to an object of type want: through tags (tag of a
// tag), and from a commit to its tree. object.Invalid as want peels tags
// only. It fails when the chain ends at another type.
func Peel(rd *odb.Reader, id oid.ID, want object.Type) (oid.ID, error) {
	var buf []byte
	for depth := 0; depth < 1000; depth++ {
		typ, data, err := rd.Read(id, buf)
		if err != nil {
			return oid.ID{}, err
		}
		buf = data
		if typ == want || (want == object.Invalid && typ != object.Tag) {
			return id, nil
		}
		switch typ {
		case object.Tag:
			t, err := object.ParseTag(id.Format(), data)
			if err != nil {
				return oid.ID{}, err
			}
			id = t.Object
		case object.Commit:
			var c object.CommitInfo
			if err := object.ParseCommit(id.Format(), data, &c); err != nil {
				return oid.ID{}, err
			}
			id = c.Tree
		default:
			return oid.ID{}, fmt.Errorf("object %s is a %s, not a %s", id, typ, want)
		}
	}
	return oid.ID{}, fmt.Errorf("object %s: tag chain too long", id)
}

// objectType returns the type of id, ok false when it does not exist.
func (res *resolver) objectType(id oid.ID) (object.Type, bool) {
	typ, _, err := res.rd.ReadHeader(id)
	if err != nil {
		res.readFailed(err)
		return object.Invalid, false
	}
	res.reads++
	return typ, true
}

// parse reads id as git's parse_object does: what it reads must hash to
// the name (a loose object's file can hold another object, a damaged
// pack index can point at another entry); where it does not, git says
// "hash mismatch" and gives nothing. The objects this resolution parsed
// already (res.parsed) are not checked again, as git does not check an
// object it has parsed.
func (res *resolver) parse(id oid.ID) (object.Type, []byte, bool) {
	switch res.parsedAs(id) {
	case parsedGraph:
		// A commit git has from the commit-graph: nothing is read
		// (no content is returned).
		return object.Commit, nil, true
	case parsedObject:
		return res.read(id)
	}
	typ, data, err := res.rd.ReadVerified(id, res.buf)
	var mismatch *odb.HashMismatchError
	switch {
	case errors.As(err, &mismatch):
		res.reads++
		res.before = append(res.before, mismatch.GitLine())
		return object.Invalid, nil, false
	case err != nil:
		res.readFailed(err)
		return object.Invalid, nil, false
	}
	res.reads++
	res.buf = data
	res.markParsed(id)
	return typ, data, true
}

// parseType is parse for the type alone (parse_object where git then
// looks at the object's type).
func (res *resolver) parseType(id oid.ID) (object.Type, bool) {
	switch res.parsedAs(id) {
	case parsedGraph:
		return object.Commit, true
	case parsedObject:
		return res.objectType(id)
	}
	typ, _, ok := res.parse(id)
	return typ, ok
}

// parsedFrom is where git parsed an object from: its object's content
// or, for a commit, the commit-graph.
type parsedFrom uint8

const (
	notParsed parsedFrom = iota
	parsedObject
	parsedGraph
)

// parsedAs is where git has parsed id from by now, if it has.
func (res *resolver) parsedAs(id oid.ID) parsedFrom {
	if from := res.parsed[id]; from != notParsed {
		return from
	}
	if res.rowMarks.parsedRow(id) {
		return parsedGraph
	}
	return notParsed
}

// madeCommit reports whether git has made a commit of id (see
// resolver.commits).
func (res *resolver) madeCommit(id oid.ID) bool {
	return res.commits[id] || res.rowMarks.commitRow(id)
}

// markParsed notes that git has parsed id by now (parse_object,
// parse_commit), which it does not check again.
func (res *resolver) markParsed(id oid.ID) { res.markParsedFrom(id, parsedObject) }

// markParsedFrom is markParsed saying where from; the first parse
// stands.
func (res *resolver) markParsedFrom(id oid.ID, from parsedFrom) {
	if res.parsed == nil {
		res.parsed = map[oid.ID]parsedFrom{}
	}
	if res.parsedAs(id) == notParsed {
		res.parsed[id] = from
		if res.parseOrder != nil {
			*res.parseOrder = append(*res.parseOrder, id)
		}
	}
}

// parentsAsParsed is the parents of the commit id as git has them: from
// wherever git parsed it already (its object, or the commit-graph),
// else as unparsed parses it.
func (res *resolver) parentsAsParsed(id oid.ID, unparsed func(oid.ID) ([]oid.ID, bool, error)) ([]oid.ID, bool, error) {
	switch res.parsedAs(id) {
	case parsedGraph:
		return res.graphParents(id)
	case parsedObject:
		return res.commitParents(id)
	}
	return unparsed(id)
}

// namedParents is the parse of the commit a name's ^ or ~ starts from
// (lookup_commit_reference, then its parents): read from its object,
// unless git parsed it from the commit-graph before (a name alone, an
// earlier argument), when the graph's parents stand.
func (res *resolver) namedParents(id oid.ID) ([]oid.ID, bool, error) {
	return res.parentsAsParsed(id, res.commitParents)
}

// loadGraph is where git first loads the commit-graph (a commit parsed
// or looked up there): its warnings, the first time the command does.
func (res *resolver) loadGraph() {
	if res.src.GraphWarnings == nil {
		return
	}
	for _, l := range res.src.GraphWarnings() {
		res.note(l)
	}
}

// inGraph reports whether get_reference takes the commit id from the
// commit-graph, without reading its object (lookup_commit_in_graph: a
// commit the graph holds and the repository has).
func (res *resolver) inGraph(id oid.ID) bool {
	res.loadGraph()
	return res.r.InCommitGraph != nil && res.r.InCommitGraph(id) && res.rd.Has(id)
}

func (res *resolver) read(id oid.ID) (object.Type, []byte, bool) {
	typ, data, err := res.readErr(id)
	return typ, data, err == nil
}

// readErr is read with the read's error.
func (res *resolver) readErr(id oid.ID) (object.Type, []byte, error) {
	typ, data, err := res.rd.Read(id, res.buf)
	if err != nil {
		res.readFailed(err)
		return object.Invalid, nil, err
	}
	res.reads++
	res.buf = data
	return typ, data, nil
}

// derefTag follows tags until a non-tag, each object read as
// parse_object reads it (parse); ok false when an object is missing or
// unreadable.
func (res *resolver) derefTag(id oid.ID) (oid.ID, object.Type, bool) {
	return res.derefTagWith(id, res.parse)
}

// derefTagUnchecked is derefTag for get_reference's reads, which do not
// check what they read against the name (PARSE_OBJECT_SKIP_HASH_CHECK).
func (res *resolver) derefTagUnchecked(id oid.ID) (oid.ID, object.Type, bool) {
	return res.derefTagWith(id, res.read)
}

func (res *resolver) derefTagWith(id oid.ID, read func(oid.ID) (object.Type, []byte, bool)) (oid.ID, object.Type, bool) {
	for depth := 0; depth < 1000; depth++ {
		typ, data, ok := read(id)
		if !ok {
			return oid.ID{}, object.Invalid, false
		}
		if typ != object.Tag {
			return id, typ, true
		}
		t, err := object.ParseTag(res.r.Format, data)
		if err != nil {
			return oid.ID{}, object.Invalid, false
		}
		id = t.Object
	}
	return oid.ID{}, object.Invalid, false
}

// commitReference is lookup_commit_reference: id peeled through tags
// must be a commit; git reports another type as an error line.
func (res *resolver) commitReference(id oid.ID) (oid.ID, bool) {
	c, typ, ok := res.derefTag(id)
	if ok && typ != object.Commit {
		res.before = append(res.before, fmt.Sprintf("error: object %s is a %s, not a commit", c, typ))
		return oid.ID{}, false
	}
	return c, ok
}

// loadParents reads the command's grafts and shallow boundary the first
// time a resolution parses a commit (git's parse_commit_buffer looks the
// commit up among the grafts, which reads them) or, where the
// commit-graph is considered, looks an object up (revisionArg).
func (res *resolver) loadParents() error {
	if res.loaded {
		return nil
	}
	res.loaded = true
	// git prints the grafts' hint as it reads them: before the
	// lines and the death of a revision that fails, after the
	// warnings so far (an ambiguous ref name's). With nothing held
	// for a death yet, it goes out now through the command's
	// Print; else after what is held, among the error's Before
	// lines, or through Print once the resolution succeeded.
	read := res.src.Read
	if read == nil {
		read = res.r.EffectiveParents
	}
	p, msgs, err := read()
	if res.src.Print != nil && len(res.before) == 0 && res.lookupErr == nil {
		for _, l := range msgs {
			res.src.Print(l)
		}
	} else {
		res.before = append(res.before, msgs...)
		res.readLines = msgs
	}
	if err != nil {
		return fatalError{err}
	}
	res.parents = p
	return nil
}

// commitParents returns the parents of a commit as git sees them: the
// object's parent lines unless info/grafts or the shallow file say
// otherwise.
func (res *resolver) commitParents(id oid.ID) ([]oid.ID, bool, error) {
	c, ok, line, err := res.parseCommitObject(id)
	// repo_parse_commit's errors for a commit it cannot find or that is
	// of another type, once for each: goblame may try a name twice where
	// git resolves it once.
	if line != "" && !res.unread[id] {
		res.reportUnread(id, line)
	}
	return c.parents, ok, err
}

// commitParse is what git's parse of a commit gives a walk: its parents
// as git sees them (grafts, the shallow boundary) and its date.
type commitParse struct {
	parents []oid.ID
	date    uint64
}

// parseCommitObject is repo_parse_commit of the commit id from its
// object: ok false where git's fails, with the error line git prints
// there ("" where it prints none).
func (res *resolver) parseCommitObject(id oid.ID) (commitParse, bool, string, error) {
	if err := res.loadParents(); err != nil {
		return commitParse{}, false, "", err
	}
	typ, data, err := res.readErr(id)
	switch {
	case errors.Is(err, odb.ErrNotFound):
		return commitParse{}, false, "error: Could not read " + id.String(), nil
	case err != nil:
		return commitParse{}, false, "", nil
	case typ != object.Commit:
		return commitParse{}, false, "error: Object " + id.String() + " not a commit", nil
	}
	var c object.CommitInfo
	if err := object.ParseCommit(res.r.Format, data, &c); err != nil {
		return commitParse{}, false, "", nil
	}
	res.loadGraph() // (parse_commit_buffer's load_commit_graph_info)
	res.markParsed(id)
	if g, ok := res.parents[id]; ok {
		res.markCommits(g)
		return commitParse{parents: g, date: c.CommitTime}, true, "", nil
	}
	res.markCommits(c.Parents)
	return commitParse{parents: append([]oid.ID(nil), c.Parents...), date: c.CommitTime}, true, "", nil
}

// markCommits notes ids as objects git has made commits of (see
// resolver.commits).
func (res *resolver) markCommits(ids []oid.ID) {
	if res.commits == nil {
		res.commits = map[oid.ID]bool{}
	}
	for _, id := range ids {
		res.commits[id] = true
	}
}

// reportUnread holds line, repo_parse_commit's error for the commit id,
// and notes id as reported.
func (res *resolver) reportUnread(id oid.ID, line string) {
	if res.unread == nil {
		res.unread = map[oid.ID]bool{}
	}
	res.unread[id] = true
	res.before = append(res.before, line)
}

// graphParents is the parents of the commit id as git's parse_commit
// reads them: from the commit-graph where it holds id
// (Repository.CommitGraphParents; its error is git's death there), else
// from the object (commitParents).
func (res *resolver) graphParents(id oid.ID) ([]oid.ID, bool, error) {
	res.loadGraph()
	if res.r.CommitGraphParents != nil {
		parents, ok, err := res.r.CommitGraphParents(id)
		if err != nil {
			return nil, false, fatalError{err}
		}
		if ok {
			res.markParsedFrom(id, parsedGraph)
			res.markCommits(parents)
			return parents, true, nil
		}
	}
	return res.commitParents(id)
}

// getOIDWithContext is get_oid_with_context: get_oid_1, then the
// ":path" (index) and "rev:path" (tree) forms.
func (res *resolver) getOIDWithContext(name string, flags int) (oid.ID, bool, error) {
	id, ok, err := res.getOID1(name, flags)
	if err != nil || ok {
		return id, ok, err
	}
	if re, ok := strings.CutPrefix(name, ":/"); ok && re != "" {
		return res.searchAllMessages(re)
	}
	if strings.HasPrefix(name, ":") {
		return res.indexPath(name)
	}
	depth := 0
	colon := -1
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '{' {
			depth++
		} else if depth > 0 && c == '}' {
			depth--
		} else if depth == 0 && c == ':' {
			colon = i
			break
		}
	}
	if colon < 0 {
		return oid.ID{}, false, nil
	}
	sub := flags&^lookDisambiguators | lookTreeish
	tree, ok, err := res.getOID1(name[:colon], sub)
	if err != nil || !ok {
		return oid.ID{}, false, err
	}
	filename := name[colon+1:]
	if rel, isRel, err := res.relativePath(filename); err != nil {
		return oid.ID{}, false, err
	} else if isRel {
		filename = rel
	}
	id, _, found := res.treeEntry(tree, filename)
	return id, found, nil
}

// relativePath resolves "./x" and "../x" against the prefix (git's
// resolve_relative_path); isRel is false for other paths.
func (res *resolver) relativePath(p string) (string, bool, error) {
	if !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
		return "", false, nil
	}
	if res.r.WorkTree == "" || !res.r.insideWorkTree() {
		return "", false, fatalError{newError(ErrBadRevision, "relative path syntax can't be used outside working tree")}
	}
	out, ok := prefixPath(res.r.Prefix, p)
	if !ok {
		return "", false, fatalError{newError(ErrBadRevision, "'%s' is outside repository at '%s'", p, res.r.WorkTree)}
	}
	return out, true, nil
}

// insideWorkTree reports whether git's working directory is in the
// work tree (it is whenever Discover found a prefix or the top).
func (r *Repository) insideWorkTree() bool {
	return r.WorkTree != "" && r.gitCwd == r.WorkTree
}

// prefixPath joins a cwd-relative path to prefix and normalises "." and
// ".." components; ok is false when the result leaves the work tree.
func prefixPath(prefix, p string) (string, bool) {
	full := prefix + p
	var parts []string
	for _, c := range strings.Split(full, "/") {
		switch c {
		case "", ".":
		case "..":
			if len(parts) == 0 {
				return "", false
			}
			parts = parts[:len(parts)-1]
		default:
			parts = append(parts, c)
		}
	}
	out := strings.Join(parts, "/")
	if strings.HasSuffix(full, "/") && out != "" {
		out += "/"
	}
	return out, true
}

// indexPath resolves ":path" and ":<stage>:path".
func (res *resolver) indexPath(name string) (oid.ID, bool, error) {
	if len(name) > 2 && name[1] == '/' {
		// ":/regex" searches commit messages; not supported.
		return oid.ID{}, false, nil
	}
	stage := 0
	cp := name[1:]
	if len(name) >= 3 && name[2] == ':' && name[1] >= '0' && name[1] <= '3' {
		stage = int(name[1] - '0')
		cp = name[3:]
	}
	if rel, isRel, err := res.relativePath(cp); err != nil {
		return oid.ID{}, false, err
	} else if isRel {
		cp = rel
	}
	if res.index == nil {
		ix, err := res.r.ReadIndex()
		if err != nil {
			return oid.ID{}, false, fatalError{err}
		}
		res.index = ix
	}
	e, ok := res.index.Entry(cp, stage)
	if !ok || e.IsSparseDir() {
		return oid.ID{}, false, nil
	}
	return e.ID, true, nil
}

// treeEntry is get_tree_entry: tree (peeled from a commit or tag) and a
// slash-separated path; "" names the tree itself.
func (res *resolver) treeEntry(id oid.ID, path string) (oid.ID, uint32, bool) {
	tree, ok := res.peelToTree(id)
	if !ok {
		return oid.ID{}, 0, false
	}
	if path == "" {
		return tree, object.ModeTree, true
	}
	for {
		typ, data, ok := res.read(tree)
		if !ok || typ != object.Tree || len(data) == 0 {
			return oid.ID{}, 0, false
		}
		it := object.NewTreeIter(res.r.Format, data)
		var e object.TreeEntry
		next := oid.ID{}
		descend := ""
		found := false
		for it.Next(&e) {
			n := len(e.Name)
			if n > len(path) {
				continue
			}
			c := bytes.Compare([]byte(path[:n]), e.Name)
			if c > 0 {
				continue
			}
			if c < 0 {
				break
			}
			if n == len(path) {
				return e.ID, e.Mode, true
			}
			if path[n] != '/' {
				continue
			}
			if !object.IsTree(e.Mode) {
				break
			}
			if n+1 == len(path) {
				return e.ID, e.Mode, true
			}
			next, descend, found = e.ID, path[n+1:], true
			break
		}
		if !found {
			return oid.ID{}, 0, false
		}
		tree, path = next, descend
	}
}

// peelToTree is read_object_with_reference(..., OBJ_TREE).
func (res *resolver) peelToTree(id oid.ID) (oid.ID, bool) {
	for depth := 0; depth < 1000; depth++ {
		typ, data, ok := res.read(id)
		if !ok {
			return oid.ID{}, false
		}
		switch typ {
		case object.Tree:
			return id, true
		case object.Commit:
			var c object.CommitInfo
			if object.ParseCommit(res.r.Format, data, &c) != nil {
				return oid.ID{}, false
			}
			id = c.Tree
		case object.Tag:
			t, err := object.ParseTag(res.r.Format, data)
			if err != nil {
				return oid.ID{}, false
			}
			id = t.Object
		default:
			return oid.ID{}, false
		}
	}
	return oid.ID{}, false
}

// getOID1 is get_oid_1: "~n" and "^n" suffixes, "^{type}", then a basic
// name (hex or ref), describe output, and a short hex name.
func (res *resolver) getOID1(name string, flags int) (oid.ID, bool, error) {
	// Trailing digits after '~' or '^'.
	i := len(name) - 1
	for i >= 0 && name[i] >= '0' && name[i] <= '9' {
		i--
	}
	if i >= 0 && (name[i] == '~' || name[i] == '^') {
		digits := name[i+1:]
		num := uint64(0)
		for _, c := range []byte(digits) {
			num = num*10 + uint64(c-'0')
			if num > 1<<31-1 {
				return oid.ID{}, false, nil
			}
		}
		if digits == "" {
			num = 1
		}
		base := name[:i]
		if name[i] == '^' {
			return res.parent(base, int(num))
		}
		return res.nthAncestor(base, int(num))
	}
	if id, ok, handled, err := res.peelOnion(name, flags); err != nil || handled {
		return id, ok, err
	}
	if id, ok, err := res.basic(name, flags); err != nil || ok {
		return id, ok, err
	}
	if id, ok := res.describeName(name); ok {
		return id, true, nil
	}
	id, st := res.shortOID(name, flags)
	return id, st == shortFound, nil
}

// graphInfo is git's death in load_commit_graph_info for the commit id,
// which it has just parsed from its object (lookup_commit_reference).
func (res *resolver) graphInfo(id oid.ID) error {
	if res.r.CommitGraphInfo == nil {
		return nil
	}
	if err := res.r.CommitGraphInfo(id); err != nil {
		return fatalError{err}
	}
	return nil
}

func (res *resolver) parent(name string, idx int) (oid.ID, bool, error) {
	id, ok, err := res.getOID1(name, lookCommittish)
	if err != nil || !ok {
		return oid.ID{}, false, err
	}
	c, ok := res.commitReference(id)
	if !ok {
		return oid.ID{}, false, nil
	}
	if err := res.graphInfo(c); err != nil {
		return oid.ID{}, false, err
	}
	if idx == 0 {
		return c, true, nil
	}
	parents, ok, err := res.namedParents(c)
	if err != nil || !ok || idx > len(parents) {
		return oid.ID{}, false, err
	}
	return parents[idx-1], true, nil
}

func (res *resolver) nthAncestor(name string, n int) (oid.ID, bool, error) {
	id, ok, err := res.getOID1(name, lookCommittish)
	if err != nil || !ok {
		return oid.ID{}, false, err
	}
	c, ok := res.commitReference(id)
	if !ok {
		return oid.ID{}, false, nil
	}
	if err := res.graphInfo(c); err != nil {
		return oid.ID{}, false, err
	}
	for first := true; n > 0; n, first = n-1, false {
		// git's get_nth_ancestor: the commit named is read from its
		// object (lookup_commit_reference) unless git parsed it
		// before (namedParents), the ones after it are parsed from
		// the commit-graph where it holds them.
		parse := res.graphParents
		if first {
			parse = res.namedParents
		} else if n >= byRowChain {
			var found bool
			if c, n, found, err = res.firstParentsByRow(c, n); err != nil || !found {
				return oid.ID{}, false, err
			}
			if n == 0 {
				break
			}
		}
		parents, ok, err := parse(c)
		if err != nil || !ok || len(parents) == 0 {
			return oid.ID{}, false, err
		}
		c = parents[0]
	}
	return c, true, nil
}

// byRowChain is the number of first parents a "~N" has left to go from
// which firstParentsByRow goes them, in a graph of at most rowsPerStep
// times as many rows (a variable for the tests).
var byRowChain = 64

// firstParentsByRow goes up to n first parents from the commit id, each
// parsed from the commit-graph as graphParents parses it, by the graph's
// rows: their marks (parsed from the graph, made commits of) go to the
// resolution's row sets (rowMarks), not to maps keyed by name, and no
// parent's name is looked up in the graph again. It stops where a
// commit is not the graph's to give (left is then what remains for
// graphParents), and where the graph's names do not find their rows
// (a damaged name table; nothing then goes by row). found is false where
// a commit has no parent: no such ancestor.
func (res *resolver) firstParentsByRow(id oid.ID, n int) (at oid.ID, left int, found bool, err error) {
	f := res.r.CommitGraphRows
	if f == nil || res.rowMarks == nil {
		return id, n, true, nil
	}
	rows := f()
	if rows == nil || !longForRows(rows, n) || !rows.NamesFindRows() || !res.rowMarks.start(rows) {
		return id, n, true, nil
	}
	res.loadGraph() // (parse_commit_buffer's load_commit_graph_info)
	pos, ok := rows.PositionAsGit(id)
	if !ok {
		return id, n, true, nil
	}
	m := res.rowMarks
	var parents []uint32
	for ; n > 0; n-- {
		var inGraph bool
		_, _, parents, inGraph, err = rows.Row(pos, parents[:0])
		if err != nil {
			return oid.ID{}, 0, false, fatalError{err}
		}
		if !inGraph {
			return id, n, true, nil
		}
		if len(parents) == 0 {
			m.markParsed(pos, nil)
			return oid.ID{}, 0, false, nil
		}
		first, ok := rows.ID(parents[0])
		if !ok {
			return id, n, true, nil // (graphParents reads the object)
		}
		for _, p := range parents[1:] {
			if _, ok := rows.ID(p); !ok {
				return id, n, true, nil
			}
		}
		m.markParsed(pos, parents)
		id, pos = first, parents[0]
	}
	return id, 0, true, nil
}

// peelOnion handles "name^{type}". handled is false when name does not
// have that form.
func (res *resolver) peelOnion(name string, flags int) (id oid.ID, ok, handled bool, err error) {
	if len(name) < 4 || name[len(name)-1] != '}' {
		return oid.ID{}, false, false, nil
	}
	sp := -1
	for i := len(name) - 1; i > 0; i-- {
		if name[i] == '{' && name[i-1] == '^' {
			sp = i
			break
		}
	}
	if sp <= 0 {
		return oid.ID{}, false, false, nil
	}
	rest := name[sp+1:]
	var want object.Type
	any, onlyTags := false, false
	switch {
	case strings.HasPrefix(rest, "commit}"):
		want = object.Commit
	case strings.HasPrefix(rest, "tag}"):
		want = object.Tag
	case strings.HasPrefix(rest, "tree}"):
		want = object.Tree
	case strings.HasPrefix(rest, "blob}"):
		want = object.Blob
	case strings.HasPrefix(rest, "object}"):
		any = true
	case rest[0] == '}':
		onlyTags = true
	case rest[0] == '/':
		start, found, err := res.getOID1(name[:sp-1], flags&^lookDisambiguators|lookCommittish)
		if err != nil || !found {
			return oid.ID{}, false, true, err
		}
		// peel_onion's parse_object of what the name gives.
		if _, ok := res.parseType(start); !ok {
			return oid.ID{}, false, true, nil
		}
		commit, err := Peel(res.rd, start, object.Commit)
		if err != nil {
			return oid.ID{}, false, true, nil
		}
		// (lookup_commit_reference parses it: the grafts are read,
		// and their hint printed, before the search.)
		if err := res.loadParents(); err != nil {
			return oid.ID{}, false, true, err
		}
		id, ok, err := res.searchMessages(rest[1:len(rest)-1], commit)
		return id, ok, true, err
	default:
		return oid.ID{}, false, false, nil
	}
	sub := flags &^ lookDisambiguators
	if want == object.Commit {
		sub |= lookCommittish
	} else if want == object.Tree {
		sub |= lookTreeish
	}
	outer, found, err := res.getOID1(name[:sp-1], sub)
	if err != nil || !found {
		return oid.ID{}, false, true, err
	}
	typ, ok := res.parseType(outer)
	if !ok {
		return oid.ID{}, false, true, nil
	}
	if onlyTags {
		id, _, ok := res.derefTag(outer)
		return id, ok, true, nil
	}
	if any {
		return outer, true, true, nil
	}
	// repo_peel_to_type: tags to their target, commits to their tree.
	id = outer
	for depth := 0; depth < 1000; depth++ {
		if typ == want {
			return id, true, true, nil
		}
		typ2, data, ok := res.read(id)
		if !ok {
			return oid.ID{}, false, true, nil
		}
		switch typ2 {
		case object.Tag:
			t, err := object.ParseTag(res.r.Format, data)
			if err != nil {
				return oid.ID{}, false, true, nil
			}
			id = t.Object
		case object.Commit:
			var c object.CommitInfo
			if object.ParseCommit(res.r.Format, data, &c) != nil {
				return oid.ID{}, false, true, nil
			}
			id = c.Tree
		default:
			res.before = append(res.before, fmt.Sprintf("error: %s: expected %s type, but the object dereferences to %s type", name, want, typ2))
			return oid.ID{}, false, true, nil
		}
		if typ, ok = res.parseType(id); !ok {
			return oid.ID{}, false, true, nil
		}
	}
	return oid.ID{}, false, true, nil
}

// ambiguousPath is git's ambiguous_path: names that start with '/',
// contain "//", or have a component made only of dots.
func ambiguousPath(p string) bool {
	slash := true
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case 0:
			return slash
		case '/':
			if slash {
				return true
			}
			slash = true
		case '.':
		default:
			slash = false
		}
	}
	return slash
}

// priorCheckout resolves "@{-N}" (get_oid_basic's nth_prior): the
// object a detached checkout left, or else the ref the branch name
// substituted for it names by the DWIM rules; nothing without as many
// checkouts.
func (res *resolver) priorCheckout(name string) (oid.ID, bool, error) {
	prior, _, found := res.nthPriorCheckout(name)
	if !found {
		return oid.ID{}, false, nil
	}
	if len(prior) == res.r.Format.HexSize() {
		if id, err := oid.ParseHex(res.r.Format, prior); err == nil {
			return id, true, nil
		}
	}
	n, id, err := res.dwimRef(prior, true)
	if err != nil || n == 0 {
		return oid.ID{}, false, err
	}
	if res.warnAmbiguousRefs() && n > 1 {
		res.r.warn("warning: refname '" + name + "' is ambiguous.")
	}
	return id, true, nil
}

// refRules are git's DWIM rules for a short ref name.
var refRules = []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"}

// basic is get_oid_basic: a full hex name, or a ref by the DWIM rules.
func (res *resolver) basic(name string, flags int) (oid.ID, bool, error) {
	hexLen := res.r.Format.HexSize()
	if len(name) == hexLen {
		if id, err := oid.ParseHex(res.r.Format, name); err == nil {
			if res.warnAmbiguousRefs() {
				if n, _, _ := res.dwimRef(name, false); n > 0 {
					res.r.warn("warning: refname '" + name + "' is ambiguous.")
					if b, ok, _ := res.r.Config.Bool("advice.objectnamewarning"); !ok || b {
						for _, l := range strings.Split(objectNameAdvice, "\n") {
							res.r.warn(l)
						}
					}
				}
			}
			return id, true, nil
		}
	}
	if i := strings.LastIndex(name, "@{"); i >= 0 && strings.HasSuffix(name, "}") {
		spec := name[i+2 : len(name)-1]
		if strings.HasPrefix(spec, "-") {
			// @{-N}: only at the start, where it names the branch
			// checked out before the N-th checkout back (or the
			// commit, after a detached one).
			if i != 0 {
				return oid.ID{}, false, nil
			}
			return res.priorCheckout(name)
		}
		if n, ok := reflogIndex(spec); ok && n < 100000000 {
			return res.reflogEntry(name[:i], n)
		}
		if at, ok := reflogTimestamp(spec); ok {
			return res.reflogAt(name[:i], at)
		}
		if upstream, push := upstreamMark(spec), pushMark(spec); upstream || push {
			branch, unknown := res.substituteBranch(name[:i])
			if unknown {
				return oid.ID{}, false, nil // "@{-N}@{u}" without N checkouts
			}
			var ref string
			var err error
			if upstream {
				ref, err = res.upstreamRef(branch)
			} else {
				ref, err = res.pushRef(branch)
			}
			if err != nil {
				return oid.ID{}, false, err
			}
			n, id, err := res.dwimRef(ref, true)
			return id, n > 0, err
		}
		at, err := gitdate.Approxidate(spec, res.r.dateNow(), time.Local)
		if err != nil {
			return oid.ID{}, false, nil // not a date either: a bad revision
		}
		return res.reflogAt(name[:i], at)
	}
	if name != "" && ambiguousPath(name) {
		return oid.ID{}, false, nil
	}
	if name == "@" {
		name = "HEAD"
	}
	n, id, err := res.dwimRef(name, true)
	if err != nil {
		return oid.ID{}, false, err
	}
	if n == 0 {
		return oid.ID{}, false, nil
	}
	if res.warnAmbiguousRefs() && flags&lookQuiet == 0 {
		ambiguous := n > 1
		if !ambiguous {
			quiet := &resolver{r: res.r, rd: res.rd}
			_, st := quiet.shortOID(name, lookQuiet)
			ambiguous = st == shortFound
		}
		if ambiguous {
			res.r.warn("warning: refname '" + name + "' is ambiguous.")
		}
	}
	return id, true, nil
}

const objectNameAdvice = `Git normally never creates a ref that ends with 40 hex characters
because it will be ignored when you just specify 40-hex. These refs
may be created by mistake. For example,

  git switch -c $br $(git rev-parse ...)

where "$br" is somehow empty and a 40-hex ref is created. Please
examine these refs and maybe delete them. Turn this message off by
running "git config advice.objectNameWarning false"`

func (res *resolver) warnAmbiguousRefs() bool {
	b, ok, err := res.r.Config.Bool("core.warnambiguousrefs")
	return !ok || err != nil || b
}

// dwimRef is expand_ref: try each rule, count the refs found (all of
// them when ambiguity warnings are on), warn about dangling symbolic
// refs and broken refs.
func (res *resolver) dwimRef(name string, warn bool) (int, oid.ID, error) {
	s := res.r.refStore()
	found := 0
	var first oid.ID
	all := res.warnAmbiguousRefs()
	for _, rule := range refRules {
		full := strings.Replace(rule, "%s", name, 1)
		r, err := s.resolve(full, true)
		if err != nil {
			return 0, oid.ID{}, fatalError{err}
		}
		switch {
		case r.found:
			if found == 0 {
				first = r.id
			}
			found++
			if !all {
				return found, first, nil
			}
		case r.symref && full != "HEAD":
			if warn {
				res.r.warn("warning: ignoring dangling symref " + full)
			}
		case r.broken && strings.Contains(full, "/"):
			if warn {
				res.r.warn("warning: ignoring broken ref " + full)
			}
		}
	}
	return found, first, nil
}

// describeName handles "git describe" output: "...-g<hex>" names a
// commit by its abbreviation.
func (res *resolver) describeName(name string) (oid.ID, bool) {
	for i := len(name) - 1; i >= 2; i-- {
		c := name[i]
		if isHexDigit(c) {
			continue
		}
		if c == 'g' && name[i-1] == '-' {
			q := &resolver{r: res.r, rd: res.rd}
			id, st := q.shortOID(name[i+1:], lookQuiet|lookCommit)
			return id, st == shortFound
		}
	}
	return oid.ID{}, false
}

type shortStatus int

const (
	shortNotHex shortStatus = iota
	shortMissing
	shortAmbiguous
	shortFound
)

// disambiguationHint returns the filter a short name must pass when
// several objects share it: from the lookup flags, else core.disambiguate.
func (res *resolver) disambiguationHint(flags int) func(oid.ID) bool {
	kind := ""
	switch {
	case flags&lookCommit != 0:
		kind = "commit"
	case flags&lookCommittish != 0:
		kind = "committish"
	case flags&lookTree != 0:
		kind = "tree"
	case flags&lookTreeish != 0:
		kind = "treeish"
	case flags&lookBlob != 0:
		kind = "blob"
	default:
		if v, ok := res.r.Config.Get("core.disambiguate"); ok {
			kind = strings.ToLower(v)
		}
	}
	is := func(types ...object.Type) func(oid.ID) bool {
		return func(id oid.ID) bool {
			t, ok := res.objectType(id)
			if !ok {
				return false
			}
			if t == object.Tag && len(types) > 1 {
				_, t2, ok := res.derefTag(id)
				t = t2
				if !ok {
					return false
				}
			}
			for _, w := range types {
				if t == w {
					return true
				}
			}
			return false
		}
	}
	switch kind {
	case "commit":
		return is(object.Commit)
	case "committish":
		return is(object.Commit, object.Commit)
	case "tree":
		return is(object.Tree)
	case "treeish":
		return is(object.Tree, object.Commit)
	case "blob":
		return is(object.Blob)
	}
	return nil
}

// shortOID is get_short_oid: name is 4 to hex-size hex digits naming
// exactly one object (or exactly one passing the disambiguation hint).
// Unless quiet, an ambiguous name adds git's error and candidate list to
// res.before.
func (res *resolver) shortOID(name string, flags int) (oid.ID, shortStatus) {
	if len(name) < minimumAbbrev || len(name) > res.r.Format.HexSize() {
		return oid.ID{}, shortNotHex
	}
	for i := 0; i < len(name); i++ {
		if !isHexDigit(name[i]) {
			return oid.ID{}, shortNotHex
		}
	}
	cands, err := res.r.Objects.ResolvePrefix(name, 0)
	if err != nil || len(cands) == 0 {
		return oid.ID{}, shortMissing
	}
	if len(cands) == 1 {
		return cands[0], shortFound
	}
	fn := res.disambiguationHint(flags)
	if fn != nil {
		var ok []oid.ID
		for _, c := range cands {
			if fn(c) {
				ok = append(ok, c)
			}
		}
		if len(ok) == 1 {
			return ok[0], shortFound
		}
		if len(ok) == 0 {
			// git then lists every candidate.
			fn = nil
		}
	}
	if flags&lookQuiet == 0 {
		res.ambiguityReport(strings.ToLower(name), cands, fn)
	}
	return oid.ID{}, shortAmbiguous
}

// ambiguityReport appends git's "short object ID is ambiguous" error and
// the candidate hint (tags, then commits, then trees and blobs, each by
// name) to res.before.
func (res *resolver) ambiguityReport(prefix string, cands []oid.ID, fn func(oid.ID) bool) {
	res.before = append(res.before, "error: short object ID "+prefix+" is ambiguous")
	type cand struct {
		id  oid.ID
		typ object.Type
	}
	list := make([]cand, 0, len(cands))
	for _, c := range cands {
		t, _ := res.objectType(c)
		list = append(list, cand{c, t})
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.typ == b.typ {
			return a.id.Compare(b.id) < 0
		}
		return a.typ%4 < b.typ%4
	})
	abbrev, _ := res.r.DefaultAbbrev()
	lines := []string{"hint: The candidates are:"}
	for _, c := range list {
		if fn != nil && !fn(c.id) {
			continue
		}
		n := res.r.Objects.UniqueAbbrevLen(c.id, abbrev)
		hex := c.id.String()[:n]
		var desc string
		switch c.typ {
		case object.Commit:
			desc = hex + " commit " + res.commitSummary(c.id)
		case object.Tag:
			desc = hex + " " + res.tagSummary(c.id)
		case object.Tree:
			desc = hex + " tree"
		case object.Blob:
			desc = hex + " blob"
		default:
			desc = hex + " [bad object]"
		}
		lines = append(lines, "hint:   "+desc)
	}
	res.before = append(res.before, lines...)
}

// commitSummary is "<author date, short> - <subject>" as git's ambiguity
// hint shows a commit.
func (res *resolver) commitSummary(id oid.ID) string {
	typ, data, ok := res.read(id)
	if !ok || typ != object.Commit {
		return " - "
	}
	var c object.CommitInfo
	if object.ParseCommit(res.r.Format, data, &c) != nil {
		return " - "
	}
	date := ""
	if ident, ok := object.ParseIdent(c.Author); ok && ident.Date != nil {
		date = shortDate(object.ParseTimestamp(ident.Date), string(ident.TZ))
	} else {
		date = shortDate(0, "+0000")
	}
	return date + " - " + subjectLine(c.Message)
}

// tagSummary is "tag <tagger date, short, UTC> - <tag name>".
func (res *resolver) tagSummary(id oid.ID) string {
	typ, data, ok := res.read(id)
	if !ok || typ != object.Tag {
		return "[bad tag, could not parse it]"
	}
	t, err := object.ParseTag(res.r.Format, data)
	if err != nil || t.Name == nil {
		return "[bad tag, could not parse it]"
	}
	var ts uint64
	if t.Tagger != nil {
		if ident, ok := object.ParseIdent(t.Tagger); ok && ident.Date != nil {
			ts = object.ParseTimestamp(ident.Date)
		}
	}
	return "tag " + shortDate(ts, "+0000") + " - " + string(t.Name)
}

// shortDate formats a timestamp as YYYY-MM-DD in the given "+hhmm" zone.
func shortDate(ts uint64, tz string) string {
	off := 0
	if len(tz) == 5 && (tz[0] == '+' || tz[0] == '-') {
		if n, err := strconv.Atoi(tz[1:]); err == nil {
			off = (n/100)*3600 + (n%100)*60
			if tz[0] == '-' {
				off = -off
			}
		}
	}
	if ts > 1<<62 {
		ts = 0
	}
	t := time.Unix(int64(ts), 0).UTC().Add(time.Duration(off) * time.Second)
	return t.Format("2006-01-02")
}

// subjectLine is pretty's %s: the first paragraph of the message (after
// leading blank lines), lines stripped of trailing whitespace and joined
// with spaces.
func subjectLine(msg []byte) string {
	lines := strings.Split(string(msg), "\n")
	i := 0
	for i < len(lines) && strings.TrimRight(lines[i], " \t\n\r") == "" {
		i++
	}
	var parts []string
	for ; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t\n\r")
		if l == "" {
			break
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, " ")
}

// DefaultAbbrev returns the abbreviation length core.abbrev asks for:
// -1 for "auto" or unset (git then scales it with the object count),
// the full hex length for a false value, else 4..hex size. Errors carry
// git's texts.
func (r *Repository) DefaultAbbrev() (int, error) {
	e, ok := r.Config.Entry("core.abbrev")
	if !ok {
		return -1, nil
	}
	return r.abbrevOf(e)
}

// abbrevOf is the length one core.abbrev entry asks for, as
// git_default_core_config reads it (DefaultAbbrev).
func (r *Repository) abbrevOf(e ConfigEntry) (int, error) {
	if !e.HasValue {
		return 0, MissingValueError(e)
	}
	if strings.EqualFold(e.Value, "auto") {
		return -1, nil
	}
	if b, valid := BoolText(e.Value, true); valid && !b {
		return r.Format.HexSize(), nil
	}
	n, err := parseConfigInt(e.Value, 1<<31-1)
	if err != nil {
		return 0, newError(ErrBadConfig, "bad numeric config value '%s' for '%s': %s", e.Value, e.Key, err.Error())
	}
	if n < minimumAbbrev || n > int64(r.Format.HexSize()) {
		return 0, &Error{Kind: ErrBadConfig, Msg: BadConfigEntry(e), Before: []string{fmt.Sprintf("error: abbrev length out of range: %d", n)}}
	}
	return int(n), nil
}

// fatal unwraps a fatalError and puts the lines printed so far before
// its message.
func (res *resolver) fatal(err error) error {
	if res.unreadable != nil {
		return res.unreadable
	}
	var f fatalError
	if errors.As(err, &f) {
		err = f.err
	}
	var ge *Error
	if errors.As(err, &ge) && (len(res.before) > 0 || res.lookupErr != nil) {
		cp := *ge
		cp.Before = append(append(append([]string(nil), res.before...), res.lookupLines()...), ge.Before...)
		return &cp
	}
	return err
}

// lookupLines are the lines git prints, before its fatal error, for the
// object an unusable pack kept from resolution (odb.LookupError):
// parse_object's two lookups (its type, then the object), each tried
// twice. Where the commit-graph holds the object, get_reference first
// asks whether it exists, once more (Repository.InCommitGraph).
func (res *resolver) lookupLines() []string {
	if res.lookupErr == nil {
		return nil
	}
	lines := odb.LookupLines(res.lookupErr, 2)
	if res.lookupID != (oid.ID{}) && res.r.InCommitGraph != nil && res.r.InCommitGraph(res.lookupID) {
		lines = append(lines, lines[0])
	}
	return lines
}

// reflogTimestamp reads "@{<digits>}" of at least 100000000 as a
// timestamp, as git does.
func reflogTimestamp(spec string) (uint64, bool) {
	if spec == "" || len(spec) > 18 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(spec); i++ {
		if spec[i] < '0' || spec[i] > '9' {
			return 0, false
		}
		n = n*10 + uint64(spec[i]-'0')
	}
	return n, n >= 100000000
}

// reflogIndex parses the n of "@{n}": decimal digits only.
func reflogIndex(spec string) (int, bool) {
	if spec == "" || len(spec) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(spec); i++ {
		c := spec[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// reflogRef is the ref whose reflog "<base>@{...}" reads and its value
// now: an empty base is the current branch (HEAD itself when detached),
// "@" and "HEAD" are HEAD, anything else the first DWIM rule that names
// a ref. refname is "" when none does.
func (res *resolver) reflogRef(base string) (refname string, current oid.ID, err error) {
	s := res.r.refStore()
	base, _ = res.substituteBranch(base)
	switch base {
	case "", "@":
		h, err := s.resolve("HEAD", true)
		if err != nil {
			return "", oid.ID{}, fatalError{err}
		}
		refname = "HEAD"
		if h.symref && h.name != "" && base == "" {
			refname = h.name
		}
		return refname, h.id, nil
	case "HEAD":
		h, err := s.resolve("HEAD", true)
		if err != nil {
			return "", oid.ID{}, fatalError{err}
		}
		return "HEAD", h.id, nil
	}
	for _, rule := range refRules {
		full := strings.Replace(rule, "%s", base, 1)
		if r, err := s.resolve(full, true); err == nil && r.found {
			return full, r.id, nil
		}
	}
	return "", oid.ID{}, nil
}

// reflogEntry is "<base>@{n}" (git's read_ref_at by count): the value
// the ref had n updates ago, from its reflog. An empty base is the
// current branch (HEAD itself when detached).
func (res *resolver) reflogEntry(base string, n int) (oid.ID, bool, error) {
	refname, _, err := res.reflogRef(base)
	if err != nil || refname == "" {
		return oid.ID{}, false, err
	}
	log, ok := res.readReflog(refname)
	if !ok {
		return oid.ID{}, false, nil
	}
	shown := base
	if shown == "" {
		shown = strings.TrimPrefix(refname, "refs/heads/")
	}
	switch {
	case len(log) == 0:
		return oid.ID{}, false, fatalError{fmt.Errorf("log for '%s' is empty", shown)}
	case n < len(log):
		return log[len(log)-1-n].new, true, nil
	case n == len(log) && !log[0].old.IsNull():
		return log[0].old, true, nil
	}
	return oid.ID{}, false, fatalError{fmt.Errorf("log for '%s' only has %d entries", shown, len(log))}
}

// searchMessages is git's get_oid_oneline from one commit ("rev^{/re}"):
// the newest commit reachable from start (by committer date) whose
// message matches the extended regular expression re. "!-re" finds the
// newest that does not match, "!!" stands for a literal "!", and any
// other "!" prefix is an error (git reserves it).
func (res *resolver) searchMessages(re string, starts ...oid.ID) (oid.ID, bool, error) {
	negative := false
	if strings.HasPrefix(re, "!") {
		switch {
		case strings.HasPrefix(re, "!-"):
			negative, re = true, re[2:]
		case strings.HasPrefix(re, "!!"):
			re = re[1:]
		default:
			return oid.ID{}, false, nil
		}
	}
	rx, err := posixre.Compile(re, posixre.Extended, res.r.env.CtypeLocale())
	if err != nil {
		return oid.ID{}, false, nil
	}
	// The queue is git's date-ordered commit list: newest first, and
	// among commits of one date the list's order. git's ":/" list is the
	// refs in reverse (each was put at the head) sorted stably by date,
	// so among starts of one date the last one goes first; a parent goes
	// after every commit of its date already queued
	// (commit_list_insert_by_date). seq encodes both.
	var queue msgQueue
	seen := map[oid.ID]bool{}
	var seq int64
	push := func(id oid.ID, t uint64, order int64) {
		queue.push(msgItem{id: id, time: t, seq: order})
	}
	// What git's walk knows of a commit it parsed: its parents and date,
	// and its text where it parsed the object (nil where the
	// commit-graph gave the rest).
	type msgCommit struct {
		parents []oid.ID
		time    uint64
		body    []byte
	}
	known := map[oid.ID]*msgCommit{}
	var info object.CommitInfo
	// fromObject parses a commit's object (parse_commit's read, or
	// handle_one_ref's parse_object): nil where git reports it and
	// passes it over (parse_commit's error lines), an error where git
	// dies reading it.
	fromObject := func(id oid.ID) (*msgCommit, error) {
		typ, body, err := res.rd.Read(id, nil)
		var ce *odb.CorruptError
		switch {
		case errors.As(err, &ce) && ce.Git != nil:
			return nil, err
		case errors.Is(err, odb.ErrNotFound):
			res.note("error: Could not read " + id.String())
			return nil, nil
		case err != nil:
			return nil, nil
		case typ != object.Commit:
			res.note("error: Object " + id.String() + " not a commit")
			return nil, nil
		}
		if object.ParseCommit(res.r.Format, body, &info) != nil {
			return nil, nil
		}
		parents := append([]oid.ID(nil), info.Parents...)
		if g, ok := res.parents[id]; ok {
			parents = g
		}
		t := info.CommitTime
		if res.r.CommitGraphTime != nil {
			// parse_commit_buffer's load_commit_graph_info: a commit
			// the graph holds takes its date from the graph's row
			// (fill_commit_graph_info), with git's death there.
			res.loadGraph()
			gt, ok, err := res.r.CommitGraphTime(id)
			if err != nil {
				return nil, err
			}
			if ok {
				t = gt
			}
		}
		return &msgCommit{parents: parents, time: t, body: body}, nil
	}
	// parse is pop_most_recent_commit's parse_commit: what git parsed
	// stands; else the commit-graph where git reads it there, else the
	// object.
	parse := func(id oid.ID) (*msgCommit, error) {
		if c := known[id]; c != nil {
			return c, nil
		}
		if res.r.CommitGraphParents != nil && res.r.CommitGraphTime != nil {
			parents, ok, err := res.r.CommitGraphParents(id)
			if err != nil {
				return nil, err
			}
			if ok {
				t, _, err := res.r.CommitGraphTime(id)
				if err != nil {
					return nil, err
				}
				c := &msgCommit{parents: parents, time: t}
				known[id] = c
				return c, nil
			}
		}
		c, err := fromObject(id)
		if c != nil {
			known[id] = c
		}
		return c, err
	}
	// Every start is on the list, a commit two refs name twice (git pops
	// it twice, parsing its parents again); among one date the later
	// listed goes first. All are marked seen before the walk.
	for _, start := range starts {
		seen[start] = true
	}
	for i, start := range starts {
		// The starts were parsed from their objects (parse_object).
		c := known[start]
		if c == nil {
			var err error
			if c, err = fromObject(start); err != nil {
				return oid.ID{}, false, fatalError{err}
			}
			if c == nil {
				continue
			}
			known[start] = c
		}
		push(start, c.time, -int64(i)-1)
	}
	for queue.len() > 0 {
		it := queue.pop()
		c := known[it.id]
		for _, p := range c.parents {
			pc, err := parse(p)
			if err != nil {
				return oid.ID{}, false, fatalError{err}
			}
			if pc == nil || seen[p] {
				continue
			}
			seen[p] = true
			seq++
			push(p, pc.time, seq)
		}
		// get_commit_buffer: the text git kept, else the object's.
		body := c.body
		if body == nil {
			typ, b, err := res.rd.Read(it.id, nil)
			var ce *odb.CorruptError
			switch {
			case errors.As(err, &ce) && ce.Git != nil:
				return oid.ID{}, false, fatalError{err}
			case err != nil:
				return oid.ID{}, false, fatalError{newError(ErrBadRevision, "cannot read commit object %s", it.id)}
			case typ != object.Commit:
				return oid.ID{}, false, fatalError{newError(ErrBadRevision, "expected commit for %s, got %s", it.id, typ)}
			}
			body = b
		}
		matched := false
		if i := bytes.Index(body, []byte("\n\n")); i >= 0 {
			msg := body[i+2:]
			if j := bytes.IndexByte(msg, 0); j >= 0 {
				msg = msg[:j] // regexec sees a C string
			}
			matched = rx.Match(msg)
		}
		if matched != negative {
			return it.id, true, nil
		}
	}
	return oid.ID{}, false, nil
}

// msgQueue is a binary heap of commits, newest first, then lowest seq.
type msgQueue struct{ items []msgItem }

type msgItem struct {
	id   oid.ID
	time uint64
	seq  int64
}

func (q *msgQueue) len() int { return len(q.items) }

func (q *msgQueue) before(i, j int) bool {
	a, b := &q.items[i], &q.items[j]
	if a.time != b.time {
		return a.time > b.time
	}
	return a.seq < b.seq
}

func (q *msgQueue) push(it msgItem) {
	q.items = append(q.items, it)
	for i := len(q.items) - 1; i > 0; {
		parent := (i - 1) / 2
		if !q.before(i, parent) {
			break
		}
		q.items[i], q.items[parent] = q.items[parent], q.items[i]
		i = parent
	}
}

func (q *msgQueue) pop() msgItem {
	top := q.items[0]
	n := len(q.items) - 1
	q.items[0] = q.items[n]
	q.items = q.items[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && q.before(l, m) {
			m = l
		}
		if l+1 < n && q.before(l+1, m) {
			m = l + 1
		}
		if m == i {
			break
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
	return top
}

// searchAllMessages is ":/re": searchMessages from every ref and HEAD,
// their tags peeled to commits, as git's handle_one_ref collects them.
func (res *resolver) searchAllMessages(re string) (oid.ID, bool, error) {
	var starts []oid.ID
	// handle_one_ref: parse_object of what each ref names (what cannot
	// be read or does not hash to its name is passed over, after the
	// lines git prints for it: its two lookups in a pack it cannot
	// use, the mismatch), tags peeled, commits kept.
	add := func(id oid.ID) error {
		_, _, err := res.rd.ReadVerified(id, nil)
		var mismatch *odb.HashMismatchError
		var ce *odb.CorruptError
		switch {
		case errors.As(err, &mismatch):
			res.note(mismatch.GitLine())
			return nil
		case errors.As(err, &ce) && ce.Git != nil:
			// parse_object dies reading it (its type first).
			return odb.ParseObjectFailure(err)
		case errors.Is(err, odb.ErrUnmappable):
			return err
		case err != nil:
			for _, l := range odb.LookupLines(err, 2) {
				res.note(l)
			}
			return nil
		}
		if c, err := Peel(res.rd, id, object.Commit); err == nil {
			// parse_object of the commit (or deref_tag's of the
			// commit a tag names) reads the grafts, and prints their
			// hint, at the first one.
			if err := res.loadParents(); err != nil {
				return err
			}
			starts = append(starts, c)
		}
		return nil
	}
	s := res.r.refStore()
	if err := s.forEachRef("refs/", func(_ string, id oid.ID) error { return add(id) }); err != nil {
		return oid.ID{}, false, fatalError{err}
	}
	if h, err := s.resolve("HEAD", true); err == nil && h.found {
		if err := add(h.id); err != nil {
			return oid.ID{}, false, fatalError{err}
		}
	}
	return res.searchMessages(re, starts...)
}
