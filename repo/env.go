package repo

import (
	"os"
	"strings"

	"github.com/goblame/goblame/internal/posixre"
)

// Env is everything discovery takes from its process: the working
// directory and the environment. The package never reads process-wide
// state (os.Getwd, os.Getenv) directly, so tests run many discoveries in
// parallel, each with its own environment.
type Env struct {
	// Cwd is the working directory git would start from. It need not be
	// canonical: like git's getcwd, Discover resolves symbolic links.
	Cwd string
	// Getenv returns the value of an environment variable, "" when unset.
	Getenv func(string) string
	// LookupEnv, when set, also tells unset from set-but-empty, which git
	// distinguishes for a few variables (GIT_DIR="" names no repository:
	// git looks for "/HEAD"; GIT_CONFIG_KEY_<n> set to "" is an empty
	// key, unset is "missing"). When nil, an empty value from Getenv
	// counts as unset.
	LookupEnv func(string) (string, bool)
}

// OSEnv describes the running process.
func OSEnv() (Env, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return Env{}, err
	}
	return Env{Cwd: cwd, Getenv: os.Getenv, LookupEnv: os.LookupEnv}, nil
}

// Lookup returns the variable and whether it is set (an empty value
// counts as unset when LookupEnv is nil).
func (e Env) Lookup(name string) (string, bool) {
	if e.LookupEnv != nil {
		return e.LookupEnv(name)
	}
	if e.Getenv == nil {
		return "", false
	}
	v := e.Getenv(name)
	return v, v != ""
}

// xdgConfigHome is git's xdg_config_home(name): $XDG_CONFIG_HOME/git/name,
// else $HOME/.config/git/name, else "".
func (e Env) xdgConfigHome(name string) string {
	if x := e.get("XDG_CONFIG_HOME"); x != "" {
		return x + "/git/" + name
	}
	if home, ok := e.Lookup("HOME"); ok {
		return home + "/.config/git/" + name
	}
	return ""
}

// get returns the variable or "".
func (e Env) get(name string) string {
	v, _ := e.Lookup(name)
	return v
}

// envBool reads a boolean variable as git_env_bool does: def when unset,
// otherwise git's boolean rules (an invalid value is an error naming the
// variable).
func (e Env) envBool(name string, def bool) (bool, error) {
	v, ok := e.Lookup(name)
	if !ok {
		return def, nil
	}
	b, valid := parseBoolValue(v, true)
	if !valid {
		return false, &Error{Kind: ErrBadConfig, Msg: "bad boolean config value '" + v + "' for '" + name + "'"}
	}
	return b, nil
}

// EnvFromList builds an Env from a "K=V" list such as exec.Cmd.Env, for
// tests and tools that run goblame beside git with the same environment.
func EnvFromList(cwd string, list []string) Env {
	m := make(map[string]string, len(list))
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		if ok {
			m[k] = v
		}
	}
	return Env{
		Cwd:    cwd,
		Getenv: func(k string) string { return m[k] },
		LookupEnv: func(k string) (string, bool) {
			v, ok := m[k]
			return v, ok
		},
	}
}

// CtypeLocale is the LC_CTYPE locale git runs in with this environment
// (posixre.CtypeLocale), in which its regular expressions are compiled
// and run.
func (e Env) CtypeLocale() string { return posixre.CtypeLocale(e.get) }
