package repo

import (
	"math"
	"os"
	"path/filepath"
	"syscall"

	"github.com/goblame/goblame/internal/fsread"
)

// Worktree is a worktree of the repository as git's get_worktrees lists
// it: the main worktree, or a linked one under <common>/worktrees/<id>.
type Worktree struct {
	// ID names a linked worktree ("" for the main worktree).
	ID string
	// GitDir is the worktree's git directory: the common directory for
	// the main worktree, <common>/worktrees/<id> for a linked one.
	GitDir string
	// gitDirName is GitDir as git holds it (from the common directory
	// as git holds it: relative where that is).
	gitDirName string
}

// RefName is the name by which the current worktree reaches ref, a ref
// of this worktree's own (HEAD, refs/bisect/...): "main-worktree/<ref>"
// or "worktrees/<id>/<ref>" (git's strbuf_worktree_ref). A shared ref's
// name is the same in every worktree.
func (w Worktree) RefName(ref string) string {
	if !isCurrentWorktreeRef(ref) {
		return ref
	}
	if w.ID == "" {
		return "main-worktree/" + ref
	}
	return "worktrees/" + w.ID + "/" + ref
}

// OtherWorktrees lists the worktrees git's get_worktrees lists, but the
// current one, in its order: the main worktree first, then the linked
// ones in the order readdir gives <common>/worktrees (unsorted), each
// whose gitdir file holds something (git passes over the others).
func (r *Repository) OtherWorktrees() []Worktree {
	all := []Worktree{{GitDir: r.CommonDir, gitDirName: r.commonDirName}}
	// (O_DIRECTORY|O_NONBLOCK: a FIFO there is no directory to wait on.)
	if f, err := os.OpenFile(r.CommonDir+"/worktrees", os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0); err == nil {
		names, _ := f.Readdirnames(-1)
		f.Close()
		for _, id := range names {
			dir := r.CommonDir + "/worktrees/" + id
			if data, err := fsread.ReadFile(dir+"/gitdir", math.MaxInt64); err != nil || len(data) == 0 {
				continue
			}
			all = append(all, Worktree{ID: id, GitDir: dir, gitDirName: r.commonDirName + "/worktrees/" + id})
		}
	}
	// The current one is the first whose git directory is ours
	// (mark_current_worktree).
	cur, _ := filepath.Abs(r.GitDir)
	out := all[:0]
	found := false
	for _, w := range all {
		if abs, _ := filepath.Abs(w.GitDir); !found && abs == cur {
			found = true
			continue
		}
		out = append(out, w)
	}
	return out
}
