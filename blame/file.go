package blame

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/goblame/goblame/diff"
	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/internal/traverse"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// ErrUsedUp is returned by a second Run of a Prepared blame.
var ErrUsedUp = errors.New("blame: Prepared.Run called twice")

// File blames path as of rev and returns every line's attribution, as
// `git blame [options] rev -- path` does. rev is one revision word
// ("HEAD", "v1.0", "A..B"); "" means git's default: the working tree of
// a non-bare repository (its uncommitted lines are "Not Committed Yet"),
// HEAD of a bare one. path is relative to the directory the repository
// was opened from, as git takes it.
func (r *Repository) File(ctx context.Context, rev, path string, opts Options) (*Result, error) {
	return r.Stream(ctx, rev, path, opts, nil)
}

// Stream is File that calls fn with each entry as soon as blame finds
// it (the order of --incremental, before entries are sorted and
// coalesced). A non-nil error from fn stops the blame and is returned;
// so is the context's error when it is cancelled. fn runs on the calling
// goroutine.
func (r *Repository) Stream(ctx context.Context, rev, path string, opts Options, fn func(Entry) error) (*Result, error) {
	p, err := r.Prepare(ctx, rev, path, opts)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Run(fn)
}

// Prepared is a blame whose final image is known and whose walk has not
// started: the command line counts lines for its progress meter and
// sets up its output between the two. It is for one goroutine and runs
// once.
type Prepared struct {
	r       *Repository
	rd      *odb.Reader
	ctx     context.Context
	cancel  context.CancelFunc
	blamer  *blamecore.Blamer
	ranges  []LineRange
	graph   bool
	warn    func(string) // Options.Warn, or nothing
	bases   *cacheBases  // the cache, when this blame uses it
	run     *run         // for Options.BeforeWalk
	ran     atomic.Bool  // Run's once-only guard, safe against a racing second call
	dropped atomic.Bool

	// damageReported is how many of the object database's warnings
	// Prepare reported (Run reports the rest).
	damageReported int
}

// Prepare resolves the revisions and the path, reads the final version
// and the mailmap, and parses the ranges: every error git reports before
// it walks history is reported here.
func (r *Repository) Prepare(ctx context.Context, rev, path string, opts Options) (*Prepared, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	rd := r.reader()
	ok := false
	defer func() {
		if !ok {
			r.put(rd)
		}
	}()
	b := &run{r: r, repo: r.repo, rd: rd, opts: &opts}
	r.setCommands(&opts)
	b.reportDamage() // found when the repository was opened
	b.now, b.local = opts.Now, opts.Location
	if b.now.IsZero() {
		b.now = time.Now()
	}
	if b.local == nil {
		b.local = time.Local // its leap seconds read when first used (gitdate.LocalLeaps)
	}
	words := opts.Revisions
	if rev != "" {
		words = append([]string{rev}, words...)
	}
	cctx, cancel := context.WithCancel(ctx)
	blamer, ranges, usesGraph, err := b.prepare(cctx, words, path)
	b.reportDamage()
	if err != nil {
		cancel()
		return nil, err
	}
	ok = true
	warn := opts.Warn
	if warn == nil {
		warn = func(string) {}
	}
	return &Prepared{r: r, rd: rd, ctx: cctx, cancel: cancel, blamer: blamer, ranges: ranges, graph: usesGraph, warn: warn, bases: b.bases, damageReported: b.damageReported, run: b}, nil
}

// reportDamage warns of the damage the object database has read around
// (odb.DB.Warnings) that this blame has not reported yet: the lines
// about what its own reads met, and what other work on the Repository
// met, each once per blame.
func (b *run) reportDamage() {
	lines := b.repo.Objects.Warnings()
	for _, w := range lines[b.damageReported:] {
		b.warn(w)
	}
	b.damageReported = len(lines)
}

// NumLines is the number of lines of the final image.
func (p *Prepared) NumLines() int { return p.blamer.NumLines() }

// Size is the length in bytes of the final image.
func (p *Prepared) Size() int { return len(p.blamer.FinalImage()) }

// Path is the blamed path, relative to the repository top (Result.Path).
func (p *Prepared) Path() string { return p.blamer.Path() }

// Final is the commit whose version of the path is blamed (in reverse
// mode the start of the range), and whether it is the pseudo commit
// "Not Committed Yet" of a working-tree or Options.Contents blame, whose
// ID is the null ID (the ID its entries name).
func (p *Prepared) Final() (id oid.ID, uncommitted bool) { return p.blamer.Final() }

// Ranges are the line ranges that will be blamed (0-based, half-open,
// sorted, disjoint); nil means the whole file.
func (p *Prepared) Ranges() []LineRange { return p.ranges }

// UsesCommitGraph reports whether the walk reads a commit-graph (it reads
// commits ahead on a second goroutine when not).
func (p *Prepared) UsesCommitGraph() bool { return p.graph }

// Cold reports whether the blame walks history with nothing from the
// repository's cache to start or stop at: no cache, or no entry for its
// path under its options. A program can size its memory for the whole
// walk then, instead of waiting for Options.BeforeWalk.
func (p *Prepared) Cold() bool { return p.run.bases == nil || !p.run.bases.HasPath(p.blamer.Path()) }

