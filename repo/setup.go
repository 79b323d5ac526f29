package repo

import (
	"os"
	"path/filepath"
	"strconv"
)

// This file decides the work tree, the prefix and the names git uses
// for the git directory once the git directory is known, following the
// three paths of git's setup: an explicit GIT_DIR, a discovered .git,
// and a discovered bare repository (the cases of git's t1510).

// checkFormat reads and verifies the repository format of gitDir (an
// absolute path; name as git holds it), and returns the core.bare and
// core.worktree settings that apply: those of the common configuration
// only when gitDir has no separate common directory, and those of
// config.worktree when extensions.worktreeConfig is set.
func (d *discoverer) checkFormat(gitDirAbs, gitDirName string) (repoFormat, error) {
	common, has, err := commonDirOf(gitDirAbs, d.env)
	if err != nil {
		return repoFormat{}, err
	}
	commonName := common
	if v, ok := d.env.Lookup("GIT_COMMON_DIR"); ok {
		commonName = v
	} else if !has {
		commonName = gitDirName
	}
	f, err := readRepoFormat(join(d.cwd, common)+"/config", commonName+"/config")
	if err != nil {
		return f, err
	}
	if f.version < 0 {
		return f, nil
	}
	if err := f.verify(); err != nil {
		return f, err
	}
	if f.worktreeConfig {
		wt := repoFormat{isBare: -1}
		if err := wt.readWorktreeConfig(gitDirAbs+"/config.worktree", gitDirName+"/config.worktree"); err != nil {
			return f, err
		}
		if wt.isBare != -1 {
			f.isBare = wt.isBare
		}
		if wt.hasWorkTree {
			f.workTree, f.hasWorkTree = wt.workTree, true
		}
		has = false
	}
	if has {
		f.isBare = -1
		f.workTree, f.hasWorkTree = "", false
	}
	return f, nil
}

// explicit is setup_explicit_git_dir: gitDirName as given by GIT_DIR
// (or as discovery found it), gitDirAbs the same made absolute.
func (d *discoverer) explicit(gitDirName, gitDirAbs string, implicitWorkTree bool) (*Repository, error) {
	if target, err := resolveGitFile(gitDirAbs, gitDirName, d.env); err != nil {
		return nil, err
	} else if target != "" {
		gitDirName, gitDirAbs = target, target
	}
	if !isGitDirectory(gitDirAbs, d.env) {
		return nil, newError(ErrNotRepository, "not a git repository: '%s'", gitDirName)
	}
	f, err := d.checkFormat(gitDirAbs, gitDirName)
	if err != nil {
		return nil, err
	}
	if v, ok := d.env.Lookup("GIT_IMPLICIT_WORK_TREE"); ok && implicitWorkTree {
		b, valid := parseBoolValue(v, true)
		if !valid {
			return nil, newError(ErrBadConfig, "bad boolean config value '%s' for '%s'", v, "GIT_IMPLICIT_WORK_TREE")
		}
		implicitWorkTree = b
	}
	r := d.newRepository(f)
	var workTree string
	if wt, ok := d.env.Lookup("GIT_WORK_TREE"); ok {
		workTree, err = gitRealPath(wt, d.cwd, false)
		if err != nil {
			return nil, &Error{Kind: ErrNotRepository, Msg: err.Error(), Err: err}
		}
	} else if f.isBare > 0 {
		if f.hasWorkTree {
			d.warnings = append(d.warnings, "warning: core.bare and core.worktree do not make sense")
		}
		return d.finish(r, gitDirName, gitDirAbs, "", d.cwd, "")
	} else if f.hasWorkTree {
		if filepath.IsAbs(f.workTree) {
			workTree, err = realPath(f.workTree)
			if err != nil {
				return nil, &Error{Kind: ErrNotRepository, Msg: err.Error(), Err: err}
			}
		} else {
			workTree, err = physicalPath(join(gitDirAbs, f.workTree))
			if err != nil {
				return nil, newError(ErrNotRepository, "cannot chdir to '%s': %s", f.workTree, errnoText(err))
			}
		}
	} else if !implicitWorkTree {
		return d.finish(r, gitDirName, gitDirAbs, "", d.cwd, "")
	} else {
		workTree = d.cwd
	}
	if d.cwd == workTree {
		return d.finish(r, gitDirName, gitDirAbs, workTree, d.cwd, "")
	}
	if off := dirInsideOf(d.cwd, workTree); off >= 0 {
		real, err := realPath(gitDirAbs)
		if err != nil {
			real = gitDirAbs
		}
		return d.finish(r, real, gitDirAbs, workTree, workTree, d.cwd[off:]+"/")
	}
	return d.finish(r, gitDirName, gitDirAbs, workTree, d.cwd, "")
}

