package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/goblame/goblame/blame"
	"github.com/goblame/goblame/format"
	"github.com/goblame/goblame/internal/cnum"
	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/internal/gitdate"
	"github.com/goblame/goblame/object"
	"github.com/goblame/goblame/oid"
	"github.com/goblame/goblame/repo"
)

// blameRun is one invocation of the blame command.
type blameRun struct {
	env      Environ
	annotate bool // git annotate: -c output, ISO dates, its usage line
	procs    int  // GOMAXPROCS before the run went to one processor (process.go)
	stderr   *bufio.Writer
	r        *repo.Repository
	lib      *blame.Repository
	now      time.Time // the clock (the pseudo commit's date)
	// dateNow is "now" for relative dates and approxidate: git's
	// get_time(), which GIT_TEST_DATE_NOW overrides.
	dateNow time.Time
	local   *time.Location
	// childEnvOnce makes childEnvValue (childEnv).
	childEnvOnce  sync.Once
	childEnvValue []string
	// phases times the run's phases (GOBLAME_TRACE_PHASES); nil: off.
	phases *phaseMarks
}

// warn writes a line of git's warning()/error() (or advice) at once, as
// git's unbuffered stderr does: where standard error and output go to
// one place, it comes before the output, as git's does.
func (b *blameRun) warn(line string) {
	if strings.HasPrefix(line, "warning: ") || strings.HasPrefix(line, "error: ") {
		// git's warning() and error() go through vreportf: control
		// characters shown as '?', the line cut at its 4096-byte buffer.
		b.stderr.WriteString(reportLine("", line))
	} else {
		b.stderr.WriteString(line)
		b.stderr.WriteByte('\n')
	}
	b.stderr.Flush()
}

func (b *blameRun) flush() {
	if b.stderr != nil {
		b.stderr.Flush()
	}
}

// repoEnv is the run's environment as the repository package takes it.
func (b *blameRun) repoEnv() repo.Env {
	return repo.Env{Cwd: b.env.Dir, Getenv: b.env.Getenv, LookupEnv: b.env.LookupEnv}
}

// readConfigBeforeDiscovery reads the system and global configuration as
// git's very first reading does, before it finds there is no repository:
// it dies of a broken file, and warns once of one it cannot read (a
// directory: the first of the warnings the load returns).
func (b *blameRun) readConfigBeforeDiscovery() error {
	_, err := repo.OutsideConfig(b.repoEnv(), false)
	var re *repo.Error
	if _, dir := fsread.DirSize(err); dir && errors.As(err, &re) && len(re.Before) > 0 {
		b.warn(re.Before[0])
		return nil
	}
	return err
}

// checkOutsideConfig reads the configuration as git blame does outside a
// repository (repo.OutsideConfig): the errors of a broken or unreadable
// file, or of a key git's blame and default configuration reject.
func (b *blameRun) checkOutsideConfig() error {
	r, err := repo.OutsideConfig(b.repoEnv(), true)
	if err != nil {
		return err
	}
	for _, w := range r.Warnings {
		b.warn(w)
	}
	_, err = readBlameConfig(r, b.env, b.env.Now(), localZone(b.env))
	return err
}

// localZone is the time zone the environment's TZ names (git's
// localtime), the process's zone when TZ is unset.
func localZone(env Environ) *time.Location {
	tz, ok := env.lookup("TZ")
	if !ok {
		return time.Local // its leap seconds read when first used (gitdate.LocalLeaps)
	}
	return gitdate.TZ(tz)
}

