package repo

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/goblame/goblame/internal/cnum"
	"github.com/goblame/goblame/internal/fsread"
)

// maxIncludeDepth is git's limit on nested include.path directives.
const maxIncludeDepth = 10

// configLoader reads git's configuration sequence into a Config,
// following include.path and includeIf.<condition>.path as it goes.
type configLoader struct {
	env Env
	cfg *Config
	// gitDir is the repository's git directory as git holds it
	// internally, absGitDir the same made absolute without resolving
	// symbolic links; includeIf "gitdir:" conditions match either.
	// Both are "" outside a repository (conditions are then false).
	gitDir, absGitDir string
	// headBranch returns the branch HEAD points to ("main" for
	// refs/heads/main), for includeIf "onbranch:".
	headBranch func() (string, bool)
	scope      Scope
	depth      int
	// remoteURLs are the remote.*.url values of the whole sequence, for
	// includeIf "hasconfig:remote.*.url:"; read on first use.
	remoteURLs       []string
	remoteURLsLoaded bool
	// collectingURLs is set while reading the sequence to collect
	// remote URLs: every hasconfig condition counts as true then, and
	// files it includes may not set remote URLs.
	collectingURLs bool
	forbidURLs     int
	// seq is the sequence being read, repeated by allRemoteURLs.
	seq configPaths
}

// configPaths are the files of the sequence.
type configPaths struct {
	system   string // "" when GIT_CONFIG_NOSYSTEM
	xdg      string // "" when GIT_CONFIG_GLOBAL is set
	global   string
	local    string // <commondir>/config, "" outside a repository
	worktree string // $GIT_DIR/config.worktree when extensions.worktreeConfig
	// localName and worktreeName are the same files as git names them.
	localName, worktreeName string
	noCmdline               bool
	noRepo                  bool
	noWorktree              bool
}

// systemConfigPath is where git 2.39.5 on the reference system reads its
// system configuration (GIT_CONFIG_SYSTEM overrides it), and
// systemAttributesPath its system attributes (unless GIT_ATTR_NOSYSTEM):
// both in git's sysconfdir, which git's Makefile makes /etc, not
// $(prefix)/etc, when the prefix is /usr.
const (
	systemConfigPath     = "/etc/gitconfig"
	systemAttributesPath = "/etc/gitattributes"
)

func globalConfigPaths(env Env) (system, xdg, global string, err error) {
	nosys, err := env.envBool("GIT_CONFIG_NOSYSTEM", false)
	if err != nil {
		return "", "", "", err
	}
	if !nosys {
		if v, ok := env.Lookup("GIT_CONFIG_SYSTEM"); ok {
			system = filepath.Clean(v)
		} else {
			system = systemConfigPath
		}
	}
	if v, ok := env.Lookup("GIT_CONFIG_GLOBAL"); ok {
		global = v
		return system, "", global, nil
	}
	if home, ok := env.Lookup("HOME"); ok {
		global = home + "/.gitconfig"
	}
	return system, env.xdgConfigHome("config"), global, nil
}

// load reads the whole sequence.
func (l *configLoader) load(p configPaths) error {
	if l.cfg == nil {
		l.cfg = NewConfig()
	}
	l.seq = p
	l.scope = ScopeSystem
	if p.system != "" {
		if err := l.readFile(p.system, p.system); err != nil {
			return err
		}
	}
	l.scope = ScopeGlobal
	if p.xdg != "" {
		if err := l.readFile(p.xdg, p.xdg); err != nil {
			return err
		}
	}
	if p.global != "" {
		if err := l.readFile(p.global, p.global); err != nil {
			return err
		}
	}
	l.scope = ScopeLocal
	if !p.noRepo && p.local != "" {
		if err := l.readFile(p.local, p.localName); err != nil {
			return err
		}
	}
	l.scope = ScopeWorktree
	if !p.noWorktree && p.worktree != "" {
		if err := l.readFile(p.worktree, p.worktreeName); err != nil {
			return err
		}
	}
	l.scope = ScopeCommand
	if !p.noCmdline {
		if err := l.readCommandLine(); err != nil {
			return err
		}
	}
	return nil
}

