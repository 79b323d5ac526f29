package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/goblame/goblame/format"
	"github.com/goblame/goblame/internal/blamecore"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/odb"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
	"github.com/goblame/goblame/traverse"
)

// Delta-base cache sizes: a blame reads one file's versions (whose delta
// chains an 8 MiB cache serves well) and, with -C, other files; a fixed
// bound keeps the peak memory of -C below git's (the odb default grows to
// 96 MiB for bulk reads). The second reader reads -C candidates ahead.
const (
	deltaBaseCacheBytes = 8 << 20
	readAheadCacheBytes = 16 << 20
)

// blameRun is one invocation of the blame command.
type blameRun struct {
	env    Environ
	procs  int // GOMAXPROCS before the run went to one processor (process.go)
	stderr *bufio.Writer
	r      *repo.Repository
	rd     *odb.Reader
	now    time.Time // the clock (the pseudo commit's date)
	// dateNow is "now" for relative dates and approxidate: git's
	// get_time(), which GIT_TEST_DATE_NOW overrides.
	dateNow time.Time
	local   *time.Location
	// fatalLater is an error git raises while using a diff driver.
	fatalLater error
	// textconvCache maps paths to their textconv command.
	textconvCache map[string]string
	// graph is the commit-graph in use, closed when the run ends.
	graph *traverse.Graph
}

func (b *blameRun) warn(line string) {
	b.stderr.WriteString(line)
	b.stderr.WriteByte('\n')
}

func (b *blameRun) flush() {
	if b.stderr != nil {
		b.stderr.Flush()
	}
}

// localZone is the time zone the environment's TZ names (git's
// localtime), the process's zone when TZ is unset.
func localZone(env Environ) *time.Location {
	tz, ok := "", false
	if env.LookupEnv != nil {
		tz, ok = env.LookupEnv("TZ")
	} else if env.Getenv != nil {
		tz = env.Getenv("TZ")
		ok = tz != ""
	}
	if !ok {
		return time.Local
	}
	if tz == "" || tz == "UTC" || tz == "UTC0" || tz == "GMT" {
		return time.UTC
	}
	if loc, err := time.LoadLocation(strings.TrimPrefix(tz, ":")); err == nil {
		return loc
	}
	return time.UTC
}

