package repo

import (
	"fmt"
	"strings"

	"github.com/goblame/goblame/internal/cnum"
	"github.com/goblame/goblame/internal/passwd"
)

// Scope is where a configuration entry came from, in git's reading order.
type Scope uint8

const (
	ScopeSystem   Scope = iota + 1 // $(prefix)/etc/gitconfig or GIT_CONFIG_SYSTEM
	ScopeGlobal                    // $XDG_CONFIG_HOME/git/config, ~/.gitconfig or GIT_CONFIG_GLOBAL
	ScopeLocal                     // <commondir>/config
	ScopeWorktree                  // $GIT_DIR/config.worktree (extensions.worktreeConfig)
	ScopeCommand                   // GIT_CONFIG_COUNT/KEY_n/VALUE_n and GIT_CONFIG_PARAMETERS (git -c)
)

func (s Scope) String() string {
	switch s {
	case ScopeSystem:
		return "system"
	case ScopeGlobal:
		return "global"
	case ScopeLocal:
		return "local"
	case ScopeWorktree:
		return "worktree"
	case ScopeCommand:
		return "command"
	}
	return fmt.Sprintf("repo.Scope(%d)", uint8(s))
}

// ConfigEntry is one "key = value" setting.
type ConfigEntry struct {
	// Key is canonical: section and variable name lowercased, the
	// subsection as written ("remote.Origin.url").
	Key string
	// Value is the parsed value; "" both for "key =" and for a key
	// without '=', which HasValue tells apart.
	Value    string
	HasValue bool
	Scope    Scope
	// Origin is the file (or blob) the entry came from as git names it,
	// "" for the command line; Line its line number there.
	Origin string
	Line   int
}

// Config is the merged configuration of a repository: every entry of
// every source in git's order (system, global, local, worktree, command
// line; included files in place of their include directive). For a key
// read as a single value the last entry wins.
type Config struct {
	entries []ConfigEntry
	byKey   map[string][]int32
}

// NewConfig returns an empty configuration (what a repository with no
// configuration files and no command-line settings sees).
func NewConfig() *Config { return &Config{byKey: map[string][]int32{}} }

func (c *Config) add(e ConfigEntry) {
	if c.byKey == nil {
		c.byKey = map[string][]int32{}
	}
	c.byKey[e.Key] = append(c.byKey[e.Key], int32(len(c.entries)))
	c.entries = append(c.entries, e)
}

// Entries returns every entry in reading order. The slice must not be
// modified.
func (c *Config) Entries() []ConfigEntry { return c.entries }

// lookup returns the entries of a key given in any case (the section and
// name are case-insensitive, the subsection is not).
func (c *Config) lookup(key string) []int32 {
	if c == nil {
		return nil
	}
	if idx, ok := c.byKey[key]; ok {
		return idx
	}
	canon, err := canonicalKey(key)
	if err != nil {
		return nil
	}
	return c.byKey[canon]
}

// Entry returns the last entry of key (the one that wins).
func (c *Config) Entry(key string) (ConfigEntry, bool) {
	idx := c.lookup(key)
	if len(idx) == 0 {
		return ConfigEntry{}, false
	}
	return c.entries[idx[len(idx)-1]], true
}

// Get returns the value of key, the last one set. ok is false when the
// key is not set at all; a key without '=' gives ("", true).
func (c *Config) Get(key string) (value string, ok bool) {
	e, ok := c.Entry(key)
	return e.Value, ok
}

// GetAll returns every value of key in reading order.
func (c *Config) GetAll(key string) []string {
	idx := c.lookup(key)
	if len(idx) == 0 {
		return nil
	}
	out := make([]string, len(idx))
	for i, j := range idx {
		out[i] = c.entries[j].Value
	}
	return out
}

// GetAllEntries returns every entry of key in reading order.
func (c *Config) GetAllEntries(key string) []ConfigEntry {
	idx := c.lookup(key)
	out := make([]ConfigEntry, len(idx))
	for i, j := range idx {
		out[i] = c.entries[j]
	}
	return out
}

// IsValueless reports whether the winning entry of key has no '='
// ("[blame] coloring"), which git reads as boolean true and as a
// missing value for strings.
func (c *Config) IsValueless(key string) bool {
	e, ok := c.Entry(key)
	return ok && !e.HasValue
}

// String returns the value of key as git_config_string does: a key
// without a value is an error ("missing value for 'k'").
func (c *Config) String(key string) (string, bool, error) {
	e, ok := c.Entry(key)
	if !ok {
		return "", false, nil
	}
	if !e.HasValue {
		return "", true, nonBoolError(e.Key)
	}
	return e.Value, true, nil
}

func nonBoolError(key string) *Error {
	return &Error{Kind: ErrBadConfig, Msg: "missing value for '" + key + "'"}
}

// Bool returns key as a boolean with git's rules: no value, "true",
// "yes", "on" (any case) and non-zero integers (k/m/g suffixes allowed)
// are true; "", "false", "no", "off" and zero are false; anything else
// is an error with git's text "bad boolean config value 'x' for 'k'".
func (c *Config) Bool(key string) (value bool, ok bool, err error) {
	e, ok := c.Entry(key)
	if !ok {
		return false, false, nil
	}
	b, valid := parseBoolValue(e.Value, e.HasValue)
	if !valid {
		return false, true, newError(ErrBadConfig, "bad boolean config value '%s' for '%s'", e.Value, e.Key)
	}
	return b, true, nil
}