// Run walks history and returns the result, calling fn (when not nil)
// with each entry as it is found; see Stream.
func (p *Prepared) Run(fn func(Entry) error) (*Result, error) {
	if !p.ran.CompareAndSwap(false, true) {
		return nil, ErrUsedUp
	}
	defer p.Close()
	var fnErr error
	if fn != nil {
		p.blamer.OnGuilty(func(e Entry) {
			if fnErr != nil {
				return
			}
			if err := fn(e); err != nil {
				fnErr = err
				p.cancel()
			}
		})
	}
	if !p.run.cached {
		p.blamer.OnLongWalk(p.run.beforeWalk)
	}
	res, err := p.blamer.Run(p.ranges)
	// Damage the object database read around during the walk (see
	// reportDamage).
	for _, w := range p.r.repo.Objects.Warnings()[p.damageReported:] {
		p.warn(w)
	}
	if fnErr != nil {
		return nil, fnErr
	}
	if err != nil {
		return nil, err
	}
	if p.bases != nil {
		p.bases.save(blamecore.TakeSnapshot(res))
	}
	return res, nil
}

// Close gives the blame's resources back without running it; Run does
// it itself.
func (p *Prepared) Close() {
	if p.dropped.CompareAndSwap(false, true) {
		p.cancel()
		p.r.put(p.rd)
	}
}

// run is one blame's state while it is prepared.
type run struct {
	r     *Repository
	repo  *repo.Repository
	rd    *odb.Reader
	opts  *Options
	now   time.Time
	local *time.Location
	// diffDrivers maps paths to their diff driver (diffDriverOf).
	diffDrivers map[string]diffDriver
	// topPath, when set, is the path relative to the top of the work
	// tree (a blame the cache runs for itself), instead of the argument.
	topPath string
	// bases serves and keeps cache entries when the blame uses the
	// cache; cached: it has the entry the blame starts from.
	bases  *cacheBases
	cached bool
	// walked: Options.BeforeWalk ran.
	walked bool
	// damageReported counts the object database's warnings reported.
	damageReported int
	// graphReported: the commit-graph's warnings are out (graphWarnings).
	graphReported bool
	// commandEnvOnce makes commandEnvValue, the environment of the
	// programs the blame runs (commandEnv).
	commandEnvOnce  sync.Once
	commandEnvValue []string
	// inWorkTree: the blame's final version is the working tree's (or
	// --contents): git went to the top of the work tree for it
	// (setup_work_tree), where its programs run.
	inWorkTree bool
	// parents holds the grafts and shallow boundary once read
	// (effectiveParents), parentsErr what reading them failed of.
	parentsRead bool
	parents     map[oid.ID][]oid.ID
	parentsErr  error
	// listedRefs are the refs listed so far, by prefix (listRefs).
	listedRefs map[string][]listedRef
	// parsed are the objects the revisions' resolution parsed
	// (blamecore.Request.Parsed).
	parsed []traverse.Tip
	// noWalkEnded: "--reverse ONE" added HEAD, which is ONE's own
	// commit and so uninteresting, and git's add_pending_object ends
	// --no-walk for an uninteresting object as for any exclusion added
	// after it.
	noWalkEnded bool
	// peeled holds the commits the request's objects peeled to
	// (peelCommit), by object.
	peeled map[oid.ID]oid.ID
}

// peelCommit is repo.Peel of id to its commit, each object peeled once a
// run: git reads each tag once (parse_object), where the request peels
// each revision more than once, and a tag --all and --not --all both
// list twice (vim's 19,880 tags: 0.55 s against git's 0.15).
func (b *run) peelCommit(id oid.ID) (oid.ID, error) {
	if c, ok := b.peeled[id]; ok {
		return c, nil
	}
	c, err := repo.Peel(b.rd, id, object.Commit)
	if err != nil {
		return c, err
	}
	if b.peeled == nil {
		b.peeled = map[oid.ID]oid.ID{}
	}
	b.peeled[id] = c
	return c, nil
}

// peelExcluded is peelCommit for an uninteresting tip: its tags read
// whole, as git's parse_object reads them, the commit they lead to only
// by its type, since the walk reads that whole (Commits.ParseObject),
// once, where git's handle_commit does. Anything else is peelCommit's.
func (b *run) peelExcluded(id oid.ID) (oid.ID, error) {
	if c, ok := b.peeled[id]; ok {
		return c, nil
	}
	cur := id
	var buf []byte
	for depth := 0; depth < 1000; depth++ {
		typ, _, err := b.rd.ReadHeader(cur)
		if err != nil || typ != object.Tag && typ != object.Commit {
			break
		}
		if typ == object.Commit {
			if b.peeled == nil {
				b.peeled = map[oid.ID]oid.ID{}
			}
			b.peeled[id] = cur
			return cur, nil
		}
		_, data, err := b.rd.Read(cur, buf)
		if err != nil {
			break
		}
		buf = data
		t, err := object.ParseTag(cur.Format(), data)
		if err != nil {
			break
		}
		cur = t.Object
	}
	return b.peelCommit(id)
}

