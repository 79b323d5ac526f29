package repo

import "strings"

// PrefixPath is git's prefix_path for a path named on the command line:
// relative to the working directory (the repository's Prefix), or
// absolute and inside the work tree (found textually, else by resolving
// each leading part with git's realpath, as abspath_part_inside_repo
// does). The result is relative to the top of the work tree, without "."
// or ".." components. A path outside is an *Error with git's text
// ("'<arg>' is outside repository at '<top>'"); a leading part that
// cannot be resolved fails with realpath's ("Invalid path ...").
func (r *Repository) PrefixPath(arg string) (string, error) {
	top := r.WorkTree
	if top == "" {
		top = r.env.Cwd
	}
	outside := func() error {
		return newError(ErrBadRevision, "'%s' is outside repository at '%s'", arg, top)
	}
	if !strings.HasPrefix(arg, "/") {
		p, ok := prefixPath(r.Prefix, arg)
		if !ok {
			return "", outside()
		}
		return p, nil
	}
	if r.WorkTree == "" {
		return "", outside()
	}
	clean, _ := prefixPath("", strings.TrimPrefix(arg, "/"))
	path := "/" + strings.TrimSuffix(clean, "/")
	switch {
	case path == top:
		return "", nil
	case strings.HasPrefix(path, top+"/"):
		return path[len(top)+1:], nil
	}
	for i := 1; i < len(path); i++ {
		if path[i] != '/' {
			continue
		}
		rp, err := gitRealPath(path[:i], "/", false)
		if err != nil {
			return "", &Error{Kind: ErrBadRevision, Msg: err.Error(), Err: err}
		}
		if rp == top {
			return path[i+1:], nil
		}
	}
	rp, err := gitRealPath(path, "/", false)
	if err != nil {
		return "", &Error{Kind: ErrBadRevision, Msg: err.Error(), Err: err}
	}
	if rp == top {
		return "", nil
	}
	return "", outside()
}

// Strerror is the C library's wording of a file error's cause ("No such
// file or directory"), as git's die_errno prints it.
func Strerror(err error) string { return errnoText(err) }
