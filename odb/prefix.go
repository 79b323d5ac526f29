package odb

import (
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/oid"
)

// ErrBadPrefix reports a ResolvePrefix argument that is not 1 to (hex
// size) hex digits.
var ErrBadPrefix = errors.New("not a hex object name prefix")

// ResolvePrefix returns the objects (in packs, multi-pack-indexes and loose
// files of every object directory) whose hex name starts with hexPrefix, in
// ascending order, at most max of them (max <= 0: all). Either case is
// accepted. Like git's disambiguation, it does not report the virtual empty
// tree unless it is stored.
func (db *DB) ResolvePrefix(hexPrefix string, max int) ([]oid.ID, error) {
	prefix := strings.ToLower(hexPrefix)
	if len(prefix) == 0 || len(prefix) > db.format.HexSize() {
		return nil, ErrBadPrefix
	}
	for i := 0; i < len(prefix); i++ {
		if !oid.IsHexDigit(prefix[i]) {
			return nil, ErrBadPrefix
		}
	}
	lo := prefixBound(prefix, db.format)
	var found []oid.ID
	add := func(raw []byte) {
		found = append(found, oid.FromBytes(db.format, raw))
	}
	set := db.state.Load()
	for _, m := range set.midxs {
		for i := m.lowerBound(lo); i < m.count; i++ {
			name := m.name(i)
			if !rawHasHexPrefix(name, prefix) {
				break
			}
			add(name)
		}
	}
	for _, p := range set.packs {
		x, err := p.index()
		if err != nil {
			continue
		}
		for i := x.lowerBound(lo); i < x.count; i++ {
			name := x.name(i)
			if !rawHasHexPrefix(name, prefix) {
				break
			}
			add(name)
		}
	}
	for _, dir := range db.dirs {
		db.forEachLoose(dir, prefix, func(id oid.ID) error {
			found = append(found, id)
			return nil
		})
	}
	slices.SortFunc(found, oid.ID.Compare)
	found = slices.Compact(found)
	if max > 0 && len(found) > max {
		found = found[:max]
	}
	return found, nil
}

// prefixBound returns the raw id that is the smallest id with the prefix.
func prefixBound(prefix string, f oid.Format) []byte {
	b := make([]byte, f.Size())
	for i := 0; i < len(prefix); i++ {
		v := unhexDigit(prefix[i])
		if i%2 == 0 {
			b[i/2] = v << 4
		} else {
			b[i/2] |= v
		}
	}
	return b
}

