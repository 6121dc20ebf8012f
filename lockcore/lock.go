package lockcore

import (
	"fmt"
	"time"
)

// Recipe names the client recipe that wrote a lock tree. The strings are
// stable: scripts read them from JSON output.
type Recipe string

// The recipes and shapes lockcore recognises.
const (
	RecipeCuratorMutex     Recipe = "curator-mutex"
	RecipeCuratorRWLock    Recipe = "curator-rwlock"
	RecipeCuratorSemaphore Recipe = "curator-semaphore"
	RecipeGoZKLock         Recipe = "gozk-lock"
	RecipeKazooLock        Recipe = "kazoo-lock"
	RecipeKazooRWLock      Recipe = "kazoo-rwlock"
	RecipeKazooSemaphore   Recipe = "kazoo-semaphore"
	RecipeZKWriteLock      Recipe = "zk-writelock"
	// RecipeCuratorLeaderLatch and RecipeZKElection are leader elections:
	// the holder is the leader, the waiters are next in line, each
	// watching its predecessor. (Curator's LeaderSelector is a mutex and
	// kazoo's Election a kazoo Lock: their trees are curator-mutex and
	// kazoo-lock.)
	RecipeCuratorLeaderLatch Recipe = "curator-leaderlatch"
	RecipeZKElection         Recipe = "zk-election"
	// Applications' own locks and elections (see App).
	RecipeKafkaController Recipe = "kafka-controller"
	RecipeHadoopHA        Recipe = "hadoop-ha"
	RecipeHBaseMaster     Recipe = "hbase-master"
	RecipeSolrElection    Recipe = "solr-election"
	RecipeAccumuloLock    Recipe = "accumulo-lock"
	RecipeAccumuloFate    Recipe = "accumulo-fate"
	RecipeEphemeral       Recipe = "ephemeral"
	RecipeHostRW          Recipe = "host-rw"
	RecipeSessionLock     Recipe = "session-lock"
	// RecipeSequential is a parent of sequential children that match no
	// known recipe: treated as an exclusive lock in sequence order.
	RecipeSequential Recipe = "sequential"
	// RecipeMixed is a parent holding contenders of recipes that do not see
	// each other; each participant carries its own recipe.
	RecipeMixed Recipe = "mixed"
	// RecipeEmpty is a lock path with no contenders.
	RecipeEmpty Recipe = "empty"
	// RecipeUnknown is a path whose children are not lock contenders.
	RecipeUnknown Recipe = "unknown"
)

// Mode is what a participant asks for.
type Mode string

// Participant modes.
const (
	ModeExclusive Mode = "exclusive"
	ModeRead      Mode = "read"
	ModeWrite     Mode = "write"
	ModeLease     Mode = "lease"
)

// Role is whether a participant has the lock now.
type Role string

// Participant roles. A holder has the lock (or, for a semaphore, a lease) by
// its recipe's rule at the moment the tree was read; a waiter does not.
const (
	RoleHolder Role = "holder"
	RoleWaiter Role = "waiter"
)

// WatchSource says where watch targets came from.
type WatchSource string

// Watch sources.
const (
	// WatchesFromServer: every server answered its watch table, and watch
	// targets are what sessions actually watch.
	WatchesFromServer WatchSource = "server"
	// WatchesFromRecipe: watch targets are what each recipe's rule says the
	// client should watch.
	WatchesFromRecipe WatchSource = "recipe"
)

// Lock is the analysis of one lock path.
type Lock struct {
	Path   string
	Recipe Recipe
	// Entry names the rule book entry that describes the lock (Book); empty
	// when none does and the fallback rule read it, or for a lock Go code
	// reads without an entry (mixed recipes, no contenders).
	Entry string
	// Assumed lists what the analysis assumed rather than knew, in words:
	// the fallback rule's guesses about a lock no entry describes. Empty
	// when every role, mode and watch follows from a known recipe. What
	// rests on an assumption is shown as such, and check does not page on
	// its anomalies.
	Assumed []string
	// Grant is the grant rule of the entry that describes the lock; empty
	// when none does.
	Grant Grant
	// MaxLeases is a semaphore's lease limit when the tree states it (kazoo
	// keeps it in the semaphore node's data); nil when unknown or not a
	// semaphore. It is never guessed.
	MaxLeases *int
	// Participants in queue order.
	Participants []Participant
	// HiddenWaiters are sessions watching a plain ephemeral lock node: its
	// waiters, invisible in the tree. Known only from the server's table.
	HiddenWaiters []int64
	// Observers are the sessions watching a plain ephemeral lock node
	// that are taken for onlookers rather than waiters (zklocks itself,
	// tools that watch many locks; see Observer): never counted among
	// the waiters.
	Observers []Observer
	Anomalies []Anomaly
	// SetAside are anomalies WithLinks took out of Anomalies because a
	// session's link explains them otherwise: the unwatched-waiter of a
	// waiter whose session is disconnected (its watches went with its
	// connection; it is a disconnected-waiter instead). WithLinks puts
	// them back when the link changes.
	SetAside []Anomaly
	// App is what the application whose tree this is says about it (its
	// holder, waiters and fencing token in its own terms); nil for a lock
	// no application's shape matches.
	App *App
	// Warnings are facts worth knowing that are not anomalies of a single
	// contender, such as a sequence counter near its wrap.
	Warnings      []string
	WatchesSource WatchSource
	// WatchesGap says why watch targets follow the recipes' rules although
	// the servers' watch table is in use: it was read before this lock's
	// last change, or without this lock's watches. A busy lock has one
	// most of the time, until the table is read again: it is about the
	// table's age, not about the lock, so it is no warning. Empty when
	// WatchesSource is the server, or no table is in use at all.
	WatchesGap string
	ReadAt     time.Time
	// LongHeldAfter is the long-held threshold the analysis used (zero:
	// none), for Lock.At to redo the check as holds grow.
	LongHeldAfter time.Duration
	// MaybeLongHeld are holders whose hold may be past LongHeldAfter but is
	// not known to be: its upper bound is past it, its lower bound is not.
	// Not anomalies; kind long-held, with the evidence.
	MaybeLongHeld []Anomaly
}