// discovered is setup_discovered_git_dir: a .git directory or file was
// found in dir (an ancestor of the working directory or itself).
// gitDirName is ".git" or the real path a .git file named.
func (d *discoverer) discovered(gitDirName, gitDirAbs, dir string) (*Repository, error) {
	f, err := d.checkFormat(gitDirAbs, gitDirName)
	if err != nil {
		return nil, err
	}
	if _, ok := d.env.Lookup("GIT_WORK_TREE"); ok || f.hasWorkTree {
		name := gitDirName
		if dir != d.cwd && !filepath.IsAbs(name) {
			name = gitDirAbs
			if r, err := realPath(gitDirAbs); err == nil {
				name = r
			}
		}
		return d.explicit(name, gitDirAbs, true)
	}
	r := d.newRepository(f)
	if f.isBare > 0 {
		name := gitDirName
		if dir != d.cwd {
			if real, err := realPath(gitDirAbs); err == nil {
				name = real
			}
		}
		return d.finish(r, name, gitDirAbs, "", d.cwd, "")
	}
	prefix := ""
	if dir != d.cwd {
		if dir == "/" {
			prefix = d.cwd[1:] + "/"
		} else {
			prefix = d.cwd[len(dir)+1:] + "/"
		}
	}
	return d.finish(r, gitDirName, gitDirAbs, dir, dir, prefix)
}

// bare is setup_bare_git_dir: dir itself is a git directory.
func (d *discoverer) bare(dir string) (*Repository, error) {
	name := dir
	if dir == d.cwd {
		name = "."
	}
	f, err := d.checkFormat(dir, name)
	if err != nil {
		return nil, err
	}
	if _, ok := d.env.Lookup("GIT_WORK_TREE"); ok || f.hasWorkTree {
		return d.explicit(name, dir, false)
	}
	r := d.newRepository(f)
	return d.finish(r, name, dir, "", d.cwd, "")
}

func (d *discoverer) newRepository(f repoFormat) *Repository {
	r := &Repository{env: d.env, Format: f.hash, partialClone: f.partialClone}
	r.bareCfg = f.isBare
	r.worktreeConfig = f.worktreeConfig
	return r
}

// finish fills in the paths. gitCwd is the directory git works in after
// setting up (the work-tree top when the working directory is inside
// the work tree); relative names are relative to it.
func (d *discoverer) finish(r *Repository, gitDirName, gitDirAbs, workTree, gitCwd, prefix string) (*Repository, error) {
	r.gitDirName = gitDirName
	r.gitCwd = gitCwd
	r.WorkTree = workTree
	r.Prefix = prefix
	r.Bare = r.bareCfg != 0 && workTree == ""
	gd, err := realPath(join(gitCwd, gitDirName))
	if err != nil {
		gd = gitDirAbs
	}
	r.GitDir = gd
	common, has, err := commonDirOf(r.GitDir, d.env)
	if err != nil {
		return nil, err
	}
	r.commonDirName = gitDirName
	if v, ok := d.env.Lookup("GIT_COMMON_DIR"); ok {
		r.commonDirName = v
	} else if has {
		r.commonDirName = common
	}
	cd, err := realPath(join(gitCwd, common))
	if err != nil {
		cd = join(gitCwd, common)
	}
	r.CommonDir = cd
	if v, ok := d.env.Lookup("GIT_OBJECT_DIRECTORY"); ok {
		r.objectDir, r.objectDirName = join(gitCwd, v), v
	} else {
		r.objectDir, r.objectDirName = r.CommonDir+"/objects", r.commonDirName+"/objects"
	}
	return r, nil
}

// dirInsideOf is git's dir_inside_of: the offset in sub of the part
// below dir ("a/b" inside "a" gives the index of "b"), or -1.
func dirInsideOf(sub, dir string) int {
	i := 0
	for i < len(dir) && i < len(sub) && dir[i] == sub[i] {
		i++
	}
	if i < len(dir) && i < len(sub) {
		return -1
	}
	if i == len(sub) {
		if i == len(dir) {
			return i
		}
		return -1
	}
	if dir[i-1] == '/' {
		if sub[i-1] == '/' {
			return i
		}
		return -1
	}
	if sub[i] == '/' {
		return i + 1
	}
	return -1
}