func (b *blameRun) run(args []string) error {
	env := b.env
	b.stderr = bufio.NewWriter(env.Stderr)
	defer b.flush()
	if len(args) == 1 && args[0] == "-h" {
		_, err := ParseArgs(args, DefaultBlameArgs(), ParseContext{})
		return err
	}
	b.now = env.Now()
	b.dateNow = b.now
	if v := env.Getenv("GIT_TEST_DATE_NOW"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			b.dateNow = time.Unix(n, 0)
		}
	}
	b.local = localZone(env)

	r, err := repo.Discover(repo.Env{Cwd: env.Dir, Getenv: env.Getenv, LookupEnv: env.LookupEnv})
	if err != nil {
		return err
	}
	defer r.Close()
	b.r = r
	for _, w := range r.Warnings {
		b.warn(w)
	}
	r.WarningHandler = b.warn
	if env.Process {
		b.procs = oneProc(env.Getenv)
		hugePageHeap(hugeHeapBytes(r.Objects.PackBytes()))
		tuneGC(env.Getenv)
	}
	b.rd = r.Objects.NewReaderCache(deltaBaseCacheBytes)

	cfg, err := readBlameConfig(r, env, b.dateNow, b.local)
	if err != nil {
		return err
	}
	for _, w := range cfg.warnings {
		b.warn(w)
	}

	coreAbbrev := cfg.coreAbbrev
	if coreAbbrev < 0 {
		coreAbbrev = 0
	}
	var grafts map[oid.ID][]oid.ID
	bare := r.WorkTree == ""
	ctx := ParseContext{
		Format:           r.Format,
		CoreAbbrev:       coreAbbrev,
		Bare:             bare,
		StdoutIsTerminal: env.StdoutIsTerminal,
		Resolve:          b.resolveName,
		ReadRevsFile: func(path string) error {
			g, msgs, err := repo.ReadGraftFile(b.topPath(path), r.Format)
			for _, m := range msgs {
				b.warn(m)
			}
			if err != nil {
				return die("reading graft file '%s' failed: %s", path, repo.Strerror(err))
			}
			grafts = g
			return nil
		},
	}
	a, err := ParseArgs(args, cfg.args, ctx)
	if err != nil {
		return err
	}

	path, err := r.PrefixPath(a.Path)
	if err != nil {
		return err
	}

	revs, err := b.revisions(a)
	if err != nil {
		return err
	}
	hasPositive := false
	for _, rv := range revs {
		if !rv.Negative {
			hasPositive = true
		}
	}
	if !hasPositive && bare {
		id, _, err := r.Head()
		if err != nil {
			return die("no such ref: HEAD")
		}
		if typ, _, err := b.rd.ReadHeader(id); err != nil || typ != object.Commit {
			return die("no such ref: HEAD")
		}
		revs = append(revs, repo.Revision{Name: "HEAD", ID: id, Type: object.Commit})
	}

	opts := blamecore.DefaultOptions()
	opts.Diff.IgnoreWhitespace = a.IgnoreWhitespace
	opts.Diff.Minimal = a.Minimal
	if a.IndentHeuristic != nil {
		opts.Diff.IndentHeuristic = *a.IndentHeuristic
	}
	opts.Warn = b.warn
	if a.TextConv {
		opts.TextConv = b.textconv
	}
	opts.ShowRoot = a.ShowRoot
	opts.FirstParent = a.FirstParent
	opts.NoFollow = a.NoFollow
	opts.Reverse = a.Reverse
	opts.Move = a.Move
	opts.CopyLevel = a.CopyLevel
	opts.MoveScore = int(a.MoveScore)
	opts.CopyScore = int(a.CopyScore)
	if a.Since != nil {
		since, err := b.sinceValue(a.Since)
		if err != nil {
			return err
		}
		opts.Since, opts.HasSince = since, true
	}
	if v, ok := r.Config.Get("commitgraph.readchangedpaths"); ok {
		if on, valid := repo.BoolText(v, true); valid && !on {
			opts.UseBloom = false
		}
	}

	ignore, err := b.ignoreList(a)
	if err != nil {
		return err
	}
	opts.Ignore = ignore

	req, err := b.request(a, revs, path)
	if err != nil {
		return err
	}

	hist, graphWarnings, err := b.history(grafts)
	if err != nil {
		return err
	}
	if b.graph != nil {
		defer b.graph.Close()
	}
	for _, w := range graphWarnings {
		b.warn(w)
	}
	if env.Process && (hist.Commits().Graph() == nil || opts.CopyLevel > 0) {
		// Without a commit-graph, commits are read ahead on a second
		// goroutine; under -C, copy candidates are.
		useProcs(b.procs)
	}
	blamer, err := blamecore.New(context.Background(), hist, r.Format, req, opts)
	if err != nil {
		return err
	}
	var isFunc blamecore.FuncLine
	for _, rg := range a.Ranges {
		if strings.HasPrefix(rg, ":") || strings.HasPrefix(rg, "^:") {
			isFunc = b.funcLine(path)
			break
		}
	}
	if b.fatalLater != nil {
		return b.fatalLater
	}
	ranges, err := blamecore.ParseLineRanges(a.Ranges, blamer.FinalImage(), blamer.LineStarts(), path, isFunc)
	if err != nil {
		return err
	}

	mm, err := r.LoadMailmap(b.rd)
	if err != nil {
		return err
	}
	if !mm.Empty() {
		opts.Mailmap = mm
	}
	outEnc := cfg.outputEncoding
	if a.Encoding != nil {
		outEnc = *a.Encoding
		if outEnc == "" {
			outEnc = "none"
		}
	}
	// Options that only matter for output are set after New: the
	// blamer holds a pointer to opts.
	blamer.SetOutput(opts.Mailmap, outEnc)

	fopts := b.formatOptions(a, cfg)
	if a.Incremental {
		inc := format.NewIncremental(b.env.Stdout, fopts)
		blamer.OnGuilty(inc.Entry)
		if _, err := blamer.Run(ranges); err != nil {
			return err
		}
		return inc.Err()
	}
	progress := a.Progress == 1 || (a.Progress < 0 && env.StderrIsTerminal)
	var prog *progressMeter
	if progress {
		total := 0
		for _, rg := range ranges {
			total += rg.End - rg.Start
		}
		if ranges == nil {
			total = blamer.NumLines()
		}
		prog = newProgress(b.stderr, "Blaming lines", total, b.env)
		blamer.OnGuilty(prog.entry)
	}
	res, err := blamer.Run(ranges)
	if prog != nil {
		prog.stop()
	}
	if err != nil {
		return err
	}
	if env.Getenv("GOBLAME_TRACE_STATS") != "" {
		fmt.Fprintf(b.stderr, "goblame stats: %+v\n", res.Stats)
	}
	out := b.env.Stdout
	if pager := b.pagerCommand(); pager != "" {
		b.flush()
		w, wait, err := b.startPager(pager)
		if err == nil {
			out = w
			defer wait()
		}
	}
	return format.Write(out, res, fopts)
}

