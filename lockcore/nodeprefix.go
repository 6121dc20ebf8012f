package lockcore

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// NodePrefix returns the name a contender of recipe takes with mode, up to
// the sequence suffix ZooKeeper appends, as zklocks' own client names its
// nodes: the recipe's rule book entry's pattern written out, with a fresh
// GUID for its id, or session (zk-writelock, session-lock), or host
// (host-rw; already fit for a node name) for its owner, so that after a
// lost create reply the client finds its own node instead of leaving a
// second one. A semaphore's acquirer takes a name of its acquirers' queue
// (SemaphoreDirs). ErrRecipe when recipe is not joinable or has no such
// mode.
func NodePrefix(recipe Recipe, mode Mode, session int64, host string) (string, error) {
	if IsSemaphore(recipe) {
		_, _, recipe = SemaphoreDirs(recipe, "")
		mode = ModeExclusive
	}
	if slices.Contains(JoinableRecipes(), recipe) {
		if name, ok := builtinBook().byName(string(recipe)).nameFor(mode, session, host); ok {
			return name, nil
		}
	}
	return "", fmt.Errorf("%w: %s has no %s mode", ErrRecipe, recipe, mode)
}

// LeaseName is the name a lease node of a semaphore of recipe takes, as
// its own clients name them: its entry's pattern written out, for Curator
// a protected prefix up to the sequence ZooKeeper appends, for kazoo the
// whole name (its leases are not sequential).
func LeaseName(recipe Recipe) string {
	name, _ := builtinBook().byName(string(recipe)).nameFor(ModeLease, 0, "")
	return name
}

// nameFor writes c's children pattern out for a contender in mode, up to
// its sequence: its mode word, a fresh GUID or hex id, the session in
// decimal, host as the owner. False when no mode word of c's means mode
// (an entry without mode words takes an exclusive or lease contender) or
// a part has no value to write.
func (c *compiled) nameFor(mode Mode, session int64, host string) (string, bool) {
	var b strings.Builder
	for _, s := range c.matcher.segs {
		switch s.kind {
		case segLiteral:
			b.WriteString(s.lit)
		case segUUID:
			b.WriteString(newUUID())
		case segHex, segHex32:
			b.WriteString(newHex())
		case segSession:
			b.WriteString(strconv.FormatInt(session, 10))
		case segFree:
			if c.groups[s.group] == partOwner {
				b.WriteString(host)
			} else {
				b.WriteString(newHex())
			}
		case segMode:
			w, ok := c.modeWord(mode)
			if !ok {
				return "", false
			}
			b.WriteString(w)
		case segSeq:
			return b.String(), c.Modes != nil || mode == ModeExclusive || mode == ModeLease
		default:
			return "", false
		}
	}
	return b.String(), c.Modes == nil
}

// modeWord is the word of c's that means mode; an exclusive contender of
// a read-write entry writes.
func (c *compiled) modeWord(mode Mode) (string, bool) {
	if mode == ModeExclusive {
		mode = ModeWrite
	}
	for _, w := range modeWordOrder(c.Modes) {
		if c.Modes[w] == mode {
			return w, true
		}
	}
	return "", false
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
