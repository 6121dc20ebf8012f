package lockcore

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
)

// NodePrefix returns the name a contender of recipe takes with mode, up to
// the sequence suffix ZooKeeper appends, as zklocks' own client names its
// nodes: a fresh GUID, or session (zk-writelock, session-lock), or host
// (host-rw; already fit for a node name), so that after a lost create reply
// the client finds its own node instead of leaving a second one. ErrRecipe
// when recipe has no such mode.
func NodePrefix(recipe Recipe, mode Mode, session int64, host string) (string, error) {
	write := mode == ModeWrite || mode == ModeExclusive
	switch {
	case recipe == RecipeCuratorMutex && mode == ModeExclusive, recipe == RecipeCuratorSemaphore:
		return "_c_" + newUUID() + "-lock-", nil
	case recipe == RecipeCuratorRWLock && mode == ModeRead:
		return "_c_" + newUUID() + "-__READ__", nil
	case recipe == RecipeCuratorRWLock && write:
		return "_c_" + newUUID() + "-__WRIT__", nil
	case recipe == RecipeGoZKLock && mode == ModeExclusive:
		return "_c_" + newHex() + "-lock-", nil
	case (recipe == RecipeKazooLock || recipe == RecipeKazooSemaphore) && (mode == ModeExclusive || mode == ModeLease):
		return newHex() + "__lock__", nil
	case recipe == RecipeKazooRWLock && mode == ModeRead:
		return newHex() + "__rlock__", nil
	case recipe == RecipeKazooRWLock && write:
		return newHex() + "__lock__", nil
	case recipe == RecipeZKWriteLock && mode == ModeExclusive:
		return "x-" + strconv.FormatInt(session, 10) + "-", nil
	case recipe == RecipeHostRW && mode == ModeRead:
		return host + "-R-", nil
	case recipe == RecipeHostRW && write:
		return host + "-W-", nil
	case recipe == RecipeSessionLock && mode == ModeExclusive:
		return "lock-" + strconv.FormatInt(session, 10) + "-", nil
	}
	return "", fmt.Errorf("%w: %s has no %s mode", ErrRecipe, recipe, mode)
}

// LeaseName is the name a lease node of a semaphore of recipe takes, as
// its own clients name them: for Curator a protected prefix up to the
// sequence ZooKeeper appends, for kazoo the whole name (its leases are not
// sequential).
func LeaseName(recipe Recipe) string {
	if recipe == RecipeCuratorSemaphore {
		return "_c_" + newUUID() + "-lease-"
	}
	return newHex()
}

// SemaphoreDirs names where a semaphore of recipe at p keeps its
// acquirers' queue and its lease nodes, and the recipe of that queue:
// Curator's locks/ and leases/ below p, kazoo's sibling kazoo Lock and p
// itself.
func SemaphoreDirs(recipe Recipe, p string) (queue, leases string, queueRecipe Recipe) {
	if recipe == RecipeKazooSemaphore {
		return kazooQueuePath(p), p, RecipeKazooLock
	}
	return JoinPath(p, curatorLocksDir), JoinPath(p, curatorLeasesDir), RecipeCuratorMutex
}

func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func newHex() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// DetectRecipe picks the recipe of the contenders already under a lock
// path, from the names of its children, so that a new participant queues
// where the real clients see it. An empty parent gets Curator's recipe for
// the mode. Mixed or unknown parents are refused: no choice there is fair.
func DetectRecipe(self Node, childNames []string, mode Mode) (Recipe, error) {
	l := Analyze(Tree{Path: "/", Self: self, Children: namesOnly(childNames)}, nil, Options{})
	switch {
	case l.Recipe == RecipeEmpty:
		switch mode {
		case ModeRead, ModeWrite:
			return RecipeCuratorRWLock, nil
		case ModeLease:
			return RecipeCuratorSemaphore, nil
		}
		return RecipeCuratorMutex, nil
	case l.Recipe == RecipeMixed:
		return "", fmt.Errorf("%w: contenders of several recipes share this parent; name one", ErrRecipe)
	case l.Recipe == RecipeCuratorLeaderLatch || l.Recipe == RecipeZKElection:
		return "", fmt.Errorf("%w: this is a leader election (%s), not a lock; zklocks does not stand for leader", ErrRecipe, l.Recipe)
	case l.Recipe == RecipeSequential || l.Recipe == RecipeUnknown || l.Recipe == RecipeEphemeral:
		return "", fmt.Errorf("%w: the children here match no recipe zklocks can join; name one", ErrRecipe)
	case l.Recipe == RecipeKazooLock && mode != ModeExclusive:
		return RecipeKazooRWLock, nil
	}
	return l.Recipe, nil
}

func namesOnly(names []string) []Node {
	nodes := make([]Node, len(names))
	for i, n := range names {
		nodes[i] = Node{Name: n}
	}
	return nodes
}
