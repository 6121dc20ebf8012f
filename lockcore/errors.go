package lockcore

import "errors"

// Errors of reading a lock for a client that would join it or act on it.
var (
	// ErrRecipe: the recipe cannot be used as asked (unknown, mixed, or a
	// mode it does not have).
	ErrRecipe = errors.New("lockcore: recipe cannot be used")
	// ErrNotRevocable: the node's client would not act on a revocation
	// request (see CheckRevocable).
	ErrNotRevocable = errors.New("lockcore: not revocable")
)

// RevokeRequest is what Curator writes into a holder's node to ask a
// revocable holder to release.
const RevokeRequest = "__REVOKE__"