func (b *blameRun) run(args []string) error {
	env := b.env
	started := phaseClock()
	b.stderr = bufio.NewWriter(env.Stderr)
	defer b.flush()
	defer func() {
		b.phases.mark("end")
		b.phases.print(b.stderr)
	}()
	if len(args) == 1 && args[0] == "-h" {
		// git answers a lone -h outside a repository too (its setup is
		// gentle then), but reads the configuration first, and dies of
		// what a blame would die of: in a repository as below, outside
		// one with the system, global and command-line files.
		r, err := repo.Discover(b.repoEnv())
		// Its gentle setup goes on where no repository is found (or
		// one it may not use), and dies of anything else (a broken
		// GIT_DIR or GIT_WORK_TREE, a bad configuration).
		if err != nil && err != repo.ErrNotRepository && !errors.Is(err, repo.ErrUnsupportedFormat) && !errors.Is(err, repo.ErrDubiousOwnership) {
			return err
		}
		if err != nil {
			if err := b.checkOutsideConfig(); err != nil {
				return err
			}
			_, err := ParseArgs(args, DefaultBlameArgs(), ParseContext{Annotate: b.annotate})
			return err
		}
		r.Close()
	}
	deferFresh := false
	if env.Process {
		// Before anything else allocates: see process.go.
		b.procs = oneProc(env.Getenv)
		tuneGC(env.Getenv)
		if deferFresh = mayBeIncremental(args); !deferFresh {
			hugePageFresh()
		}
	}
	// (Made after the tuning above: the environment's first read
	// allocates, which before it cost go-git Magit's first entry 0.19
	// ms, 150 paired rounds.)
	b.phases = newPhaseMarks(env.Getenv, started)
	b.phases.mark("tuned")
	b.now = env.Now()
	b.dateNow = b.now
	if v, ok := env.lookup("GIT_TEST_DATE_NOW"); ok {
		// get_time's atoi: a leading number, 0 for none, 32 bits.
		b.dateNow = time.Unix(int64(cnum.Atoi(v)), 0)
	}
	b.local = localZone(env)

	r, err := repo.Discover(b.repoEnv())
	b.phases.mark("discovered")
	if err != nil {
		if errors.Is(err, repo.ErrNotRepository) {
			if cerr := b.readConfigBeforeDiscovery(); cerr != nil {
				return cerr
			}
		}
		return err
	}
	if !env.Process {
		// The goblame process leaves its files and mappings to the
		// exit: unmapping a pack (111 MB for gitoxide) interrupts the
		// other processor to flush its TLB, and a cached blame spent a
		// tenth of its time closing.
		defer r.Close()
	}
	b.r = r
	if deferFresh && hugeHeapBytes(r.Objects.PackBytes()) > hugeHeapFreshBytes {
		// Only a small repository's start waits for the command line
		// (hugeSchedule.parsed).
		deferFresh = false
		hugePageFresh()
	}
	for _, w := range r.Warnings {
		b.warn(w)
	}
	r.WarningHandler = b.warn
	b.lib = blame.NewRepository(r, env.Dir)
	if env.Process {
		defer b.lib.SaveCache()
	} else {
		defer b.lib.Close()
	}

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
		Annotate:         b.annotate,
		Format:           r.Format,
		CoreAbbrev:       coreAbbrev,
		Bare:             bare,
		StdoutIsTerminal: env.StdoutIsTerminal,
		Resolve:          b.resolveName,
		CheckSettings:    b.lib.CheckSettings,
		ReadRevsFile: func(path string) error {
			g, msgs, err := repo.ReadGraftFile(b.lib.TopPath(path), path, r.Format)
			for _, m := range msgs {
				b.warn(m)
			}
			if err != nil {
				var re *repo.Error
				if !errors.As(err, &re) {
					return err
				}
				for _, l := range re.Before {
					b.warn(l)
				}
				return die("%s", re.Msg)
			}
			grafts = g
			return nil
		},
	}
	a, err := ParseArgs(args, cfg.args, ctx)
	b.phases.mark("parsed")
	if err != nil {
		return err
	}
	if env.Process && a.CopyLevel > 0 {
		tuneGCForCopies()
	}
	rel, err := r.PrefixPath(a.Path)
	if err != nil {
		return err
	}
	opts, err := b.options(a, grafts)
	if err != nil {
		return err
	}
	if dir := cacheDir(env); dir != "" && !a.NoCache {
		b.lib.SetCache(blame.OpenCache(dir, cacheMaxBytes(env)))
	}
	// --show-stats counts the walk's work, which a cached blame skips;
	// --score-debug's reference counts count the origins the walk went
	// through, which a cache entry does not keep.
	opts.NoCache = a.ShowStats || a.ScoreDebug
	// The huge-page starts of a walk and its second processor (see
	// process.go and hugeSchedule).
	var huge *hugeSchedule
	if env.Process {
		heapBytes := hugeHeapBytes(r.Objects.PackBytes())
		heap := hugePageStart
		if a.CopyLevel > 0 {
			heap = hugePageHeap
		}
		huge = &hugeSchedule{
			incremental: a.Incremental,
			heapBytes:   heapBytes,
			smallRepo:   heapBytes <= hugeHeapFreshBytes,
			heap:        heap,
			more:        hugePageMore,
			undo:        hugePageFreshUndo,
			procs:       func() { useProcs(b.procs) },
			fresh:       func() { hugePageFresh() },
		}
		opts.BeforeWalk = huge.beforeWalk
		switch {
		case deferFresh && a.Incremental:
			size := int64(-1)
			if !bare {
				size = workTreeFileSize(r.WorkTree, rel)
			}
			huge.parsed(size)
		case deferFresh:
			hugePageFresh()
		}
	}
	p, err := b.lib.Prepare(context.Background(), "", a.Path, opts)
	b.phases.mark("prepared")
	if err != nil {
		return err
	}
	defer p.Close()
	if huge != nil {
		if !p.UsesCommitGraph() {
			huge.withoutGraph()
		}
		huge.prepared(p.NumLines())
	}
	if env.Process && a.CopyLevel == 0 {
		tuneGCForLargeFile(p.Size())
	}
	if env.Process && (!p.UsesCommitGraph() || opts.CopyLevel > 0) {
		// Without a commit-graph, commits are read ahead on a second
		// goroutine; under -C, copy candidates are.
		useProcs(b.procs)
	}

	if a.JSON {
		id, uncommitted := p.Final()
		out := format.NewJSON(b.env.Stdout, format.JSONHeader{Path: p.Path(), Commit: id, Uncommitted: uncommitted,
			NumLines: p.NumLines(), Ranges: p.Ranges()})
		if _, err := p.Run(out.Entry); err != nil {
			return err
		}
		return out.Err()
	}
	fopts := b.formatOptions(a, cfg)
	if a.Incremental {
		inc := format.NewIncremental(b.env.Stdout, fopts)
		left := linesToBlame(p)
		first := true
		if _, err := p.Run(func(e blame.Entry) error {
			inc.Entry(e)
			if first {
				first = false
				b.phases.mark("entry")
			}
			// (not once the last line is out: the walk has ended)
			if left -= e.NumLines; left > 0 && huge != nil {
				huge.entry()
			}
			return nil
		}); err != nil {
			return err
		}
		b.phases.mark("walked")
		return inc.Err()
	}
	progress := a.Progress == 1 || (a.Progress < 0 && env.StderrIsTerminal)
	var prog *progressMeter
	var onEntry func(blame.Entry) error
	if progress {
		prog = newProgress(b.stderr, "Blaming lines", linesToBlame(p), b.env)
		onEntry = func(e blame.Entry) error { prog.entry(e); return nil }
	}
	res, err := p.Run(onEntry)
	b.phases.mark("walked")
	if prog != nil {
		prog.stop()
	}
	if err != nil {
		return err
	}
	if env.Getenv("GOBLAME_TRACE_STATS") != "" {
		fmt.Fprintf(b.stderr, "goblame stats: %+v\n", res.Stats)
		if env.Process {
			// the processors the run ended with (oneProc, useProcs)
			fmt.Fprintf(b.stderr, "goblame processors: %d\n", runtime.GOMAXPROCS(0))
		}
	}
	out := b.env.Stdout
	paged := false
	if pager := b.pagerCommand(); pager != "" {
		b.flush()
		_, inWorkTree := p.Final()
		w, wait, err := b.startPager(pager, inWorkTree)
		if err == nil {
			out, paged = w, true
			defer wait()
		}
	}
	err = format.Write(out, res, fopts)
	b.phases.mark("written")
	if paged && errors.Is(err, syscall.EPIPE) {
		// The pager quit early ("q" in less): git dies of SIGPIPE
		// without a word, and the shell sees 128+13.
		return &exitError{code: 141}
	}
	return err
}

