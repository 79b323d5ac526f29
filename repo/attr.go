package repo

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/goblame/goblame/internal/cquote"
	"github.com/goblame/goblame/internal/fsread"
	"io/fs"
	"strings"
	"sync"
	"syscall"

	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
)

// Limits git 2.39.5 puts on attribute files.
const (
	attrMaxLineLength = 2048
	attrMaxFileSize   = 100 << 20
)

// attrKind is what a line does to an attribute.
type attrKind uint8

const (
	attrUnknown     attrKind = iota // not decided yet
	attrSet                         // "name"
	attrUnset                       // "-name"
	attrUnspecified                 // "!name"
	attrValue                       // "name=value"
)

type attrSetting struct {
	name  string
	kind  attrKind
	value string
}

// attrPattern is a parsed path pattern (dir.c's parse_path_pattern).
type attrPattern struct {
	text          string
	noWildcardLen int
	mustBeDir     bool
	noDir         bool
	endsWith      bool
}

type attrLine struct {
	macro    string // macro name for "[attr]name ..." lines
	pattern  attrPattern
	settings []attrSetting
}

// attrFile is one source of attributes. origin is the directory its
// patterns are relative to ("" for the top), hasOrigin false for the
// files that are not in the tree.
type attrFile struct {
	origin    string
	hasOrigin bool
	lines     []attrLine
}

// attrChecker holds the attribute files of a repository, read once, as
// git reads them from one place: its directory (dir: .gitattributes files
// and a relative core.attributesFile are read from there) and, when
// useIndex, the index's copy of a .gitattributes missing there (git reads
// it once it has read the index: in a work-tree blame).
type attrChecker struct {
	mu       sync.Mutex
	dir      string
	useIndex bool
	base     []*attrFile // builtin, system, global, top-level .gitattributes
	info     *attrFile   // $GIT_DIR/info/attributes
	dirs     map[string]*attrFile
	index    attrIndex
}

// attrIndex is the index as readTreeAttr reads it: the entries of every
// attribute file it holds, read in one pass (or the whole index, where
// a split or sparse index is read whole).
type attrIndex struct {
	ix     *Index
	passes int // passes over the index file (one at most)
	// broken: the index could not be read; the attribute files it holds
	// are empty from then on.
	broken bool
}

// attrs is the work tree's view of the attributes: read from the top of
// the work tree, with the index's copies (Attributes).
func (r *Repository) attrs() *attrChecker {
	r.attrOnce.Do(func() { r.attrCheck = r.newAttrChecker(r.WorkDir(true), true) })
	return r.attrCheck
}

// commitAttrs is the view of a blame of a commit (CommitAttributes): read
// from where git runs, without the index, which such a blame never reads.
func (r *Repository) commitAttrs() *attrChecker {
	r.commitAttrOnce.Do(func() { r.commitAttrCheck = r.newAttrChecker(r.WorkDir(false), false) })
	return r.commitAttrCheck
}

func (r *Repository) newAttrChecker(dir string, useIndex bool) *attrChecker {
	c := &attrChecker{dirs: map[string]*attrFile{}, dir: dir, useIndex: useIndex}
	c.base = append(c.base, parseAttrText([]byte("[attr]binary -diff -merge -text\n"), "[builtin]", true, r, false))
	if nosys, _ := r.attrNoSystem(); !nosys {
		c.base = append(c.base, orEmpty(r.readAttrFile(systemAttributesPath, systemAttributesPath, true, false)))
	}
	global := r.env.xdgConfigHome("attributes")
	if p, ok, err := r.Config.Path("core.attributesfile", r.env); err == nil && ok {
		global = p
	}
	if global != "" {
		c.base = append(c.base, orEmpty(r.readAttrFile(join(dir, global), global, true, false)))
	}
	top := r.readTreeAttr(c, ".gitattributes", true)
	top.origin, top.hasOrigin = "", true
	c.base = append(c.base, top)
	c.info = orEmpty(r.readAttrFile(r.CommonDir+"/info/attributes", r.commonDirName+"/info/attributes", true, false))
	return c
}

