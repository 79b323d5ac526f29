package repo

import "strings"

// ParseBool is git_config_bool's reading of a value (and
// git_parse_maybe_bool's): no value, true/yes/on and non-zero integers
// (k/m/g suffixes allowed) are true; "", false/no/off and zero are false;
// valid is false for anything else.
func ParseBool(value string, hasValue bool) (b, valid bool) {
	return parseBoolValue(value, hasValue)
}

// Settings are what of git's repository settings (prepare_repo_settings)
// a blame uses: whether to read the commit-graph (core.commitGraph) and
// its changed-path Bloom filters (commitGraph.readChangedPaths), both
// true unless set false.
type Settings struct {
	CommitGraph, ReadChangedPaths bool
}

// ReadSettings reads what git's prepare_repo_settings reads, which git
// blame calls once its options are parsed, and returns the error git
// dies of for a bad value: a boolean (feature.manyFiles,
// feature.experimental, core.commitGraph, commitGraph.readChangedPaths,
// gc.writeCommitGraph, fetch.writeCommitGraph, pack.useSparse,
// core.multiPackIndex, index.sparse, GIT_TEST_MULTI_PACK_INDEX) or number
// (commitGraph.generationVersion, index.version) that is none, or an
// unknown fetch.negotiationAlgorithm or a string key (it and
// core.untrackedCache) without a value.
func (r *Repository) ReadSettings() (Settings, error) {
	s := Settings{CommitGraph: true, ReadChangedPaths: true}
	c := r.Config
	// bools reads keys in order; a key set to false clears *set[i].
	bools := func(keys []string, set ...*bool) error {
		for i, k := range keys {
			b, ok, err := c.Bool(k)
			if err != nil {
				return err
			}
			if ok && i < len(set) {
				*set[i] = b
			}
		}
		return nil
	}
	if err := bools([]string{"feature.manyfiles", "feature.experimental"}); err != nil {
		return s, err
	}
	if err := bools([]string{"core.commitgraph"}, &s.CommitGraph); err != nil {
		return s, err
	}
	if _, _, err := c.Int("commitgraph.generationversion"); err != nil {
		return s, err
	}
	if err := bools([]string{"commitgraph.readchangedpaths"}, &s.ReadChangedPaths); err != nil {
		return s, err
	}
	if err := bools([]string{"gc.writecommitgraph", "fetch.writecommitgraph", "pack.usesparse",
		"core.multipackindex", "index.sparse"}); err != nil {
		return s, err
	}
	if _, err := r.env.envBool("GIT_TEST_MULTI_PACK_INDEX", false); err != nil {
		return s, err
	}
	if _, _, err := c.Int("index.version"); err != nil {
		return s, err
	}
	for _, k := range []string{"core.untrackedcache", "fetch.negotiationalgorithm"} {
		e, ok := c.Entry(k)
		if !ok {
			continue
		}
		if !e.HasValue {
			return s, MissingValueError(e)
		}
		if k == "fetch.negotiationalgorithm" {
			switch strings.ToLower(e.Value) {
			case "skipping", "noop", "consecutive", "default":
			default:
				return s, newError(ErrBadConfig, "unknown fetch negotiation algorithm '%s'", e.Value)
			}
		}
	}
	return s, nil
}
