package lockcore

// The rule book: every lock shape zklocks understands, each one declarative
// Entry, built-in (Builtin) or the user's (from the config file), read by
// discovery, by the analysis and by zklocks recipes and explain alike.
//
// An entry in YAML, as the config file writes it:
//
//	- name: acme-rw                 # unique; becomes the lock's recipe
//	  about: ACME's read/write lock (libacme 2.x)
//	  paths: [/acme/locks/*]        # where: path patterns; * one element, ** any
//	  children: "{owner}.{mode}.{seq}" # parts {seq} {mode} {owner} {id} {session};
//	                                # {owner} and {id} may take a form: {id:uuid},
//	                                # {id:hex}, {id:hex32}, {id:digits} or {id:word}
//	  modes: {R: read, W: write}    # mode word -> read, write, exclusive or lease
//	  grant: read-write             # mutex, read-write, semaphore, election,
//	                                # co-holding or single-node
//	  read-waits-on: nearest-write  # read-write only: first-write or nearest-write
//	  waits: predecessor            # predecessor, children, lock-node or nothing
//	  order: number                 # sequence order: number (default) or text
//	  limit: "3"                    # semaphore only: a number, or "data" (the
//	                                # lock node's data, decimal text)
//	  identity: json:host           # text, json:<field>, data:<regexp>,
//	                                # name:<part> or decoder:<name>
//	  persistent: false             # true: persistent nodes are by design
//
// Which entry describes a lock: the user's entries first, in the order of the
// file, then the built-in ones; the first whose paths match the lock's path
// and whose children pattern matches one of its children at least (the
// others are unparsed anomalies), or, for an entry without paths, whose
// pattern matches every child. An entry with paths and no children pattern
// describes a single node (grant single-node). A lock no entry describes is read by the
// fallback rule, and what that rule assumes is shown as assumed (Lock.Assumed).

// Grant is an entry's grant rule, from a closed set.
type Grant string

// The grant rules.
const (
	// GrantMutex: a FIFO mutex; the lowest sequence holds, the rest wait.
	GrantMutex Grant = "mutex"
	// GrantReadWrite: a write holds when it is first; a read holds when no
	// write is ahead of it (ReadWaitsOn says which write a reader watches).
	GrantReadWrite Grant = "read-write"
	// GrantSemaphore: the lowest Limit nodes hold a lease each.
	GrantSemaphore Grant = "semaphore"
	// GrantElection: the lowest leads; the rest are next in line.
	GrantElection Grant = "election"
	// GrantCoHolding: every node present holds: an acquirer creates its
	// node, and gives it up (deletes it) when it finds a conflicting one,
	// to try again later, as Hive's lock manager does. Nobody queues.
	GrantCoHolding Grant = "co-holding"
	// GrantSingleNode: the lock is one node; its creator holds, and the
	// sessions watching it wait (first creator wins).
	GrantSingleNode Grant = "single-node"
)

// Grants lists the grant rules in the order help lists them.
func Grants() []Grant {
	return []Grant{GrantMutex, GrantReadWrite, GrantSemaphore, GrantElection, GrantCoHolding, GrantSingleNode}
}

// Wait is how an entry's waiters wait.
type Wait string

// The wait rules.
const (
	// WaitPredecessor: each waiter watches the node just ahead of it that
	// it must outlast (for a reader, the write ReadWaitsOn names).
	WaitPredecessor Wait = "predecessor"
	// WaitChildren: each waiter watches the lock node's children (a herd).
	WaitChildren Wait = "children"
	// WaitLockNode: waiters watch the lock node itself (single-node).
	WaitLockNode Wait = "lock-node"
	// WaitNothing: nobody waits with a watch (co-holding: a refused
	// acquirer retries later).
	WaitNothing Wait = "nothing"
)

// Waits lists the wait rules in the order help lists them.
func Waits() []Wait { return []Wait{WaitPredecessor, WaitChildren, WaitLockNode, WaitNothing} }

// ReadWait is which write a waiting reader of a read-write entry watches.
type ReadWait string