// AttributesErr is the error git dies of when it first reads attributes
// (git_env_bool's "bad boolean config value" for GIT_ATTR_NOSYSTEM), nil
// when there is none. Attributes still answers (as if unset).
func (r *Repository) AttributesErr() error {
	_, err := r.attrNoSystem()
	return err
}

// attrNoSystem is GIT_ATTR_NOSYSTEM, read once, and the error git dies of
// when it is no boolean (it is then false).
func (r *Repository) attrNoSystem() (bool, error) {
	r.attrEnvOnce.Do(func() {
		r.attrNoSys, r.attrErr = r.env.envBool("GIT_ATTR_NOSYSTEM", false)
	})
	return r.attrNoSys, r.attrErr
}

// ignoreCase is core.ignoreCase (git_default_core_config's
// ignore_case; a value that is no boolean reads as false here, git's
// death over it being the settings' check).
func (r *Repository) ignoreCase() bool {
	v, _, err := r.Config.Bool("core.ignorecase")
	return err == nil && v
}

func orEmpty(f *attrFile) *attrFile {
	if f == nil {
		return &attrFile{}
	}
	return f
}

// readTreeAttr reads a .gitattributes file of the work tree (not
// following symbolic links), or its index copy when the file is not
// there, as git does when checking files in.
func (r *Repository) readTreeAttr(c *attrChecker, path string, macroOK bool) *attrFile {
	// git skips them in a bare repository only (is_bare_repository:
	// core.bare and no work tree); without a work tree otherwise (run
	// inside the git directory) it reads them from where it runs.
	if r.Bare {
		return &attrFile{}
	}
	if f := r.readAttrFileIn(c.dir, path, macroOK); f != nil {
		return f
	}
	if !c.useIndex || r.WorkTree == "" {
		return &attrFile{}
	}
	ix := r.attrIndex(&c.index)
	if ix == nil {
		return &attrFile{}
	}
	id, ok := indexBlobForAttr(ix, path)
	if !ok {
		return &attrFile{}
	}
	rd := r.Objects.NewReader()
	typ, data, err := rd.Read(id, nil)
	if err != nil || typ != object.Blob {
		return &attrFile{}
	}
	if len(data) >= attrMaxFileSize {
		r.warn("warning: ignoring overly large gitattributes blob '" + path + "'")
		return &attrFile{}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return parseAttrText(data, path, macroOK, r, false)
}

// attrIndex returns the index entries of the attribute files: x's, or
// read in one pass over the index the first time one is asked for. Not
// the whole index: on gitoxide's 336 KB index, parsing it whole for the
// attributes of gix/src/lib.rs cost 210 of a blame's 727 page faults.
// Nor a pass per directory: under -C the attributes of every candidate
// path are asked for, and a pass for each new directory's file took 27%
// of gitoxide's -C blame of gix/src/lib.rs.
func (r *Repository) attrIndex(x *attrIndex) *Index {
	if x.broken {
		return nil
	}
	if x.ix == nil {
		if ix := r.attrIndexOffer.Load(); ix != nil {
			x.ix = ix // collected by ReadIndexFor's pass
			return ix
		}
		x.passes++
		ix, err := r.readIndexOf(&indexFilter{attrFiles: true})
		if err != nil {
			x.broken = true
			return nil
		}
		x.ix = ix
	}
	return x.ix
}

// indexBlobForAttr finds path in the index at stage 0, or at stage 2
// (ours) during a merge.
func indexBlobForAttr(ix *Index, path string) (oid.ID, bool) {
	entries := ix.Entries(path)
	for _, e := range entries {
		if e.Stage == 0 {
			return e.ID, true
		}
	}
	for _, e := range entries {
		if e.Stage == 2 {
			return e.ID, true
		}
	}
	return oid.ID{}, false
}

// readAttrFile reads an attribute file; nil when it cannot be opened
// (git warns unless it is simply missing).
func (r *Repository) readAttrFile(path, name string, macroOK, noFollow bool) *attrFile {
	f, st, err := fsread.OpenStat(path, noFollow)
	return r.parseAttrFile(f, st, err, name, macroOK)
}

// readAttrFileIn reads the work tree's attribute file rel (symbolic
// links not followed), opened relative to the top of the work tree as
// git opens it.
func (r *Repository) readAttrFileIn(top, rel string, macroOK bool) *attrFile {
	f, st, err := fsread.OpenIn(top, rel, true)
	return r.parseAttrFile(f, st, err, rel, macroOK)
}

// parseAttrFile reads and parses the attribute file f, opened as name
// (st its fstat), or warns of err, the failure to open it.
func (r *Repository) parseAttrFile(f *fsread.File, st fs.FileInfo, err error, name string, macroOK bool) *attrFile {
	if err != nil {
		if _, dir := fsread.DirSize(err); dir {
			// git opens a directory and reads no line from it: an
			// empty file, without a word (and no index copy instead).
			return &attrFile{}
		}
		if errors.Is(err, fsread.ErrNotRegular) {
			// git would block on a FIFO: goblame skips it, and says so.
			r.warn("warning: ignoring gitattributes file '" + name + "': not a regular file")
			return nil
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			r.warn("warning: unable to access '" + name + "': " + errnoText(err))
		}
		return nil
	}
	defer f.Close()
	if st.Size() >= attrMaxFileSize {
		r.warn("warning: ignoring overly large gitattributes file '" + name + "'")
		return nil
	}
	data, err := fsread.ReadAllStat(f, st, name, 0)
	if err != nil {
		return &attrFile{}
	}
	return parseAttrText(data, name, macroOK, r, true)
}

// parseAttrText parses attribute lines. File lines drop a trailing CR
// and a leading UTF-8 BOM, as strbuf_getline does for files.
func parseAttrText(data []byte, src string, macroOK bool, r *Repository, isFile bool) *attrFile {
	af := &attrFile{}
	lineno := 0
	for len(data) > 0 {
		nl := bytes.IndexByte(data, '\n')
		var line []byte
		if nl < 0 {
			line, data = data, nil
		} else {
			line, data = data[:nl], data[nl+1:]
		}
		if isFile {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if lineno == 0 {
				line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
			}
		}
		lineno++
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		if l, ok := parseAttrLine(string(line), src, lineno, macroOK, r); ok {
			af.lines = append(af.lines, l)
		}
	}
	return af
}

const attrBlank = " \t\r\n"

func isAttrBlank(c byte) bool { return strings.IndexByte(attrBlank, c) >= 0 }

func skipBlank(s string) string {
	i := 0
	for i < len(s) && isAttrBlank(s[i]) {
		i++
	}
	return s[i:]
}

func blankIndex(s string) int {
	for i := 0; i < len(s); i++ {
		if isAttrBlank(s[i]) {
			return i
		}
	}
	return len(s)
}

// attrNameValid: [-A-Za-z0-9_.]+, not starting with '-'.
func attrNameValid(name string) bool {
	if name == "" || name[0] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '-' || c == '.' || c == '_' || isDigit(c) || isAlpha(c)) {
			return false
		}
	}
	return true
}