// ownershipOK is ensure_valid_ownership: the .git file (if any), the
// work tree (if any) and the git directory must belong to the effective
// user (for root, a SUDO_UID user), unless a protected safe.directory
// value allows the repository.
func (d *discoverer) ownershipOK(gitFile, workTree, gitDir string) (bool, error) {
	assumeOther, err := d.env.envBool("GIT_TEST_ASSUME_DIFFERENT_OWNER", false)
	if err != nil {
		return false, err
	}
	if !assumeOther &&
		(gitFile == "" || d.ownedByUser(gitFile)) &&
		(workTree == "" || d.ownedByUser(workTree)) &&
		(gitDir == "" || d.ownedByUser(gitDir)) {
		return true, nil
	}
	cfg, err := d.protectedConfig()
	if err != nil {
		return false, err
	}
	path := gitDir
	if workTree != "" {
		path = workTree
	}
	safe := false
	for _, e := range cfg.GetAllEntries("safe.directory") {
		switch {
		case !e.HasValue || e.Value == "":
			safe = false
		case e.Value == "*":
			safe = true
		default:
			p, ok := interpolatePath(e.Value, d.env, false)
			if !ok {
				return false, newError(ErrBadConfig, "failed to expand user dir in: '%s'", e.Value)
			}
			if p == path {
				safe = true
			}
		}
	}
	return safe, nil
}

func (d *discoverer) ownedByUser(path string) bool {
	uid, ok := ownerUID(path)
	if !ok {
		return false
	}
	euid := uint32(os.Geteuid())
	if euid == 0 {
		if uid == 0 {
			return true
		}
		if v := d.env.get("SUDO_UID"); v != "" {
			if n, err := strconv.ParseUint(v, 10, 64); err == nil {
				euid = uint32(n)
			}
		}
	}
	return uid == euid
}

// bareOnlyExplicit reports safe.bareRepository=explicit in the protected
// configuration.
func (d *discoverer) bareOnlyExplicit() (bool, error) {
	cfg, err := d.protectedConfig()
	if err != nil {
		return false, err
	}
	explicit := false
	for _, e := range cfg.GetAllEntries("safe.barerepository") {
		switch e.Value {
		case "explicit":
			explicit = true
		case "all":
			explicit = false
		default:
			return false, &Error{Kind: ErrBadConfig, Msg: BadConfigEntry(e)}
		}
	}
	return explicit, nil
}

// protectedConfig reads the system, global and command-line
// configuration (never the repository's own), the only place git takes
// safe.* settings from.
func (d *discoverer) protectedConfig() (*Config, error) {
	if d.protectedSet {
		return d.protected, d.protectedErr
	}
	d.protectedSet = true
	system, xdg, global, err := globalConfigPaths(d.env)
	if err != nil {
		d.protectedErr = err
		return nil, err
	}
	l := &configLoader{env: d.env}
	d.protectedErr = l.load(configPaths{system: system, xdg: xdg, global: global, noRepo: true, noWorktree: true})
	d.protected = l.cfg
	return d.protected, d.protectedErr
}

// fromWorkTree is the name git holds for a repository path (name, as
// git named it from its directory after setup) once setup_work_tree has
// moved it to the top of the work tree: chdir_notify's
// reparent_relative_path, the old directory and name joined as they are
// and the top's path taken off the front where it textually is
// (remove_leading_path); an absolute name stays.
func (r *Repository) fromWorkTree(name string) string {
	if filepath.IsAbs(name) || r.WorkTree == "" || r.gitCwd == r.WorkTree {
		return name
	}
	return removeLeadingPath(r.gitCwd+"/"+name, r.WorkTree)
}

// removeLeadingPath is git's remove_leading_path: in without prefix and
// the separators after it ("." when nothing is left), runs of "/"
// matching one; in itself when prefix does not lead it.
func removeLeadingPath(in, prefix string) string {
	if prefix == "" {
		return in
	}
	i, j := 0, 0
	for i < len(prefix) {
		if prefix[i] == '/' {
			if j >= len(in) || in[j] != '/' {
				return in
			}
			for i < len(prefix) && prefix[i] == '/' {
				i++
			}
			for j < len(in) && in[j] == '/' {
				j++
			}
			continue
		}
		if j >= len(in) || in[j] != prefix[i] {
			return in
		}
		i++
		j++
	}
	if j < len(in) && prefix[i-1] != '/' && in[j] != '/' {
		return in // "/foo" does not lead "/foobar"
	}
	for j < len(in) && in[j] == '/' {
		j++
	}
	if j == len(in) {
		return "."
	}
	return in[j:]
}