// revisions resolves the revision words as setup_revisions does for
// blame: --not and the revisions, then --default and --merge, then the
// checks git makes once the words are known.
func (b *blameRun) revisions(a *BlameArgs) ([]repo.Revision, error) {
	r := b.r
	var words []string
	noWalk := false
	for _, w := range a.RevArgs {
		switch {
		case w == "--not" || !strings.HasPrefix(w, "-"):
			words = append(words, w)
		case w == "--no-walk" || strings.HasPrefix(w, "--no-walk="):
			noWalk = true
		case w == "--do-walk":
			noWalk = false
		default:
			// --all, --branches, --tags, --remotes, --glob, --reflog and
			// friends name every ref of a kind; blame then has several
			// commits to dig from. goblame does not list refs.
			return nil, die("goblame does not support the revision option %s", w)
		}
	}
	if a.NoDashDash {
		for _, w := range words {
			if w == "--not" || strings.Contains(w, "..") || strings.HasPrefix(w, "^") {
				continue
			}
			if !r.IsRevision(b.rd, w) {
				return nil, die("ambiguous argument '%s': unknown revision or path not in the working tree.\n"+
					"Use '--' to separate paths from revisions, like this:\n"+
					"'git <command> [<revision>...] -- [<file>...]'", w)
			}
		}
	}
	revs, err := r.ParseRevisionArgs(b.rd, words)
	if err != nil {
		return nil, err
	}
	if len(revs) == 0 && a.Rev.Default != nil {
		id, err := r.ResolveRevision(b.rd, *a.Rev.Default)
		if err != nil {
			return nil, die("bad default revision '%s'", *a.Rev.Default)
		}
		typ, _, _ := b.rd.ReadHeader(id)
		revs = append(revs, repo.Revision{Name: *a.Rev.Default, ID: id, Type: typ})
	}
	if a.Rev.ShowMerge {
		heads, err := r.MergeHeads()
		if err != nil {
			return nil, err
		}
		head, _, herr := r.Head()
		if herr != nil || len(heads) == 0 {
			return nil, die("--merge without MERGE_HEAD?")
		}
		revs = append(revs, repo.Revision{Name: "HEAD", ID: head, Type: object.Commit},
			repo.Revision{Name: "MERGE_HEAD", ID: heads[0], Type: object.Commit})
	}
	hasGraph := false
	if a.Rev.TopoOrder && !r.HasReplacements() && len(r.Shallow()) == 0 {
		if g, _, err := traverse.OpenGraph(r.Objects.ObjectDirs(), r.Format); err == nil && g != nil {
			hasGraph = true
			g.Close()
		}
	}
	if err := a.CheckRevisionSetup(hasGraph, noWalk); err != nil {
		return nil, err
	}
	return revs, nil
}

// topPath resolves a file argument git opens after changing to the top
// of the work tree (--contents, --ignore-revs-file, -S).
func (b *blameRun) topPath(p string) string {
	if filepath.IsAbs(p) || b.r.WorkTree == "" {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(b.env.Dir, p)
	}
	return filepath.Join(b.r.WorkTree, p)
}

