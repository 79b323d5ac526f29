package repo

import (
	"bytes"
	"errors"
	"github.com/goblame/goblame/internal/cquote"
	"github.com/goblame/goblame/internal/fsread"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
)

// Repository is an opened git repository: where its files are, its
// object format and configuration, and (once opened) its object store.
type Repository struct {
	// GitDir is the repository's git directory ($GIT_DIR: ".git" of a
	// work tree, the bare repository itself, or
	// <common>/worktrees/<id> of a linked worktree); CommonDir holds
	// what worktrees share (objects, refs, packed-refs, config). Both
	// are absolute with symbolic links resolved, as
	// "git rev-parse --path-format=absolute --git-dir --git-common-dir"
	// prints them.
	GitDir, CommonDir string
	// WorkTree is the top of the work tree, "" when there is none.
	WorkTree string
	// Prefix is the working directory relative to WorkTree with a
	// trailing slash ("sub/dir/"), "" at the top or outside the work
	// tree: git's "prefix".
	Prefix string
	// Bare is what "git rev-parse --is-bare-repository" prints.
	Bare   bool
	Format oid.Format
	Config *Config
	// InCommitGraph, when set, reports whether the commit-graph git
	// would use holds the commit id (asked only where a lookup failed;
	// see resolver.lookupLines).
	InCommitGraph func(id oid.ID) bool
	// CommitGraphParents, when set, gives the parents the commit-graph
	// git would use lists for the commit id (found false where it does
	// not hold it): git's parse_commit reads them there for the commits
	// a "~N" reaches past the one named. Its error is git's death there.
	CommitGraphParents func(id oid.ID) (parents []oid.ID, found bool, err error)
	// CommitGraphTime, when set, gives the commit date the commit-graph
	// git would use lists for the commit id (found false where it does
	// not hold it): a commit parse_commit reads there is ordered by it.
	// Its error is git's death there.
	CommitGraphTime func(id oid.ID) (time uint64, found bool, err error)
	// CommitGraphRows, when set, gives the commit-graph git would use,
	// read by row, for walks over many commits (the merge-base walk:
	// mergebase.go); nil where git would use none.
	CommitGraphRows func() GraphRows
	// CommitGraphInfo, when set, is git's death reading the
	// commit-graph's data for the commit id after parsing it from its
	// object (load_commit_graph_info), or nil.
	CommitGraphInfo func(id oid.ID) error
	// Objects is the object store, opened with the alternates
	// (objects/info/alternates, GIT_ALTERNATE_OBJECT_DIRECTORIES),
	// GIT_OBJECT_DIRECTORY, core.multiPackIndex, and the replace refs
	// unless GIT_NO_REPLACE_OBJECTS or core.useReplaceRefs=false.
	Objects *odb.DB
	// WarningHandler, when set, receives warning lines produced after
	// Discover (e.g. "warning: refname 'x' is ambiguous." while resolving
	// a revision) instead of Warnings. Set it before using the
	// repository from several goroutines.
	WarningHandler func(line string)
	// Warnings are lines git prints to standard error while setting up
	// ("warning: core.bare and core.worktree do not make sense"), with
	// their prefix, for the command line to print.
	Warnings []string

	env Env
	// fsyncObjectFilesWarned: CheckDefaultConfig gave git's deprecation
	// warning for core.fsyncObjectFiles (once a process in git).
	fsyncObjectFilesWarned bool
	// gitDirName and commonDirName are the paths as git holds them
	// internally (possibly relative to the work-tree top, e.g. ".git"),
	// used where git's messages name files.
	gitDirName, commonDirName string
	// objectDir is GIT_OBJECT_DIRECTORY or <common>/objects;
	// objectDirName is how git names it.
	objectDir, objectDirName string
	// partialClone is extensions.partialClone (objects may be missing).
	partialClone string
	// bareCfg is core.bare as setup saw it (-1 unset).
	bareCfg int
	// worktreeConfig is extensions.worktreeConfig.
	worktreeConfig bool
	// gitCwd is the directory git works in after setup.
	gitCwd string

	refsOnce sync.Once
	refs     *refStore
	replaced map[oid.ID]oid.ID

	attrOnce  sync.Once
	attrCheck *attrChecker
	// attrIndexOffer holds the attribute files' index entries that
	// ReadIndexFor's pass over the index collected, for attrCheck's
	// first need of them (no second pass).
	attrIndexOffer atomic.Pointer[Index]
	// commitAttrOnce makes commitAttrCheck, the attributes as a blame
	// of a commit reads them (CommitAttributes).
	commitAttrOnce  sync.Once
	commitAttrCheck *attrChecker
	// attrNoSys is GIT_ATTR_NOSYSTEM and attrErr what git dies of when
	// it first reads attributes (a GIT_ATTR_NOSYSTEM that is no
	// boolean), read once (attrNoSystem).
	attrEnvOnce sync.Once
	attrNoSys   bool
	attrErr     error

	// advisedDefaultBranch: git's advice about the default branch name
	// was given (git gives it once a process).
	advisedDefaultBranch atomic.Bool
}

