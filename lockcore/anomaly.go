package lockcore

// AnomalyKind names a kind of trouble. The strings are stable: scripts match
// them.
type AnomalyKind string

// The anomaly kinds.
const (
	// AnomalyPersistent: a contender that is not ephemeral never goes away
	// on its own.
	AnomalyPersistent AnomalyKind = "persistent"
	// AnomalyDuplicateSession: one session owns several contenders of one
	// lock. Legitimate when threads share a client; also the mark of an
	// orphan left by a lost create reply. A suspect, never a verdict.
	AnomalyDuplicateSession AnomalyKind = "duplicate-session"
	// AnomalySelfWait: a session's waiter waits, through its chain, behind a
	// node of the same session.
	AnomalySelfWait AnomalyKind = "self-wait"
	// AnomalyMixedRecipes: contenders of recipes that do not see each other
	// share a parent, so more than one may hold.
	AnomalyMixedRecipes AnomalyKind = "mixed-recipes"
	// AnomalyUnparsed: a child whose name matches no recipe.
	AnomalyUnparsed AnomalyKind = "unparsed"
	// AnomalyWaitCycle: waiters that watch each other in a loop never wake.
	AnomalyWaitCycle AnomalyKind = "wait-cycle"
	// AnomalyUnwatchedWaiter: a waiter whose session watches nothing in the
	// lock will never wake.
	AnomalyUnwatchedWaiter AnomalyKind = "unwatched-waiter"
	// AnomalyHerd: more sessions watch one node, or the lock's children,
	// than the recipe needs; each change wakes them all.
	AnomalyHerd AnomalyKind = "herd"
	// AnomalyLongHeld: a holder older than the configured threshold.
	AnomalyLongHeld AnomalyKind = "long-held"
	// AnomalyDisconnectedHolder: a holder whose session no ensemble member
	// holds a connection for (see LinkDisconnected): its client is gone,
	// yet the lock stays held until the session expires. Set by WithLinks.
	AnomalyDisconnectedHolder AnomalyKind = "disconnected-holder"
	// AnomalyDisconnectedWaiter: a waiter whose session no ensemble member
	// holds a connection for: its client is gone or cut off, and the
	// servers dropped its watches with its connection. Unless the client
	// reconnects, its session expires and its node goes on its own; until
	// then the waiters queued behind it wait for it. It is told instead of
	// unwatched-waiter, which a gone client's dropped watches would
	// otherwise look like. Set by WithLinks.
	AnomalyDisconnectedWaiter AnomalyKind = "disconnected-waiter"
	// AnomalySilentHolder: a holder whose connection stands but whose
	// member has heard nothing from it for more than a third of its
	// session timeout (see IsSilent): its process is frozen, the lock
	// stays held until the session expires, and the client, if it wakes
	// after that, may go on as if it held. Set by WithLinks.
	AnomalySilentHolder AnomalyKind = "silent-holder"
)

// Anomaly is one thing that looks wrong, with its evidence.
type Anomaly struct {
	Kind AnomalyKind
	// Node is the participant the anomaly is about (Participant.Node), or
	// empty when it concerns the lock as a whole.
	Node string
	// Nodes are every node involved, the first being Node when set.
	Nodes []string
	// Session is the session concerned, or zero.
	Session int64
	// Detail is one sentence of evidence.
	Detail string
}