// effectiveParents reads info/grafts and the shallow file the first time
// it is called, printing what git prints then (the grafts' deprecation
// hint, bad graft lines): git reads them once, when it first parses a
// commit, which is the first revision on the command line's
// (setup_revisions) or an earlier one's that walks parents ("~N"), else
// HEAD's as the parent of the working tree, from the top of the work
// tree (inWorkTree: a relative GIT_GRAFT_FILE is taken from there).
func (b *run) effectiveParents(inWorkTree bool) (map[oid.ID][]oid.ID, error) {
	parents, lines, err := b.readParents(inWorkTree)
	for _, l := range lines {
		b.warn(l)
	}
	return parents, err
}

// readParents is effectiveParents without the printing: the lines come
// back from the call that read them, and from no later one.
func (b *run) readParents(inWorkTree bool) (map[oid.ID][]oid.ID, []string, error) {
	if b.parentsRead {
		return b.parents, nil, b.parentsErr
	}
	b.parentsRead = true
	read := b.repo.EffectiveParents
	if inWorkTree {
		read = b.repo.EffectiveParentsInWorkTree
	}
	var lines []string
	b.parents, lines, b.parentsErr = read()
	return b.parents, lines, b.parentsErr
}

// commandParents gives the run's revision resolutions its grafts: the
// first one that parses a commit reads them, and its hint is printed
// where git prints it (before a later argument's death).
func (b *run) commandParents() repo.CommandParents {
	return repo.CommandParents{
		Read:          b.commandGrafts,
		Print:         b.warn,
		GraphWarnings: b.graphWarnings,
	}
}

// commandGrafts are the parents the revisions are resolved with: the
// repository's grafts and shallow boundary, and -S's grafts over them
// (git's read_ancestry registers them before it resolves the
// revisions, and they win over info/grafts).
func (b *run) commandGrafts() (map[oid.ID][]oid.ID, []string, error) {
	parents, lines, err := b.readParents(false)
	if err != nil || len(b.opts.Grafts) == 0 {
		return parents, lines, err
	}
	merged := make(map[oid.ID][]oid.ID, len(parents)+len(b.opts.Grafts))
	maps.Copy(merged, parents)
	maps.Copy(merged, b.opts.Grafts)
	return merged, lines, nil
}

// graphWarnings are the lines git prints opening the commit-graph it
// would use, the first time the blame asks (where git first loads it:
// its first commit parsed, in the revisions' resolution or at the walk's
// start), and none after.
func (b *run) graphWarnings() []string {
	if b.graphReported {
		return nil
	}
	b.graphReported = true
	if !b.r.graphEnabled() || len(b.opts.Grafts) > 0 {
		// (-S's grafts are registered before the revisions are
		// resolved: git reads no graph then)
		return nil
	}
	_, warnings, _ := b.r.commitGraph()
	return warnings
}

// commandDir is where git runs the blame's programs: its directory after
// setup (the top of the work tree when it started inside it, else where
// it started), the top of the work tree once a work-tree blame went
// there.
func (b *run) commandDir() string { return b.repo.WorkDir(b.inWorkTree) }

// commandEnv is the environment of the programs the blame runs
// (textconv commands, clean filters): Options.CommandEnvFunc's, made
// once, else Options.CommandEnv (nil: the process's).
func (b *run) commandEnv() []string {
	if b.opts.CommandEnvFunc == nil {
		return b.opts.CommandEnv
	}
	b.commandEnvOnce.Do(func() { b.commandEnvValue = b.opts.CommandEnvFunc() })
	return b.commandEnvValue
}

func (b *run) warn(line string) {
	if b.opts.Warn != nil {
		b.opts.Warn(line)
	}
}

func fatalf(format string, args ...any) error { return errors.New(fmt.Sprintf(format, args...)) }

