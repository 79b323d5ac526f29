package repo

import "strings"

// ParseBool is git_config_bool's reading of a value (and
// git_parse_maybe_bool's): no value, true/yes/on and non-zero integers
// (k/m/g suffixes allowed) are true; "", false/no/off and zero are false;
// valid is false for anything else.
func ParseBool(value string, hasValue bool) (b, valid bool) {
	return parseBoolValue(value, hasValue)
}

// CheckSettings reads what git's prepare_repo_settings reads, which git
// blame calls once its options are parsed, and returns the error git
// dies of for a bad value: a boolean (feature.manyFiles,
// feature.experimental, core.commitGraph, commitGraph.readChangedPaths,
// gc.writeCommitGraph, fetch.writeCommitGraph, pack.useSparse,
// core.multiPackIndex, index.sparse, GIT_TEST_MULTI_PACK_INDEX) or number
// (commitGraph.generationVersion, index.version) that is none, or an
// unknown fetch.negotiationAlgorithm or a string key (it and
// core.untrackedCache) without a value.
func (r *Repository) CheckSettings() error {
	c := r.Config
	bools := func(keys ...string) error {
		for _, k := range keys {
			if _, _, err := c.Bool(k); err != nil {
				return err
			}
		}
		return nil
	}
	if err := bools("feature.manyfiles", "feature.experimental", "core.commitgraph"); err != nil {
		return err
	}
	if _, _, err := c.Int("commitgraph.generationversion"); err != nil {
		return err
	}
	if err := bools("commitgraph.readchangedpaths", "gc.writecommitgraph", "fetch.writecommitgraph",
		"pack.usesparse", "core.multipackindex", "index.sparse"); err != nil {
		return err
	}
	if _, err := r.env.envBool("GIT_TEST_MULTI_PACK_INDEX", false); err != nil {
		return err
	}
	if _, _, err := c.Int("index.version"); err != nil {
		return err
	}
	for _, k := range []string{"core.untrackedcache", "fetch.negotiationalgorithm"} {
		e, ok := c.Entry(k)
		if !ok {
			continue
		}
		if !e.HasValue {
			return &Error{Kind: ErrBadConfig, Msg: r.badConfigVariable(e.Key), Before: []string{"error: missing value for '" + e.Key + "'"}}
		}
		if k == "fetch.negotiationalgorithm" {
			switch strings.ToLower(e.Value) {
			case "skipping", "noop", "consecutive", "default":
			default:
				return newError(ErrBadConfig, "unknown fetch negotiation algorithm '%s'", e.Value)
			}
		}
	}
	return nil
}