// linesToBlame is how many lines p blames: its ranges', or the file's.
func linesToBlame(p *blame.Prepared) int {
	if p.Ranges() == nil {
		return p.NumLines()
	}
	n := 0
	for _, rg := range p.Ranges() {
		n += rg.End - rg.Start
	}
	return n
}

// options turns the parsed command line into the library's options.
func (b *blameRun) options(a *BlameArgs, grafts map[oid.ID][]oid.ID) (blame.Options, error) {
	opts := blame.Options{
		IgnoreWhitespace:       a.IgnoreWhitespace,
		Minimal:                a.Minimal,
		ShowRoot:               a.ShowRoot,
		FirstParent:            a.FirstParent,
		ExcludeFirstParentOnly: a.Rev.ExcludeFirstParentOnly,
		NoFollow:               a.NoFollow,
		Reverse:                a.Reverse,
		Move:                   a.Move,
		CopyLevel:              a.CopyLevel,
		MoveScore:              int(a.MoveScore),
		CopyScore:              int(a.CopyScore),
		NoTextConv:             !a.TextConv,
		CommandStderr:          b.env.Stderr,
		CommandEnv:             commandEnv(b.env.Env, b.r.Prefix),
		CommandEnvFunc:         b.childEnv,
		IgnoreRevs:             a.IgnoreRevs,
		IgnoreRevsFiles:        a.IgnoreRevsFiles,
		Ranges:                 a.Ranges,
		Grafts:                 grafts,
		Merge:                  a.Rev.ShowMerge,
		Now:                    b.now,
		Location:               b.local,
		Warn:                   b.warn,
		OutputEncoding:         "",
	}
	opts.AncestryPath, opts.AncestryPathCommits = a.Rev.AncestryPath, a.Rev.AncestryPathBottoms
	// (--no-walk: prepare_revision_walk returns before the merges'
	// simplification, so no parent is rewritten.)
	opts.SimplifyByDecoration, opts.Sparse = a.Rev.SimplifyByDecoration && !a.NoWalk(), a.Rev.Sparse
	opts.LimitedWalk, opts.NoWalk = a.LimitedWalk(b.lib.HasCommitGraph), a.NoWalk()
	if a.Rev.TopoOrder || a.Rev.graph {
		opts.Order = cmp.Or(a.Rev.SortOrder, blame.WalkTopo)
	}
	opts.WalkReflogs, opts.IgnoreMissing = a.Rev.WalkReflogs, a.Rev.IgnoreMissing
	if a.IndentHeuristic != nil {
		opts.NoIndentHeuristic = !*a.IndentHeuristic
	}
	if a.Rev.Default != nil {
		opts.DefaultRevision = *a.Rev.Default
	}
	if a.Encoding != nil {
		opts.OutputEncoding = *a.Encoding
		if opts.OutputEncoding == "" {
			opts.OutputEncoding = "none"
		}
	}
	if a.Contents != nil {
		if *a.Contents == "-" {
			opts.Contents = b.env.Stdin
		} else {
			opts.ContentsFile = *a.Contents
			opts.ContentsFileGiven = true
		}
	}
	for _, w := range a.RevArgs {
		switch {
		case w == "--not" || !strings.HasPrefix(w, "-") || blame.IsRefListing(w):
			opts.Revisions = append(opts.Revisions, w)
		case w == "--no-walk" || strings.HasPrefix(w, "--no-walk=") || w == "--do-walk":
		default:
			// (Every pseudo revision git 2.39.5 takes is a ref listing
			// now; this is for one a later git adds.)
			return opts, die("goblame does not support the revision option %s", w)
		}
	}
	if a.NoDashDash {
		for _, w := range opts.Revisions {
			if w == "--not" || strings.Contains(w, "..") || strings.HasPrefix(w, "^") {
				continue
			}
			if !b.lib.IsRevision(w) {
				return opts, die("ambiguous argument '%s': unknown revision or path not in the working tree.\n"+
					"Use '--' to separate paths from revisions, like this:\n"+
					"'git <command> [<revision>...] -- [<file>...]'", w)
			}
		}
	}
	opts.AfterRevisions = func() error {
		return a.CheckRevisionSetup(a.Rev.TopoOrder && b.lib.HasCommitGraph(), a.NoWalk())
	}
	if a.Since != nil {
		since, err := b.sinceValue(a.Since)
		if err != nil {
			return opts, err
		}
		opts.Since = time.Unix(int64(since), 0)
	}
	if a.Rev.Until != nil {
		until, err := b.sinceValue(a.Rev.Until)
		if err != nil {
			return opts, err
		}
		opts.Until = time.Unix(int64(until), 0)
	}
	if a.Rev.SinceFilter != nil {
		since, err := b.sinceValue(a.Rev.SinceFilter)
		if err != nil {
			return opts, err
		}
		opts.SinceAsFilter = time.Unix(int64(since), 0)
	}
	return opts, nil
}

