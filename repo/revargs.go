package repo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// ParseRevisionArgs interprets revision arguments as git's revision
// machinery does for blame (setup_revisions after blame has put "--"
// before the path, so no argument may be a file name):
//
//	A           A
//	^A          A, negative
//	A..B        A negative, then B ("" on either side is HEAD)
//	A...B       the merge bases of A and B negative, then A and B
//	A^@         every parent of A (named "A")
//	A^!         every parent of A negative, then A
//	A^-[n]      parent n (default 1) of A negative, then A
//	--not       flips the sign of every later argument
//
// It returns the pending objects in git's order. Other arguments
// starting with '-' are options the caller must handle first; they are
// reported as bad revisions. Errors carry git's messages: "bad revision
// 'x'" (with the lines git printed before it, e.g. for an ambiguous
// short name), "bad object x", "Invalid revision range A..B", "Invalid
// symmetric difference expression A...B".
func (r *Repository) ParseRevisionArgs(rd *odb.Reader, args []string) ([]Revision, error) {
	return r.ParseRevisionArgsWith(rd, args, CommandParents{})
}

// ParseRevisionArgsWith is ParseRevisionArgs with the grafts and shallow
// boundary of the command the arguments belong to: an argument that
// parses a commit reads them for all that follow.
func (r *Repository) ParseRevisionArgsWith(rd *odb.Reader, args []string, parents CommandParents) ([]Revision, error) {
	revs, _, err := r.parseRevisionArgs(rd, args, parents, false)
	return revs, err
}

// ParsedCommit is an object git parsed resolving revision arguments
// (parse_commit, parse_object): get_nth_ancestor's walk of "A~3" parses
// A, A~1 and A~2, a range parses both ends. FromGraph: parsed from the
// commit-graph, else from the object, which may be no commit (a tag).
// What git parsed there has its parents when a walk that is not
// prepared (--no-walk) follows them.
type ParsedCommit struct {
	ID        oid.ID
	FromGraph bool
}

// ParseRevisionArgsParsed is ParseRevisionArgsWith that also returns
// the objects the arguments' resolution parsed, by ID.
func (r *Repository) ParseRevisionArgsParsed(rd *odb.Reader, args []string, parents CommandParents) ([]Revision, []ParsedCommit, error) {
	return r.parseRevisionArgs(rd, args, parents, true)
}

// parseRevisionArgs is ParseRevisionArgsParsed, which lists what git
// parsed only where wantParsed is set.
func (r *Repository) parseRevisionArgs(rd *odb.Reader, args []string, parents CommandParents, wantParsed bool) ([]Revision, []ParsedCommit, error) {
	var out []Revision
	negate := false
	// What git has parsed, and made commits of, stays so for the
	// arguments after.
	parsed, commits := map[oid.ID]parsedFrom{}, map[oid.ID]bool{}
	var order []oid.ID
	var parseOrder *[]oid.ID
	var marks *rowMarks
	if wantParsed {
		parseOrder = &order
	} else {
		marks = &rowMarks{}
	}
	for _, arg := range args {
		if arg == "--not" {
			negate = !negate
			continue
		}
		res := &resolver{r: r, rd: rd, src: parents, parsed: parsed, commits: commits, parseOrder: parseOrder, rowMarks: marks}
		revs, handled, err := res.revisionArg(arg, negate)
		if err != nil {
			return nil, nil, res.fatal(err)
		}
		if !handled {
			return nil, nil, res.badRevision(arg)
		}
		res.printRead()
		out = append(out, revs...)
	}
	if !wantParsed {
		return out, nil, nil
	}
	// (In the order git parsed them, not the map's.)
	done := make([]ParsedCommit, 0, len(order))
	for _, id := range order {
		if from := parsed[id]; from != notParsed {
			done = append(done, ParsedCommit{ID: id, FromGraph: from == parsedGraph})
		}
	}
	return out, done, nil
}

// listedRefMark starts a word ListedRef makes (no argument can hold it).
const listedRefMark = "\x01"

// ListedRef is the revision word that stands for the ref name, which
// resolves to id, as git adds the refs that --all, --branches, --tags,
// --remotes and --glob list (handle_refs): get_reference of id under
// the ref's name, which is not resolved again (no DWIM rules, no
// ambiguity warnings). ParseRevisionArgs and the like take it among
// their words.
func ListedRef(name string, id oid.ID) string {
	return listedRefMark + id.String() + " " + name
}

