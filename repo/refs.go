package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/oid"
)

// maxSymrefDepth is how many symbolic refs git follows (SYMREF_MAXDEPTH).
const maxSymrefDepth = 5

// refStore reads refs of the files backend: loose ref files under the
// git directory (HEAD, pseudo-refs and the per-worktree families) or the
// common directory (everything else), then packed-refs.
type refStore struct {
	gitDir, commonDir string
	format            oid.Format
	// commonName is the common directory as git names it in messages.
	commonName string

	packedOnce sync.Once
	packed     []byte // records after the header, sorted
	packedErr  error
	packedPath string
}

func (r *Repository) refStore() *refStore {
	r.refsOnce.Do(func() {
		r.refs = &refStore{gitDir: r.GitDir, commonDir: r.CommonDir, format: r.Format, commonName: r.commonDirName}
	})
	return r.refs
}

// refStatus classifies the outcome of reading one ref (git's
// failure_errno and REF_ISBROKEN).
type refStatus uint8

const (
	refOK      refStatus = iota
	refMissing           // ENOENT, EISDIR, ENOTDIR: try elsewhere
	refBroken            // the file exists but is not a ref
	refError             // another I/O error
)

// rawRef is one ref file read without following symbolic refs.
type rawRef struct {
	id     oid.ID
	target string // symbolic ref target ("refs/heads/main")
	symref bool
	status refStatus
	packed bool
}

// isPseudorefSyntax reports names made of upper-case letters, '-' and
// '_' (HEAD, MERGE_HEAD, ...), which live in the per-worktree directory.
func isPseudorefSyntax(name string) bool {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('A' <= c && c <= 'Z') && c != '-' && c != '_' {
			return false
		}
	}
	return true
}

func isPerWorktreeRef(name string) bool {
	return strings.HasPrefix(name, "refs/worktree/") ||
		strings.HasPrefix(name, "refs/bisect/") ||
		strings.HasPrefix(name, "refs/rewritten/")
}

func isCurrentWorktreeRef(name string) bool {
	return isPseudorefSyntax(name) || isPerWorktreeRef(name)
}

// refDir splits a ref name as git's parse_worktree_ref does: the git
// directory of the worktree whose ref it is, and its name there.
// "worktrees/<id>/<ref>" and "main-worktree/<ref>" name another
// worktree's own refs (HEAD, refs/bisect/, ...); "worktrees/<id>" alone
// is git's error case, a ref with no name.
func (s *refStore) refDir(name string) (dir, bare string) {
	if rest, ok := strings.CutPrefix(name, "worktrees/"); ok {
		slash := strings.IndexByte(rest, '/')
		if slash < 0 {
			return s.commonDir + "/worktrees/" + rest, ""
		}
		if bare := rest[slash+1:]; isCurrentWorktreeRef(bare) {
			return s.commonDir + "/worktrees/" + rest[:slash], bare
		}
	}
	if rest, ok := strings.CutPrefix(name, "main-worktree/"); ok && isCurrentWorktreeRef(rest) {
		return s.commonDir, rest
	}
	if isCurrentWorktreeRef(name) {
		return s.gitDir, name
	}
	return s.commonDir, name
}

// refPath is where the loose file of a ref lives (files_ref_path).
func (s *refStore) refPath(name string) string {
	dir, bare := s.refDir(name)
	return dir + "/" + bare
}

// reflogPath is where the reflog of a ref lives (files_reflog_path).
func (s *refStore) reflogPath(name string) string {
	dir, bare := s.refDir(name)
	return dir + "/logs/" + bare
}