func parseAttrLine(line, src string, lineno int, macroOK bool, r *Repository) (attrLine, bool) {
	cp := skipBlank(line)
	if cp == "" || cp[0] == '#' {
		return attrLine{}, false
	}
	if len(line) >= attrMaxLineLength {
		r.warn(fmt.Sprintf("warning: ignoring overly long attributes line %d", lineno))
		return attrLine{}, false
	}
	var name, states string
	printed := cp // what git prints as the name: the rest of the line
	if unq, rest, ok := unquoteC(cp); ok {
		name, states, printed = unq, rest, unq
	} else {
		n := blankIndex(cp)
		name, states = cp[:n], cp[n:]
	}
	var l attrLine
	if len(name) > len("[attr]") && strings.HasPrefix(name, "[attr]") {
		if !macroOK {
			r.warn(fmt.Sprintf("%s not allowed: %s:%d", printed, src, lineno))
			return attrLine{}, false
		}
		m := skipBlank(name[len("[attr]"):])
		m = m[:blankIndex(m)]
		if !attrNameValid(m) {
			r.warn(fmt.Sprintf("%s is not a valid attribute name: %s:%d", m, src, lineno))
			return attrLine{}, false
		}
		l.macro = m
	}
	states = skipBlank(states)
	// First pass: validate every state, as git does before keeping the line.
	for cp := states; cp != ""; {
		end := blankIndex(cp)
		tok := cp[:end]
		n := tok
		if eq := strings.IndexByte(tok, '='); eq >= 0 {
			n = tok[:eq]
		}
		if n != "" && (n[0] == '-' || n[0] == '!') {
			n = n[1:]
		}
		if !attrNameValid(n) {
			r.warn(fmt.Sprintf("%s is not a valid attribute name: %s:%d", n, src, lineno))
			return attrLine{}, false
		}
		cp = skipBlank(cp[end:])
	}
	if l.macro == "" {
		p := parsePathPattern(name)
		if strings.HasPrefix(name, "!") {
			r.warn("warning: Negative patterns are ignored in git attributes")
			r.warn("Use '\\!' for literal leading exclamation.")
			return attrLine{}, false
		}
		l.pattern = p
	}
	for cp := states; cp != ""; {
		end := blankIndex(cp)
		tok := cp[:end]
		var s attrSetting
		switch {
		case tok[0] == '-':
			s = attrSetting{name: stripValue(tok[1:]), kind: attrUnset}
		case tok[0] == '!':
			s = attrSetting{name: stripValue(tok[1:]), kind: attrUnspecified}
		default:
			if eq := strings.IndexByte(tok, '='); eq >= 0 {
				s = attrSetting{name: tok[:eq], kind: attrValue, value: tok[eq+1:]}
			} else {
				s = attrSetting{name: tok, kind: attrSet}
			}
		}
		l.settings = append(l.settings, s)
		cp = skipBlank(cp[end:])
	}
	return l, true
}

