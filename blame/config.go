package blame

import (
	"strings"

	"github.com/goblame/goblame/repo"
)

// ConfiguredOptions returns the options `git blame` starts from in this
// repository: the zero Options with the attribution settings of its
// configuration applied in git's order (see ApplyConfig). The first bad
// value is an error with git's message, as git dies on it, whether a
// key blame reads or one every git command checks
// (repo.Repository.CheckDefaultConfig).
func (r *Repository) ConfiguredOptions() (Options, error) {
	var o Options
	for _, e := range r.repo.Config.Entries() {
		ok, err := o.ApplyConfig(e, r.repo.Env())
		if !ok {
			// The checks of git_default_config, which git blame's
			// configuration callback ends with.
			err = r.repo.CheckDefaultConfig(e)
		}
		if err != nil {
			return Options{}, err
		}
	}
	return o, nil
}

// ApplyConfig applies one configuration entry if it is one git blame
// reads for attribution — blame.showRoot, diff.indentHeuristic,
// blame.ignoreRevsFile (a pathname: "~/" and "%(prefix)/" expand), the
// diff drivers' keys (checked as git checks them; textconv reads them
// for the blamed path) — and reports whether it was. The command line calls it from its own pass
// over the configuration, so that errors come in git's order.
func (o *Options) ApplyConfig(e repo.ConfigEntry, env repo.Env) (bool, error) {
	switch e.Key {
	case "blame.showroot":
		b, err := repo.ConfigBool(e)
		if err != nil {
			return true, err
		}
		o.ShowRoot = b
	case "diff.indentheuristic":
		b, err := repo.ConfigBool(e)
		if err != nil {
			return true, err
		}
		o.NoIndentHeuristic = !b
	case "blame.ignorerevsfile":
		if !e.HasValue {
			return true, repo.MissingValueError(e)
		}
		p, ok := repo.InterpolatePath(e.Value, env)
		if !ok {
			return true, fatalf("failed to expand user dir in: '%s'", e.Value)
		}
		o.IgnoreRevsFiles = append(o.IgnoreRevsFiles, p)
	default:
		return userdiffConfig(e)
	}
	return true, nil
}

// userdiffConfig checks a diff driver's key (diff.<driver>.<key>) as
// git's userdiff_config, which git blame runs on every key of the
// configuration whatever the blamed path: a pattern or command key
// without a value is the callback's failure, an invalid boolean for
// binary (which also takes "auto") or cachetextconv is fatal. The
// values themselves are read where a blame uses them (textconv). It
// reports whether e is such a key.
func userdiffConfig(e repo.ConfigEntry) (bool, error) {
	rest, ok := strings.CutPrefix(e.Key, "diff.")
	dot := strings.LastIndexByte(rest, '.') // an empty driver name counts
	if !ok || dot < 0 {
		return false, nil
	}
	switch rest[dot+1:] {
	case "funcname", "xfuncname", "command", "textconv", "wordregex":
		if !e.HasValue {
			return true, repo.MissingValueError(e)
		}
	case "binary":
		if e.HasValue && strings.EqualFold(e.Value, "auto") {
			return true, nil
		}
		if _, err := repo.ConfigBool(e); err != nil {
			return true, err
		}
	case "cachetextconv":
		if _, err := repo.ConfigBool(e); err != nil {
			return true, err
		}
	default:
		return false, nil
	}
	return true, nil
}

// BadConfigVariable is git's message when a config callback fails on e
// (repo.BadConfigEntry).
func BadConfigVariable(e repo.ConfigEntry) string { return repo.BadConfigEntry(e) }
