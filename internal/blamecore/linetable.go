package blamecore

// The differ's line tables (every distinct line of every version a blame
// prepares, interned) are bounded here: before a -C round, and before
// each pass of a walk.

// lineTableBudget bounds the memory of the differ's interned lines. -C
// prepares every candidate file of every parent it looks in, and the
// table keeps every distinct line it was shown: on git.git's
// builtin/blame.c with -C -C -C it grew past 80 MB. Past the budget,
// trimLineTable starts it afresh before a -C round. Measured there
// (peak RSS, time): 64 MiB 541 MB 20-23 s; 24 MiB 450 MB 39 s, as every
// reset prepares the remembered candidates again; git 405 MB 22 s. (A
// variable for the tests, which set it tiny to make every round start
// afresh.)
var lineTableBudget = 64 << 20

// trimLineTable resets the differ when its tables are over budget, and
// forgets every File prepared against them: the origins' and remembered
// candidates' prepared lines are made again when next needed (no caller
// holds a File across a -C round).
func (sb *scoreboard) trimLineTable() {
	if sb.differ.InternedBytes() <= lineTableBudget {
		return
	}
	sb.forgetLines(true)
}

// walkLineTableFloor and walkLineTableFiles bound the differ's interned
// lines in a walk's passes (boundLineTable) to the larger of the floor
// and that many times the size of the version being passed. The table
// keeps every distinct line of every version it was shown, which is
// what makes a version that shares most lines with its child cheap to
// prepare; a file that changes half its lines in every version (a
// generated one: vim's runtime/spell/en.latin1.spl, 620 KB) grew it by
// half a version a commit, and its copies as it doubled were most of
// the blame: 60 versions of a 2.3 MB file of which every other line
// changes took 2.1 s and 350 MB (git 1.7 s, 76 MB), allocating 550 MB;
// with the bound, 0.96 s and 87 MB. (Variables for the tests, which set
// them to 0 to start the tables afresh before every pass.)
var (
	walkLineTableFloor = 8 << 20
	walkLineTableFiles = 4
)

// boundLineTable starts the differ's tables afresh, keeping their
// memory, where they hold more than the walk's bound for a pass of
// target (see walkLineTableFloor): called before the pass prepares its
// versions, when no one holds a prepared File but the origins (whose
// lines are prepared again when next needed). A blame that looks for
// copies also keeps room for the candidates it remembers, whose lines
// are prepared again after a reset: that many times their bytes more,
// up to the -C rounds' budget (trimLineTable). The rounds alone did not
// bound the table where none ran (-C on the churning file above, no
// other file changed: 3.6 s and 469 MB, git 165 s and 76 MB); with the
// -C budget in every pass it peaked at 231 MB.
func (sb *scoreboard) boundLineTable(target *origin) {
	bound := max(walkLineTableFloor, walkLineTableFiles*len(target.file))
	if sb.opts.CopyLevel > 0 {
		bound = min(max(bound, walkLineTableFiles*(len(target.file)+sb.candidateBytes)), lineTableBudget)
	}
	if sb.differ.InternedBytes() <= bound {
		return
	}
	sb.forgetLines(sb.differ.InternedBytes() > lineTableBudget)
}

// forgetLines starts the differ's tables afresh (release: and lets their
// memory go) and forgets every File prepared against them.
func (sb *scoreboard) forgetLines(release bool) {
	if release {
		sb.differ.Reset()
	} else {
		sb.differ.Clear()
	}
	for _, c := range sb.candidates {
		c.file = nil
	}
	for k := range sb.made {
		for _, o := range sb.nodeAt(k).origins {
			o.prep = nil
		}
	}
	if sb.finalOrigin != nil {
		sb.finalOrigin.prep = nil
	}
	sb.freeFiles = sb.freeFiles[:0]
	sb.stats.LineTableResets++
}