// readRaw reads one ref: the loose file, else (when absent) its
// packed-refs record.
func (s *refStore) readRaw(name string) (rawRef, error) {
	path := s.refPath(name)
	for retry := 0; ; retry++ {
		st, err := os.Lstat(path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				if errors.Is(err, syscall.ENOTDIR) {
					return rawRef{status: refMissing}, nil
				}
				return rawRef{status: refError}, nil
			}
			return s.readPacked(name)
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				if retry < 3 {
					continue
				}
				return rawRef{status: refError}, nil
			}
			if strings.HasPrefix(target, "refs/") && checkRefnameFormat(target, false) {
				return rawRef{target: target, symref: true}, nil
			}
			st, err = os.Stat(path)
			if err != nil {
				return rawRef{status: refMissing}, nil
			}
		}
		if st.IsDir() {
			r, err := s.readPacked(name)
			if err != nil || r.status != refOK {
				return rawRef{status: refMissing}, err
			}
			return r, nil
		}
		f, err := fsread.Open(path, false) // never blocks on a FIFO
		if err != nil {
			if errors.Is(err, fsread.ErrNotRegular) {
				// git blocks on a FIFO here; goblame says what it found.
				return rawRef{status: refError}, &Error{Msg: "cannot read ref '" + name + "': " + err.Error(), Err: err}
			}
			if errors.Is(err, fs.ErrNotExist) && retry < 3 {
				continue
			}
			return rawRef{status: refError}, nil
		}
		buf := make([]byte, 0, 256)
		for {
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			n, err := f.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err != nil {
				break
			}
		}
		f.Close()
		return parseLooseRef(buf, s.format), nil
	}
}

// parseLooseRef reads the content of a loose ref file: "ref: <target>"
// or a hex object name followed by whitespace or the end (FETCH_HEAD has
// more after it).
func parseLooseRef(buf []byte, format oid.Format) rawRef {
	if i := bytes.IndexByte(buf, 0); i >= 0 {
		buf = buf[:i]
	}
	buf = bytes.TrimRight(buf, " \t\n\r")
	if rest, ok := bytes.CutPrefix(buf, []byte("ref:")); ok {
		rest = bytes.TrimLeft(rest, " \t\n\r")
		return rawRef{target: string(rest), symref: true}
	}
	n := format.HexSize()
	if len(buf) < n {
		return rawRef{status: refBroken}
	}
	id, err := oid.ParseHexBytes(format, buf[:n])
	if err != nil || (len(buf) > n && !isConfigSpace(buf[n])) {
		return rawRef{status: refBroken}
	}
	return rawRef{id: id}
}

// resolved is the outcome of following a ref.
type resolved struct {
	name     string // the last ref reached
	id       oid.ID
	symref   bool // the first ref read was symbolic
	broken   bool // REF_ISBROKEN
	found    bool
	dangling bool // a symbolic ref whose target is missing
}

// resolve follows name through at most five symbolic refs, as
// refs_resolve_ref_unsafe does. With reading set, a missing ref is not
// found; without it, resolve stops at the first missing ref and returns
// its name (how "HEAD -> unborn branch" is told).
func (s *refStore) resolve(name string, reading bool) (resolved, error) {
	var res resolved
	if !checkRefnameFormat(name, true) {
		return res, nil
	}
	for depth := 0; depth < maxSymrefDepth; depth++ {
		raw, err := s.readRaw(name)
		if err != nil {
			return res, err
		}
		switch raw.status {
		case refMissing:
			if reading {
				res.dangling = res.symref
				return res, nil
			}
			res.name = name
			res.found = true
			res.id = oid.ID{}
			return res, nil
		case refBroken:
			res.broken = true
			return res, nil
		case refError:
			return res, nil
		}
		if !raw.symref {
			res.name, res.id, res.found = name, raw.id, true
			return res, nil
		}
		res.symref = true
		name = raw.target
		if !checkRefnameFormat(name, true) {
			return res, nil
		}
	}
	return res, nil
}

// readSymref reads name without following it: the target when it is a
// symbolic ref.
func (r *Repository) readSymref(name string) (target string, isSym bool, err error) {
	raw, err := r.refStore().readRaw(name)
	if err != nil || raw.status != refOK {
		return "", false, err
	}
	return raw.target, raw.symref, nil
}