func (b *run) prepare(ctx context.Context, words []string, arg string) (*blamecore.Blamer, []LineRange, bool, error) {
	r, opts := b.repo, b.opts
	settings, err := b.r.readSettings()
	if err != nil {
		return nil, nil, false, err
	}
	path, err := r.PrefixPath(arg)
	if b.topPath != "" {
		path, err = b.topPath, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	revs, err := b.revisions(words)
	if err != nil {
		return nil, nil, false, err
	}
	ancestry, err := b.ancestryBottoms()
	if err != nil {
		return nil, nil, false, err
	}
	if len(revs) > 0 {
		// setup_revisions parsed the commits named.
		if _, err := b.effectiveParents(false); err != nil {
			return nil, nil, false, err
		}
	}
	if opts.AfterRevisions != nil {
		if err := opts.AfterRevisions(); err != nil {
			return nil, nil, false, err
		}
	}
	// (git adds HEAD to a bare repository's pending revisions only when
	// there are none at all: "^A" alone there blames the work tree, and
	// dies for want of one.)
	if len(revs) == 0 && r.Bare {
		id, _, err := r.Head()
		if err != nil {
			if errors.Is(err, fsread.ErrNotRegular) {
				return nil, nil, false, err
			}
			return nil, nil, false, fatalf("no such ref: HEAD")
		}
		if typ, _, err := b.rd.ReadHeader(id); err != nil || typ != object.Commit {
			return nil, nil, false, fatalf("no such ref: HEAD")
		}
		if !opts.WalkReflogs { // (which takes HEAD too: the work tree is blamed)
			revs = append(revs, repo.Revision{Name: "HEAD", ID: id, Type: object.Commit})
		}
	}

	core := blamecore.DefaultOptions()
	core.Diff = diff.Options{IgnoreWhitespace: opts.IgnoreWhitespace, Minimal: opts.Minimal, IndentHeuristic: !opts.NoIndentHeuristic}
	core.Warn = b.warn
	core.BinaryAttr = b.binaryAttr
	if !opts.NoTextConv {
		core.TextConv = b.textconv
	}
	core.ShowRoot = opts.ShowRoot
	core.FirstParent = opts.FirstParent
	core.ExcludeFirstParentOnly = opts.ExcludeFirstParentOnly
	core.NoFollow = opts.NoFollow
	core.Reverse = opts.Reverse
	core.AncestryPath, core.AncestryBottoms = opts.AncestryPath, ancestry
	core.LimitedWalk, core.NoWalk = opts.LimitedWalk, opts.NoWalk
	switch opts.Order {
	case WalkTopo:
		core.Order = traverse.SortGraph
	case WalkTopoDate:
		core.Order = traverse.SortCommitDate
	case WalkTopoAuthorDate:
		core.Order = traverse.SortAuthorDate
	}
	if opts.SimplifyByDecoration {
		core.SimplifyByDecoration, core.Sparse = true, opts.Sparse
		core.Decorations = func() (func(oid.ID) bool, error) {
			dec, err := b.decorations()
			if err != nil {
				return nil, err
			}
			return func(id oid.ID) bool { return dec[id] }, nil
		}
	}
	core.Move = opts.Move || opts.CopyLevel > 0
	core.CopyLevel = opts.CopyLevel
	core.MoveScore = opts.MoveScore
	core.CopyScore = opts.CopyScore
	if !opts.Since.IsZero() {
		core.Since, core.HasSince = uint64(opts.Since.Unix()), true
	}
	if !opts.Until.IsZero() {
		core.Until, core.HasUntil = uint64(opts.Until.Unix()), true
	}
	if !opts.SinceAsFilter.IsZero() {
		core.SinceFilter, core.HasSinceFilter = uint64(opts.SinceAsFilter.Unix()), true
	}
	if !settings.ReadChangedPaths {
		core.UseBloom = false
	}
	ignore, err := b.ignoreList()
	if err != nil {
		return nil, nil, false, err
	}
	core.Ignore = ignore

	req, err := b.request(revs, path)
	if err != nil {
		return nil, nil, false, err
	}
	if b.noWalkEnded {
		core.NoWalk = false
	}
	hist, rewritten, err := b.history()
	if err != nil {
		return nil, nil, false, err
	}
	use := b.usesCache(&core, req, rewritten)
	if use != noCache {
		b.bases = newCacheBases(b.r.cacheArea, cacheKey(&core))
		core.Bases, core.Record, core.Exact = b.bases, true, use == exactCache
		switch wt := req.WorkTree; {
		case use == exactCache:
			// Its key gets the line ranges once they are known, below.
		case wt != nil && len(wt.Parents) == 1 && b.topPath == "":
			b.prime(ctx, b.bases, wt.Parents[0], path)
			b.cached = b.bases.has(wt.Parents[0], path)
		case wt == nil:
			b.cached = b.bases.has(req.Final, path)
		}
	}
	blamer, err := blamecore.New(ctx, hist, r.Format, req, core)
	if err != nil {
		return nil, nil, false, err
	}
	if opts.CopyLevel == 0 {
		if n := largeFileDeltaBases(len(blamer.FinalImage())); n > deltaBaseCacheBytes {
			b.rd.SetDeltaBaseCeiling(n) // (put lowers it again)
		}
	}
	funcLines := func() (blamecore.FuncLine, error) { return b.funcLine(path) }
	ranges, err := blamecore.ParseLineRanges(opts.Ranges, blamer.FinalImage(), blamer.LineStarts(), path, funcLines, r.Env().CtypeLocale())
	if err != nil {
		return nil, nil, false, err
	}
	if len(opts.LineRanges) > 0 {
		for _, lr := range opts.LineRanges {
			if lr.Start < 0 || lr.End > blamer.NumLines() || lr.Start >= lr.End {
				return nil, nil, false, fmt.Errorf("%w: %d,%d of a %d-line file", blamecore.ErrBadRange, lr.Start, lr.End, blamer.NumLines())
			}
		}
		ranges = blamecore.MergeRanges(append(append([]LineRange(nil), ranges...), opts.LineRanges...))
	}
	if use == exactCache {
		whole := ranges
		if len(whole) == 1 && whole[0] == (LineRange{Start: 0, End: blamer.NumLines()}) {
			whole = nil
		}
		b.bases.extendKey(exactKey(&core, whole))
		b.cached = b.bases.has(req.Final, path)
	}

	var mm blamecore.Mailmap
	if !opts.NoMailmap {
		m, err := r.LoadMailmap(b.rd, b.commandParents())
		if err != nil {
			return nil, nil, false, err
		}
		for _, msg := range m.Messages {
			b.warn(msg)
		}
		if !m.Empty() {
			mm = m
		}
	}
	outEnc := opts.OutputEncoding
	if outEnc == "" {
		// A key set to "" is set: git then shows the raw bytes.
		v, ok := r.Config.Get("i18n.logoutputencoding")
		if !ok {
			v, ok = r.Config.Get("i18n.commitencoding")
		}
		if ok {
			outEnc = v
			if v == "" {
				outEnc = "none"
			}
		}
	}
	blamer.SetOutput(mm, outEnc)
	return blamer, ranges, hist.Commits().Graph() != nil, nil
}

// ancestryBottoms resolves Options.AncestryPathCommits as git's
// --ancestry-path=<commit> does: each names a commit, directly (Named)
// or through tags.
func (b *run) ancestryBottoms() ([]blamecore.AncestryBottom, error) {
	var out []blamecore.AncestryBottom
	for _, name := range b.opts.AncestryPathCommits {
		id, err := b.repo.ResolveRevisionWith(b.rd, name, b.commandParents())
		if err != nil {
			return nil, fatalf("could not get commit for ancestry-path argument %s", name)
		}
		typ, _, err := b.rd.ReadHeader(id)
		if err != nil {
			return nil, fatalf("bad object %s", name)
		}
		commit, err := repo.Peel(b.rd, id, object.Commit)
		if err != nil {
			return nil, fatalf("could not get commit for ancestry-path argument %s", name)
		}
		out = append(out, blamecore.AncestryBottom{ID: commit, Named: typ == object.Commit})
	}
	return out, nil
}

// revisions resolves the revision words as setup_revisions does for
// blame: --not and the revisions, then --default and --merge.
func (b *run) revisions(words []string) ([]repo.Revision, error) {
	r, opts := b.repo, b.opts
	words, display, listed, err := b.expandRefWords(words)
	if err != nil {
		return nil, err
	}
	for _, w := range words {
		if strings.HasPrefix(w, "-") && w != "--not" {
			return nil, fatalf("goblame does not support the revision option %s", w)
		}
	}
	var revs []repo.Revision
	if opts.WalkReflogs || opts.IgnoreMissing || len(listed) > 0 {
		revs, err = b.revisionsEach(words, display, listed)
	} else if opts.NoWalk {
		// What git parsed here is what an unprepared walk follows.
		var parsed []repo.ParsedCommit
		revs, parsed, err = r.ParseRevisionArgsParsed(b.rd, words, b.commandParents())
		for _, pc := range parsed {
			b.parsed = append(b.parsed, traverse.Tip{ID: pc.ID, FromObject: !pc.FromGraph})
		}
	} else {
		revs, err = r.ParseRevisionArgsWith(b.rd, words, b.commandParents())
	}
	if err != nil {
		return nil, shortBadObject(err, display)
	}
	for i := range revs {
		if short, ok := display[revs[i].Name]; ok {
			revs[i].Name = short
		}
	}
	if len(revs) == 0 && opts.DefaultRevision != "" {
		id, err := r.ResolveRevisionWith(b.rd, opts.DefaultRevision, b.commandParents())
		if before, ok := namedNothing(err); ok {
			death := r.MissingDefaultError(opts.DefaultRevision)
			death.Before = before
			return nil, death
		}
		if err != nil {
			return nil, err
		}
		typ, _, _ := b.rd.ReadHeader(id)
		if typ != object.Commit || !opts.WalkReflogs {
			revs = append(revs, repo.Revision{Name: opts.DefaultRevision, ID: id, Type: typ})
		}
	}
	if opts.Merge {
		heads, err := r.MergeHeads()
		if err != nil {
			return nil, err
		}
		head, _, herr := r.Head()
		if herr != nil || len(heads) == 0 {
			return nil, fatalf("--merge without MERGE_HEAD?")
		}
		if !opts.WalkReflogs {
			revs = append(revs, repo.Revision{Name: "HEAD", ID: head, Type: object.Commit},
				repo.Revision{Name: "MERGE_HEAD", ID: heads[0], Type: object.Commit})
		}
	}
	return revs, nil
}

// revisionsEach parses the revision words one at a time, for what git
// does to each as it reads it. Under -g (--walk-reflogs) each commit a
// word names directly goes to git's reflog walk instead of the pending
// revisions (add_pending_object), so blame does not see it, and one given
// as an exclusion is git's death there, before the words after it are
// read; other objects (a tag, a blob) stay. Under --ignore-missing a word
// that names nothing is passed over, after the lines git prints for it.
// A word of listed (expandRefWords) is its object, unread (or, for a ref
// git cannot resolve, its death).
func (b *run) revisionsEach(words []string, display map[string]string, listed map[string]repo.Revision) ([]repo.Revision, error) {
	var revs []repo.Revision
	negate := false
	for _, w := range words {
		if w == "--not" {
			negate = !negate
			continue
		}
		if rv, ok := listed[w]; ok {
			if rv.ID.IsZero() {
				// A ref git could not resolve: get_reference's
				// death, or nothing under --ignore-missing.
				if b.opts.IgnoreMissing {
					continue
				}
				return nil, &repo.Error{Kind: repo.ErrBadRevision, Msg: "bad object " + rv.Name}
			}
			rv.Negative = negate
			revs = append(revs, rv)
			continue
		}
		args := []string{w}
		if negate {
			args = []string{"--not", w}
		}
		rs, err := b.repo.ParseRevisionArgsWith(b.rd, args, b.commandParents())
		var missing *repo.Error
		if err != nil && b.opts.IgnoreMissing && errors.As(err, &missing) &&
			(errors.Is(missing.Kind, repo.ErrBadRevision) || errors.Is(missing.Kind, repo.ErrAmbiguous)) {
			for _, l := range missing.Before {
				b.warn(l)
			}
			continue
		}
		if err != nil {
			return nil, shortBadObject(err, display)
		}
		for _, rv := range rs {
			if !b.opts.WalkReflogs || rv.Type != object.Commit {
				revs = append(revs, rv)
				continue
			}
			if rv.Negative {
				name := rv.Name
				if short, ok := display[name]; ok {
					name = short
				}
				return nil, fatalf("cannot walk reflogs for %s", name)
			}
		}
	}
	return revs, nil
}

// shortBadObject gives a ref listed by --branches, --tags or --remotes
// the name git shows for it in "bad object X" (the category's prefix
// stripped: git lists them so).
func shortBadObject(err error, display map[string]string) error {
	var re *repo.Error
	if errors.As(err, &re) {
		if full, ok := strings.CutPrefix(re.Msg, "bad object "); ok {
			if short, ok := display[full]; ok {
				re.Msg = "bad object " + short
			}
		}
	}
	return err
}

// TopPath resolves a file name git opens after changing to the top of
// the work tree (--contents, --ignore-revs-file, -S).
func (r *Repository) TopPath(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p // (git opens "" itself, which fails: no such file)
	}
	if r.repo.WorkTree == "" {
		return filepath.Join(r.dir, p)
	}
	return filepath.Join(r.repo.WorkTree, p)
}

