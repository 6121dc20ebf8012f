package demo

import (
	"errors"
	"fmt"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// Root is the node under which every demo lock lives.
const Root = "/zklocks-demo"

// Recipe is what the contenders run.
type Recipe string

// Recipes.
const (
	// Exclusive is lockcore's fair exclusive lock, as Curator's
	// InterProcessMutex lays it out: each waiter watches its predecessor.
	Exclusive Recipe = "exclusive"
	// ReadWrite is a mix of readers and writers on Curator's
	// InterProcessReadWriteLock layout, about two reads to one write.
	ReadWrite Recipe = "rw"
	// Semaphore is kazoo's Semaphore with MaxLeases leases; its acquirers
	// queue in the sibling lock <path>-__lock__.
	Semaphore Recipe = "semaphore"
	// Naive is the textbook lock with a herd: whoever creates the
	// ephemeral node <path>/lock holds; every waiter watches that one node
	// and all of them race when it goes.
	Naive Recipe = "naive"
)

// Recipes lists the recipes in the order the command line offers them.
var Recipes = []Recipe{Exclusive, ReadWrite, Semaphore, Naive}

// ParseRecipe reads a recipe name.
func ParseRecipe(s string) (Recipe, error) {
	for _, r := range Recipes {
		if string(r) == s {
			return r, nil
		}
	}
	return "", fmt.Errorf("unknown recipe %q (want exclusive, rw, semaphore or naive)", s)
}

// Errors of the demo's controls.
var (
	// ErrBusy: the demo's lock already has contenders: another demo runs
	// against this cluster, or one stopped less than a session timeout ago.
	ErrBusy = errors.New("demo: lock is in use")
	// ErrNoHolder: nobody holds the lock now (for Freeze), or nothing is
	// frozen (for Unfreeze).
	ErrNoHolder = errors.New("demo: no holder")
	// ErrNoContender: there is no contender to act on.
	ErrNoContender = errors.New("demo: no contender")
	// ErrClosed: the demo has been closed.
	ErrClosed = errors.New("demo: closed")
)

// Defaults.
const (
	DefaultContenders = 6
	DefaultMaxLeases  = 2
	// DefaultLongHeld is the long-held threshold the demo's UI uses: over
	// three times the longest hold, so that only a frozen holder passes it.
	DefaultLongHeld = 5 * time.Second
	defaultHoldMin  = 300 * time.Millisecond
	defaultHoldMax  = 1500 * time.Millisecond
	defaultPause    = 250 * time.Millisecond
	defaultDial     = 10 * time.Second
)

// Config says what to run.
type Config struct {
	// Options is how every session connects (server, chroot, auth, TLS,
	// the go-zookeeper log); each contender dials its own session with it.
	Options zkwatch.Options
	// Recipe is what the contenders run; "" means Exclusive.
	Recipe Recipe
	// Contenders is how many start; 0 means DefaultContenders.
	Contenders int
	// MaxLeases is the semaphore's limit; 0 means DefaultMaxLeases.
	MaxLeases int
	// HoldMin and HoldMax bound each hold, drawn uniformly; zero means
	// 300 ms and 1.5 s.
	HoldMin, HoldMax time.Duration
	// Pause is the longest rest between a release and queueing again
	// (the least is a fifth of it); 0 means 250 ms.
	Pause time.Duration
	// DialTimeout bounds each session's connect; 0 means 10 s.
	DialTimeout time.Duration
	// Seed seeds the hold times and modes; 0 means random.
	Seed uint64
	// OnEvent, when set, hears what the contenders do. It is called from
	// their goroutines, never with the demo's lock held, and must not block.
	OnEvent func(Event)

	// beforeTurn, in tests, runs at the start of each contender's turn.
	beforeTurn func(contender, turn int)
}

func (c Config) withDefaults() Config {
	if c.Recipe == "" {
		c.Recipe = Exclusive
	}
	if c.Contenders <= 0 {
		c.Contenders = DefaultContenders
	}
	if c.MaxLeases <= 0 {
		c.MaxLeases = DefaultMaxLeases
	}
	if c.HoldMin <= 0 {
		c.HoldMin = defaultHoldMin
	}
	if c.HoldMax < c.HoldMin {
		c.HoldMax = max(c.HoldMin, defaultHoldMax)
	}
	if c.Pause <= 0 {
		c.Pause = defaultPause
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = defaultDial
	}
	return c
}

// LockPath returns the path of the lock recipe r runs on: the lock parent,
// the semaphore's path, or the naive lock's node.
func LockPath(r Recipe) string {
	if r == Naive {
		return Root + "/naive/lock"
	}
	if r == "" {
		r = Exclusive
	}
	return Root + "/" + string(r)
}

// lockRecipe is the lockcore recipe a fair demo joins.
func (r Recipe) lockRecipe() lockcore.Recipe {
	switch r {
	case ReadWrite:
		return lockcore.RecipeCuratorRWLock
	case Semaphore:
		return lockcore.RecipeKazooSemaphore
	}
	return lockcore.RecipeCuratorMutex
}
