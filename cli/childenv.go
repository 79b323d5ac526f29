package cli

import (
	"os/exec"
	"strings"
)

// childEnv is the environment git gives the programs it runs besides
// git itself (textconv commands, clean filters, the pager): commandEnv's,
// with git's exec path first on PATH and in GIT_EXEC_PATH, where git's
// setup_path puts it in its own environment when it starts (a textconv
// command that runs a git-core helper, or prints its PATH, sees it).
// Made once, when the first program runs: finding the exec path may run
// git.
func (b *blameRun) childEnv() []string {
	b.childEnvOnce.Do(func() {
		b.childEnvValue = withExecPath(commandEnv(b.env.Env, b.r.Prefix), gitExecPath(b.env), b.env.Dir)
	})
	return b.childEnvValue
}

// gitExecPath is the exec path git would have in env: GIT_EXEC_PATH when
// it is set and not empty, else what git --exec-path prints (the git
// GOBLAME_GIT names, else the first on PATH, or on /usr/bin:/bin, the
// default path, when PATH is unset); "" when there is no git to ask.
func gitExecPath(e Environ) string {
	if v := e.Getenv("GIT_EXEC_PATH"); v != "" {
		return v
	}
	git := e.Getenv("GOBLAME_GIT")
	if git == "" {
		git = "git"
	}
	if !strings.Contains(git, "/") {
		path, ok := e.lookup("PATH")
		if !ok {
			path = defaultPath
		}
		if git = lookPath(git, path); git == "" {
			return ""
		}
	}
	c := exec.Command(git, "--exec-path")
	c.Env = e.Env
	c.Dir = e.Dir
	out, err := c.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(out), "\n")
}

// defaultPath is glibc's _PATH_DEFPATH, what git puts after its exec
// path in PATH when PATH is unset.
const defaultPath = "/usr/bin:/bin"

// withExecPath is env with GIT_EXEC_PATH set to execPath and execPath
// put first on PATH, made absolute from the working directory dir as
// git's strbuf_add_absolute_path does (git's setup_path; defaultPath
// after it when env has no PATH). A nil env (the process's) stays nil;
// an empty execPath (no git found) gives env with only PATH defaulted.
func withExecPath(env []string, execPath, dir string) []string {
	if env == nil {
		return env
	}
	out := make([]string, 0, len(env)+2)
	path, hasPath := "", false
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "PATH="):
			path, hasPath = kv[len("PATH="):], true
		case strings.HasPrefix(kv, "GIT_EXEC_PATH="):
		default:
			out = append(out, kv)
		}
	}
	if !hasPath {
		path = defaultPath
	}
	if execPath == "" {
		// No git to ask: git's PATH without its exec path.
		return append(out, "PATH="+path)
	}
	first := execPath
	if !strings.HasPrefix(first, "/") {
		first = strings.TrimSuffix(dir, "/") + "/" + first
	}
	return append(out, "GIT_EXEC_PATH="+execPath, "PATH="+first+":"+path)
}

// commandEnv is the environment git gives the programs it runs (textconv
// commands, clean filters, git fetch in a partial clone): its own, with
// GIT_PREFIX set to the working directory below the top of the work tree
// (setup_git_directory sets it, "" at the top). A nil env stays nil (the
// process's own, which then has no GIT_PREFIX).
func commandEnv(env []string, prefix string) []string {
	if env == nil {
		return nil
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GIT_PREFIX=") {
			out = append(out, kv)
		}
	}
	return append(out, "GIT_PREFIX="+prefix)
}