// ignoreList builds the set of ignored revisions (git's
// build_ignorelist): files first (an empty name clears), then the revs.
func (b *run) ignoreList() ([]oid.ID, error) {
	var set []oid.ID
	seen := map[oid.ID]bool{}
	add := func(id oid.ID) {
		if !seen[id] {
			seen[id] = true
			set = append(set, id)
		}
	}
	for _, f := range b.opts.IgnoreRevsFiles {
		if f == "" {
			set, seen = nil, map[oid.ID]bool{}
			continue
		}
		ids, err := readIgnoreRevsFile(b.r.TopPath(f), b.repo.Format)
		if err != nil {
			var bad *badObjectName
			if errors.As(err, &bad) {
				return nil, fatalf("invalid object name: %s", bad.line)
			}
			return nil, fatalf("could not open object name list: %s", f)
		}
		for _, id := range ids {
			if peeled, err := repo.Peel(b.rd, id, object.Commit); err == nil {
				add(peeled)
			}
		}
	}
	for _, rev := range b.opts.IgnoreRevs {
		id, err := b.repo.ResolveRevisionWith(b.rd, rev, b.commandParents())
		if err != nil {
			return nil, ignoreRevError(rev, err)
		}
		peeled, err := repo.Peel(b.rd, id, object.Commit)
		if err != nil {
			return nil, fatalf("cannot find revision %s to ignore", rev)
		}
		add(peeled)
	}
	return set, nil
}