// Head resolves HEAD. symref is the ref HEAD points to ("refs/heads/main"),
// "" when HEAD is detached. When that branch does not exist yet (a new
// repository) the error is ErrUnbornHead and symref is still set.
func (r *Repository) Head() (id oid.ID, symref string, err error) {
	s := r.refStore()
	res, err := s.resolve("HEAD", false)
	if err != nil {
		return oid.ID{}, "", err
	}
	if !res.found {
		return oid.ID{}, "", newError(ErrBadRef, "bad HEAD")
	}
	if res.symref {
		symref = res.name
	}
	if res.id.IsZero() {
		return oid.ID{}, symref, &Error{Kind: ErrUnbornHead, Msg: "no such ref: HEAD"}
	}
	return res.id, symref, nil
}

// ResolveRef resolves a full ref name ("HEAD", "refs/heads/main",
// "MERGE_HEAD") to an object name, following symbolic refs. It returns
// an error matching ErrRefNotFound when the ref does not exist or cannot
// be read.
func (r *Repository) ResolveRef(name string) (oid.ID, error) {
	res, err := r.refStore().resolve(name, true)
	if err != nil {
		return oid.ID{}, err
	}
	if !res.found {
		return oid.ID{}, newError(ErrRefNotFound, "no such ref: %s", name)
	}
	return res.id, nil
}

// checkRefnameFormat is git's check_refname_format without pattern
// support: components may not start with '.', end with ".lock", contain
// "..", "@{", control characters, space or any of ~^:?*[\, be empty;
// the name may not end with '.' or be "@"; unless oneLevel it needs two
// components.
func checkRefnameFormat(name string, oneLevel bool) bool {
	return checkRefnameFormatFlags(name, oneLevel, false)
}

// checkRefnameFormatFlags is checkRefnameFormat, with pattern git's
// REFNAME_REFSPEC_PATTERN: one '*' is then allowed anywhere.
func checkRefnameFormatFlags(name string, oneLevel, pattern bool) bool {
	if name == "@" || name == "" {
		return false
	}
	if pattern {
		if i := strings.IndexByte(name, '*'); i >= 0 {
			// The one '*' stands for a valid component's character.
			name = name[:i] + "x" + name[i+1:]
		}
	}
	components := 0
	for {
		end := strings.IndexByte(name, '/')
		comp := name
		if end >= 0 {
			comp = name[:end]
		}
		if !validRefComponent(comp) {
			return false
		}
		components++
		if end < 0 {
			break
		}
		name = name[end+1:]
	}
	if strings.HasSuffix(name, ".") {
		return false
	}
	return oneLevel || components >= 2
}

func validRefComponent(c string) bool {
	if c == "" || c[0] == '.' || strings.HasSuffix(c, ".lock") {
		return false
	}
	var last byte
	for i := 0; i < len(c); i++ {
		ch := c[i]
		switch {
		case ch < 0x20 || ch == 0x7f:
			return false
		case ch == ' ' || ch == ':' || ch == '?' || ch == '[' || ch == '\\' || ch == '^' || ch == '~' || ch == '*':
			return false
		case ch == '.' && last == '.':
			return false
		case ch == '{' && last == '@':
			return false
		}
		last = ch
	}
	return true
}

// ForEachRef calls fn for every ref whose full name starts with prefix
// ("refs/" for all of them; the prefix should end in '/'), in name order,
// loose refs overriding packed ones, symbolic refs resolved; refs that do
// not resolve are skipped. It is what --all, --branches and --glob list.
func (r *Repository) ForEachRef(prefix string, fn func(name string, id oid.ID) error) error {
	return r.refStore().forEachRef(prefix, fn)
}

// forEachRef calls fn for every ref whose name starts with prefix
// (which should end in '/'), loose refs overriding packed ones, in name
// order, with symbolic refs resolved; refs that do not resolve are
// skipped.
func (s *refStore) forEachRef(prefix string, fn func(name string, id oid.ID) error) error {
	return s.forEachRefBroken(prefix, false, func(name string, id oid.ID, _ bool) error { return fn(name, id) })
}

