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
		name, key, ok := promisorKey(e.Key)
		if !ok {
			continue
		}
		switch key {
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

// MayBePartialClone reports whether the repository may be a partial
// clone, one whose missing objects a promisor remote may hold:
// extensions.partialClone is set, or some remote has a promisor flag or
// a partial clone filter (whatever their values: PromisorRemotes reads
// those).
func (r *Repository) MayBePartialClone() bool {
	if r.partialClone != "" {
		return true
	}
	for _, e := range r.Config.Entries() {
		if _, _, ok := promisorKey(e.Key); ok {
			return true
		}
	}
	return false
}

// promisorKey splits a configuration key remote.<name>.promisor or
// remote.<name>.partialclonefilter (keys come lowercased) into the
// remote's name and the last part; ok is false for any other key.
func promisorKey(k string) (name, key string, ok bool) {
	rest, ok := strings.CutPrefix(k, "remote.")
	dot := strings.LastIndexByte(rest, '.')
	if !ok || dot < 0 {
		return "", "", false
	}
	name, key = rest[:dot], rest[dot+1:]
	return name, key, key == "promisor" || key == "partialclonefilter"
}