func unhexDigit(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// rawHasHexPrefix reports whether the hex form of raw starts with prefix
// (lowercase).
func rawHasHexPrefix(raw []byte, prefix string) bool {
	const digits = "0123456789abcdef"
	for i := 0; i < len(prefix); i++ {
		b := raw[i/2]
		d := digits[b>>4]
		if i%2 == 1 {
			d = digits[b&15]
		}
		if d != prefix[i] {
			return false
		}
	}
	return true
}

// forEachCachedLoose is forEachLoose over fan-out directories listed once
// per DB (see DB.looseCache), for unique abbreviations, which git answers
// from its loose object cache. (ResolvePrefix lists the directory afresh:
// it runs once per revision argument.)
func (db *DB) forEachCachedLoose(dir, prefix string, fn func(oid.ID) error) error {
	if len(prefix) < 2 {
		return db.forEachLoose(dir, prefix, fn)
	}
	key := filepath.Join(dir, prefix[:2])
	db.looseMu.Lock()
	ids, ok := db.looseCache[key]
	db.looseMu.Unlock()
	fanout := db.fanout(dir)
	if !ok {
		ids = nil
		if fanout.mayHave(prefix[:2]) {
			db.looseDirReads.Add(1)
			db.forEachLoose(dir, prefix[:2], func(id oid.ID) error {
				ids = append(ids, id)
				return nil
			})
		}
		db.looseMu.Lock()
		if db.looseCache == nil {
			db.looseCache = make(map[string][]oid.ID)
		}
		db.looseCache[key] = ids
		db.looseMu.Unlock()
	}
	for _, id := range ids {
		if len(prefix) > 2 && !rawHasHexPrefix(id.Raw(), prefix) {
			continue
		}
		if err := fn(id); err != nil {
			return err
		}
	}
	return nil
}

// fanoutDirs records which two-hex-digit subdirectories an objects
// directory had when it was listed; nil means the listing failed and any
// of them may exist.
type fanoutDirs [256]bool

// fanout returns dir's fan-out listing, listing it the first time.
func (db *DB) fanout(dir string) *fanoutDirs {
	db.looseMu.Lock()
	d, listed := db.looseDirs[dir]
	db.looseMu.Unlock()
	if listed {
		return d
	}
	d = listFanoutDirs(dir)
	db.looseDirReads.Add(1)
	db.looseMu.Lock()
	if db.looseDirs == nil {
		db.looseDirs = make(map[string]*fanoutDirs)
	}
	db.looseDirs[dir] = d
	db.looseMu.Unlock()
	return d
}

// listFanoutDirs lists dir once. Names are taken in either case and
// whatever their type (a symbolic link to a directory counts): reading
// the subdirectory itself decides.
func listFanoutDirs(dir string) *fanoutDirs {
	names, err := fsread.ReadDirNames(dir)
	if err != nil {
		return nil
	}
	var set fanoutDirs
	for _, name := range names {
		if len(name) == 2 {
			if hi, lo := hexNibble(name[0]), hexNibble(name[1]); hi >= 0 && lo >= 0 {
				set[hi<<4|lo] = true
			}
		}
	}
	return &set
}

// mayHave reports whether the fan-out subdirectory sub (two lowercase hex
// digits) may exist.
func (d *fanoutDirs) mayHave(sub string) bool {
	if d == nil {
		return true
	}
	hi, lo := hexNibble(sub[0]), hexNibble(sub[1])
	return hi < 0 || lo < 0 || d[hi<<4|lo]
}

func hexNibble(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// forEachLoose calls fn for every loose object in dir whose hex name starts
// with prefix (which may be empty: all of them), in ascending order within
// each fan-out directory. Files that are not object names (tmp_obj_*, ...)
// are ignored.
func (db *DB) forEachLoose(dir, prefix string, fn func(oid.ID) error) error {
	hexSize := db.format.HexSize()
	var subdirs []string
	if len(prefix) >= 2 {
		subdirs = []string{prefix[:2]}
	} else {
		for b := 0; b < 256; b++ {
			name := hex.EncodeToString([]byte{byte(b)})
			if strings.HasPrefix(name, prefix) {
				subdirs = append(subdirs, name)
			}
		}
	}
	for _, sub := range subdirs {
		names, err := fsread.ReadDirNames(filepath.Join(dir, sub))
		if err != nil {
			continue
		}
		slices.Sort(names)
		for _, name := range names {
			if len(name) != hexSize-2 {
				continue
			}
			id, err := oid.ParseHex(db.format, sub+name)
			if err != nil || name != strings.ToLower(name) {
				continue
			}
			if len(prefix) > 2 && !strings.HasPrefix(sub+name, prefix) {
				continue
			}
			if err := fn(id); err != nil {
				return err
			}
		}
	}
	return nil
}

// ApproximateObjectCount returns git 2.39.5's approximate object count
// (repo_approximate_object_count): the objects of every multi-pack-index
// plus those of every pack index on git's pack list; loose objects are not
// counted. Git lists a pack covered by a multi-pack-index as soon as it
// opens it to read an object, after which its objects are counted twice;
// this count reproduces that: packs this DB has opened through a MIDX are
// added again. Like git, the count is computed once and kept until the pack
// directories are rescanned.
func (db *DB) ApproximateObjectCount() int64 {
	db.countMu.Lock()
	defer db.countMu.Unlock()
	if db.countValid {
		return db.count
	}
	set := db.state.Load()
	var n int64
	for _, m := range set.midxs {
		n += int64(m.count)
	}
	for _, p := range set.all {
		if p.inMidx && !p.viaMidx.Load() {
			continue
		}
		x, err := p.index()
		if err != nil {
			continue
		}
		n += int64(x.count)
	}
	db.count, db.countValid = n, true
	return n
}

// UnusableIndexLines are the lines git prints for the pack indexes it
// cannot use (check_packed_git_idx) where it opens every pack's index,
// in its order: once for each pack whose index fails, where git counts
// objects for the automatic abbreviation length and each time it looks
// for the shortest unique abbreviation of an object.
func (db *DB) UnusableIndexLines() []string {
	var lines []string
	for _, p := range db.state.Load().packs {
		var le *LookupError
		if _, err := p.index(); errors.As(err, &le) {
			lines = append(lines, le.Line)
		}
	}
	return lines
}

// UniqueAbbrevLen returns the length of the shortest hex abbreviation of id
// that is at least minLen long and names no other object, computed as git
// 2.39.5's find_unique_abbrev_r: minLen < 0 starts from the length implied
// by ApproximateObjectCount (at least 7); 0 or >= the hex size gives the
// full length. The abbreviation is extended past the longest common prefix
// with the neighbours of id in every pack index and multi-pack-index, then
// with every loose object sharing the prefix.
func (db *DB) UniqueAbbrevLen(id oid.ID, minLen int) int {
	hexSize := db.format.HexSize()
	n, full := db.abbrevStart(minLen)
	if full {
		return hexSize
	}
	raw := id.Raw()
	hexID := id.String()
	cur := n
	// extend raises cur past the common prefix of id and other (git's
	// extend_abbrev_len, including its cap at GIT_MAX_RAWSZ digits).
	extend := func(other []byte, from int) {
		i := from
		for i < hexSize && hexID[i] == hexDigitAt(other, i) {
			i++
		}
		if i < oid.MaxSize && i >= cur {
			cur = i + 1
		}
	}
	set := db.state.Load()
	neighbours := func(count uint32, name func(uint32) []byte, first uint32, match bool) {
		if !match {
			if first < count {
				extend(name(first), 0)
			}
		} else if first+1 < count {
			extend(name(first+1), 0)
		}
		if first > 0 {
			extend(name(first-1), 0)
		}
	}
	for _, m := range set.midxs {
		if m.count == 0 {
			continue
		}
		first, match := m.find(raw)
		neighbours(m.count, m.name, first, match)
	}
	for _, p := range set.packs {
		x, err := p.index()
		if err != nil || x.count == 0 {
			continue
		}
		first, match := x.find(raw)
		neighbours(x.count, x.name, first, match)
	}
	from := cur
	prefix := hexID[:cur]
	for _, dir := range db.dirs {
		db.forEachCachedLoose(dir, prefix, func(other oid.ID) error {
			extend(other.Raw(), from)
			return nil
		})
	}
	return cur
}

// abbrevStart is the length an abbreviation of at least minLen digits
// starts from, or full when it is the whole ID (minLen 0 or past it).
func (db *DB) abbrevStart(minLen int) (n int, full bool) {
	n = minLen
	if n < 0 {
		n = db.autoAbbrevLen()
	}
	return n, n == 0 || n >= db.format.HexSize()
}

// autoAbbrevLen is git's automatic abbreviation length: half the bits of
// the approximate object count, rounded up, and at least 7 digits.
func (db *DB) autoAbbrevLen() int {
	return max((msb(db.ApproximateObjectCount())+2)/2, 7)
}

func hexDigitAt(raw []byte, i int) byte {
	const digits = "0123456789abcdef"
	b := raw[i/2]
	if i%2 == 0 {
		return digits[b>>4]
	}
	return digits[b&15]
}

// msb is the index of the highest set bit (0 for 0 and 1), git's msb().
func msb(v int64) int {
	r := 0
	for v >>= 1; v > 0; v >>= 1 {
		r++
	}
	return r
}
