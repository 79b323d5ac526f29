package blame

import (
	"strings"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// decorations returns the objects git's name decorations name, which
// --simplify-by-decoration keeps (log-tree.c's load_ref_decorations, as
// get_name_decoration loads them): every ref under refs/ and HEAD, each
// tag peeled to what it tags, one tag after another; for a replace ref,
// the object it replaces (and nothing where replace refs are not used);
// and the commits info/grafts or the shallow file names.
//
// A ref whose object the repository lacks is listed without a word (git
// lists it, GIT_REF_PARANOIA being on by default, and finds no object;
// its name decorates no commit the walk can reach); a replace ref whose
// name is no object name is passed over with "warning: invalid replace
// ref <ref>".
func (b *run) decorations() (map[oid.ID]bool, error) {
	r := b.repo
	dec := map[oid.ID]bool{}
	useReplace, err := r.UseReplaceRefs()
	if err != nil {
		return nil, err
	}
	replaceBase := r.ReplaceRefBase()
	format := r.Format
	// add decorates id and, while it is a tag, what it tags (git
	// decorates a tag's target before it knows whether it can read it).
	add := func(id oid.ID) {
		for depth := 0; depth < maxTagChain; depth++ {
			dec[id] = true
			if typ, _, err := b.rd.ReadHeader(id); err != nil || typ != object.Tag {
				return
			}
			_, data, err := b.rd.Read(id, nil)
			if err != nil {
				return
			}
			t, err := object.ParseTag(format, data)
			if err != nil {
				return
			}
			id = t.Object
		}
	}
	err = r.ForEachRef("refs/", func(name string, id oid.ID) error {
		if rest, ok := strings.CutPrefix(name, replaceBase); ok {
			if !useReplace {
				return nil
			}
			orig, err := oid.ParseHex(format, rest)
			if err != nil {
				b.warn("warning: invalid replace ref " + name)
				return nil
			}
			dec[orig] = true
			return nil
		}
		add(id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if id, _, err := r.Head(); err == nil && !id.IsZero() && b.rd.Has(id) {
		add(id)
	}
	// (git's grafts: info/grafts, the shallow file's commits and -S's.)
	grafts, err := b.effectiveParents(b.inWorkTree)
	if err != nil {
		return nil, err
	}
	for id := range grafts {
		dec[id] = true
	}
	for id := range b.opts.Grafts {
		dec[id] = true
	}
	return dec, nil
}

// maxTagChain bounds the tags peeled one after another (a tag chain that
// loops in a damaged repository would otherwise never end).
const maxTagChain = 1000
