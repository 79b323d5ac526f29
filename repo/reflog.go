package repo

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/goblame/goblame/internal/cnum"
	"github.com/goblame/goblame/internal/fsread"
	"github.com/goblame/goblame/internal/gitdate"
	"github.com/goblame/goblame/oid"
)

// reflogRecord is one line of a reflog: "<old> <new> <ident> <time> <tz>\t<msg>".
type reflogRecord struct {
	old, new oid.ID
	time     uint64
	tz       int
	msg      []byte // without its newline
}

// readReflog returns the records of refname's reflog, oldest first,
// skipping lines git's reflog reader skips; ok is false when there is
// no reflog.
func (res *resolver) readReflog(refname string) ([]reflogRecord, bool) {
	return res.readReflogFile(res.r.refStore().reflogPath(refname))
}

// readReflogFile is readReflog of the reflog file at path.
func (res *resolver) readReflogFile(path string) ([]reflogRecord, bool) {
	data, err := fsread.ReadFile(path, 0)
	if err != nil {
		return nil, false
	}
	hexLen := res.r.Format.HexSize()
	var log []reflogRecord
	for len(data) > 0 {
		// A line without its newline (the end of a torn write) is
		// skipped, as git skips it.
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 {
			break
		}
		line := data[:nl]
		data = data[nl+1:]
		if len(line) < 2*hexLen+2 || line[hexLen] != ' ' || line[2*hexLen+1] != ' ' {
			continue
		}
		o, err1 := oid.ParseHexBytes(res.r.Format, line[:hexLen])
		nw, err2 := oid.ParseHexBytes(res.r.Format, line[hexLen+1:2*hexLen+1])
		if err1 != nil || err2 != nil {
			continue
		}
		// show_one_reflog_ent: "> " after the e-mail, a timestamp, then
		// " +hhmm" or " -hhmm" and the message after a tab.
		rest := line[2*hexLen+2:]
		gt := bytes.IndexByte(rest, '>')
		if gt < 0 || gt+1 >= len(rest) || rest[gt+1] != ' ' {
			continue
		}
		rest = rest[gt+2:]
		ts, n := gitdate.CStrtol(rest, 0)
		if n == 0 || ts <= 0 || n+5 >= len(rest) || rest[n] != ' ' || (rest[n+1] != '+' && rest[n+1] != '-') || !allDigits(rest[n+2:n+6]) {
			continue
		}
		tz, _ := gitdate.CStrtol(rest, n+1)
		msg := rest[n+6:]
		if len(msg) > 0 && msg[0] == '\t' {
			msg = msg[1:]
		}
		log = append(log, reflogRecord{old: o, new: nw, time: uint64(ts), tz: int(tz), msg: msg})
	}
	return log, true
}

// ReflogObjects lists, reflog by reflog, the objects the records of this
// repository's reflogs name (each record's old and new values but the
// null ID), as git's --reflog takes them: the current worktree's reflogs,
// then every other worktree's (OtherWorktrees), each worktree's as its
// files backend meets them: the logs under its git directory (readdir's
// order, unsorted), and for a linked worktree the shared ones under the
// common directory after them (so that the shared reflogs come again for
// each linked worktree), records oldest first. Another worktree's own
// reflogs are named as the current one reaches them
// ("worktrees/<id>/HEAD", "main-worktree/HEAD"). A reflog whose ref git
// cannot resolve (a name git refuses, a ref file it cannot parse) is an
// entry with Error set, in its place.
func (r *Repository) ReflogObjects() []ReflogObjects {
	res := &resolver{r: r}
	s := r.refStore()
	var out []ReflogObjects
	list := func(w Worktree, current bool) {
		for _, l := range worktreeReflogNames(w, r) {
			name := l.name
			if !current {
				name = w.RefName(l.name)
			}
			// The iterator resolves each (without reading: a ref
			// that is missing passes).
			if rr, err := s.resolve(name, false); err != nil || !rr.found {
				out = append(out, ReflogObjects{Error: "error: bad ref for " + l.shown})
				continue
			}
			// A worktree's own reflogs are in its git directory, the
			// shared ones in the common directory, whichever
			// directory listed them.
			recs, ok := res.readReflogFile(s.reflogPath(name))
			if !ok {
				continue
			}
			ro := ReflogObjects{Name: name}
			for _, rec := range recs {
				for _, id := range []oid.ID{rec.old, rec.new} {
					if !id.IsNull() {
						ro.IDs = append(ro.IDs, id)
					}
				}
			}
			out = append(out, ro)
		}
	}
	list(Worktree{GitDir: r.GitDir, gitDirName: r.gitDirName}, true)
	for _, w := range r.OtherWorktrees() {
		list(w, false)
	}
	return out
}

// reflogName is a reflog a worktree's ref store lists: its ref's name
// there, and the file's path as git names it in its messages.
type reflogName struct{ name, shown string }

