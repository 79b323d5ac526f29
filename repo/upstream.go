package repo

import (
	"errors"
	"fmt"
	"strings"
)

// upstreamMark reports whether spec, the text between "@{" and "}", is
// git's upstream mark: "upstream" or "u", in any case (at_mark compares
// with strncasecmp).
func upstreamMark(spec string) bool {
	return strings.EqualFold(spec, "upstream") || strings.EqualFold(spec, "u")
}

// upstreamRef is the ref "<branch>@{upstream}" names (git's
// branch_get_upstream): the remote-tracking ref that branch.<b>.remote's
// fetch refspecs map branch.<b>.merge to, or, for the remote ".", the
// local ref the merge value names. An empty branch, "HEAD" or "@" is the
// branch HEAD points to. Its failures are git's die() messages.
// The remote's refspecs are git's (see remoteNamed): from the
// configuration or the legacy $GIT_DIR/remotes and $GIT_DIR/branches
// files, negative refspecs included.
func (res *resolver) upstreamRef(branch string) (string, error) {
	s := res.r.refStore()
	if err := res.checkRemotes(); err != nil {
		return "", err
	}
	branch, err := res.branchNamed(branch)
	if err != nil {
		return "", err
	}
	cfg := res.r.Config
	remote, _ := cfg.Get("branch." + branch + ".remote")
	merges := cfg.GetAll("branch." + branch + ".merge")
	if remote == "" || len(merges) == 0 || merges[0] == "" {
		if r, err := s.resolve("refs/heads/"+branch, true); err != nil || !r.found {
			return "", fatalError{fmt.Errorf("no such branch: '%s'", branch)}
		}
		return "", fatalError{fmt.Errorf("no upstream configured for branch '%s'", branch)}
	}
	merge := merges[0]
	rm, err := res.remoteNamed(remote)
	if err != nil {
		return "", err
	}
	if dst, ok := applyRefspecs(rm.fetch, merge); ok {
		return dst, nil
	}
	if remote == "." {
		// A local upstream: the ref the merge value names (dwim_ref when
		// it names exactly one).
		var found []string
		for _, rule := range refRules {
			full := strings.Replace(rule, "%s", merge, 1)
			if r, err := s.resolve(full, true); err == nil && r.found {
				found = append(found, full)
			}
		}
		if len(found) == 1 {
			return found[0], nil
		}
		return merge, nil
	}
	return "", fatalError{fmt.Errorf("upstream branch '%s' not stored as a remote-tracking branch", merge)}
}

// branchNamed is the branch "<branch>@{upstream}" and "<branch>@{push}"
// are about: branch itself, or for "", "HEAD" and "@" the branch HEAD
// points to (git's branch_get(NULL)); a detached HEAD is git's "HEAD
// does not point to a branch".
func (res *resolver) branchNamed(branch string) (string, error) {
	if branch != "" && branch != "HEAD" && branch != "@" {
		return branch, nil
	}
	h, err := res.r.refStore().resolve("HEAD", true)
	if err != nil {
		return "", fatalError{err}
	}
	name, ok := strings.CutPrefix(h.name, "refs/heads/")
	if !h.symref || !ok {
		return "", fatalError{errors.New("HEAD does not point to a branch")}
	}
	return name, nil
}

// pushMark reports whether spec is git's push mark, in any case.
func pushMark(spec string) bool { return strings.EqualFold(spec, "push") }

// pushRef is the ref "<branch>@{push}" names (git's branch_get_push): the
// remote-tracking ref of where "git push" would push the branch, from
// the push remote (branch.<b>.pushRemote, remote.pushDefault,
// branch.<b>.remote, else "origin"), its push refspecs or
// remote.<r>.mirror, and push.default. Its failures are git's die()
// messages.
func (res *resolver) pushRef(branch string) (string, error) {
	if err := res.checkRemotes(); err != nil {
		return "", err
	}
	branch, err := res.branchNamed(branch)
	if err != nil {
		return "", err
	}
	refname := "refs/heads/" + branch // need not exist, as in git
	cfg := res.r.Config
	remote := ""
	for _, key := range []string{"branch." + branch + ".pushremote", "remote.pushdefault", "branch." + branch + ".remote"} {
		if v, ok := cfg.Get(key); ok && v != "" {
			remote = v
			break
		}
	}
	if remote == "" {
		remote = "origin"
	}
	rm, err := res.remoteNamed(remote)
	if err != nil {
		return "", err
	}
	tracking := func(dst string) (string, error) {
		if t, ok := applyRefspecs(rm.fetch, dst); ok {
			return t, nil
		}
		return "", fatalError{fmt.Errorf("push destination '%s' on remote '%s' has no local tracking branch", dst, remote)}
	}
	if len(rm.push) > 0 {
		if dst, ok := applyRefspecs(rm.push, refname); ok {
			return tracking(dst)
		}
		return "", fatalError{fmt.Errorf("push refspecs for '%s' do not include '%s'", remote, branch)}
	}
	if rm.mirror {
		return tracking(refname)
	}
	mode, _ := cfg.Get("push.default")
	switch mode {
	case "nothing":
		return "", fatalError{errors.New("push has no destination (push.default is 'nothing')")}
	case "matching", "current":
		return tracking(refname)
	case "upstream", "tracking":
		return res.upstreamRef(branch)
	}
	up, err := res.upstreamRef(branch)
	if err != nil {
		return "", err
	}
	cur, err := tracking(refname)
	if err != nil {
		return "", err
	}
	if cur != up {
		return "", fatalError{errors.New("cannot resolve 'simple' push to a single destination")}
	}
	return cur, nil
}