// ObjectDir returns the primary object directory (GIT_OBJECT_DIRECTORY
// or <common>/objects).
func (r *Repository) ObjectDir() string { return r.objectDir }

// WorkDir is the directory git works in: after its setup, the top of the
// work tree when it started inside it, else the directory it started in;
// once a work-tree blame's setup_work_tree went to the top of the work
// tree (inWorkTree), there. Relative names in the environment and the
// configuration are taken from it, and programs run in it.
func (r *Repository) WorkDir(inWorkTree bool) string {
	if inWorkTree && r.WorkTree != "" {
		return r.WorkTree
	}
	return r.gitCwd
}

// Env returns the environment the repository was discovered with.
func (r *Repository) Env() Env { return r.env }

// PartialClone returns the promisor remote of a partial clone
// (extensions.partialClone), "" otherwise.
func (r *Repository) PartialClone() string { return r.partialClone }

// GitDirName returns the git directory as git itself names it in
// messages after setting up (".git" when discovered from inside a work
// tree, whose top is then git's working directory).
func (r *Repository) GitDirName() string { return r.gitDirName }

// discoverer holds the state of one Discover call.
type discoverer struct {
	env Env
	cwd string // physical working directory
	// protected is the configuration git trusts for safe.* settings:
	// system, global and command line (read on first use).
	protected    *Config
	protectedErr error
	protectedSet bool
	warnings     []string
}

// Discover finds the repository git would use when run in env.Cwd with
// env's variables, following git 2.39.5's setup_git_directory: GIT_DIR
// (a directory or a .git file), else a walk up from the working
// directory looking for a .git file, a .git directory or a bare
// repository, stopping at GIT_CEILING_DIRECTORIES entries and (unless
// GIT_DISCOVERY_ACROSS_FILESYSTEM) at filesystem boundaries; then
// GIT_WORK_TREE, core.worktree, core.bare, GIT_COMMON_DIR and commondir
// files, the repository format version and extensions, and the
// safe.directory ownership check. It then reads the configuration.
//
// Errors carry git's messages (see Error); a failed walk is
// ErrNotRepository itself.
func Discover(env Env) (*Repository, error) {
	if env.Cwd == "" || !filepath.IsAbs(env.Cwd) {
		// (A caller whose getcwd failed, as in a directory deleted
		// since: git's message names the error.)
		msg := "Unable to read current working directory"
		if _, err := os.Getwd(); err != nil {
			msg += ": " + errnoText(err)
		}
		return nil, newError(ErrNotRepository, "%s", msg)
	}
	cwd, err := physicalPath(env.Cwd)
	if err != nil {
		return nil, &Error{Kind: ErrNotRepository, Msg: "Unable to read current working directory: " + errnoText(err), Err: err}
	}
	d := &discoverer{env: env, cwd: cwd}
	r, err := d.discover()
	if err != nil {
		return nil, err
	}
	r.Warnings = append(d.warnings, r.Warnings...)
	if err := r.loadConfig(); err != nil {
		return nil, err
	}
	// The full configuration's core.bare is what git consults from
	// then on (also a value in the common configuration that setup
	// ignored for a linked worktree).
	if b, ok, err := r.Config.Bool("core.bare"); err != nil {
		return nil, err
	} else if ok {
		r.bareCfg = 0
		if b {
			r.bareCfg = 1
		}
	}
	r.Bare = r.bareCfg != 0 && r.WorkTree == ""
	if err := r.openObjects(); err != nil {
		return nil, err
	}
	return r, nil
}

// physicalPath makes p absolute with symbolic links resolved, as getcwd
// reports a directory.
func physicalPath(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	return filepath.Abs(r)
}

func (d *discoverer) discover() (*Repository, error) {
	if gitDir, ok := d.env.Lookup("GIT_DIR"); ok {
		abs := join(d.cwd, gitDir)
		if gitDir == "" {
			// git appends "/HEAD" and the rest to the name as it is:
			// an empty one asks the root directory, not the cwd.
			abs = ""
		}
		return d.explicit(gitDir, abs, true)
	}
	return d.walk()
}