// Holders returns how many acquisitions hold the lock: clients, not nodes
// (see Participant.PartOf).
func (l *Lock) Holders() int { return l.count(RoleHolder) }

// Waiters returns how many acquisitions wait, counting hidden waiters of a
// plain ephemeral lock and the waiters an application registers without a
// node in the queue (HBase's backup masters). A client waiting with two
// nodes counts once.
func (l *Lock) Waiters() int {
	return l.count(RoleWaiter) + len(l.HiddenWaiters) + l.App.registeredWaiters(l.HiddenWaiters)
}

func (l *Lock) count(r Role) int {
	n := 0
	for _, p := range l.Participants {
		if p.Role == r && p.PartOf == "" {
			n++
		}
	}
	return n
}

// Participant returns the participant named node (as in Participant.Node).
func (l *Lock) Participant(node string) (Participant, bool) {
	for _, p := range l.Participants {
		if p.Node == node {
			return p, true
		}
	}
	return Participant{}, false
}

// Participant is one contender of a lock. Its booleans and Version come
// last, together: the UI holds one Participant per contender (60,000 on a
// cluster of 10,000 locks), and interleaved with the 8-byte fields they
// padded it by 40 bytes, which made a lock of six contenders' slice a
// size class larger.
type Participant struct {
	// Node names the contender relative to the lock path: its name, or
	// "leases/<name>" and "locks/<name>" inside a Curator semaphore, or
	// "<sibling>/<name>" for a kazoo semaphore's queue.
	Node string
	// Path is the contender's absolute path.
	Path   string
	Recipe Recipe
	// Seq is the sequence suffix; HasSeq is false for non-sequential nodes.
	Seq  int64
	Mode Mode
	Role Role
	// Position is the index in queue order, 0 at the head.
	Position int
	Session  int64
	// Watches is what this waiter waits on; nil for holders, for waiters
	// whose session (by the servers' table) watches nothing ahead of them in
	// the lock, and when WatchesUnknown.
	Watches *WatchTarget
	// Chain lists the nodes from the watched one on to a holder (or until
	// the chain breaks or loops).
	Chain []string
	// Watchers are the sessions that watch this node, from the same source
	// as every participant's Watches (Lock.WatchesSource): the servers'
	// table, which also lists sessions that watch it for other reasons; or,
	// by the recipes' rules, the sessions of the waiters whose Watches names
	// this node.
	Watchers []int64
	// Token is the fencing token: the node's czxid, which only grows.
	Token int64
	Ctime time.Time
	// Age is ReadAt minus Ctime: an estimate across two clocks. For a
	// holder it includes the time it queued; Hold is how long it has held.
	Age time.Duration
	// Hold is what is known of a holder's hold; zero for waiters.
	Hold Hold
	Data []byte
	// Identity names the contender in its application's terms, decoded
	// from its name or data (a Solr node, an Accumulo server, a Curator
	// LeaderLatch id); empty when there is nothing to decode.
	Identity string
	// Note explains a role or watch that needs more than the recipe's rule.
	Note string
	// PartOf names (as Node) the participant that stands for the same
	// acquisition when one client's acquisition has two nodes: a Curator
	// semaphore acquirer at the head of locks/ waits with its locks/ node
	// and the lease node it has already created. Such a node is not counted
	// again in Holders and Waiters. Empty for every other participant.
	PartOf string
	// Version is the node's data version, for version-checked actions.
	Version int32
	HasSeq  bool
	// Ephemeral: the node is ephemeral, owned by Session.
	Ephemeral bool
	// WatchesUnknown: the servers' table cannot tell what this waiter
	// watches (its session's only watches here are on its other nodes,
	// behind this one; or its node is newer than the table read before,
	// and its client may not have set its watch yet). Note says which.
	WatchesUnknown bool
	// ChainCut: the chain goes on past MaxChain hops.
	ChainCut      bool
	DataTruncated bool
	// DataDenied: the node's ACL denies this session its data; the rest
	// (session, token, times) came from exists.
	DataDenied bool
	// Pending: the node is listed but not read yet (Node.Pending): its
	// place in the queue and role are known, and its session when
	// Session is not 0 (Ephemeral is then true); Token, Version, Ctime,
	// Age, Data and a holder's Hold are not, and are zero.
	Pending bool
}

// SessionHex formats a session id the way ZooKeeper's tools print it.
func SessionHex(id int64) string { return fmt.Sprintf("0x%x", uint64(id)) }

// WatchTarget is what a waiter waits on.
type WatchTarget struct {
	// Node names the watched node like Participant.Node; for a children
	// watch it names the watched parent followed by "/*", or "*" for the
	// lock path itself.
	Node string
	// Path is the absolute path watched.
	Path string
	// Children is true for a watch on a node's children.
	Children bool
}
