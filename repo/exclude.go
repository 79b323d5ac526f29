package repo

import (
	"errors"
	"os"
	"syscall"
)

// CheckExcludeFiles does to a work-tree blame what reading the standard
// exclude files does to git's: git's setup_standard_excludes, which each
// comparison of the uncommitted version with a parent runs (do_diff_cache's
// unpack_trees), reads core.excludesFile (default
// $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore) and info/exclude,
// from the top of the work tree (setup_work_tree went there; the
// repository's directory is named from there too). It returns git's
// warning for a file that cannot be accessed for another reason than its
// absence, and git's fatal error for one that is a directory (which git
// opens and then fails to read). The patterns are not needed: blame
// lists no untracked files. A special file is not opened (git would
// block on a FIFO). Safe for concurrent use.
func (r *Repository) CheckExcludeFiles() (warnings []string, err error) {
	type file struct{ path, name string }
	user := r.env.xdgConfigHome("ignore")
	if p, ok, err := r.Config.Path("core.excludesfile", r.env); err == nil && ok {
		user = p
	}
	files := []file{
		{join(r.WorkDir(true), user), user},
		{r.CommonDir + "/info/exclude", r.fromWorkTree(r.commonDirName) + "/info/exclude"},
	}
	for _, f := range files {
		// access_or_warn(R_OK): absence (ENOENT, ENOTDIR, an empty
		// name) is silent.
		if f.name == "" {
			continue
		}
		if err := syscall.Access(f.path, 4); err != nil {
			if !errors.Is(err, syscall.ENOENT) && !errors.Is(err, syscall.ENOTDIR) {
				warnings = append(warnings, "warning: unable to access '"+f.name+"': "+errnoText(err))
			}
			continue
		}
		// add_patterns reads st_size bytes: none from an empty
		// directory entry size, a failed read otherwise.
		if st, err := os.Stat(f.path); err == nil && st.IsDir() && st.Size() != 0 {
			return warnings, errors.New("cannot use " + f.name + " as an exclude file")
		}
	}
	return warnings, nil
}