// revisionArg is handle_revision_arg_1 for one argument.
func (res *resolver) revisionArg(arg string, negate bool) ([]Revision, bool, error) {
	if rest, ok := strings.CutPrefix(arg, listedRefMark); ok {
		hexID, name, _ := strings.Cut(rest, " ")
		id, err := oid.ParseHex(res.r.Format, hexID)
		if err != nil {
			return nil, false, nil
		}
		return res.reference(nil, name, id, negate)
	}
	if revs, ok, err := res.dotdot(arg, negate); err != nil || ok {
		return revs, ok, err
	}
	var out []Revision
	if mark := strings.Index(arg, "^@"); mark >= 0 && mark+2 == len(arg) {
		revs, ok, err := res.parentsOnly(arg[:mark], negate, 0)
		if err != nil {
			return nil, false, err
		}
		if ok {
			return revs, true, nil
		}
	}
	if mark := strings.Index(arg, "^!"); mark >= 0 && mark+2 == len(arg) {
		revs, ok, err := res.parentsOnly(arg[:mark], !negate, 0)
		if err != nil {
			return nil, false, err
		}
		if ok {
			out = append(out, revs...)
			arg = arg[:mark]
		}
	}
	if mark := strings.Index(arg, "^-"); mark >= 0 {
		exclude := 1
		if rest := arg[mark+2:]; rest != "" {
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 || strings.TrimLeft(rest, "+-0123456789") != "" {
				return nil, false, nil
			}
			exclude = n
		}
		revs, ok, err := res.parentsOnly(arg[:mark], !negate, exclude)
		if err != nil {
			return nil, false, err
		}
		if ok {
			out = append(out, revs...)
			arg = arg[:mark]
		}
	}
	neg := negate
	name := arg
	if strings.HasPrefix(name, "^") {
		neg = !neg
		name = name[1:]
	}
	id, found, err := res.getOIDWithContext(name, 0)
	if err != nil {
		return nil, false, err
	}
	if !found {
		return nil, false, nil
	}
	return res.reference(out, name, id, neg)
}

// reference is get_reference of the object id, named name, appended to
// out as a revision, negative if neg.
func (res *resolver) reference(out []Revision, name string, id oid.ID, neg bool) ([]Revision, bool, error) {
	if res.r.commitGraphConsidered() {
		// get_reference looks the object up in the commit-graph first,
		// whose first use checks the grafts, which reads them (and
		// prints their hint), whatever the object is.
		if err := res.loadParents(); err != nil {
			return nil, false, err
		}
	}
	// A commit git parsed from its object on the way (a peel such as
	// ^{commit}, a ~0, an earlier argument) is taken as parsed by
	// get_reference: the walk reads it from its object too.
	from := res.parsedAs(id)
	fromObject := from == parsedObject
	// (A commit git has parsed from the graph already is taken as it
	// is: parse_object_with_flags returns a parsed object unread.)
	if from == parsedGraph || !fromObject && res.inGraph(id) {
		// get_reference: lookup_commit_in_graph takes a commit the
		// graph holds, and the repository has, without reading it.
		res.markParsedFrom(id, parsedGraph)
		return append(out, Revision{Name: name, ID: id, Type: object.Commit, Negative: neg}), true, nil
	}
	typ, err := res.referenceType(id, name)
	if err != nil {
		return nil, false, err
	}
	if typ == object.Commit {
		// get_reference parses it, which reads the grafts (and
		// prints their hint before a later argument's death).
		if err := res.loadParents(); err != nil {
			return nil, false, err
		}
	}
	// get_reference parsed it (without checking it against its name):
	// a later parse_object of it takes it as parsed.
	res.markParsed(id)
	return append(out, Revision{Name: name, ID: id, Type: typ, Negative: neg, FromObject: fromObject}), true, nil
}

// referenceType is get_reference's parse_object of id, named name: the
// object's type, or git's death there ("bad object NAME").
func (res *resolver) referenceType(id oid.ID, name string) (object.Type, error) {
	var typ object.Type
	var ok bool
	if res.madeCommit(id) {
		// An object git made a commit of on the way (a ~ or ^'s
		// parent): no type read first (that is for objects it does
		// not know, which may be blobs), the object read whole, its
		// damage git's death there, and not checked against its name
		// (PARSE_OBJECT_SKIP_HASH_CHECK).
		typ, _, ok = res.read(id)
	} else {
		typ, ok = res.objectType(id)
	}
	if !ok {
		res.lookupID = id
		return object.Invalid, fatalError{newError(ErrBadRevision, "bad object %s", name)}
	}
	if typ != object.Commit && res.madeCommit(id) {
		// whose file holds another type: object_as_type refuses it
		res.before = append(res.before, fmt.Sprintf("error: object %s is a commit, not a %s", id, typ))
		return object.Invalid, fatalError{newError(ErrBadRevision, "bad object %s", name)}
	}
	return typ, nil
}

