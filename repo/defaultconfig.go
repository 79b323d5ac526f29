package repo

import (
	"math"
	"strconv"
	"strings"

	"github.com/goblame/goblame/internal/cnum"
)

// CheckDefaultConfig checks one configuration entry as git's
// git_default_config does when a command (git blame among them) reads
// its configuration: the core, ident, i18n, branch, push, mailmap,
// advice, pager and pack keys every git command parses, whether or not
// it uses them. A bad value is the error git dies with (its wording; the
// "error:" lines it prints first in Error.Before); git's warnings for
// unknown core.fsync components, core.fsyncMethod values, out-of-range
// tab widths and the deprecated core.fsyncObjectFiles go to the warning
// handler as git prints them. Every entry is checked, in order, as git
// checks them (DefaultAbbrev, say, reads only the last core.abbrev).
// Values are not applied: the packages that use a key read it
// themselves. (color.advice.<slot> needs a colour parser:
// the command line checks it.)
func (r *Repository) CheckDefaultConfig(e ConfigEntry) error {
	k := e.Key
	switch {
	case isBoolKey(k) || isAdviceKey(k):
		return checkBool(e)
	case k == "core.logallrefupdates":
		return checkBoolOr(e, strings.EqualFold, "always")
	case k == "core.autocrlf":
		return checkBoolOr(e, strings.EqualFold, "input")
	case k == "core.safecrlf":
		return checkBoolOr(e, strings.EqualFold, "warn")
	case k == "branch.autosetupmerge":
		return checkBoolOr(e, func(a, b string) bool { return a == b }, "always", "inherit", "simple")
	case k == "color.advice":
		return checkBoolOr(e, strings.EqualFold, "never", "always", "auto")
	case isValueKey(k):
		if !e.HasValue {
			return MissingValueError(e)
		}
		if isPathnameKey(k) {
			if _, ok := interpolatePath(e.Value, r.env, false); !ok {
				return newError(ErrBadConfig, "failed to expand user dir in: '%s'", e.Value)
			}
		}
	case compressionOf(k) != "":
		if !e.HasValue {
			return newError(ErrBadConfig, "bad numeric config value '' for '%s': invalid unit", k)
		}
		n, err := parseConfigInt(e.Value, 1<<31-1)
		if err != nil {
			return newError(ErrBadConfig, "bad numeric config value '%s' for '%s': %s", e.Value, k, err.Error())
		}
		if n != -1 && (n < 0 || n > 9) {
			return newError(ErrBadConfig, "bad %s compression level %d", compressionOf(k), n)
		}
	case isUlongKey(k):
		if err := parseConfigUlong(e.Value); err != nil {
			return newError(ErrBadConfig, "bad numeric config value '%s' for '%s': %s", e.Value, k, err.Error())
		}
	case k == "core.abbrev":
		_, err := r.abbrevOf(e)
		return err
	case k == "core.commentchar":
		switch {
		case !e.HasValue:
			return MissingValueError(e)
		case strings.EqualFold(e.Value, "auto"), len(e.Value) == 1:
		default:
			return &Error{Kind: ErrBadConfig, Msg: BadConfigEntry(e), Before: []string{"error: core.commentChar should only be one character"}}
		}
	case k == "core.disambiguate":
		if !e.HasValue {
			return MissingValueError(e)
		}
		for _, h := range []string{"none", "commit", "committish", "tree", "treeish", "blob"} {
			if strings.EqualFold(e.Value, h) {
				return nil
			}
		}
		return &Error{Kind: ErrBadConfig, Msg: BadConfigEntry(e), Before: []string{"error: unknown hint type for '" + k + "': " + e.Value}}
	case k == "core.whitespace":
		if !e.HasValue {
			return MissingValueError(e)
		}
		return r.checkWhitespaceRule(e.Value)
	case k == "core.fsync":
		if !e.HasValue {
			return MissingValueError(e)
		}
		r.checkFsyncComponents(e.Value)
	case k == "core.fsyncmethod":
		if !e.HasValue {
			return MissingValueError(e)
		}
		if v := e.Value; v != "fsync" && v != "writeout-only" && v != "batch" {
			r.warn("warning: ignoring unknown core.fsyncMethod value '" + v + "'")
		}
	case k == "core.fsyncobjectfiles":
		if !r.fsyncObjectFilesWarned {
			r.fsyncObjectFilesWarned = true
			r.warn("warning: core.fsyncObjectFiles is deprecated; use core.fsync instead")
		}
		return checkBool(e)
	case k == "core.createobject":
		// git reads a missing value as a null string and crashes.
		if !e.HasValue {
			return MissingValueError(e)
		}
		if e.Value != "rename" && e.Value != "link" {
			return newError(ErrBadConfig, "invalid mode for object creation: %s", e.Value)
		}
	case k == "branch.autosetuprebase":
		if !e.HasValue {
			return MissingValueError(e)
		}
		switch e.Value {
		case "never", "local", "remote", "always":
		default:
			return &Error{Kind: ErrBadConfig, Msg: BadConfigEntry(e), Before: []string{"error: malformed value for " + k}}
		}
	case k == "push.default":
		if !e.HasValue {
			return MissingValueError(e)
		}
		switch e.Value {
		case "nothing", "matching", "simple", "upstream", "tracking", "current":
		default:
			return &Error{Kind: ErrBadConfig, Msg: BadConfigEntry(e), Before: []string{
				"error: malformed value for " + k + ": " + e.Value,
				"error: must be one of nothing, matching, simple, upstream or current"}}
		}
	}
	return nil
}

