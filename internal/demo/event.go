package demo

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// EventKind says what a contender did.
type EventKind string

// Event kinds.
const (
	Joined   EventKind = "joined"   // a contender's session started
	Granted  EventKind = "granted"  // a contender now holds
	Released EventKind = "released" // a holder let go (or lost the lock)
	Killed   EventKind = "killed"   // a contender's session was closed by Kill
	Frozen   EventKind = "frozen"   // a holder stopped releasing
	Thawed   EventKind = "thawed"   // a frozen holder will release
	Orphaned EventKind = "orphaned" // a create's reply was "lost": its node is an orphan
	// OrphanGone: an orphan went (fenced, or its session ended).
	OrphanGone EventKind = "orphan-gone"
	Failed     EventKind = "failed"  // an acquisition failed; the contender tries again
	Crashed    EventKind = "crashed" // a contender's goroutine panicked; its session was closed
)

// Event is one thing a contender did.
type Event struct {
	At        time.Time
	Kind      EventKind
	Contender int // 1, 2, ... in the order contenders were added
	Session   int64
	// Node is the contender's node (absolute path), when it has one.
	Node string
	Mode lockcore.Mode
	// Waited is how long a grant took.
	Waited time.Duration
	// OutOfOrder marks a grant that overtook a contender waiting longer.
	OutOfOrder bool
	// DeletedOwn, on Released, is the token (czxid) of the node the
	// contender's own delete removed, as the server's reply confirmed; 0
	// when its release did not delete it itself (gone already, or its
	// delete's reply lost): who deleted it is then not known.
	DeletedOwn int64
	Err        error
}
