package blame

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goblame/goblame/internal/startcmd"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// alternateRefs lists what --alternate-refs adds, as git's
// for_each_alternate_ref reads it: for each alternate object directory
// that is the objects/ of a repository (its parent has refs/), the object
// names a command run for that repository prints, one a line:
// core.alternateRefsCommand with the repository's path as its argument
// (run as git runs a configured command), else
//
//	git --git-dir=<path> for-each-ref --format=%(objectname) [-- <core.alternateRefsPrefixes' words>]
//
// each where git runs its commands, without the environment variables
// that name this repository (git's local_repo_env), its standard error
// the blame's. A line that is no object name ends that repository's list
// with git's warning; a command that fails or cannot start gives what it
// printed.
func (b *run) alternateRefs() ([]oid.ID, error) {
	if !b.repo.Objects.HasAlternates() {
		return nil, nil
	}
	var line string
	var prefixes []string
	shell := false
	if e, ok := b.repo.Config.Entry("core.alternaterefscommand"); ok {
		if !e.HasValue {
			return nil, repo.MissingValueError(e)
		}
		line, shell = e.Value, true
	} else if e, ok := b.repo.Config.Entry("core.alternaterefsprefixes"); ok {
		if !e.HasValue {
			return nil, repo.MissingValueError(e)
		}
		prefixes = strings.Fields(e.Value)
	}
	env := withoutLocalRepoEnv(b.commandEnv())
	var out []oid.ID
	for _, dir := range b.repo.Objects.AlternateDirs() {
		path, ok := strings.CutSuffix(filepath.Clean(dir), "/objects")
		if !ok {
			continue
		}
		if fi, err := os.Stat(path + "/refs"); err != nil || !fi.IsDir() {
			continue
		}
		name, args := "git", []string{"--git-dir=" + path, "for-each-ref", "--format=%(objectname)"}
		if len(prefixes) > 0 {
			args = append(append(args, "--"), prefixes...)
		}
		if shell {
			name, args = line, []string{path}
		}
		c, stderrOut, err := b.commandWith(env, name, name, args...)
		if err != nil {
			continue
		}
		var stdout bytes.Buffer
		c.Stdout = &stdout
		err = startcmd.Run(c)
		stderrOut()
		b.runStatus(err, name)
		text := stdout.String()
		for text != "" {
			l, rest, _ := strings.Cut(text, "\n")
			text = rest
			id, perr := oid.ParseHex(b.repo.Format, l)
			if perr != nil {
				b.warn("warning: invalid line while parsing alternate refs: " + l)
				break
			}
			out = append(out, id)
		}
	}
	return out, nil
}

// localRepoEnv are the variables git takes out of the environment of a
// command it runs for another repository (environment.c's
// local_repo_env).
var localRepoEnv = []string{
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
	"GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
	"GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
}

// withoutLocalRepoEnv returns env (nil: this process's) without
// localRepoEnv.
func withoutLocalRepoEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(localRepoEnv, k) {
			out = append(out, kv)
		}
	}
	return out
}