// walk searches from the working directory upward.
func (d *discoverer) walk() (*Repository, error) {
	dir := d.cwd
	ceil := -1
	if v, ok := d.env.Lookup("GIT_CEILING_DIRECTORIES"); ok {
		ceil = longestAncestor(dir, ceilingDirs(v))
	}
	across, err := d.env.envBool("GIT_DISCOVERY_ACROSS_FILESYSTEM", false)
	if err != nil {
		return nil, err
	}
	var device uint64
	if !across {
		device, err = deviceOf(dir)
		if err != nil {
			return nil, newError(ErrNotRepository, "failed to stat '%s': %s", dir, errnoText(err))
		}
	}
	for {
		candidate := dir + "/.git"
		if dir == "/" {
			candidate = "/.git"
		}
		target, gitfileErr := resolveGitFile(candidate, candidate, d.env)
		if gitfileErr != nil {
			return nil, gitfileErr
		}
		gitDirPath := ""
		gitFile := ""
		if target != "" {
			gitFile = candidate
			gitDirPath = target
		} else if isGitDirectory(candidate, d.env) {
			gitDirPath = candidate
		}
		if gitDirPath != "" {
			ok, err := d.ownershipOK(gitFile, dir, gitDirPath)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, dubiousOwnership(dir)
			}
			name := ".git"
			if target != "" {
				name = target
			}
			return d.discovered(name, gitDirPath, dir)
		}
		if isGitDirectory(dir, d.env) {
			explicitOnly, err := d.bareOnlyExplicit()
			if err != nil {
				return nil, err
			}
			if explicitOnly {
				return nil, newError(ErrNotRepository, "cannot use bare repository '%s' (safe.bareRepository is 'explicit')", dir)
			}
			ok, err := d.ownershipOK("", "", dir)
			if err != nil {
				return nil, err
			}
			if !ok {
				return nil, dubiousOwnership(dir)
			}
			return d.bare(dir)
		}
		if dir == "/" {
			return nil, ErrNotRepository
		}
		parent := dir[:strings.LastIndexByte(dir, '/')]
		if len(parent) <= ceil {
			return nil, ErrNotRepository
		}
		if parent == "" {
			parent = "/"
		}
		dir = parent
		if !across {
			dev, err := deviceOf(dir)
			if err != nil {
				return nil, newError(ErrNotRepository, "failed to stat '%s': %s", dir, errnoText(err))
			}
			if dev != device {
				return nil, newError(ErrNotRepository, "not a git repository (or any parent up to mount point %s)\nStopping at filesystem boundary (GIT_DISCOVERY_ACROSS_FILESYSTEM not set).", dir)
			}
		}
	}
}

func dubiousOwnership(path string) error {
	q := sqQuotePretty(path)
	return newError(ErrDubiousOwnership, "detected dubious ownership in repository at '%s'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory %s", path, q)
}

// ceilingDirs parses GIT_CEILING_DIRECTORIES: colon-separated absolute
// paths, canonicalised unless an empty entry came before them; relative
// and unresolvable entries are dropped.
func ceilingDirs(v string) []string {
	var out []string
	emptySeen := false
	for _, c := range strings.Split(v, ":") {
		switch {
		case c == "":
			emptySeen = true
		case !filepath.IsAbs(c):
		case emptySeen:
			out = append(out, c)
		default:
			r, err := realPath(c)
			if err == nil {
				out = append(out, r)
			}
		}
	}
	return out
}

// longestAncestor is git's longest_ancestor_length: the length of the
// longest entry that is a proper ancestor directory of path, or -1.
func longestAncestor(path string, prefixes []string) int {
	if path == "/" {
		return -1
	}
	best := -1
	for _, c := range prefixes {
		n := len(c)
		if n > 0 && c[n-1] == '/' {
			n--
		}
		if len(path) <= n+1 || path[:n] != c[:n] || path[n] != '/' {
			continue
		}
		if n > best {
			best = n
		}
	}
	return best
}

func deviceOf(path string) (uint64, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return 0, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return uint64(st.Dev), nil
}

// realPath resolves an absolute path as git's realpath does (only the
// last component may be missing).
func realPath(p string) (string, error) { return gitRealPath(p, "/", false) }

// join resolves p against base unless it is absolute.
func join(base, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return base + "/" + p
}

