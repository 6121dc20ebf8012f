package lockclient

import "errors"

// Errors of the lock client and of acting on contenders. Their text still
// names lockcore, where the client was before it had a package of its own:
// audit logs and recordings keep these words, and what reads them (model's
// Plain, the postmortem's endings) matches them as they always were.
var (
	// ErrLockLost: the lock is no longer held: our node was deleted by
	// someone else, or our session expired. What the holder did after
	// that is unprotected; the fencing token tells downstream systems.
	ErrLockLost = errors.New("lockcore: lock lost")
	// ErrNotHolder: a release was asked of a node that is not ours.
	ErrNotHolder = errors.New("lockcore: not the holder")
	// ErrNodeGone: the node vanished between being shown and acted on.
	ErrNodeGone = errors.New("lockcore: node is gone")
	// ErrNodeChanged: the node changed (version, czxid or owner) since it
	// was shown, so it is not the node the operator chose.
	ErrNodeChanged = errors.New("lockcore: node changed since it was read")
	// ErrClosed: the Client was closed.
	ErrClosed = errors.New("lockcore: client closed")
)