// MaybeBool is git_parse_maybe_bool: valid is false when the value is
// neither a boolean nor an integer (callers then try other meanings).
func (c *Config) MaybeBool(key string) (value, ok, valid bool) {
	e, ok := c.Entry(key)
	if !ok {
		return false, false, false
	}
	b, valid := parseBoolValue(e.Value, e.HasValue)
	return b, true, valid
}

// BoolText reports the words-only boolean reading (git_parse_maybe_bool_text):
// valid is false unless the value is missing, empty, or one of
// true/yes/on/false/no/off.
func BoolText(value string, hasValue bool) (b, valid bool) {
	if !hasValue {
		return true, true
	}
	if value == "" {
		return false, true
	}
	switch strings.ToLower(value) {
	case "true", "yes", "on":
		return true, true
	case "false", "no", "off":
		return false, true
	}
	return false, false
}

func parseBoolValue(value string, hasValue bool) (b, valid bool) {
	if b, ok := BoolText(value, hasValue); ok {
		return b, true
	}
	n, err := parseConfigInt(value, 1<<31-1)
	if err != nil {
		return false, false
	}
	return n != 0, true
}

// Int returns key as git_config_int reads it: a C integer (decimal,
// 0x hex or 0 octal, optional sign) with an optional k, m or g suffix
// (any case), within the range of a 32-bit int. Errors carry git's text
// ("bad numeric config value 'x' for 'k': invalid unit" / "out of
// range").
func (c *Config) Int(key string) (int64, bool, error) {
	return c.intRange(key, 1<<31-1)
}

// Int64 is Int with the range of a 64-bit integer (git_config_int64).
func (c *Config) Int64(key string) (int64, bool, error) {
	return c.intRange(key, 1<<63-1)
}

func (c *Config) intRange(key string, max int64) (int64, bool, error) {
	e, ok := c.Entry(key)
	if !ok {
		return 0, false, nil
	}
	v, err := parseConfigInt(e.Value, max)
	if err != nil {
		return 0, true, newError(ErrBadConfig, "bad numeric config value '%s' for '%s': %s", e.Value, e.Key, err.Error())
	}
	return v, true, nil
}

type numError string

func (e numError) Error() string { return string(e) }

const (
	errInvalidUnit = numError("invalid unit")
	errOutOfRange  = numError("out of range")
)

// ParseConfigInt is git_parse_signed: strtoimax in base 0 followed by an
// optional k, m or g unit, checked against ±max after scaling. Errors are
// git's "invalid unit" and "out of range".
func ParseConfigInt(s string, max int64) (int64, error) { return parseConfigInt(s, max) }

// unitFactor is git's get_unit_factor: what a number followed by end
// (nothing, or k, m or g in any case) is multiplied by; 0 for anything
// else.
func unitFactor(end string) uint64 {
	switch strings.ToLower(end) {
	case "":
		return 1
	case "k":
		return 1 << 10
	case "m":
		return 1 << 20
	case "g":
		return 1 << 30
	}
	return 0
}

func parseConfigInt(s string, max int64) (int64, error) {
	if s == "" {
		return 0, errInvalidUnit
	}
	val, end, overflow := cnum.Strtol(s, 0) // strtoimax(s, &end, 0)
	if overflow {
		return 0, errOutOfRange
	}
	if end == 0 {
		return 0, errInvalidUnit
	}
	factor := int64(unitFactor(s[end:]))
	if factor == 0 {
		return 0, errInvalidUnit
	}
	if (val < 0 && -max/factor > val) || (val > 0 && max/factor < val) {
		return 0, errOutOfRange
	}
	return val * factor, nil
}

func isHexDigit(c byte) bool {
	c = lowerASCII(c)
	return isDigit(c) || 'a' <= c && c <= 'f'
}

// Path returns key as git_config_pathname reads it: "~/" and "~user/"
// are expanded (with home from env), "%(prefix)/" names git's install
// prefix. A key without a value is an error.
func (c *Config) Path(key string, env Env) (string, bool, error) {
	e, ok := c.Entry(key)
	if !ok {
		return "", false, nil
	}
	if !e.HasValue {
		return "", true, nonBoolError(e.Key)
	}
	p, ok2 := interpolatePath(e.Value, env, false)
	if !ok2 {
		return "", true, newError(ErrBadConfig, "failed to expand user dir in: '%s'", e.Value)
	}
	return p, true, nil
}

// gitInstallPrefix is the prefix git 2.39.5 was built with on the
// reference system (Debian: /usr); "%(prefix)/" in paths names it.
const gitInstallPrefix = "/usr"

// interpolatePath is git's interpolate_path: "%(prefix)/x", "~/x", "~"
// and "~user/x". ok is false when the home directory is unknown.
func interpolatePath(p string, env Env, realHome bool) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "%(prefix)/"); ok {
		return gitInstallPrefix + "/" + rest, true
	}
	if !strings.HasPrefix(p, "~") {
		return p, true
	}
	slash := strings.IndexByte(p, '/')
	if slash < 0 {
		slash = len(p)
	}
	name := p[1:slash]
	var home string
	if name == "" {
		h, ok := env.Lookup("HOME")
		if !ok {
			return "", false
		}
		home = h
		if realHome {
			home = realPathOr(home)
		}
	} else {
		h, ok := passwd.Home(name)
		if !ok {
			return "", false
		}
		home = h
	}
	return home + p[slash:], true
}

// InterpolatePath expands a pathname value as git's interpolate_path
// does for config values ("%(prefix)/", "~/", "~user/"), with the home
// directory from env; ok is false when a home directory is unknown
// (git: "failed to expand user dir in: '<p>'").
func InterpolatePath(p string, env Env) (string, bool) { return interpolatePath(p, env, false) }
