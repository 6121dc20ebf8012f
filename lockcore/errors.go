package lockcore

import "errors"

// Errors of the lock client and of acting on contenders.
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
	// ErrRecipe: the recipe cannot be used as asked (unknown, mixed, or a
	// mode it does not have).
	ErrRecipe = errors.New("lockcore: recipe cannot be used")
	// ErrNotRevocable: the node's client would not act on a revocation
	// request (see CheckRevocable).
	ErrNotRevocable = errors.New("lockcore: not revocable")
	// ErrClosed: the Client was closed.
	ErrClosed = errors.New("lockcore: client closed")
)
