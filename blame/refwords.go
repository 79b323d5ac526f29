package blame

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// IsRefListing reports whether word is one of the ref-listing pseudo
// revisions that Options.Revisions takes besides revisions and "--not":
// --all, --branches[=pat], --tags[=pat], --remotes[=pat], --glob[=]pat,
// --exclude[=]pat (a separate pattern word follows "--glob" and
// "--exclude"), --exclude-hidden=receive|uploadpack, --bisect, --reflog,
// --indexed-objects and --alternate-refs. Revisions expands them as git's
// setup_revisions does.
func IsRefListing(word string) bool {
	switch word {
	case "--all", "--branches", "--tags", "--remotes", "--glob", "--exclude", "--bisect", "--reflog", "--indexed-objects", "--alternate-refs":
		return true
	}
	for _, p := range []string{"--branches=", "--tags=", "--remotes=", "--glob=", "--exclude=", "--exclude-hidden="} {
		if strings.HasPrefix(word, p) {
			return true
		}
	}
	return false
}

// expandRefWords replaces the ref-listing pseudo revisions of
// setup_revisions — --all, --branches[=pat], --tags[=pat],
// --remotes[=pat], --glob=pat, with --exclude=pat before them — by the
// names of the refs they list, in git's order (refs by name; --all adds
// HEAD, then the other worktrees' HEADs, last). Other words pass through.
//
// display maps the full names listed by --branches, --tags and --remotes
// to the short names git shows for them (it strips the category's
// prefix; --all and --glob show full names), and the IDs --reflog lists
// to "" (a word naming the same ID in full is shown as "" too).
//
// --exclude-hidden=<section> leaves out of the next --all or --glob the
// refs that <section>.hideRefs and transfer.hideRefs hide; git refuses it
// before --branches, --tags and --remotes with an "error:" line, and
// leaves that word out.
//
// listed holds the objects git adds by their type without reading them
// (--indexed-objects: an index's blobs, its cache tree's trees), each
// under the word that stands for it in out (a NUL and the object or ref
// name, which no argument can be): one the repository lacks is no "bad
// object" to git. A listed ref git cannot resolve is there too, with the
// null ID.
func (b *run) expandRefWords(words []string) (out []string, display map[string]string, listed map[string]repo.Revision, err error) {
	var exclude []string
	// hidden: the hideRefs patterns of --exclude-hidden (hiding set once
	// it is given, until the next listing).
	var hidden []string
	hiding := false
	display = map[string]string{}
	// listObject puts an object in out by its type (see listed).
	listObject := func(key string, rv repo.Revision) {
		word := "\x00" + key
		if listed == nil {
			listed = map[string]repo.Revision{}
		}
		listed[word] = rv
		out = append(out, word)
	}
	strip := false
	// excluded is git's ref_excluded: --exclude matches the name git
	// shows for the ref, --exclude-hidden its full name.
	excluded := func(name, shown string) bool {
		if refHidden(hidden, name) {
			return true
		}
		for _, x := range exclude {
			if refGlobMatch(x, shown) {
				return true
			}
		}
		return false
	}
	list := func(prefix, pattern string, head bool) error {
		refs, err := b.listRefs(prefix)
		if err != nil {
			return err
		}
		for _, ref := range refs {
			name, id, broken := ref.name, ref.id, ref.broken
			if pattern != "" && !refGlobMatch(pattern, name) {
				continue
			}
			shown := name
			if strip {
				shown = strings.TrimPrefix(name, prefix)
			}
			if excluded(name, shown) {
				continue
			}
			if broken {
				// A ref git lists but cannot resolve: the null ID,
				// git's "bad object <name>" where it comes.
				listObject(name, repo.Revision{Name: shown})
				continue
			}
			// Added by its ID, as git adds it (handle_refs), not
			// resolved by name again: 20 us a ref on vim's 19,880
			// tags, git's 3.
			out = append(out, repo.ListedRef(name, id))
			if strip {
				display[name] = strings.TrimPrefix(name, prefix)
			}
		}
		if head && !excluded("HEAD", "HEAD") {
			if id, _, err := b.repo.Head(); err == nil && !id.IsZero() {
				out = append(out, "HEAD")
			}
		}
		if head {
			// And the other worktrees' HEADs, as the current one
			// names them (git's other_head_refs).
			for _, w := range b.repo.OtherWorktrees() {
				name := w.RefName("HEAD")
				if excluded(name, name) {
					continue
				}
				if id, err := b.repo.ResolveRef(name); err == nil && !id.IsZero() {
					out = append(out, name)
				}
			}
		}
		// An exclusion applies to the next listing only.
		exclude, hidden, hiding = nil, nil, false
		return nil
	}
	// category is the listing a word names where --exclude-hidden
	// refuses it ("" for others).
	category := func(w string) string {
		for _, c := range []string{"--branches", "--tags", "--remotes"} {
			if w == c || strings.HasPrefix(w, c+"=") {
				return c
			}
		}
		return ""
	}
	// pattern completes a --branches=/--glob= pattern as git does: a
	// "refs/..." prefix, and "/*" when it has no glob character.
	pattern := func(prefix, p string) string {
		if !strings.HasPrefix(p, "refs/") {
			p = prefix + p
		}
		if !strings.ContainsAny(p, "*?[") {
			p = strings.TrimSuffix(p, "/") + "/*"
		}
		return p
	}
	for i := 0; i < len(words); i++ {
		w := words[i]
		strip = strings.HasPrefix(w, "--branches") || strings.HasPrefix(w, "--tags") || strings.HasPrefix(w, "--remotes")
		if c := category(w); c != "" && hiding {
			b.warn("error: --exclude-hidden cannot be used together with " + c)
			continue
		}
		switch {
		case w == "--all":
			err = list("refs/", "", true)
		case w == "--branches", w == "--tags", w == "--remotes":
			err = list("refs/"+map[string]string{"--branches": "heads", "--tags": "tags", "--remotes": "remotes"}[w]+"/", "", false)
		case strings.HasPrefix(w, "--branches="):
			err = list("refs/heads/", pattern("refs/heads/", w[len("--branches="):]), false)
		case strings.HasPrefix(w, "--tags="):
			err = list("refs/tags/", pattern("refs/tags/", w[len("--tags="):]), false)
		case strings.HasPrefix(w, "--remotes="):
			err = list("refs/remotes/", pattern("refs/remotes/", w[len("--remotes="):]), false)
		case strings.HasPrefix(w, "--glob="):
			err = list("refs/", pattern("refs/", w[len("--glob="):]), false)
		case w == "--glob" && i+1 < len(words):
			i++
			err = list("refs/", pattern("refs/", words[i]), false)
		case strings.HasPrefix(w, "--exclude="):
			exclude = append(exclude, w[len("--exclude="):])
		case w == "--exclude" && i+1 < len(words):
			i++
			exclude = append(exclude, words[i])
		case w == "--bisect":
			// The refs of the bisection's bad term, then those of its
			// good term as exclusions: git's handle_refs, each ref whose
			// name starts with refs/bisect/<term>, leaving out the ones
			// --exclude and --exclude-hidden name (and keeping them for
			// the next listing).
			bad, good, terr := b.repo.BisectTerms()
			if terr != nil {
				return nil, nil, nil, terr
			}
			var refs []string
			brokenRefs := map[string]bool{}
			err = b.repo.ForEachRefListed("refs/bisect/", func(name string, _ oid.ID, broken bool) error {
				if !excluded(name, name) {
					refs = append(refs, name)
					brokenRefs[name] = broken
				}
				return nil
			})
			for _, t := range []struct{ term, sign string }{{bad, ""}, {good, "^"}} {
				for _, name := range refs {
					if !strings.HasPrefix(name, "refs/bisect/"+t.term) {
						continue
					}
					if brokenRefs[name] {
						listObject(name, repo.Revision{Name: name}) // (as above)
						continue
					}
					out = append(out, t.sign+name)
				}
			}
		case w == "--reflog":
			// Every object the reflogs name, each a revision git names
			// "" (so the usual answer is "More than one commit to dig
			// from  and ?"); one the repository lacks is passed over,
			// with git's warning, once a reflog.
			// (A reflog names most commits many times: each is
			// looked up once.)
			has := map[oid.ID]bool{}
			for _, l := range b.repo.ReflogObjects() {
				if l.Error != "" {
					b.warn(l.Error)
					continue
				}
				warned := false
				for _, id := range l.IDs {
					ok, seen := has[id]
					if !seen {
						_, _, herr := b.rd.ReadHeader(id)
						ok = herr == nil
						has[id] = ok
					}
					if !ok {
						if !warned {
							b.warn("warning: reflog of '" + l.Name + "' references pruned commits")
							warned = true
						}
						continue
					}
					out = append(out, id.String())
					display[id.String()] = ""
				}
			}
		case w == "--indexed-objects":
			// The index's blobs (and its cache tree's trees), each named
			// "": blame dies at the first one ("Non commit ?") where it
			// counts; the others never matter, so only the first entry
			// that is not a submodule is listed, or, with none, the
			// cache tree's first tree (an index emptied by git read-tree
			// --empty keeps the empty tree there), or with neither the
			// first of another worktree's index. Every other
			// worktree's index is read whole all the same (and can
			// end the blame as git's read does).
			indexes := []func() (*repo.Index, error){b.repo.ReadIndex}
			for _, w := range b.repo.OtherWorktrees() {
				indexes = append(indexes, func() (*repo.Index, error) { return b.repo.ReadWorktreeIndex(w) })
			}
			var first oid.ID
			firstType := object.Blob
			for _, read := range indexes {
				ix, ierr := read()
				if ierr != nil {
					if errors.Is(ierr, fs.ErrNotExist) {
						continue
					}
					return nil, nil, nil, ierr
				}
				if !first.IsZero() {
					continue
				}
				first, firstType = ix.CacheTreeFirst, object.Tree
				for _, e := range ix.EntryList {
					if e.Mode != object.ModeGitlink {
						first, firstType = e.ID, object.Blob
						break
					}
				}
			}
			if !first.IsZero() {
				listObject(first.String(), repo.Revision{ID: first, Type: firstType})
			}
		case w == "--alternate-refs":
			// The refs of the repositories of the alternate object
			// directories, each named ".alternate".
			ids, aerr := b.alternateRefs()
			if aerr != nil {
				return nil, nil, nil, aerr
			}
			for _, id := range ids {
				out = append(out, id.String())
				display[id.String()] = ".alternate"
			}
		case strings.HasPrefix(w, "--exclude-hidden="):
			section := w[len("--exclude-hidden="):]
			if section != "receive" && section != "uploadpack" {
				return nil, nil, nil, fatalf("unsupported section for hidden refs: %s", section)
			}
			if hiding {
				return nil, nil, nil, fatalf("--exclude-hidden= passed more than once")
			}
			hiding = true
			for _, e := range b.repo.Config.Entries() {
				if e.Key == "transfer.hiderefs" || e.Key == section+".hiderefs" {
					if !e.HasValue {
						return nil, nil, nil, repo.MissingValueError(e)
					}
					hidden = append(hidden, strings.TrimRight(e.Value, "/"))
				}
			}
		default:
			out = append(out, w)
		}
		if err != nil {
			return nil, nil, nil, err
		}
	}
	return out, display, listed, nil
}