// ForEachRefListed is ForEachRef as git's revision options list refs
// (--all, --branches, --glob, ...): since git 2.36 its ref iteration
// includes the refs it cannot resolve (GIT_REF_PARANOIA, on unless set
// false), a loose ref with a name git refuses or a file it cannot parse,
// with broken set and the null ID (git then dies "bad object <name>"),
// and leaves out symbolic refs that lead nowhere.
func (r *Repository) ForEachRefListed(prefix string, fn func(name string, id oid.ID, broken bool) error) error {
	paranoia, err := r.env.envBool("GIT_REF_PARANOIA", true)
	if err != nil {
		return err // (git's death at its first ref iteration)
	}
	return r.refStore().forEachRefBroken(prefix, paranoia, fn)
}

// forEachRefBroken is forEachRef, with the refs that do not resolve
// (but symbolic ones) passed to fn as broken where broken is set.
func (s *refStore) forEachRefBroken(prefix string, broken bool, fn func(name string, id oid.ID, broken bool) error) error {
	loose := map[string]bool{}
	var names []string
	var walk func(dir, refPrefix string)
	walk = func(dir, refPrefix string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			name := refPrefix + e.Name()
			if e.IsDir() {
				if isPerWorktreeRef(name+"/") && !isPerWorktreeRef(refPrefix) {
					// A worktree's own refs are in its git
					// directory, whatever the common one holds
					// there (the main worktree's): walked below.
					continue
				}
				walk(dir+"/"+e.Name(), name+"/")
				continue
			}
			if !checkRefnameFormat(name, true) && !broken {
				continue
			}
			loose[name] = true
			names = append(names, name)
		}
	}
	walk(strings.TrimSuffix(s.refPath(prefix), "/"), prefix)
	if !isPerWorktreeRef(prefix) {
		for _, d := range []string{"refs/bisect/", "refs/rewritten/", "refs/worktree/"} {
			if strings.HasPrefix(d, prefix) {
				walk(strings.TrimSuffix(s.refPath(d), "/"), d)
			}
		}
	}
	// A packed ref that no loose file overrides resolves to its record,
	// as git's iterator gives it: no lookup of its name again (vim's
	// 19,880 tags: 19,880 loose paths tried, and as many searches of
	// packed-refs).
	packed := map[string]oid.ID{}
	err := s.forEachPacked(prefix, func(name string, id oid.ID) error {
		if !loose[name] {
			if _, dup := packed[name]; !dup {
				names = append(names, name)
				packed[name] = id
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		if !checkRefnameFormat(name, true) {
			// (A loose one only: broken is set.)
			if err := fn(name, oid.ID{}, true); err != nil {
				return err
			}
			continue
		}
		if id, ok := packed[name]; ok {
			if err := fn(name, id, false); err != nil {
				return err
			}
			continue
		}
		res, err := s.resolve(name, true)
		if err != nil {
			return err
		}
		if !res.found {
			if broken && !res.symref {
				if err := fn(name, oid.ID{}, true); err != nil {
					return err
				}
			}
			continue
		}
		if err := fn(name, res.id, false); err != nil {
			return err
		}
	}
	return nil
}

// MissingDefaultError is git's death for a --default revision that names
// nothing (diagnose_missing_default): a symbolic ref that leads to a
// branch not yet born (HEAD in a new repository) names that branch;
// anything else reads as a broken current branch.
func (r *Repository) MissingDefaultError(def string) *Error {
	res, err := r.refStore().resolve(def, false)
	if err != nil || !res.found || !res.symref || res.broken {
		return &Error{Kind: ErrBadRevision, Msg: "your current branch appears to be broken"}
	}
	return &Error{Kind: ErrBadRevision, Msg: fmt.Sprintf("your current branch '%s' does not have any commits yet", strings.TrimPrefix(res.name, "refs/heads/"))}
}