// resolveName answers ParseArgs' questions about words.
func (b *blameRun) resolveName(name string) ResolvedName {
	id, err := b.r.ResolveRevision(b.rd, name)
	if err != nil {
		return ResolvedName{Kind: NameUnresolved}
	}
	typ, _, err := b.rd.ReadHeader(id)
	if err != nil {
		return ResolvedName{Kind: NameMissing}
	}
	peeled, err := repo.Peel(b.rd, id, object.Invalid)
	if err == nil {
		if t, _, err := b.rd.ReadHeader(peeled); err == nil {
			typ = t
		}
		id = peeled
	}
	if typ == object.Commit {
		return ResolvedName{Kind: NameCommittish}
	}
	return ResolvedName{Kind: NameObject, PeeledHex: id.String(), PeeledType: typ.String()}
}

// sinceValue is git's max_age for --since/--after (approxidate) and
// --max-age (atoi).
func (b *blameRun) sinceValue(d *DateLimit) (uint64, error) {
	if d.Epoch {
		n := atoi(d.Value)
		return uint64(int64(n)), nil
	}
	return format.Approxidate(d.Value, b.dateNow, b.local)
}

// ignoreList builds the set of ignored revisions (git's
// build_ignorelist): files first (an empty name clears), then the revs.
func (b *blameRun) ignoreList(a *BlameArgs) ([]oid.ID, error) {
	var set []oid.ID
	seen := map[oid.ID]bool{}
	add := func(id oid.ID) {
		if !seen[id] {
			seen[id] = true
			set = append(set, id)
		}
	}
	for _, f := range a.IgnoreRevsFiles {
		if f == "" {
			set, seen = nil, map[oid.ID]bool{}
			continue
		}
		data, err := os.ReadFile(b.topPath(f))
		if err != nil {
			return nil, die("could not open object name list: %s", f)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			id, err := oid.ParseHex(b.r.Format, line)
			if err != nil {
				return nil, die("invalid object name: %s", line)
			}
			if peeled, err := repo.Peel(b.rd, id, object.Commit); err == nil {
				add(peeled)
			}
		}
	}
	for _, rev := range a.IgnoreRevs {
		id, err := b.r.ResolveRevision(b.rd, rev)
		if err != nil {
			return nil, die("cannot find revision %s to ignore", rev)
		}
		peeled, err := repo.Peel(b.rd, id, object.Commit)
		if err != nil {
			return nil, die("cannot find revision %s to ignore", rev)
		}
		add(peeled)
	}
	return set, nil
}

// request picks the final commit (or the working tree) and the walk's
// tips from the pending revisions, as setup_scoreboard does.
func (b *blameRun) request(a *BlameArgs, revs []repo.Revision, path string) (blamecore.Request, error) {
	req := blamecore.Request{Path: path}
	if a.Reverse && a.Contents != nil {
		return req, die("--contents and --reverse do not blend well.")
	}
	peel := func(rv repo.Revision) (oid.ID, error) {
		id, err := repo.Peel(b.rd, rv.ID, object.Commit)
		if err != nil {
			return oid.ID{}, die("Non commit %s?", rv.Name)
		}
		if t, _, err := b.rd.ReadHeader(id); err != nil || t != object.Commit {
			return oid.ID{}, die("Non commit %s?", rv.Name)
		}
		return id, nil
	}
	var final, reverseEnd oid.ID
	finalName := ""
	if !a.Reverse {
		for _, rv := range revs {
			if rv.Negative {
				continue
			}
			id, err := peel(rv)
			if err != nil {
				return req, err
			}
			if finalName != "" {
				return req, die("More than one commit to dig from %s and %s?", rv.Name, finalName)
			}
			final, finalName = id, rv.Name
		}
	} else {
		for _, rv := range revs {
			if !rv.Negative {
				continue
			}
			id, err := peel(rv)
			if err != nil {
				return req, err
			}
			if finalName != "" {
				return req, die("More than one commit to dig up from, %s and %s?", rv.Name, finalName)
			}
			final, finalName = id, rv.Name
		}
		if finalName == "" {
			// "--reverse ONE" means "--reverse ONE..HEAD".
			if len(revs) == 1 {
				if id, err := peel(revs[0]); err == nil {
					if head, _, herr := b.r.Head(); herr == nil {
						final, finalName = id, revs[0].Name
						revs = []repo.Revision{{Name: revs[0].Name, ID: id, Type: object.Commit, Negative: true}, {Name: "HEAD", ID: head, Type: object.Commit}}
					}
				}
			}
			if finalName == "" {
				return req, die("No commit to dig up from?")
			}
		}
	}
	if finalName != "" && a.Contents != nil {
		return req, die("cannot use --contents with final commit object name")
	}
	if a.Reverse && a.FirstParent {
		var end oid.ID
		found := false
		for _, rv := range revs {
			if rv.Negative {
				continue
			}
			id, err := peel(rv)
			if err != nil {
				return req, err
			}
			if found {
				return req, die("More than one commit to dig from %s and %s?", rv.Name, "")
			}
			end, found = id, true
		}
		if !found {
			return req, die("--reverse and --first-parent together require specified latest commit")
		}
		reverseEnd = end
	}
	for _, rv := range revs {
		id, err := repo.Peel(b.rd, rv.ID, object.Commit)
		if err != nil {
			continue // non-commits take no part in the walk
		}
		req.Tips = append(req.Tips, traverse.Tip{ID: id, Uninteresting: rv.Negative})
	}
	req.ReverseEnd = reverseEnd
	if finalName == "" {
		wt, err := b.workTree(a, path)
		if err != nil {
			return req, err
		}
		req.WorkTree = wt
		return req, nil
	}
	req.Final, req.FinalName = final, finalName
	return req, nil
}