// resolveName answers ParseArgs' questions about words.
func (b *blameRun) resolveName(name string) ResolvedName {
	n, err := b.lib.ResolveName(name)
	switch {
	case err != nil:
		return ResolvedName{Kind: NameUnresolved}
	case n.Missing:
		return ResolvedName{Kind: NameMissing}
	case n.Type == object.Commit:
		return ResolvedName{Kind: NameCommittish}
	}
	return ResolvedName{Kind: NameObject, PeeledHex: n.ID.String(), PeeledType: n.Type.String()}
}

// sinceValue is git's max_age for --since/--after (approxidate) and
// --max-age (atoi).
func (b *blameRun) sinceValue(d *DateLimit) (uint64, error) {
	if d.Epoch {
		n := atoi(d.Value)
		return uint64(int64(n)), nil
	}
	// setup_revisions takes approxidate()'s answer and not its error
	// flag: a date it does not understand ("garbage", "") means now.
	ts, err := gitdate.Approxidate(d.Value, b.dateNow, b.local)
	if errors.Is(err, gitdate.ErrApproxidate) {
		err = nil
	}
	return ts, err
}

// formatOptions maps the command line and configuration to the output.
func (b *blameRun) formatOptions(a *BlameArgs, cfg *blameConfig) format.Options {
	f := format.Options{
		Porcelain:       a.Porcelain,
		LinePorcelain:   a.Porcelain && a.LinePorcelain,
		Annotate:        a.Annotate,
		LongHash:        a.LongHash,
		RawTime:         a.RawTime,
		ShowName:        a.ShowName,
		ShowNumber:      a.ShowNumber,
		ShowScore:       a.ScoreDebug,
		NoAuthor:        a.NoAuthor,
		ShowEmail:       a.ShowEmail,
		BlankBoundary:   a.BlankBoundary,
		ShowStats:       a.ShowStats,
		ColorLines:      a.ColorLines,
		ColorByAge:      a.ColorByAge,
		RepeatedColor:   cfg.repeatedColor,
		Heat:            cfg.heat,
		MarkUnblamable:  cfg.markUnblamable,
		MarkIgnored:     cfg.markIgnored,
		QuotePath:       cfg.quotePath,
		Abbrev:          a.Abbrev,
		DefaultAbbrev:   cfg.coreAbbrev,
		DateMode:        a.Date,
		Now:             b.dateNow,
		Local:           b.local,
		UniqueAbbrevLen: b.lib.UniqueAbbrevLen,
	}
	// The pack indexes do not change while the blame is written: the
	// lines are listed once, at the first entry, which prints them twice
	// (the object count, then the abbreviation).
	var abbrevLines []string
	f.OnFindAbbrev = func(first bool) {
		if first {
			abbrevLines = b.lib.AbbrevLines()
			for _, l := range abbrevLines {
				io.WriteString(b.stderr, l+"\n")
			}
		}
		for _, l := range abbrevLines {
			io.WriteString(b.stderr, l+"\n")
		}
	}
	if !a.ColorLines && !a.ColorByAge {
		f.ColorLines, f.ColorByAge = cfg.colorLines, cfg.colorByAge
	}
	if f.ColorByAge && !cfg.heatSet {
		// git parses the default on every run; its dates are
		// approxidates in the local zone, which costs a run that does
		// not colour by age the read of /etc/localtime. It cannot fail
		// (format's TestHeatColorsDefault).
		f.Heat, _ = format.ParseHighlightRecent(format.DefaultHighlightRecent, b.dateNow, b.local)
	}
	return f
}
