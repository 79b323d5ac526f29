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
//
// Remotes defined in the legacy $GIT_DIR/remotes and $GIT_DIR/branches
// files and negative refspecs are not read.
func (res *resolver) upstreamRef(branch string) (string, error) {
	s := res.r.refStore()
	if branch == "" || branch == "HEAD" || branch == "@" {
		h, err := s.resolve("HEAD", true)
		if err != nil {
			return "", fatalError{err}
		}
		name, ok := strings.CutPrefix(h.name, "refs/heads/")
		if !h.symref || !ok {
			return "", fatalError{errors.New("HEAD does not point to a branch")}
		}
		branch = name
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
	for _, spec := range cfg.GetAll("remote." + remote + ".fetch") {
		if dst, ok := fetchTracking(spec, merge); ok {
			return dst, nil
		}
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

// fetchTracking maps the remote ref src through one fetch refspec
// ("[+]src:dst", with at most one "*" on each side), as query_refspecs
// does for remote_find_tracking; ok is false when the refspec does not
// map src (no destination, a negative refspec, no match).
func fetchTracking(spec, src string) (string, bool) {
	spec = strings.TrimPrefix(spec, "+")
	if strings.HasPrefix(spec, "^") {
		return "", false
	}
	from, to, ok := strings.Cut(spec, ":")
	if !ok || to == "" {
		return "", false
	}
	star := strings.IndexByte(from, '*')
	if star < 0 {
		return to, from == src
	}
	prefix, suffix := from[:star], from[star+1:]
	if len(src) < len(prefix)+len(suffix) || !strings.HasPrefix(src, prefix) || !strings.HasSuffix(src, suffix) {
		return "", false
	}
	middle := src[len(prefix) : len(src)-len(suffix)]
	return strings.Replace(to, "*", middle, 1), true
}