// stripValue drops "=value" from "-name=value" (git takes the name up to
// '=' there too).
func stripValue(s string) string {
	if i := strings.IndexByte(s, '='); i >= 0 {
		return s[:i]
	}
	return s
}

// unquoteC reads a C-quoted string at the start of s (cquote.Unquote)
// and returns it with the rest of s.
func unquoteC(s string) (out, rest string, ok bool) {
	u, n, ok := cquote.Unquote([]byte(s))
	if !ok {
		return "", "", false
	}
	return string(u), s[n:], true
}

// parsePathPattern is dir.c's parse_path_pattern for attribute lines.
func parsePathPattern(p string) attrPattern {
	p = strings.TrimPrefix(p, "!")
	var pat attrPattern
	if strings.HasSuffix(p, "/") {
		p = p[:len(p)-1]
		pat.mustBeDir = true
	}
	pat.noDir = !strings.Contains(p, "/")
	pat.noWildcardLen = simpleLength(p)
	pat.endsWith = strings.HasPrefix(p, "*") && simpleLength(p[1:]) == len(p)-1
	pat.text = p
	return pat
}

// simpleLength is the length of the prefix without glob characters.
func simpleLength(s string) int {
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			return i
		}
	}
	return len(s)
}

// matches is path_matches: base is the directory of the file the
// pattern came from. icase is core.ignoreCase: names compare without
// regard to the case of ASCII letters (fspathncmp, WM_CASEFOLD).
func (p *attrPattern) matches(path string, basenameOffset int, base string, icase bool) bool {
	isDir := strings.HasSuffix(path, "/")
	if p.mustBeDir && !isDir {
		return false
	}
	end := len(path)
	if isDir {
		end--
	}
	flags := 0
	if icase {
		flags = wmCasefold
	}
	if p.noDir {
		name := path[basenameOffset:end]
		switch {
		case p.noWildcardLen == len(p.text):
			return pathEqual(name, p.text, icase)
		case p.endsWith:
			return len(p.text)-1 <= len(name) && pathEqual(name[len(name)-(len(p.text)-1):], p.text[1:], icase)
		}
		return wildmatch(p.text, name, flags)
	}
	return matchPathname(path[:end], base, p.text, p.noWildcardLen, flags)
}