// readFile parses one configuration file; a missing file is skipped as
// git skips it.
func (l *configLoader) readFile(path, name string) error {
	data, err := fsread.ReadFile(path, 0)
	if err != nil {
		switch {
		case errors.Is(err, syscall.ENOENT), errors.Is(err, syscall.ENOTDIR), errors.Is(err, syscall.EISDIR):
			return nil
		case errors.Is(err, syscall.EACCES) && l.scope == ScopeGlobal:
			return nil
		}
		if _, dir := fsread.DirSize(err); dir {
			// git's access check passes, its fopen fails (EISDIR) with
			// a warning, and the read fails: a command dies of that at
			// its third reading of the configuration, after the
			// warning of each.
			w := "warning: unable to access '" + name + "': " + errnoText(err)
			return &Error{Kind: ErrBadConfig, Msg: "unknown error occurred while reading the configuration files", Err: err,
				Before: []string{w, w, w}}
		}
		return &Error{Kind: ErrBadConfig, Msg: "unable to access '" + path + "': " + errnoText(err), Err: err}
	}
	return l.parse(data, configSource{kind: originFile, name: name, path: path})
}

func (l *configLoader) parse(data []byte, src configSource) error {
	return parseConfig(data, src, func(key, value string, hasValue bool, line int) error {
		return l.emit(src, key, value, hasValue, line)
	})
}

func (l *configLoader) emit(src configSource, key, value string, hasValue bool, line int) error {
	if l.forbidURLs > 0 && isRemoteURLKey(key) {
		return newError(ErrBadConfig, "remote URLs cannot be configured in file directly or indirectly included by includeIf.hasconfig:remote.*.url")
	}
	origin := src.name
	if src.kind == originCmdline {
		origin = ""
	}
	l.cfg.add(ConfigEntry{Key: key, Value: value, HasValue: hasValue, Scope: l.scope, Origin: origin, Line: line})
	if key == "include.path" {
		if err := l.include(src, value, hasValue); err != nil {
			return err
		}
	}
	if cond, ok := strings.CutPrefix(key, "includeif."); ok {
		dot := strings.LastIndexByte(cond, '.')
		if dot >= 0 && cond[dot+1:] == "path" {
			cond = cond[:dot]
			yes, isHasConfig, err := l.conditionTrue(src, cond)
			if err != nil {
				return err
			}
			if yes {
				if isHasConfig && l.collectingURLs {
					l.forbidURLs++
					defer func() { l.forbidURLs-- }()
				}
				return l.include(src, value, hasValue)
			}
		}
	}
	return nil
}

func isRemoteURLKey(key string) bool {
	rest, ok := strings.CutPrefix(key, "remote.")
	if !ok {
		return false
	}
	dot := strings.LastIndexByte(rest, '.')
	return dot >= 0 && rest[dot+1:] == "url"
}

// include reads the file an include directive names: relative paths
// are relative to the including file, "~" is expanded, a missing file
// is ignored.
func (l *configLoader) include(src configSource, value string, hasValue bool) error {
	if !hasValue {
		return &callbackFailure{[]string{"error: missing value for 'include.path'"}}
	}
	p, ok := interpolatePath(value, l.env, false)
	if !ok {
		return &callbackFailure{[]string{"error: could not expand include path '" + value + "'"}}
	}
	name := p
	if !filepath.IsAbs(p) {
		if src.path == "" {
			return newError(ErrBadConfig, "relative config includes must come from files")
		}
		if i := strings.LastIndexByte(src.name, '/'); i >= 0 {
			name = src.name[:i+1] + p
		}
		if i := strings.LastIndexByte(src.path, '/'); i >= 0 {
			p = src.path[:i+1] + p
		}
	}
	if _, err := os.Stat(p); err != nil {
		return nil
	}
	l.depth++
	defer func() { l.depth-- }()
	if l.depth > maxIncludeDepth {
		from := src.name
		if src.kind == originCmdline {
			from = "the command line"
		}
		return newError(ErrBadConfig, "exceeded maximum include depth (%d) while including\n\t%s\nfrom\n\t%s\nThis might be due to circular includes.", maxIncludeDepth, name, from)
	}
	data, err := fsread.ReadFile(p, 0)
	if err != nil {
		if _, dir := fsread.DirSize(err); dir {
			// git's fopen fails (EISDIR) with its warning, and the
			// include fails the line that names it.
			return &callbackFailure{[]string{"warning: unable to access '" + name + "': " + errnoText(err)}}
		}
		return nil
	}
	return l.parse(data, configSource{kind: originFile, name: name, path: p})
}

