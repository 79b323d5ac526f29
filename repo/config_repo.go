package repo

import "strings"

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
		absGitDir:  join(r.gitCwd, r.gitDirName),
		headBranch: r.headBranch,
	}
	if err := l.load(p); err != nil {
		return err
	}
	r.Config = l.cfg
	return nil
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