// pathEqual is fspathncmp's equality: with icase, ASCII letters compare
// without regard to case (strncasecmp).
func pathEqual(a, b string, icase bool) bool {
	if !icase || len(a) != len(b) {
		return a == b
	}
	for i := 0; i < len(a); i++ {
		if foldByte(a[i], wmCasefold) != foldByte(b[i], wmCasefold) {
			return false
		}
	}
	return true
}

// matchPathname is dir.c's match_pathname: pattern relative to base,
// matched with WM_PATHNAME after its literal prefix (flags: wmCasefold
// under core.ignoreCase, which fspathncmp also honours).
func matchPathname(path, base, pattern string, prefix, flags int) bool {
	icase := flags&wmCasefold != 0
	if strings.HasPrefix(pattern, "/") {
		pattern = pattern[1:]
		prefix--
	}
	if len(path) < len(base)+1 || (base != "" && path[len(base)] != '/') || !pathEqual(path[:len(base)], base, icase) {
		return false
	}
	name := path
	if base != "" {
		name = path[len(base)+1:]
	}
	if prefix > 0 {
		if prefix > len(name) || !pathEqual(pattern[:prefix], name[:prefix], icase) {
			return false
		}
		pattern, name = pattern[prefix:], name[prefix:]
		if pattern == "" && name == "" {
			return true
		}
	}
	return wildmatch(pattern, name, wmPathname|flags)
}

// stack returns the attribute files that apply to path, lowest
// precedence first: builtin, system, global, top, each directory's
// .gitattributes down to path's directory, info/attributes.
func (r *Repository) attrStack(c *attrChecker, path string) []*attrFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	stack := append([]*attrFile(nil), c.base...)
	dirlen := 0
	if i := lastSlash(path); i >= 0 {
		dirlen = i
	}
	dir := path[:dirlen]
	for i := 0; i < len(dir); {
		// An absolute path's first directory is "/x", as git's
		// prepare_attr_stack takes it (the --contents file of a
		// work-tree blame can be anywhere).
		from := i
		if i == 0 && dir[0] == '/' {
			from = 1
		}
		j := strings.IndexByte(dir[from:], '/')
		if j < 0 {
			j = len(dir)
		} else {
			j += from
		}
		sub := dir[:j]
		f, ok := c.dirs[sub]
		if !ok {
			f = r.readTreeAttr(c, sub+"/.gitattributes", false)
			f.origin, f.hasOrigin = sub, true
			c.dirs[sub] = f
		}
		stack = append(stack, f)
		i = j + 1
	}
	if c.info != nil {
		stack = append(stack, c.info)
	}
	return stack
}

// lastSlash is the last '/' not at the very end of path.
func lastSlash(path string) int {
	last := -1
	for i := 0; i+1 < len(path); i++ {
		if path[i] == '/' {
			last = i
		}
	}
	return last
}

// Attr is one attribute of a path.
type Attr struct {
	Name string
	// Value is "set", "unset", "unspecified" or the assigned value.
	Value string
}