// ignoreRevError is git's death for an --ignore-rev that names nothing,
// after what the failed resolution printed (an ambiguous short ID's
// candidates; the grafts' hint when that resolution read them first).
func ignoreRevError(rev string, err error) error {
	death := &repo.Error{Kind: repo.ErrBadRevision, Msg: fmt.Sprintf("cannot find revision %s to ignore", rev)}
	death.Before, _ = namedNothing(err)
	return death
}

// namedNothing reports whether err is a resolution's failure to name
// anything (a bad or ambiguous revision, which the caller's own death
// replaces), with the lines git printed before it.
func namedNothing(err error) (before []string, ok bool) {
	var re *repo.Error
	if errors.As(err, &re) && (errors.Is(re, repo.ErrBadRevision) || errors.Is(re, repo.ErrAmbiguous)) {
		return re.Before, true
	}
	return nil, false
}

// request picks the final commit (or the working tree) and the walk's
// tips from the pending revisions, as setup_scoreboard does.
func (b *run) request(revs []repo.Revision, path string) (blamecore.Request, error) {
	opts := b.opts
	req := blamecore.Request{Path: path}
	contents := opts.Contents != nil || opts.contentsFileGiven()
	if opts.Reverse && contents {
		return req, fatalf("--contents and --reverse do not blend well.")
	}
	// fromGraph: get_reference took the commit from the commit-graph
	// without reading its object.
	fromGraph := func(rv repo.Revision) bool {
		return !rv.FromObject && rv.Type == object.Commit && b.r.inCommitGraph(rv.ID)
	}
	peel := func(rv repo.Revision) (oid.ID, error) {
		if rv.Parent {
			// find_single_final's deref_tag of an object git took
			// for a commit reads nothing; the walk's setup parses
			// it (walkErr below).
			return rv.ID, nil
		}
		id, err := b.peelCommit(rv.ID)
		if err == nil {
			var t object.Type
			if t, _, err = b.rd.ReadHeader(id); err == nil && t != object.Commit {
				err = errors.New("not a commit")
			}
		}
		if err != nil {
			var ce *odb.CorruptError
			if errors.As(err, &ce) && ce.Git != nil {
				if fromGraph(rv) {
					// get_reference takes the commit from the
					// commit-graph without reading it; git dies
					// in its first whole read of the object, not
					// in parse_object's read of its type.
					return oid.ID{}, err
				}
				// setup_revisions' parse_object died reading it.
				return oid.ID{}, odb.ParseObjectFailure(err)
			}
			if fromGraph(rv) {
				// get_reference took a commit from the commit-graph
				// without reading its object, which holds something
				// else (a loose file of another object): blame goes
				// on with the commit, and its reads of the object
				// fail later (setup's objectRoot).
				return rv.ID, nil
			}
			return oid.ID{}, fatalf("Non commit %s?", rv.Name)
		}
		return id, nil
	}
	// git marks a negative revision's object uninteresting, and a
	// positive revision of the same object is then uninteresting too:
	// not the final commit ("X ^X", "A...B" where B is the merge base),
	// and under --reverse one of the negatives.
	negated := make(map[oid.ID]bool, len(revs))
	// dwimStart: "--reverse ONE" made ONE uninteresting, not a bottom;
	// dwimTag: ONE named a tag, whose commit git flagged, not the tag
	// (dwim_reverse_initial), which stays a positive revision.
	var dwimStart, dwimTag bool
	for _, rv := range revs {
		if rv.Negative {
			negated[rv.ID] = true
		}
	}
	// single peels the one revision of the given sign; a second one is
	// the error tooMany makes from its name and the first one's.
	// (A name may be empty: --reflog's and --indexed-objects' are.)
	single := func(negative bool, tooMany func(name, first string) error) (id oid.ID, name string, found bool, err error) {
		var deferred *repo.Revision
		for i, rv := range revs {
			neg := rv.Negative || negated[rv.ID]
			if i == 0 && dwimTag {
				neg = false // the tag itself is not flagged
			}
			if neg != negative {
				continue
			}
			// find_single_final reads nothing for a commit git has
			// from the commit-graph: a second revision is refused
			// before whatever its object holds is met (peeled once
			// it is known to be the only one).
			unread := fromGraph(rv)
			rid := rv.ID
			if !unread {
				var err error
				if rid, err = peel(rv); err != nil {
					return oid.ID{}, "", false, err
				}
			}
			if found {
				return oid.ID{}, "", false, tooMany(rv.Name, name)
			}
			id, name, found = rid, rv.Name, true
			if unread {
				deferred = &revs[i]
			}
		}
		if deferred != nil {
			var err error
			if id, err = peel(*deferred); err != nil {
				return oid.ID{}, "", false, err
			}
		}
		return id, name, found, nil
	}
	var final, reverseEnd oid.ID
	var finalName string
	var haveFinal bool
	var err error
	if !opts.Reverse {
		final, finalName, haveFinal, err = single(false, func(name, first string) error {
			return fatalf("More than one commit to dig from %s and %s?", name, first)
		})
		if err != nil {
			return req, err
		}
	} else {
		final, finalName, haveFinal, err = single(true, func(name, first string) error {
			return fatalf("More than one commit to dig up from, %s and %s?", name, first)
		})
		if err != nil {
			return req, err
		}
		if !haveFinal {
			// "--reverse ONE" means "--reverse ONE..HEAD".
			if len(revs) == 1 {
				id, err := peel(revs[0])
				if ce := (*odb.CorruptError)(nil); errors.As(err, &ce) && ce.Git != nil {
					return req, err // git died reading it
				}
				if err == nil {
					if head, _, herr := b.repo.Head(); herr == nil {
						final, finalName, haveFinal, dwimStart = id, revs[0].Name, true, true
						dwimTag = id != revs[0].ID
						negated[id] = true // HEAD too, if it is ONE
						b.noWalkEnded = head == id
						revs = []repo.Revision{{Name: revs[0].Name, ID: id, Type: object.Commit, Negative: true, FromObject: revs[0].FromObject}, {Name: "HEAD", ID: head, Type: object.Commit, FromObject: true}}
					}
				}
			}
			if !haveFinal {
				return req, fatalf("No commit to dig up from?")
			}
		}
	}
	if haveFinal && contents {
		return req, fatalf("cannot use --contents with final commit object name")
	}
	if opts.Reverse && opts.FirstParent {
		end, _, haveEnd, err := single(false, func(name, first string) error {
			return fatalf("More than one commit to dig from %s and %s?", name, first)
		})
		if err != nil {
			return req, err
		}
		if !haveEnd {
			return req, fatalf("--reverse and --first-parent together require specified latest commit")
		}
		reverseEnd = end
	}
	// prepare_revision_walk parses each commit of the command line in
	// turn (handle_commit), after the working tree's pseudo-commit is
	// made: a parent named with ^@ or ^! whose object is not a commit
	// (git took it for one without reading it) fails there.
	var walkErr error
	for i, rv := range revs {
		if rv.Parent && walkErr == nil && !b.r.inCommitGraph(rv.ID) {
			// parse_commit's error line: another type, or nothing
			var line string
			switch t, _, err := b.rd.ReadHeader(rv.ID); {
			case err == nil && t != object.Commit:
				line = "error: Object " + rv.ID.String() + " not a commit"
			case errors.Is(err, odb.ErrNotFound):
				line = "error: Could not read " + rv.ID.String()
			}
			if line != "" {
				walkErr = &repo.Error{Kind: repo.ErrBadRevision, Msg: "unable to parse commit " + rv.Name, Before: []string{line}}
			}
		}
		if (rv.Negative || negated[rv.ID]) && fromGraph(rv) {
			// An uninteresting commit git took from the commit-graph:
			// nothing reads its object (vim's --not --all: 16,400
			// commits of lightweight tags read for nothing).
			req.Tips = append(req.Tips, traverse.Tip{ID: rv.ID, Uninteresting: rv.Negative, NotBottom: dwimStart && i == 0})
			continue
		}
		peelTip := b.peelCommit
		if rv.Negative || negated[rv.ID] {
			peelTip = b.peelExcluded
		}
		id, err := peelTip(rv.ID)
		if err != nil {
			var ce *odb.CorruptError
			if errors.As(err, &ce) && ce.Git != nil {
				if rv.Parent {
					// Taken for a commit unread: git dies in
					// prepare_revision_walk's whole read of it.
					return req, err
				}
				// setup_revisions' parse_object died reading it.
				return req, odb.ParseObjectFailure(err)
			}
			continue // non-commits take no part in the walk
		}
		req.Tips = append(req.Tips, traverse.Tip{ID: id, Uninteresting: rv.Negative, FromObject: rv.FromObject || id != rv.ID, NotBottom: dwimStart && i == 0})
	}
	req.ReverseEnd = reverseEnd
	req.Parsed = b.parsed
	if !haveFinal {
		b.inWorkTree = true
		wt, err := b.workTree(path)
		if err != nil {
			return req, err
		}
		if walkErr != nil {
			return req, walkErr
		}
		req.WorkTree = wt
		return req, nil
	}
	if walkErr != nil {
		return req, walkErr
	}
	req.Final, req.FinalName = final, finalName
	return req, nil
}