// conditionTrue evaluates an includeIf condition. Unknown conditions
// are false.
func (l *configLoader) conditionTrue(src configSource, cond string) (yes, hasConfig bool, err error) {
	switch {
	case strings.HasPrefix(cond, "gitdir:"):
		yes, err = l.includeByGitDir(src, cond[len("gitdir:"):], false)
		return yes, false, err
	case strings.HasPrefix(cond, "gitdir/i:"):
		yes, err = l.includeByGitDir(src, cond[len("gitdir/i:"):], true)
		return yes, false, err
	case strings.HasPrefix(cond, "onbranch:"):
		return l.includeByBranch(cond[len("onbranch:"):]), false, nil
	case strings.HasPrefix(cond, "hasconfig:remote.*.url:"):
		if l.collectingURLs {
			return true, true, nil
		}
		glob := cond[len("hasconfig:remote.*.url:"):]
		urls, err := l.allRemoteURLs()
		if err != nil {
			return false, true, err
		}
		for _, u := range urls {
			if wildmatch(glob, u, wmPathname) {
				return true, true, nil
			}
		}
		return false, true, nil
	}
	return false, false, nil
}

// allRemoteURLs reads the configuration sequence once more, with every
// hasconfig condition true, to learn the remote URLs it sets.
func (l *configLoader) allRemoteURLs() ([]string, error) {
	if l.remoteURLsLoaded {
		return l.remoteURLs, nil
	}
	l.remoteURLsLoaded = true
	sub := &configLoader{env: l.env, gitDir: l.gitDir, absGitDir: l.absGitDir, headBranch: l.headBranch, collectingURLs: true}
	if err := sub.load(l.paths()); err != nil {
		return nil, err
	}
	for _, e := range sub.cfg.entries {
		if isRemoteURLKey(e.Key) {
			l.remoteURLs = append(l.remoteURLs, e.Value)
		}
	}
	return l.remoteURLs, nil
}

func (l *configLoader) paths() configPaths { return l.seq }

func (l *configLoader) includeByGitDir(src configSource, cond string, icase bool) (bool, error) {
	if l.gitDir == "" {
		return false, nil
	}
	pattern := cond
	if p, ok := interpolatePath(cond, l.env, true); ok {
		pattern = p
	}
	prefix := 0
	if len(pattern) >= 2 && pattern[0] == '.' && pattern[1] == '/' {
		if src.path == "" {
			return false, newError(ErrBadConfig, "relative config include conditionals must come from files")
		}
		real := realPathOr(src.path)
		slash := strings.LastIndexByte(real, '/')
		pattern = real[:slash] + pattern[1:]
		prefix = slash + 1
	} else if !filepath.IsAbs(pattern) {
		pattern = "**/" + pattern
	}
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	flags := wmPathname
	if icase {
		flags |= wmCasefold
	}
	match := func(text string) bool {
		if prefix > 0 {
			if len(text) < prefix {
				return false
			}
			a, b := pattern[:prefix], text[:prefix]
			if icase {
				if !strings.EqualFold(a, b) {
					return false
				}
			} else if a != b {
				return false
			}
		}
		return wildmatch(pattern[prefix:], text[prefix:], flags)
	}
	if match(realPathOr(l.absGitDir)) {
		return true, nil
	}
	return match(l.absGitDir), nil
}

func (l *configLoader) includeByBranch(cond string) bool {
	if l.headBranch == nil {
		return false
	}
	branch, ok := l.headBranch()
	if !ok {
		return false
	}
	if strings.HasSuffix(cond, "/") {
		cond += "**"
	}
	return wildmatch(cond, branch, wmPathname)
}