// refHidden is git's ref_is_hidden for a repository without a namespace:
// the last of the hideRefs patterns that is name or a leading part of it
// ending at a '/' decides, hidden unless it starts with '!' ("^", which
// names the ref with its namespace, changes nothing here).
func refHidden(patterns []string, name string) bool {
	for i := len(patterns) - 1; i >= 0; i-- {
		p := patterns[i]
		neg := strings.HasPrefix(p, "!")
		if neg {
			p = p[1:]
		}
		p = strings.TrimPrefix(p, "^")
		if rest, ok := strings.CutPrefix(name, p); ok && (rest == "" || rest[0] == '/') {
			return !neg
		}
	}
	return false
}

// refGlobMatch is wildmatch without WM_PATHNAME, as ref patterns are
// matched: '*' matches any run of bytes, '/' included; '?' one byte;
// "[...]" a set ("[!...]" or "[^...]" its complement, "a-z" ranges); '\'
// quotes the next byte.
func refGlobMatch(pattern, name string) bool {
	for len(pattern) > 0 {
		switch c := pattern[0]; c {
		case '*':
			for len(pattern) > 0 && pattern[0] == '*' {
				pattern = pattern[1:]
			}
			if pattern == "" {
				return true
			}
			for i := 0; i <= len(name); i++ {
				if refGlobMatch(pattern, name[i:]) {
					return true
				}
			}
			return false
		case '?':
			if name == "" {
				return false
			}
			pattern, name = pattern[1:], name[1:]
		case '[':
			if name == "" {
				return false
			}
			end := strings.IndexByte(pattern[1:], ']')
			if end < 0 {
				if name[0] != '[' {
					return false
				}
				pattern, name = pattern[1:], name[1:]
				continue
			}
			set := pattern[1 : 1+end]
			negate := len(set) > 0 && (set[0] == '!' || set[0] == '^')
			if negate {
				set = set[1:]
			}
			in := false
			for j := 0; j < len(set); j++ {
				if j+2 < len(set) && set[j+1] == '-' {
					in = in || set[j] <= name[0] && name[0] <= set[j+2]
					j += 2
				} else {
					in = in || set[j] == name[0]
				}
			}
			if in == negate {
				return false
			}
			pattern, name = pattern[2+end:], name[1:]
		case '\\':
			if len(pattern) > 1 {
				pattern = pattern[1:]
			}
			fallthrough
		default:
			if name == "" || name[0] != pattern[0] {
				return false
			}
			pattern, name = pattern[1:], name[1:]
		}
	}
	return name == ""
}

// listedRef is a ref as Repository.ForEachRefListed lists it.
type listedRef struct {
	name   string
	id     oid.ID
	broken bool
}

// listRefs lists the refs under prefix once a run, as git reads its
// refs once and lists them again from its cache (vim's --all --not
// --all: 19,880 refs listed twice).
func (b *run) listRefs(prefix string) ([]listedRef, error) {
	if refs, ok := b.listedRefs[prefix]; ok {
		return refs, nil
	}
	var refs []listedRef
	err := b.repo.ForEachRefListed(prefix, func(name string, id oid.ID, broken bool) error {
		refs = append(refs, listedRef{name, id, broken})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if b.listedRefs == nil {
		b.listedRefs = map[string][]listedRef{}
	}
	b.listedRefs[prefix] = refs
	return refs, nil
}
