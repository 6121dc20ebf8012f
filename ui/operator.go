package ui

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// operator carries out the operations for the App (operate*.go): acquiring
// and giving back our own lock, force-release, revoke and fence. It holds
// what they need — the actions, read-only, our own lock (in env, where the
// panes show it) and the sequence of acquisitions. It never reads or
// changes a pane: the App hands it the selection it acts on, and the panes
// show its results (our own lock, in env) when they render. It reaches the
// App only through host.
type operator struct {
	env      *env
	actions  *model.Actions
	readOnly bool
	// readOnlyWhy says why it is read-only (Options.ReadOnlyWhy).
	readOnlyWhy string
	// seq counts acquisitions started, to drop answers about earlier ones.
	seq int
	// revokeWait bounds the wait for a revoked holder's release; zero
	// means defaultRevokeWait.
	revokeWait time.Duration
	host       host
	// unexplained are actions refused because their node had gone, whose
	// end the event log did not have yet (explainRefusals).
	unexplained []unexplained
}

// host is what the operations ask of the App: a word in the status line,
// a dialog, and a lock's detail.
type host interface {
	say(text string, isErr bool)
	open(d dialog)
	openLock(msg openLockMsg)
}

// selection is what an operation acts on: the screen it is asked from and
// what that screen shows selected, as the operator saw it.
type selection struct {
	screen focus
	// lockPath and lock are, on a lock's detail, the lock shown (gone once
	// it is no longer watched); on the locks list, the lock under the
	// cursor (lock nil when the ACL denies reading it).
	lockPath string
	lock     *lockcore.Lock
	gone     bool
	// participant is the contender selected in a lock's detail; nil
	// elsewhere, or when the lock has none.
	participant *lockcore.Participant
}

// guardWrite reports whether an action that changes ZooKeeper may go on,
// and says why not when the App is read-only. Operations call it before
// opening their confirmDialog.
func (op *operator) guardWrite(what string) bool {
	if op.readOnly {
		why := op.readOnlyWhy
		if why == "" {
			why = "started with --read-only or a read-only context"
		}
		op.host.say("read-only: "+what+" is disabled ("+why+")", true)
		return false
	}
	return true
}
