package repo

import (
	"os"
	"path/filepath"
	"strings"
)

// loadConfig reads the repository's configuration sequence.
func (r *Repository) loadConfig() error {
	system, xdg, global, err := globalConfigPaths(r.env)
	if err != nil {
		return err
	}
	p := configPaths{
		system:    system,
		xdg:       xdg,
		global:    global,
		local:     join(r.gitCwd, r.commonDirName) + "/config",
		localName: r.commonDirName + "/config",
	}
	if r.worktreeConfig {
		p.worktree = join(r.gitCwd, r.gitDirName) + "/config.worktree"
		p.worktreeName = r.gitDirName + "/config.worktree"
	}
	l := &configLoader{
		env:        r.env,
		gitDir:     r.gitDirName,
		absGitDir:  r.absoluteGitDir(),
		headBranch: r.headBranch,
	}
	if err := l.load(p); err != nil {
		return err
	}
	r.Config = l.cfg
	r.Warnings = append(r.Warnings, sectionlessKeyErrors(l.cfg)...)
	return nil
}

// absoluteGitDir is git's strbuf_add_absolute_path of the git directory,
// which includeIf "gitdir:" tries after its real path: a relative name
// goes after $PWD where that names the working directory (a path that
// keeps the symbolic links the user came through), else after the
// working directory.
func (r *Repository) absoluteGitDir() string {
	if r.gitDirName == "" || filepath.IsAbs(r.gitDirName) {
		return join(r.gitCwd, r.gitDirName)
	}
	if pwd, ok := r.env.Lookup("PWD"); ok && pwd != r.gitCwd && filepath.IsAbs(pwd) {
		a, errA := os.Stat(pwd)
		b, errB := os.Stat(r.gitCwd)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return pwd + "/" + r.gitDirName
		}
	}
	return join(r.gitCwd, r.gitDirName)
}

// sectionlessKeyErrors are the lines git prints loading a configuration
// whose files set a variable before any section ("one" on a line of its
// own at the top): its configset looks each key up as it adds it, and
// git_config_parse_key says "error: key does not contain a section: one",
// once an entry, without stopping.
func sectionlessKeyErrors(c *Config) []string {
	var lines []string
	for _, e := range c.Entries() {
		if e.Scope != ScopeCommand && !strings.Contains(e.Key, ".") {
			lines = append(lines, "error: key does not contain a section: "+e.Key)
		}
	}
	return lines
}

// headBranch returns the branch HEAD names ("main"), following symbolic
// refs, for includeIf "onbranch:". ok is false for a detached HEAD.
func (r *Repository) headBranch() (string, bool) {
	name := "HEAD"
	for depth := 0; depth < maxSymrefDepth; depth++ {
		target, isSym, err := r.readSymref(name)
		if err != nil || !isSym {
			break
		}
		name = target
	}
	return strings.CutPrefix(name, "refs/heads/")
}

// OutsideConfig is the configuration git reads where it finds no
// repository: the system, global and command-line files (what `git
// blame -h` checks before it prints its usage there), without the
// command line's unless cmdline (git's very first reading, before it
// looks for a repository, has the files only). The Repository has no git
// directory; only its Config, Env, Warnings (git's lines for keys
// without a section) and CheckDefaultConfig are for use. A file that is a
// directory is the error a command dies of, git's warning of each of its
// three readings in its Before lines.
func OutsideConfig(env Env, cmdline bool) (*Repository, error) {
	system, xdg, global, err := globalConfigPaths(env)
	if err != nil {
		return nil, err
	}
	l := &configLoader{env: env}
	if err := l.load(configPaths{system: system, xdg: xdg, global: global, noRepo: true, noWorktree: true, noCmdline: !cmdline}); err != nil {
		return nil, err
	}
	return &Repository{Config: l.cfg, env: env, Warnings: sectionlessKeyErrors(l.cfg)}, nil
}