// The keys are matched in switches, not maps: a map literal is built by
// the package's initialisation in every process, blame or not.

// isBoolKey reports the keys git_default_config reads with
// git_config_bool.
func isBoolKey(k string) bool {
	switch k {
	case "core.filemode", "core.trustctime", "core.quotepath", "core.symlinks", "core.ignorecase",
		"core.bare", "core.ignorestat", "core.prefersymlinkrefs", "core.warnambiguousrefs",
		"core.preloadindex", "core.sparsecheckout", "core.sparsecheckoutcone", "core.precomposeunicode",
		"core.protecthfs", "core.protectntfs", "core.usereplacerefs", "sparse.expectfilesoutsideofpatterns",
		"user.useconfigonly", "pager.color", "color.pager":
		return true
	}
	return false
}

// isValueKey reports the keys that need a value (git_config_string,
// git_config_pathname); isPathnameKey those among them that expand
// "~user/" as git_config_pathname does.
func isValueKey(k string) bool {
	switch k {
	case "core.attributesfile", "core.hookspath", "core.excludesfile", "core.editor", "core.askpass",
		"i18n.commitencoding", "i18n.logoutputencoding", "mailmap.file", "mailmap.blob",
		"user.name", "user.email", "author.name", "author.email", "committer.name", "committer.email":
		return true
	}
	return false
}

func isPathnameKey(k string) bool {
	switch k {
	case "core.attributesfile", "core.hookspath", "core.excludesfile", "mailmap.file":
		return true
	}
	return false
}

// compressionOf names the compression level a key sets in git's message
// ("bad zlib compression level 12"), "" for other keys.
func compressionOf(k string) string {
	switch k {
	case "core.loosecompression", "core.compression":
		return "zlib"
	case "pack.compression":
		return "pack"
	}
	return ""
}

// isUlongKey reports the keys read with git_config_ulong.
func isUlongKey(k string) bool {
	switch k {
	case "core.packedgitwindowsize", "core.bigfilethreshold", "core.packedgitlimit",
		"core.deltabasecachelimit", "pack.packsizelimit":
		return true
	}
	return false
}

// isAdviceKey reports git 2.39's advice settings (advice.<key> in any
// case; keys come lowercased), booleans.
func isAdviceKey(k string) bool {
	switch k {
	case "advice.addembeddedrepo", "advice.addemptypathspec", "advice.addignoredfile", "advice.amworkdir",
		"advice.ambiguousfetchrefspec", "advice.checkoutambiguousremotebranchname",
		"advice.commitbeforemerge", "advice.detachedhead", "advice.suggestdetachinghead",
		"advice.fetchshowforcedupdates", "advice.graftfiledeprecated", "advice.ignoredhook",
		"advice.implicitidentity", "advice.nestedtag", "advice.objectnamewarning",
		"advice.pushalreadyexists", "advice.pushfetchfirst", "advice.pushneedsforce",
		"advice.pushrefneedsupdate", "advice.pushnonfastforward", "advice.pushnonffcurrent",
		"advice.pushnonffmatching", "advice.pushunqualifiedrefname", "advice.pushupdaterejected",
		"advice.resetnorefresh", "advice.resolveconflict", "advice.rmhints", "advice.sequencerinuse",
		"advice.setupstreamfailure", "advice.skippedcherrypicks", "advice.statusaheadbehindwarning",
		"advice.statushints", "advice.statusuoption", "advice.submodulealternateerrorstrategydie",
		"advice.submodulesnotupdated", "advice.updatesparsepath", "advice.waitingforeditor":
		return true
	}
	return false
}

// ConfigBool is git_config_bool on e: its boolean, or git's fatal
// "bad boolean config value".
func ConfigBool(e ConfigEntry) (bool, error) {
	b, valid := parseBoolValue(e.Value, e.HasValue)
	if !valid {
		return false, newError(ErrBadConfig, "bad boolean config value '%s' for '%s'", e.Value, e.Key)
	}
	return b, nil
}

