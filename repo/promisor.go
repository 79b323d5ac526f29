package repo

import "strings"

// PromisorRemotes returns the remotes a partial clone fetches its
// missing objects from, in the order git tries them (promisor_remote_init):
// every remote with remote.<name>.promisor true or a
// remote.<name>.partialCloneFilter, in the order of the configuration,
// and last extensions.partialClone's remote (moved there when listed). A
// name beginning with '/' is left out with git's warning (to the warning
// handler); a promisor flag that is no boolean is git's fatal error.
func (r *Repository) PromisorRemotes() ([]string, error) {
	var names []string
	add := func(name string) {
		for _, n := range names {
			if n == name {
				return
			}
		}
		if strings.HasPrefix(name, "/") {
			r.warn("warning: promisor remote name cannot begin with '/': " + name)
			return
		}
		names = append(names, name)
	}
	for _, e := range r.Config.Entries() {
		rest, ok := strings.CutPrefix(e.Key, "remote.")
		dot := strings.LastIndexByte(rest, '.')
		if !ok || dot < 0 {
			continue
		}
		switch name, key := rest[:dot], rest[dot+1:]; key {
		case "promisor":
			b, valid := parseBoolValue(e.Value, e.HasValue)
			if !valid {
				return nil, newError(ErrBadConfig, "bad boolean config value '%s' for '%s'", e.Value, e.Key)
			}
			if b {
				add(name)
			}
		case "partialclonefilter":
			add(name)
		}
	}
	if pc := r.partialClone; pc != "" {
		for i, n := range names {
			if n == pc {
				names = append(names[:i:i], names[i+1:]...)
				break
			}
		}
		add(pc)
	}
	return names, nil
}
