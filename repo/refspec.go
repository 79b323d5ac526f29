package repo

import (
	"strings"
)

// refspec is one parsed refspec (git's struct refspec_item): "[+]src:dst"
// or "[+]src", a pattern when both sides hold a '*', ":" (matching, push
// only), or a negative "^src" that excludes what its src matches.
type refspec struct {
	force, pattern, matching, negative, exactID bool
	src, dst                                    string
	hasDst                                      bool
}

// parseRefspec is git's parse_refspec: fetch selects the rules of fetch
// refspecs (push ones otherwise); ok is false for a refspec git calls
// invalid.
func parseRefspec(spec string, fetch bool, hexSize int) (refspec, bool) {
	var item refspec
	lhs := spec
	if strings.HasPrefix(lhs, "+") {
		item.force = true
		lhs = lhs[1:]
	} else if strings.HasPrefix(lhs, "^") {
		item.negative = true
		lhs = lhs[1:]
	}
	colon := strings.LastIndexByte(lhs, ':')
	if item.negative && colon >= 0 {
		return item, false // negative refspecs only have one side
	}
	if !fetch && colon == 0 && len(lhs) == 1 {
		item.matching = true
		return item, true
	}
	isGlob := false
	left := lhs
	if colon >= 0 {
		item.dst, item.hasDst = lhs[colon+1:], true
		isGlob = item.dst != "" && strings.IndexByte(item.dst, '*') >= 0
		left = lhs[:colon]
	}
	if left != "" && strings.IndexByte(left, '*') >= 0 {
		if (colon >= 0 && !isGlob) || (colon < 0 && !item.negative && fetch) {
			return item, false
		}
		isGlob = true
	} else if colon >= 0 && isGlob {
		return item, false
	}
	item.pattern = isGlob
	item.src = left
	if left == "@" {
		item.src = "HEAD"
	}
	validRef := func(name string) bool { return checkRefnameFormatFlags(name, true, isGlob) }
	isHex := func(s string) bool { return len(s) == hexSize && strings.Trim(s, "0123456789abcdefABCDEF") == "" }
	if item.negative {
		// Only a ref or a pattern of refs, not empty, not an object name.
		return item, item.src != "" && !isHex(item.src) && validRef(item.src)
	}
	if fetch {
		switch {
		case item.src == "": // HEAD
		case isHex(item.src):
			item.exactID = true
		case !validRef(item.src):
			return item, false
		}
		if item.dst != "" && !validRef(item.dst) {
			return item, false
		}
		return item, true
	}
	if item.src != "" && isGlob && !validRef(item.src) {
		return item, false
	}
	switch {
	case !item.hasDst:
		return item, validRef(item.src)
	case item.dst == "":
		return item, false
	default:
		return item, validRef(item.dst)
	}
}

// matchPattern is git's match_name_with_pattern: whether name matches
// key, a pattern with one '*', and, when value is not "", value with its
// '*' replaced by what the key's '*' matched.
func matchPattern(key, name, value string) (string, bool) {
	star := strings.IndexByte(key, '*')
	if star < 0 {
		return "", false // git dies here; parseRefspec lets no such pattern through
	}
	prefix, suffix := key[:star], key[star+1:]
	if !strings.HasPrefix(name, prefix) || len(name) < len(prefix)+len(suffix) || !strings.HasSuffix(name, suffix) {
		return "", false
	}
	if value == "" {
		return "", true
	}
	vstar := strings.IndexByte(value, '*')
	if vstar < 0 {
		return "", false
	}
	return value[:vstar] + name[len(prefix):len(name)-len(suffix)] + value[vstar+1:], true
}

// omittedByRefspecs is git's omit_name_by_refspec: a negative refspec
// matches name.
func omittedByRefspecs(name string, specs []refspec) bool {
	for _, s := range specs {
		if !s.negative {
			continue
		}
		if s.pattern {
			if _, ok := matchPattern(s.src, name, ""); ok {
				return true
			}
		} else if s.src == name {
			return true
		}
	}
	return false
}

// applyRefspecs is git's apply_refspecs: where the first refspec of specs
// that maps src sends it, unless a negative refspec excludes it (as
// query_matches_negative_refspec decides: on the sources the positive
// refspecs give for src read as a destination, git's reversal for a
// source query too).
func applyRefspecs(specs []refspec, src string) (string, bool) {
	for _, s := range specs {
		if s.negative {
			continue
		}
		var reversed string
		matched := false
		switch {
		case s.pattern:
			key := s.src
			if s.hasDst {
				key = s.dst
			}
			reversed, matched = matchPattern(key, src, s.src)
		case s.matching:
			reversed, matched = src, true
		case src == s.src:
			reversed, matched = s.src, true
		}
		if matched && omittedByRefspecs(reversed, specs) {
			return "", false
		}
	}
	for _, s := range specs {
		if !s.hasDst || s.negative {
			continue
		}
		if s.pattern {
			if dst, ok := matchPattern(s.src, src, s.dst); ok {
				return dst, true
			}
		} else if src == s.src {
			return s.dst, true
		}
	}
	return "", false
}
