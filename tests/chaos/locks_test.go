//go:build !race

package chaos

import (
	"fmt"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/lockcore"
)

// Modes of the chaos suite.
const (
	modeExclusive = "exclusive"
	modeReadWrite = "readwrite"
	modeLease     = "lease"
)

// leases is every chaos semaphore's limit.
const leases = 3

// lockDef is one lock of a run: the recipe our contenders join it by, and
// the real client that queues in it beside them.
type lockDef struct {
	path   string
	mode   string
	recipe lockcore.Recipe
	real   peers.Kind
	// variants are the real client's: one for an exclusive lock or a
	// semaphore, read then write for a read/write lock.
	variants []string
}

// locksFor lists each mode's locks: one in Curator's recipe with Curator
// contenders, one in kazoo's with kazoo contenders (the two recipes do not
// see each other's nodes, so they cannot share a queue).
func locksFor(modes []string) []lockDef {
	var out []lockDef
	sem := fmt.Sprintf("semaphore:%d", leases)
	for _, m := range modes {
		switch m {
		case modeExclusive:
			out = append(out,
				lockDef{"/chaos/exclusive/curator", m, lockcore.RecipeCuratorMutex, peers.Curator, []string{"mutex"}},
				lockDef{"/chaos/exclusive/kazoo", m, lockcore.RecipeKazooLock, peers.Kazoo, []string{"lock"}})
		case modeReadWrite:
			out = append(out,
				lockDef{"/chaos/readwrite/curator", m, lockcore.RecipeCuratorRWLock, peers.Curator, []string{"read", "write"}},
				lockDef{"/chaos/readwrite/kazoo", m, lockcore.RecipeKazooRWLock, peers.Kazoo, []string{"read", "write"}})
		case modeLease:
			out = append(out,
				lockDef{"/chaos/lease/curator", m, lockcore.RecipeCuratorSemaphore, peers.Curator, []string{sem}},
				lockDef{"/chaos/lease/kazoo", m, lockcore.RecipeKazooSemaphore, peers.Kazoo, []string{sem}})
		}
	}
	return out
}

// nodeDirs are the parents holding a lock's contender nodes.
func (l lockDef) nodeDirs() []string {
	switch l.recipe {
	case lockcore.RecipeCuratorSemaphore:
		return []string{l.path + "/locks", l.path + "/leases"}
	case lockcore.RecipeKazooSemaphore:
		return []string{l.path, l.path + "-__lock__"}
	}
	return []string{l.path}
}

// kindOf is the kind of stay a mode's acquisition in mode m makes.
func kindOf(m lockcore.Mode) kind {
	switch m {
	case lockcore.ModeRead:
		return read
	case lockcore.ModeWrite:
		return write
	case lockcore.ModeLease:
		return lease
	}
	return exclusive
}