// readCommandLine reads the command-line scope: GIT_CONFIG_COUNT with
// GIT_CONFIG_KEY_<n>/GIT_CONFIG_VALUE_<n>, then GIT_CONFIG_PARAMETERS
// (what "git -c k=v" passes to the commands it runs).
func (l *configLoader) readCommandLine() error {
	src := configSource{kind: originCmdline}
	fail := func(format string, args ...any) error {
		e := newError(ErrBadConfig, format, args...)
		return &Error{Kind: ErrBadConfig, Msg: "unable to parse command-line config", Before: []string{"error: " + e.Msg}}
	}
	wrap := func(err error) error {
		if cf, ok := err.(*callbackFailure); ok {
			return &Error{Kind: ErrBadConfig, Msg: "unable to parse command-line config", Before: cf.before}
		}
		var ge *Error
		if errors.As(err, &ge) && ge.Msg != "unable to parse command-line config" {
			if strings.HasPrefix(ge.Msg, "exceeded maximum include depth") || strings.HasPrefix(ge.Msg, "remote URLs cannot") {
				return err
			}
			return &Error{Kind: ErrBadConfig, Msg: "unable to parse command-line config", Before: append(ge.Before, "error: "+ge.Msg)}
		}
		return err
	}
	pair := func(key, value string, hasValue bool) error {
		if key == "" {
			return fail("empty config key")
		}
		canon, err := canonicalKey(key)
		if err != nil {
			return fail("%s", err.Error())
		}
		if err := l.emit(src, canon, value, hasValue, 0); err != nil {
			return wrap(err)
		}
		return nil
	}
	if count, ok := l.env.Lookup("GIT_CONFIG_COUNT"); ok {
		n, end, _ := cnum.Strtoul(count, 10) // strtoul(env, &endp, 10)
		if end != len(count) {
			return fail("bogus count in GIT_CONFIG_COUNT")
		}
		if n > 1<<31-1 {
			return fail("too many entries in GIT_CONFIG_COUNT")
		}
		for i := uint64(0); i < n; i++ {
			kname := "GIT_CONFIG_KEY_" + strconv.FormatUint(i, 10)
			key, ok := l.env.Lookup(kname)
			if !ok {
				return fail("missing config key %s", kname)
			}
			vname := "GIT_CONFIG_VALUE_" + strconv.FormatUint(i, 10)
			value, ok := l.env.Lookup(vname)
			if !ok {
				return fail("missing config value %s", vname)
			}
			if err := pair(key, value, true); err != nil {
				return err
			}
		}
	}
	params, ok := l.env.Lookup("GIT_CONFIG_PARAMETERS")
	if !ok {
		return nil
	}
	bogus := func() error { return fail("bogus format in GIT_CONFIG_PARAMETERS") }
	cur := params
	for cur != "" {
		key, rest, ok := sqDequoteStep(cur)
		if !ok {
			return bogus()
		}
		switch {
		case rest == "" || isConfigSpace(rest[0]):
			// Old style 'key=value'.
			if err := l.parseParameter(key, pair, fail); err != nil {
				return err
			}
			cur = rest
		case rest[0] == '=':
			rest = rest[1:]
			var value string
			hasValue := true
			if rest != "" && rest[0] == '\'' {
				value, rest, ok = sqDequoteStep(rest)
				if !ok || (rest != "" && !isConfigSpace(rest[0])) {
					return bogus()
				}
			} else if rest == "" || isConfigSpace(rest[0]) {
				hasValue = false
			} else {
				return bogus()
			}
			if err := pair(key, value, hasValue); err != nil {
				return err
			}
			cur = rest
		default:
			return bogus()
		}
		for cur != "" && isConfigSpace(cur[0]) {
			cur = cur[1:]
		}
	}
	return nil
}

// parseParameter reads an old-style "key=value" parameter
// (git_config_parse_parameter): the key is trimmed, a missing '=' means
// no value.
func (l *configLoader) parseParameter(text string, pair func(string, string, bool) error, fail func(string, ...any) error) error {
	key, value, hasValue := strings.Cut(text, "=")
	key = strings.TrimFunc(key, func(r rune) bool { return r < 0x80 && isConfigSpace(byte(r)) })
	if key == "" {
		return fail("bogus config parameter: %s", text)
	}
	return pair(key, value, hasValue)
}

func isAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// sqDequoteStep removes one level of shell single quoting from the start
// of s (git's sq_dequote_step): 'abc' and the '\” escape for quotes and
// '!' between quoted parts. rest is what follows the quoted word.
func sqDequoteStep(s string) (word, rest string, ok bool) {
	if s == "" || s[0] != '\'' {
		return "", "", false
	}
	var b strings.Builder
	i := 1
	for {
		if i >= len(s) {
			return "", "", false
		}
		c := s[i]
		if c != '\'' {
			b.WriteByte(c)
			i++
			continue
		}
		i++ // past the closing quote
		if i >= len(s) {
			return b.String(), "", true
		}
		if s[i] == '\\' && i+2 < len(s) && (s[i+1] == '\'' || s[i+1] == '!') && s[i+2] == '\'' {
			b.WriteByte(s[i+1])
			i += 3
			continue
		}
		return b.String(), s[i:], true
	}
}

// realPathOr resolves p to an absolute path without symbolic links,
// returning p made absolute when that fails.
func realPathOr(p string) string {
	if r, err := gitRealPath(p, "/", false); err == nil {
		return r
	}
	return p
}