// history opens the walk over the repository's commits: the
// commit-graph unless git would ignore it, grafts (Options.Grafts and
// info/grafts) and the shallow boundary; rewritten reports grafts, a
// shallow boundary, replace refs or -S, under which the cache is not
// used.
func (b *run) history() (_ *blamecore.History, rewritten bool, _ error) {
	r := b.repo
	parents, err := b.effectiveParents(b.inWorkTree)
	if err != nil {
		return nil, false, err
	}
	grafts := parents
	if len(b.opts.Grafts) > 0 {
		grafts = make(map[oid.ID][]oid.ID, len(parents)+len(b.opts.Grafts))
		for k, v := range parents {
			grafts[k] = v
		}
		for k, v := range b.opts.Grafts {
			grafts[k] = v
		}
	}
	settings, _ := b.r.readSettings() // prepare's first step checked them
	disable := r.HasReplacements() || !settings.CommitGraph
	var g *traverse.Graph
	if !disable && len(grafts) == 0 {
		var warnings []string
		var err error
		g, warnings, err = b.r.commitGraph()
		if !b.graphReported {
			b.graphReported = true
			for _, w := range warnings {
				b.warn(w)
			}
		}
		if err != nil {
			return nil, false, err
		}
	}
	newLookupReader := func() blamecore.ObjectReader { return r.Objects.NewReaderCache(deltaBaseCacheBytes) }
	if b.r.lazy != nil {
		// A partial clone: the path look-ahead's reads of trees and blobs
		// the walk may never need would fetch them (git fetches only
		// what it reads).
		newLookupReader = nil
	}
	return blamecore.NewHistory(b.rd, r.Format, blamecore.HistoryOptions{
		Graph: g, Grafts: grafts, DisableGraph: disable, Warn: b.warn,
		NewReader: func() blamecore.ObjectReader {
			return r.Objects.NewReaderFullCache(readAheadCacheBytes(r.Objects.PackBytes()))
		},
		NewLookupReader: newLookupReader,
		NewHelpReader:   func() blamecore.ObjectReader { return r.Objects.NewReaderCache(helpReadCacheBytes) },
		Background:      b.r.background.Go,
	}), len(grafts) > 0 || r.HasReplacements(), nil
}