// The readers' watch rules.
const (
	// ReadFirstWrite: the first write in the queue (Curator).
	ReadFirstWrite ReadWait = "first-write"
	// ReadNearestWrite: the nearest write ahead of the reader (kazoo,
	// ZooKeeper's recipe, HBase's "highest lower write").
	ReadNearestWrite ReadWait = "nearest-write"
)

// SeqOrder is how an entry's client orders sequence suffixes; the two
// differ once a parent's counter has wrapped past 2^31.
type SeqOrder string

// The sequence orders.
const (
	OrderNumber SeqOrder = "number"
	OrderText   SeqOrder = "text"
)

// Entry is one recipe of the rule book. Every field is data; the field
// comments name the YAML keys, which the config file uses.
type Entry struct {
	// Name identifies the entry and becomes the recipe of the locks it
	// describes (Lock.Recipe). Lowercase letters, digits and '-'.
	Name string `yaml:"name" json:"name"`
	// About says in a line what the entry is (the client and its version).
	About string `yaml:"about" json:"about,omitempty"`
	// Paths are the lock paths the entry applies to: absolute patterns whose
	// elements are literal, "*" (one element, any name), or "**" (any
	// number of elements, also none); an element may also hold '*' among
	// literal text ("lock-*"). Empty: the entry applies wherever its
	// children pattern matches every child (a tree shape), which a
	// single-node entry cannot do.
	Paths []string `yaml:"paths" json:"paths,omitempty"`
	// Children is the pattern of the contenders' names: literal text and
	// the parts {seq} (the ZooKeeper sequence suffix, last), {mode} (one
	// of the words in Modes), {owner} and {id} (any non-empty text naming
	// the client), {session} (a session id in decimal or 0x-hex). Empty
	// for single-node.
	Children string `yaml:"children" json:"children,omitempty"`
	// Modes maps each mode word a name may carry to what it means: read,
	// write, exclusive or lease. Required when Children has {mode}.
	Modes map[string]Mode `yaml:"modes" json:"modes,omitempty"`
	// Grant is the grant rule.
	Grant Grant `yaml:"grant" json:"grant"`
	// ReadWaitsOn is which write a waiting reader watches (read-write
	// only; default nearest-write).
	ReadWaitsOn ReadWait `yaml:"read-waits-on" json:"readWaitsOn,omitempty"`
	// Waits is how waiters wait; the default follows the grant:
	// predecessor for queues, lock-node for single-node, nothing for
	// co-holding.
	Waits Wait `yaml:"waits" json:"waits,omitempty"`
	// Order is how the client orders sequences (default number).
	Order SeqOrder `yaml:"order" json:"order,omitempty"`
	// Limit is a semaphore's lease count: a positive number, or "data"
	// for the lock node's data read as decimal text.
	Limit string `yaml:"limit" json:"limit,omitempty"`
	// Identity says how to name a holder from its node: "text" (its data
	// as text), "json:<field>" (a field, dotted for nesting, of JSON
	// data), "data:<regexp>" (the regexp's first group in the data),
	// "name:<part>" (a part of the name: owner, id or session) or
	// "decoder:<name>" (a decoder written in Go, for binary formats; see
	// Decoders). Empty: no identity.
	Identity string `yaml:"identity" json:"identity,omitempty"`
	// Persistent: the recipe's nodes may be persistent by design (Hive's
	// LOCK TABLE), so a node no session owns is no anomaly.
	Persistent bool `yaml:"persistent" json:"persistent,omitempty"`

	// Builtin: the entry ships with zklocks. Not read from a config file.
	Builtin bool `yaml:"-" json:"builtin"`
	// Hooks names, for a built-in entry, the hooks beside it that say
	// what the fields above cannot (rulebook_hooks.go: its tree's shape, a
	// client's own reading, an application's registrations and anomalies);
	// empty when the fields say it all. Not read from a config file.
	Hooks []string `yaml:"-" json:"hooks,omitempty"`
	// Source says where the entry was read from: "built-in", or the config
	// file and its place in it.
	Source string `yaml:"-" json:"source"`
}