// collect computes the attributes of path: the topmost (last) matching
// line decides each attribute, and a macro set on a path sets its
// attributes in turn. It returns the decided values and the order in
// which git's attribute dictionary would list names.
func (r *Repository) collectAttrs(c *attrChecker, path string) (map[string]attrSetting, []string) {
	stack := r.attrStack(c, path)
	var order []string
	seen := map[string]bool{}
	note := func(n string) {
		if !seen[n] {
			seen[n] = true
			order = append(order, n)
		}
	}
	// git registers names as it parses files: the bootstrap files, then
	// info/attributes, then the directory files.
	regOrder := append([]*attrFile(nil), c.base...)
	if c.info != nil {
		regOrder = append(regOrder, c.info)
	}
	for _, f := range stack[len(c.base):] {
		if f != c.info {
			regOrder = append(regOrder, f)
		}
	}
	for _, f := range regOrder {
		for _, l := range f.lines {
			if l.macro != "" {
				note(l.macro)
			}
			for _, s := range l.settings {
				note(s.name)
			}
		}
	}
	macros := map[string]*attrLine{}
	for i := len(stack) - 1; i >= 0; i-- {
		f := stack[i]
		for j := len(f.lines) - 1; j >= 0; j-- {
			l := &f.lines[j]
			if l.macro != "" && macros[l.macro] == nil {
				macros[l.macro] = l
			}
		}
	}
	decided := map[string]attrSetting{}
	basenameOffset := lastSlash(path) + 1
	icase := r.ignoreCase()
	var fillOne func(l *attrLine)
	fillOne = func(l *attrLine) {
		for k := len(l.settings) - 1; k >= 0; k-- {
			s := l.settings[k]
			if _, done := decided[s.name]; done {
				continue
			}
			decided[s.name] = s
			if m := macros[s.name]; m != nil && s.kind == attrSet {
				fillOne(m)
			}
		}
	}
	for i := len(stack) - 1; i >= 0; i-- {
		f := stack[i]
		base := ""
		if f.hasOrigin {
			base = f.origin
		}
		for j := len(f.lines) - 1; j >= 0; j-- {
			l := &f.lines[j]
			if l.macro != "" {
				continue
			}
			if l.pattern.matches(path, basenameOffset, base, icase) {
				fillOne(l)
			}
		}
	}
	return decided, order
}

func (s attrSetting) String() string {
	switch s.kind {
	case attrSet:
		return "set"
	case attrUnset:
		return "unset"
	case attrValue:
		return s.value
	}
	return "unspecified"
}

// Attributes returns the gitattributes of path (relative to the top of
// the work tree) as "git check-attr" reports them: "set", "unset",
// "unspecified" or the value. With names, every name is in the result;
// without, every attribute that is not unspecified (check-attr -a).
// Sources, lowest precedence first: the builtin "binary" macro
// (-diff -merge -text), /etc/gitattributes (unless
// GIT_ATTR_NOSYSTEM), core.attributesFile (default
// $XDG_CONFIG_HOME/git/attributes), .gitattributes files from the top
// of the work tree down to path's directory (from the index when not
// checked out; not followed if symbolic links), $GIT_DIR/info/attributes.
func (r *Repository) Attributes(path string, names ...string) map[string]string {
	return r.attributesOf(r.attrs(), path, names)
}

// CommitAttributes is Attributes as a blame of a commit reads them (git
// blame with a revision): the .gitattributes files are read from where
// git runs (the top of the work tree when it started inside it; none
// found from elsewhere), never from the index, which such a blame does
// not read.
func (r *Repository) CommitAttributes(path string, names ...string) map[string]string {
	return r.attributesOf(r.commitAttrs(), path, names)
}

func (r *Repository) attributesOf(c *attrChecker, path string, names []string) map[string]string {
	decided, _ := r.collectAttrs(c, path)
	out := map[string]string{}
	if len(names) > 0 {
		for _, n := range names {
			s, ok := decided[n]
			if !ok {
				s.kind = attrUnspecified
			}
			out[n] = s.String()
		}
		return out
	}
	for n, s := range decided {
		if s.kind != attrUnspecified {
			out[n] = s.String()
		}
	}
	return out
}

// AllAttributes returns what "git check-attr -a" prints for path, in
// its order.
func (r *Repository) AllAttributes(path string) []Attr {
	decided, order := r.collectAttrs(r.attrs(), path)
	var out []Attr
	for _, n := range order {
		s, ok := decided[n]
		if !ok || s.kind == attrUnspecified {
			continue
		}
		out = append(out, Attr{Name: n, Value: s.String()})
	}
	return out
}
