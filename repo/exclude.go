package repo

import (
	"errors"
	"os"
	"syscall"
)

// CheckExcludeFiles does to a blame what reading the standard exclude
// files does to git's: git's setup_standard_excludes, which the
// comparison of a work-tree blame's uncommitted version with its parents
// runs (do_diff_cache's unpack_trees), reads core.excludesFile (default
// $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore) and info/exclude.
// A file that cannot be accessed for another reason than its absence
// gets git's warning; one that is a directory (which git opens and then
// fails to read) is git's fatal error, returned. The patterns are not
// needed: blame lists no untracked files. A special file is not opened
// (git would block on a FIFO).
func (r *Repository) CheckExcludeFiles() error {
	type file struct{ path, name string }
	var files []file
	if p, ok, err := r.Config.Path("core.excludesfile", r.env); err == nil && ok {
		files = append(files, file{join(r.gitCwd, p), p})
	} else if x := r.env.get("XDG_CONFIG_HOME"); x != "" {
		files = append(files, file{join(r.gitCwd, x+"/git/ignore"), x + "/git/ignore"})
	} else if home, ok := r.env.Lookup("HOME"); ok {
		files = append(files, file{join(r.gitCwd, home+"/.config/git/ignore"), home + "/.config/git/ignore"})
	}
	files = append(files, file{r.CommonDir + "/info/exclude", r.commonDirName + "/info/exclude"})
	for _, f := range files {
		// access_or_warn(R_OK): absence (ENOENT, ENOTDIR, an empty
		// name) is silent.
		if f.name == "" {
			continue
		}
		if err := syscall.Access(f.path, 4); err != nil {
			if !errors.Is(err, syscall.ENOENT) && !errors.Is(err, syscall.ENOTDIR) {
				r.warn("warning: unable to access '" + f.name + "': " + errnoText(err))
			}
			continue
		}
		// add_patterns reads st_size bytes: none from an empty
		// directory entry size, a failed read otherwise.
		if st, err := os.Stat(f.path); err == nil && st.IsDir() && st.Size() != 0 {
			return errors.New("cannot use " + f.name + " as an exclude file")
		}
	}
	return nil
}
