package repo

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/goblame/goblame/internal/fsread"
)

// remote is what <branch>@{upstream} and @{push} need of a remote (git's
// struct remote): its fetch and push refspecs and whether it mirrors.
type remote struct {
	name        string
	fetch, push []refspec
	mirror      bool
}

// remoteNamed is git's remotes_remote_get for a name given: the remote
// the configuration defines (remote.<name>.url, .fetch, .push, .mirror);
// when it gives no URL (nor remote.<name>.vcs), the legacy
// $GIT_DIR/remotes/<name> file ("URL:", "Pull:" and "Push:" lines) and
// then $GIT_DIR/branches/<name> ("url#branch": branch fetched into
// refs/heads/<name>, HEAD pushed to it) add theirs. Every remote's
// refspecs in the configuration are parsed first, as git's read_config
// does, and the first invalid one fails as git dies.
//
// With name "", it only checks the configuration's refspecs (see
// checkRemotes) and returns nil.
func (res *resolver) remoteNamed(name string) (*remote, error) {
	cfg := res.r.Config
	hexSize := res.r.Format.HexSize()
	rm := &remote{name: name}
	valid := false
	for _, e := range cfg.Entries() {
		rest, ok := strings.CutPrefix(e.Key, "remote.")
		if !ok {
			continue
		}
		dot := strings.LastIndexByte(rest, '.')
		if dot < 0 {
			continue
		}
		sub, key := rest[:dot], rest[dot+1:]
		if strings.HasPrefix(sub, "/") {
			continue // git warns and ignores a shorthand starting with '/'
		}
		switch key {
		case "fetch", "push":
			spec, ok := parseRefspec(e.Value, key == "fetch", hexSize)
			if !ok {
				return nil, fatalError{fmt.Errorf("invalid refspec '%s'", e.Value)}
			}
			if sub == name && key == "fetch" {
				rm.fetch = append(rm.fetch, spec)
			} else if sub == name {
				rm.push = append(rm.push, spec)
			}
		case "url", "vcs":
			if sub == name && e.HasValue {
				valid = true
			}
		}
	}
	if name == "" {
		return nil, nil
	}
	if on, ok, _ := cfg.Bool("remote." + name + ".mirror"); ok {
		rm.mirror = on
	}
	if valid || !validRemoteNick(name) {
		return rm, nil
	}
	valid, err := res.readRemotesFile(rm, hexSize)
	if err != nil || valid {
		return rm, err
	}
	return rm, res.readBranchesFile(rm, hexSize)
}

// checkRemotes parses every remote's refspecs in the configuration, as
// git's read_config does before it answers anything about branches and
// remotes: the first invalid one fails as git dies.
func (res *resolver) checkRemotes() error {
	_, err := res.remoteNamed("")
	return err
}

// validRemoteNick is git's valid_remote_nick: a name that can be a file
// under $GIT_DIR/remotes.
func validRemoteNick(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsRune(name, '/')
}

// legacyFile reads $GIT_DIR/<dir>/<name> (the common directory's), false
// when it cannot be read (git's fopen_or_warn, quiet for a missing file).
func (res *resolver) legacyFile(dir, name string) ([]byte, bool) {
	data, err := fsread.ReadFile(res.r.CommonDir+"/"+dir+"/"+name, 0)
	if err != nil {
		return nil, false
	}
	return data, true
}

// readRemotesFile is git's read_remotes_file; it reports whether the file
// gave a URL.
func (res *resolver) readRemotesFile(rm *remote, hexSize int) (bool, error) {
	data, ok := res.legacyFile("remotes", rm.name)
	if !ok {
		return false, nil
	}
	hasURL := false
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		text := strings.TrimRight(string(line), " \t\n\r\v\f")
		add := func(list *[]refspec, v string, fetch bool) error {
			spec, ok := parseRefspec(v, fetch, hexSize)
			if !ok {
				return fatalError{fmt.Errorf("invalid refspec '%s'", v)}
			}
			*list = append(*list, spec)
			return nil
		}
		switch {
		case strings.HasPrefix(text, "URL:"):
			hasURL = true
		case strings.HasPrefix(text, "Push:"):
			if err := add(&rm.push, strings.TrimLeft(text[len("Push:"):], " \t\n\r\v\f"), false); err != nil {
				return false, err
			}
		case strings.HasPrefix(text, "Pull:"):
			if err := add(&rm.fetch, strings.TrimLeft(text[len("Pull:"):], " \t\n\r\v\f"), true); err != nil {
				return false, err
			}
		}
	}
	return hasURL, nil
}

// readBranchesFile is git's read_branches_file: the first line,
// "url[#branch]", fetches branch (git's default branch name when
// missing) into refs/heads/<remote> and pushes HEAD to it.
func (res *resolver) readBranchesFile(rm *remote, hexSize int) error {
	data, ok := res.legacyFile("branches", rm.name)
	if !ok {
		return nil
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	text := strings.TrimSpace(string(line))
	if text == "" {
		return nil
	}
	_, branch, hasFrag := strings.Cut(text, "#")
	if !hasFrag {
		var err error
		if branch, err = res.defaultBranchName(); err != nil {
			return err
		}
	}
	for _, s := range []struct {
		list  *[]refspec
		text  string
		fetch bool
	}{
		{&rm.fetch, "refs/heads/" + branch + ":refs/heads/" + rm.name, true},
		{&rm.push, "HEAD:refs/heads/" + branch, false},
	} {
		spec, ok := parseRefspec(s.text, s.fetch, hexSize)
		if !ok {
			return fatalError{fmt.Errorf("invalid refspec '%s'", s.text)}
		}
		*s.list = append(*s.list, spec)
	}
	return nil
}

// defaultBranchNameAdvice is what git advises when it falls back to
// "master" (default_branch_name_advice).
var defaultBranchNameAdvice = []string{
	"Using 'master' as the name for the initial branch. This default branch name",
	"is subject to change. To configure the initial branch name to use in all",
	"of your new repositories, which will suppress this warning, call:",
	"",
	"\tgit config --global init.defaultBranch <name>",
	"",
	"Names commonly chosen instead of 'master' are 'main', 'trunk' and",
	"'development'. The just-created branch can be renamed via this command:",
	"",
	"\tgit branch -m <name>",
}

// defaultBranchName is git's repo_default_branch_name(0):
// GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME, init.defaultBranch, else "master"
// with git's advice (once per repository, as git gives it once a
// process); a name that makes no branch fails as git dies.
func (res *resolver) defaultBranchName() (string, error) {
	name, _ := res.r.env.Lookup("GIT_TEST_DEFAULT_INITIAL_BRANCH_NAME")
	if name == "" {
		v, ok := res.r.Config.Get("init.defaultbranch")
		switch {
		case ok && res.r.Config.IsValueless("init.defaultbranch"):
			return "", fatalError{errors.New("could not retrieve `init.defaultBranch`")}
		case ok:
			name = v
		default:
			name = "master"
			if res.r.advisedDefaultBranch.CompareAndSwap(false, true) {
				for _, l := range defaultBranchNameAdvice {
					res.r.warn("hint: " + l)
				}
			}
		}
	}
	if !checkRefnameFormat("refs/heads/"+name, false) {
		return "", fatalError{fmt.Errorf("invalid branch name: init.defaultBranch = %s", name)}
	}
	return name, nil
}
