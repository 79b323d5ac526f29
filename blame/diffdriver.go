package blame

import (
	"strings"

	"github.com/goblame/goblame/internal/posixre"
	"github.com/goblame/goblame/repo"
)

// diffDriver is what git's userdiff_find_by_path gives a path: the diff
// driver its diff attribute names, with the keys of it a blame uses.
type diffDriver struct {
	// textconv is diff.<driver>.textconv (the last one); hasTextconv:
	// there is one (git runs an empty one too, and fails to).
	textconv    string
	hasTextconv bool
	// binary is the driver's verdict on the content (the binary field
	// diff_filespec_is_binary asks): 1 for -diff (the binary macro), 0
	// for diff set, diff.<driver>.binary for a named driver (true 1,
	// false 0, auto or unset -1), else -1 (the content decides).
	binary int
	// funcname is the -L :<funcname> pattern, diff.<driver>.xfuncname or
	// .funcname (the last one) or the builtin driver's, with its
	// posixre flags; hasFuncname: there is one.
	funcname    string
	funcFlags   int
	hasFuncname bool
}

// diffDriverOf is path's diff driver, looked up once a path (attributes,
// then one pass over the configuration). The error is what git dies of
// reading attributes (Repository.AttributesErr).
func (b *run) diffDriverOf(path string) (diffDriver, error) {
	if d, ok := b.diffDrivers[path]; ok {
		return d, nil
	}
	// As git reads them: a work-tree blame has read the index (whose
	// .gitattributes copies count), a blame of a commit has not.
	attrs := b.repo.CommitAttributes
	if b.inWorkTree {
		attrs = b.repo.Attributes
	}
	name := attrs(path, "diff")["diff"]
	if err := b.repo.AttributesErr(); err != nil {
		return diffDriver{binary: -1}, err
	}
	d := diffDriver{binary: -1}
	switch name {
	case "unset":
		d.binary = 1
	case "set":
		d.binary = 0
	case "", "unspecified":
	default:
		section := "diff." + name
		for _, e := range b.repo.Config.Entries() {
			key, ok := strings.CutPrefix(e.Key, section) // ".textconv", ...
			if !ok {
				continue
			}
			switch key {
			case ".textconv":
				d.textconv, d.hasTextconv = e.Value, true
			case ".binary":
				if e.HasValue && strings.EqualFold(e.Value, "auto") {
					d.binary = -1
				} else if v, valid := repo.ParseBool(e.Value, e.HasValue); valid {
					d.binary = 0
					if v {
						d.binary = 1
					}
				}
			case ".funcname":
				d.funcname, d.funcFlags, d.hasFuncname = e.Value, 0, true
			case ".xfuncname":
				d.funcname, d.funcFlags, d.hasFuncname = e.Value, posixre.Extended, true
			}
		}
		if !d.hasFuncname {
			for _, bf := range builtinFuncnames {
				if bf.name == name {
					d.funcname, d.funcFlags, d.hasFuncname = bf.pattern, posixre.Extended, true
					if bf.icase {
						d.funcFlags |= posixre.ICase
					}
					break
				}
			}
		}
	}
	if b.diffDrivers == nil {
		b.diffDrivers = map[string]diffDriver{}
	}
	b.diffDrivers[path] = d
	return d, nil
}

// binaryAttr is the driver's binary verdict (diffDriver.binary), for
// blamecore's rename scoring (Options.BinaryAttr).
func (b *run) binaryAttr(path string) (int, error) {
	d, err := b.diffDriverOf(path)
	return d.binary, err
}