// history opens the commit walk: the commit-graph unless git would
// ignore it, grafts (-S and info/grafts) and the shallow boundary.
func (b *blameRun) history(revsFileGrafts map[oid.ID][]oid.ID) (*blamecore.History, []string, error) {
	r := b.r
	parents, msgs, err := r.EffectiveParents()
	if err != nil {
		return nil, msgs, err
	}
	grafts := parents
	if len(revsFileGrafts) > 0 {
		grafts = make(map[oid.ID][]oid.ID, len(parents)+len(revsFileGrafts))
		for k, v := range parents {
			grafts[k] = v
		}
		for k, v := range revsFileGrafts {
			grafts[k] = v
		}
	}
	disable := r.HasReplacements()
	if v, ok := r.Config.Get("core.commitgraph"); ok {
		if on, valid := repo.BoolText(v, true); valid && !on {
			disable = true
		}
	}
	var g *traverse.Graph
	var warnings []string
	if !disable && len(grafts) == 0 {
		g, warnings, err = traverse.OpenGraph(r.Objects.ObjectDirs(), r.Format)
		if err != nil {
			g = nil
		}
		b.graph = g
	}
	return blamecore.NewHistory(b.rd, r.Format, blamecore.HistoryOptions{
		Graph: g, Grafts: grafts, DisableGraph: disable,
		NewReader: func() blamecore.ObjectReader { return r.Objects.NewReaderCache(readAheadCacheBytes) },
	}), append(msgs, warnings...), nil
}

// formatOptions maps the command line and configuration to the output.
func (b *blameRun) formatOptions(a *BlameArgs, cfg *blameConfig) format.Options {
	f := format.Options{
		Porcelain:      a.Porcelain,
		LinePorcelain:  a.Porcelain && a.LinePorcelain,
		Annotate:       a.Annotate,
		LongHash:       a.LongHash,
		RawTime:        a.RawTime,
		ShowName:       a.ShowName,
		ShowNumber:     a.ShowNumber,
		ShowScore:      a.ScoreDebug,
		NoAuthor:       a.NoAuthor,
		ShowEmail:      a.ShowEmail,
		BlankBoundary:  a.BlankBoundary,
		ShowStats:      a.ShowStats,
		ColorLines:     a.ColorLines,
		ColorByAge:     a.ColorByAge,
		RepeatedColor:  cfg.repeatedColor,
		Heat:           cfg.heat,
		MarkUnblamable: cfg.markUnblamable,
		MarkIgnored:    cfg.markIgnored,
		QuotePath:      cfg.quotePath,
		Abbrev:         a.Abbrev,
		DefaultAbbrev:  cfg.coreAbbrev,
		DateMode:       a.Date,
		Now:            b.dateNow,
		Local:          b.local,
		UniqueAbbrevLen: func(id oid.ID, minLen int) int {
			return b.r.Objects.UniqueAbbrevLen(id, minLen)
		},
	}
	if !a.ColorLines && !a.ColorByAge {
		f.ColorLines, f.ColorByAge = cfg.colorLines, cfg.colorByAge
	}
	return f
}