// readGitFile reads a ".git" file: "gitdir: <path>". abs is the file's
// absolute path, name the same path as git names it in messages. It
// returns ("", "", nil) when the file is not a regular file (or does not
// exist), and otherwise the named directory, both as git names it and
// made absolute. A file git cannot use is an error with git's wording.
func readGitFile(abs, name string) (targetName, targetAbs string, err error) {
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() {
		return "", "", nil
	}
	if st.Size() > 1<<20 {
		return "", "", newError(ErrNotRepository, "too large to be a .git file: '%s'", name)
	}
	buf, err := fsread.ReadFile(abs, 0)
	if err != nil {
		return "", "", &Error{Kind: ErrNotRepository, Msg: "error opening '" + name + "': " + errnoText(err), Err: err}
	}
	if !bytes.HasPrefix(buf, []byte("gitdir: ")) {
		return "", "", newError(ErrNotRepository, "invalid gitfile format: %s", name)
	}
	for len(buf) > 0 && (buf[len(buf)-1] == '\n' || buf[len(buf)-1] == '\r') {
		buf = buf[:len(buf)-1]
	}
	if len(buf) < 9 {
		return "", "", newError(ErrNotRepository, "no path in gitfile: %s", name)
	}
	dir := cString(string(buf[8:]))
	if filepath.IsAbs(dir) {
		return dir, dir, nil
	}
	targetName, targetAbs = dir, dir
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		targetName = name[:i+1] + dir
	}
	targetAbs = abs[:strings.LastIndexByte(abs, '/')+1] + dir
	return targetName, targetAbs, nil
}

// resolveGitFile is readGitFile plus the checks git makes on the target:
// it must be a git directory, and it is returned as a real path ("" if
// abs is no .git file).
func resolveGitFile(abs, name string, env Env) (string, error) {
	targetName, targetAbs, err := readGitFile(abs, name)
	if err != nil || targetAbs == "" {
		return "", err
	}
	if !isGitDirectory(targetAbs, env) {
		return "", newError(ErrNotRepository, "not a git repository: %s", targetName)
	}
	r, err := realPath(targetAbs)
	if err != nil {
		return "", newError(ErrNotRepository, "not a git repository: %s", targetName)
	}
	return r, nil
}

// isGitDirectory is git's is_git_directory: a valid HEAD, an objects
// directory (or GIT_OBJECT_DIRECTORY) and a refs directory under the
// common directory.
func isGitDirectory(dir string, env Env) bool {
	if !validHeadRef(dir + "/HEAD") {
		return false
	}
	common, _, err := commonDirOf(dir, env)
	if err != nil {
		return false
	}
	if objdir, ok := env.Lookup("GIT_OBJECT_DIRECTORY"); ok {
		if syscall.Access(objdir, 1) != nil {
			return false
		}
	} else if syscall.Access(common+"/objects", 1) != nil {
		return false
	}
	return syscall.Access(common+"/refs", 1) == nil
}

// validHeadRef is validate_headref: a symlink into refs/, a "ref:
// refs/..." file, or a file starting with a hex object name.
func validHeadRef(path string) bool {
	st, err := os.Lstat(path)
	if err != nil {
		return false
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(path)
		return err == nil && len(target) < 256 && strings.HasPrefix(target, "refs/")
	}
	f, err := fsread.Open(path, false) // a FIFO is no HEAD, and must not block
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 255)
	n, _ := readFull(f, buf)
	buf = buf[:n]
	if i := bytes.IndexByte(buf, 0); i >= 0 {
		buf = buf[:i]
	}
	if rest, ok := bytes.CutPrefix(buf, []byte("ref:")); ok {
		rest = bytes.TrimLeft(rest, " \t\n\r")
		if bytes.HasPrefix(rest, []byte("refs/")) {
			return true
		}
	}
	// Before the object format is known git checks for SHA-1 length.
	if len(buf) < 40 {
		return false
	}
	for _, c := range buf[:40] {
		if !oid.IsHexDigit(c) {
			return false
		}
	}
	return true
}

func readFull(f *fsread.File, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// commonDirOf returns the common directory of gitDir: GIT_COMMON_DIR,
// else the real path named by its commondir file, else gitDir itself.
// has reports whether it differs by design (either of the first two).
func commonDirOf(gitDir string, env Env) (common string, has bool, err error) {
	if v, ok := env.Lookup("GIT_COMMON_DIR"); ok {
		return v, true, nil
	}
	data, err := fsread.ReadFile(gitDir+"/commondir", 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return gitDir, false, nil
		}
		if _, serr := os.Stat(gitDir + "/commondir"); serr != nil {
			return gitDir, false, nil
		}
		return "", false, newError(ErrNotRepository, "failed to read %s/commondir: %s", gitDir, errnoText(err))
	}
	for len(data) > 0 && (data[len(data)-1] == '\n' || data[len(data)-1] == '\r') {
		data = data[:len(data)-1]
	}
	p := cString(string(data))
	if !filepath.IsAbs(p) {
		p = gitDir + "/" + p
	}
	r, err := realPath(p)
	if err != nil {
		return p, true, nil
	}
	return r, true, nil
}

// sqQuotePretty quotes s for a shell only when it needs it, as git's
// sq_quote_buf_pretty does.
func sqQuotePretty(s string) string {
	if s == "" {
		return "''"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isAlpha(c) || isDigit(c) || strings.IndexByte("+,-./:=@_^", c) >= 0) {
			return cquote.SingleQuote(s)
		}
	}
	return s
}
