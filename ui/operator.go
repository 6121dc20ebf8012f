package ui

import (
	"time"

	"github.com/zklocks/zklocks/model"
)

// operator carries out the operations for the App (operate*.go): acquiring
// and giving back our own lock, force-release, revoke and fence. It holds
// what they need — the actions, read-only, our own lock (in env, where the
// panes show it) and the sequence of acquisitions — and reads what the
// operator chose only through the panes' selected() accessors. It reaches
// the App only through host.
type operator struct {
	env      *env
	actions  *model.Actions
	readOnly bool
	// seq counts acquisitions started, to drop answers about earlier ones.
	seq int
	// revokeWait bounds the wait for a revoked holder's release; zero
	// means defaultRevokeWait.
	revokeWait time.Duration
	locks      *locksPane
	detail     *detailPane
	host       host
}

// host is what the operations ask of the App: which pane has focus, a
// word in the status line, a dialog, and a lock's detail.
type host interface {
	focused() focus
	say(text string, isErr bool)
	open(d dialog)
	openLock(msg openLockMsg)
}

// guardWrite reports whether an action that changes ZooKeeper may go on,
// and says why not when the App is read-only. Operations call it before
// opening their confirmDialog.
func (op *operator) guardWrite(what string) bool {
	if op.readOnly {
		op.host.say("read-only: "+what+" is disabled (started with --read-only or a read-only context)", true)
		return false
	}
	return true
}
