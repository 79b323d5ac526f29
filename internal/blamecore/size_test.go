package blamecore

import (
	"testing"
	"unsafe"

	"github.com/goblame/goblame/internal/traverse"
)

// TestWalkRecordSizes guards the bytes a walk spends per commit, which
// on a machine where page faults are dear is time: a walk makes a
// traverse.Commit, a commitNode and an origin or two for every commit it
// passes (git/git README.md: 13.4 MB allocated in all, 18.2 MB before the
// three were slimmed from 112, 136 and 168 bytes; commitNode no longer
// keeps its parents' nodes, which scapegoats looks up). A field that must
// grow one of them should say why in the budget here.
func TestWalkRecordSizes(t *testing.T) {
	for _, s := range []struct {
		name      string
		size, max uintptr
	}{
		{"traverse.Commit", unsafe.Sizeof(traverse.Commit{}), 56},
		{"commitNode", unsafe.Sizeof(commitNode{}), 80},
		{"origin", unsafe.Sizeof(origin{}), 120},
	} {
		if s.size > s.max {
			t.Errorf("%s is %d bytes, budget %d", s.name, s.size, s.max)
		}
	}
}