// worktreeReflogNames lists the reflogs w's ref store iterates
// (files_reflog_iterator_begin): those under its git directory's logs,
// and for a linked worktree the shared ones under the common directory's
// after them, each directory as git's dir_iterator meets its files:
// readdir's order (unsorted), a subdirectory's as soon as it is met,
// names starting with "." and ending in ".lock" left out. git names the
// files from the store's directories: the git directory as it holds it,
// and a linked worktree's common directory resolved (get_common_dir_noenv).
func worktreeReflogNames(w Worktree, r *Repository) []reflogName {
	var names []reflogName
	var walk func(root, shown, rel string, keep func(string) bool)
	walk = func(root, shown, rel string, keep func(string) bool) {
		// (O_DIRECTORY: a FIFO where a directory should be is an error,
		// not an open that waits for a writer, as git's would.)
		f, err := os.OpenFile(filepath.Join(root, rel), os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return
		}
		entries, _ := f.Readdirnames(-1)
		f.Close()
		for _, e := range entries {
			name := e
			if rel != "" {
				name = rel + "/" + e
			}
			st, err := os.Lstat(filepath.Join(root, name))
			switch {
			case err != nil:
			case st.IsDir():
				walk(root, shown, name, keep)
			case st.Mode().IsRegular() && e[0] != '.' && !strings.HasSuffix(e, ".lock") && keep(name):
				names = append(names, reflogName{name: name, shown: shown + "/" + name})
			}
		}
	}
	walk(w.GitDir+"/logs", w.gitDirName+"/logs", "", func(string) bool { return true })
	if filepath.Clean(w.GitDir) != filepath.Clean(r.CommonDir) {
		// (The main worktree's own reflogs, which the common
		// directory also holds, are not a linked worktree's.)
		common := realPathOr(r.CommonDir)
		walk(r.CommonDir+"/logs", common+"/logs", "", func(n string) bool { return !isCurrentWorktreeRef(n) })
	}
	return names
}

// ReflogObjects are the objects one reflog's records name, in order.
type ReflogObjects struct {
	Name string
	IDs  []oid.ID
	// Error is the line git prints in place of a reflog whose ref it
	// cannot resolve ("error: bad ref for <path>"); Name and IDs are
	// empty then.
	Error string
}

// reflogAt is "<base>@{date}": git's read_ref_at by time, at the
// timestamp at. The value is that of the newest record at or before at;
// past the oldest record, the oldest value, with git's warning "log for
// '<base>' only goes back to <date>". Gaps in the log (a record whose new
// value is not the next one's old) are warned about as git does.
func (res *resolver) reflogAt(base string, at uint64) (oid.ID, bool, error) {
	refname, current, err := res.reflogRef(base)
	if err != nil || refname == "" {
		return oid.ID{}, false, err
	}
	log, ok := res.readReflog(refname)
	if !ok {
		return oid.ID{}, false, nil
	}
	if len(log) == 0 {
		return oid.ID{}, false, fatalError{fmt.Errorf("log for %s is empty", refname)}
	}
	rfc := func(ts uint64, tz int) string {
		d, _ := gitdate.ShowDate(gitdate.DateMode{Type: gitdate.DateRFC2822}, ts, tz, res.r.dateNow(), time.Local)
		return d
	}
	result := current
	var prevOld oid.ID // the previous (newer) record's old value, zero at first
	for i := len(log) - 1; i >= 0; i-- {
		e := log[i]
		if e.time <= at {
			if !prevOld.IsZero() && !prevOld.IsNull() && prevOld != e.new {
				res.r.warn(fmt.Sprintf("warning: log for ref %s has gap after %s", refname, rfc(e.time, e.tz)))
			}
			switch {
			case !prevOld.IsZero() && !prevOld.IsNull(), e.time == at:
				result = e.new
			case e.new != result:
				res.r.warn(fmt.Sprintf("warning: log for ref %s unexpectedly ended on %s", refname, rfc(e.time, e.tz)))
			}
			return result, true, nil
		}
		prevOld = e.old
	}
	// Older than the whole log: its oldest value (read_ref_at_ent_oldest).
	oldest := log[0]
	result = oldest.old
	if result.IsNull() {
		result = oldest.new
	}
	shown := base
	if shown == "" {
		shown = strings.TrimPrefix(refname, "refs/heads/")
		if shown == refname {
			shown = "HEAD"
		}
	}
	res.r.warn(fmt.Sprintf("warning: log for '%s' only goes back to %s", shown, rfc(oldest.time, oldest.tz)))
	return result, true, nil
}

// dateNow is git's get_time(): GIT_TEST_DATE_NOW when set, else the
// clock.
func (r *Repository) dateNow() time.Time {
	if v, ok := r.env.Lookup("GIT_TEST_DATE_NOW"); ok {
		// atoi: a leading number, 0 for none, 32 bits.
		return time.Unix(int64(cnum.Atoi(v)), 0)
	}
	return time.Now()
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// nthPriorCheckout is git's interpret_nth_prior_checkout for a name
// that is exactly "@{-N}": the branch (or, after a detached checkout,
// the object name) that was checked out before the N-th checkout back,
// from the "checkout: moving from <old> to <new>" records of HEAD's
// reflog, newest first. valid reports the syntax ("@{-N}" with N > 0),
// found that there were as many checkouts.
func (res *resolver) nthPriorCheckout(name string) (prior string, valid, found bool) {
	if len(name) < 4 || !strings.HasPrefix(name, "@{-") {
		return "", false, false
	}
	brace := strings.IndexByte(name, '}')
	if brace != len(name)-1 {
		return "", false, false
	}
	nth, end := gitdate.CStrtol(name, 3)
	if end != brace || nth <= 0 {
		return "", false, false
	}
	log, _ := res.readReflog("HEAD")
	for i := len(log) - 1; i >= 0; i-- {
		rest, ok := bytes.CutPrefix(log[i].msg, []byte("checkout: moving from "))
		if !ok {
			continue
		}
		to := bytes.Index(rest, []byte(" to "))
		if to < 0 {
			continue
		}
		if nth--; nth == 0 {
			return string(rest[:to]), true, true
		}
	}
	return "", true, false
}

// substituteBranch is the part of git's substitute_branch_name this
// resolver needs: "@{-N}" becomes the branch checked out before the N-th
// checkout back; any other name, or one without as many checkouts,
// stays as it is. unknown reports the latter: git then looks for no
// mark after it.
func (res *resolver) substituteBranch(name string) (substituted string, unknown bool) {
	prior, valid, found := res.nthPriorCheckout(name)
	if found {
		return prior, false
	}
	return name, valid
}