func checkBool(e ConfigEntry) error {
	_, err := ConfigBool(e)
	return err
}

// checkBoolOr accepts the words (compared with eq) or a boolean.
func checkBoolOr(e ConfigEntry, eq func(a, b string) bool, words ...string) error {
	if e.HasValue {
		for _, w := range words {
			if eq(e.Value, w) {
				return nil
			}
		}
	}
	return checkBool(e)
}

// MissingValueError is config_error_nonbool's failure of a callback:
// its "error:" line, then git's "bad config variable" fatal.
func MissingValueError(e ConfigEntry) error {
	return &Error{Kind: ErrBadConfig, Msg: BadConfigEntry(e), Before: []string{"error: missing value for '" + e.Key + "'"}}
}

// BadConfigEntry is git's fatal line when a config callback fails on e.
func BadConfigEntry(e ConfigEntry) string {
	if e.Origin == "" {
		return "unable to parse '" + e.Key + "' from command-line config"
	}
	return "bad config variable '" + e.Key + "' in file '" + e.Origin + "' at line " + strconv.Itoa(e.Line)
}

// parseConfigUlong is git_parse_unsigned for git_config_ulong: no minus
// sign anywhere, strtoumax in base 0, then a k, m or g unit, the product
// within 64 bits.
func parseConfigUlong(s string) error {
	if s == "" || strings.Contains(s, "-") {
		return errInvalidUnit
	}
	val, end, overflow := cnum.Strtoul(s, 0)
	if overflow {
		return errOutOfRange
	}
	if end == 0 {
		return errInvalidUnit // no digits (git_parse_signed's rule too)
	}
	factor := unitFactor(s[end:])
	if factor == 0 {
		return errInvalidUnit
	}
	if val > math.MaxUint64/factor {
		return errOutOfRange
	}
	return nil
}

// whitespaceRules are the names parse_whitespace_rule knows (matched as
// prefixes of their names, as git's strncmp does), in its order.
var whitespaceRules = [...]string{"trailing-space", "space-before-tab", "indent-with-non-tab", "cr-at-eol",
	"blank-at-eol", "blank-at-eof", "tab-in-indent"}

// checkWhitespaceRule is parse_whitespace_rule's checks: a tab width
// out of 1-63 is warned of, tab-in-indent with indent-with-non-tab is
// fatal.
func (r *Repository) checkWhitespaceRule(s string) error {
	tabInIndent, indentNonTab := false, false
	for s != "" {
		s = strings.TrimLeft(s, ", \t\n\r")
		item := s
		if i := strings.IndexByte(s, ','); i >= 0 {
			item, s = s[:i], s[i:]
		} else {
			s = ""
		}
		negated := strings.HasPrefix(item, "-")
		item = strings.TrimPrefix(item, "-")
		if item == "" {
			break
		}
		for _, name := range whitespaceRules {
			if strings.HasPrefix(name, item) {
				switch name {
				case "tab-in-indent":
					tabInIndent = !negated
				case "indent-with-non-tab":
					indentNonTab = !negated
				}
				break
			}
		}
		if w, ok := strings.CutPrefix(item, "tabwidth="); ok {
			n := cnum.Atoi(w)
			if n <= 0 || n >= 0o100 {
				r.warn("warning: tabwidth " + w + " out of range")
			}
		}
	}
	if tabInIndent && indentNonTab {
		return newError(ErrBadConfig, "cannot enforce both tab-in-indent and indent-with-non-tab")
	}
	return nil
}

// fsyncComponents are the names parse_fsync_components knows.
var fsyncComponents = [...]string{"loose-object", "pack", "pack-metadata", "commit-graph", "index", "objects",
	"reference", "derived-metadata", "committed", "added", "all"}

// checkFsyncComponents warns of what parse_fsync_components ignores.
func (r *Repository) checkFsyncComponents(s string) {
	for s != "" {
		s = strings.TrimLeft(s, ", \t\n\r")
		if s == "none" {
			break
		}
		item := s
		if i := strings.IndexByte(s, ','); i >= 0 {
			item, s = s[:i], s[i:]
		} else {
			s = ""
		}
		if strings.HasPrefix(item, "-") {
			item = item[1:]
			if item == "" {
				r.warn("warning: invalid value for variable core.fsync")
			}
		}
		if item == "" {
			break
		}
		found := false
		for _, name := range fsyncComponents {
			if strings.HasPrefix(name, item) {
				found = true
			}
		}
		if !found {
			r.warn("warning: ignoring unknown core.fsync component '" + item + "'")
		}
	}
}