// parentsOnly is add_parents_only: the parents of the commit arg names
// (through tags), with the sign flipped by a leading '^'; exclude > 0
// selects one parent. ok is false when arg does not name a commit (or
// it has fewer parents than exclude).
func (res *resolver) parentsOnly(arg string, negate bool, exclude int) ([]Revision, bool, error) {
	if strings.HasPrefix(arg, "^") {
		negate = !negate
		arg = arg[1:]
	}
	id, found, err := res.getOIDWithContext(arg, lookCommittish)
	if err != nil || !found {
		return nil, false, err
	}
	// git's get_reference looks a commit named directly up in the
	// commit-graph (which it takes without reading its object); one
	// named through a tag is read from its object.
	c, parse := id, res.graphParents
	if res.inGraph(id) {
		res.markParsedFrom(id, parsedGraph)
	} else {
		if _, err := res.referenceType(id, arg); err != nil {
			return nil, false, err
		}
		var typ object.Type
		var ok bool
		c, typ, ok = res.derefTagUnchecked(id)
		if !ok || typ != object.Commit {
			return nil, false, nil
		}
		if c != id {
			parse = res.commitParents
		}
	}
	parents, ok, err := parse(c)
	if err != nil || !ok {
		return nil, false, err
	}
	if exclude > len(parents) {
		return nil, false, nil
	}
	var out []Revision
	for i, p := range parents {
		if exclude > 0 && i+1 != exclude {
			continue
		}
		out = append(out, Revision{Name: arg, ID: p, Type: object.Commit, Negative: negate, Parent: true})
	}
	return out, true, nil
}

// dotdot handles "A..B" and "A...B". ok is false when arg is no range
// or a side does not resolve (the argument is then tried as a name).
func (res *resolver) dotdot(arg string, negate bool) ([]Revision, bool, error) {
	i := strings.Index(arg, "..")
	if i < 0 {
		return nil, false, nil
	}
	aName, bName := arg[:i], arg[i+2:]
	symmetric := strings.HasPrefix(bName, ".")
	if symmetric {
		bName = bName[1:]
	}
	if aName == "" {
		aName = "HEAD"
	}
	if bName == "" {
		bName = "HEAD"
	}
	a, okA, err := res.getOIDWithContext(aName, lookCommittish)
	if err != nil {
		return nil, false, err
	}
	if !okA {
		return nil, false, nil
	}
	b, okB, err := res.getOIDWithContext(bName, lookCommittish)
	if err != nil {
		return nil, false, err
	}
	if !okB {
		return nil, false, nil
	}
	missing := func() error {
		if symmetric {
			return fatalError{newError(ErrBadRevision, "Invalid symmetric difference expression %s", arg)}
		}
		return fatalError{newError(ErrBadRevision, "Invalid revision range %s", arg)}
	}
	// handle_dotdot's parse_object of each end, which reads the object
	// unless git has parsed the commit from the commit-graph already
	// (resolving the other end: the walk then takes it from there too).
	aObject, bObject := res.parsedAs(a) != parsedGraph, res.parsedAs(b) != parsedGraph
	aType, okA := res.parseType(a)
	bType, okB := res.parseType(b)
	if !okA || !okB {
		return nil, false, missing()
	}
	if !symmetric {
		return []Revision{
			{Name: aName, ID: a, Type: aType, Negative: !negate, FromObject: aObject},
			{Name: bName, ID: b, Type: bType, Negative: negate, FromObject: bObject},
		}, true, nil
	}
	ac, okA := res.commitReference(a)
	bc, okB := res.commitReference(b)
	if !okA || !okB {
		return nil, false, missing()
	}
	bases, err := res.mergeBases(ac, bc)
	if err != nil {
		return nil, false, err
	}
	var out []Revision
	for _, m := range bases {
		// A base that is one of the ends was parsed from its object
		// before the bases were looked for.
		out = append(out, Revision{Name: m.String(), ID: m, Type: object.Commit, Negative: !negate, FromObject: m == ac || m == bc})
	}
	return append(out,
		Revision{Name: aName, ID: a, Type: aType, Negative: negate, FromObject: aObject},
		Revision{Name: bName, ID: b, Type: bType, Negative: negate, FromObject: bObject}), true, nil
}
