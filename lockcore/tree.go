package lockcore

import (
	"slices"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// DataLimit is how many bytes of a node's data a reader needs to keep for
// analysis and display; longer data is cut and marked as truncated.
const DataLimit = 1024

// Node is one znode as read from ZooKeeper.
type Node struct {
	// Name is the node's own name (the last path element).
	Name string
	// Stat is the node's metadata as the server reported it.
	Stat zk.Stat
	// Data holds at most DataLimit bytes of the node's data.
	Data []byte
	// DataDenied: the node's ACL denies the reader its data, so Data is
	// empty and Stat came from exists, which no ACL guards.
	DataDenied bool
	// Pending: the node was listed but not read yet. Only Name and, when
	// not 0, Stat.EphemeralOwner (from a server's dump of ephemeral
	// nodes) are known; the rest of Stat and Data are zero, not the
	// node's.
	Pending bool
}

// Truncated reports whether Data holds less than the node's full data that
// was read; data that could not be read at all is DataDenied instead.
func (n Node) Truncated() bool {
	return !n.DataDenied && !n.Pending && int(n.Stat.DataLength) > len(n.Data)
}

// Ephemeral reports whether the node belongs to a session.
func (n Node) Ephemeral() bool { return n.Stat.EphemeralOwner != 0 }

// Tree is what was read of one lock path: the node itself, its children, and
// the extra subtrees some recipes keep elsewhere (see [ExtraPaths]).
type Tree struct {
	// Path is the absolute path of the lock: the parent of the contenders, the
	// semaphore's own path, or a plain ephemeral lock node.
	Path string
	// Self is the lock path's own node.
	Self Node
	// Children are the lock path's children, in any order.
	Children []Node
	// parsed is ParseName of each of Children's names, in their order,
	// set by Analyze so that the readings it makes parse each name once.
	parsed []Name
	// Absent says the lock path has no node: a plain ephemeral lock node
	// that went (released, or its session ended) and that the reader
	// watches for the next holder to create. Self and Children are then
	// empty, and the lock is free: nobody holds it, and the sessions
	// watching the path wait for it.
	Absent bool
	// Extra maps the absolute paths named by ExtraPaths to their children.
	// A path missing from the map was not read; an empty slice means the
	// path exists with no children or does not exist.
	Extra map[string][]Node
	// Related maps the absolute paths named by RelatedPaths to those nodes
	// themselves (an application's fencing artefacts and leader nodes). A
	// path missing from the map was not read; one that was read and does
	// not exist maps to the zero Node.
	Related map[string]Node
	// ReadAt is when the tree was read, for ages. Ages compare the server
	// leader's clock (ctime) with this machine's: they are estimates.
	ReadAt time.Time
	// Seen is what the reader saw of this lock at its previous read
	// (Lock.Sightings), or nil: holders seen then keep their hold, and
	// waiters seen then that hold now got the lock since.
	Seen *Sightings
	// Watched says the reader's watch on this lock was armed and its
	// session connected from the read Seen was taken at until this one,
	// so that a change was read as soon as it was notified: a waiter seen
	// then and holding now got the lock just before this read.
	Watched bool
}

// SetExtra keeps nodes as the children read of path, one of the
// ExtraPaths, making the map on the first.
func (t *Tree) SetExtra(path string, nodes []Node) {
	if t.Extra == nil {
		t.Extra = map[string][]Node{}
	}
	t.Extra[path] = nodes
}

// SetRelated keeps n as the node read at path, one of the RelatedPaths,
// making the map on the first.
func (t *Tree) SetRelated(path string, n Node) {
	if t.Related == nil {
		t.Related = map[string]Node{}
	}
	t.Related[path] = n
}

// WatchTable is the servers' watch table: which session watches which paths.
// Sessions are per server, so a complete table merges every ensemble member's
// answer. The servers list data watches (getData and exists) only: children
// watches never appear, so a waiter whose recipe watches a node's children
// can be neither confirmed nor refuted by the table. A nil *WatchTable means the table is unknown, and watch targets
// come from each recipe's rules. A WatchTable is read-only once made and safe
// to share.
type WatchTable struct {
	bySession map[int64][]string
	byPath    map[string][]int64
	// asOf is a zxid every server had applied before it answered; zero
	// when unknown (the table was read after the trees it is used with).
	asOf int64
	// since is the asOf of the table read before this one; zero when none.
	// A waiter's node created after it may be newer than its client's
	// watch: the client creates its node, lists the queue and only then
	// sets its watch, and a watch set makes no zxid.
	since int64
	// scope, when not nil, names the locks whose watches the table kept;
	// for any other lock it knows nothing.
	scope func(lockPath string) bool
	// origin is the table NewWatchTable made, shared by its copies (AsOf,
	// Scoped, Since): copies of one origin hold the same watches.
	origin *WatchTable
}

// Scoped returns the table marked as holding only the watches of the locks
// scope accepts, as a table read with the rest left out is: any other lock
// is analysed by its recipe's rules. A nil scope covers every lock.
func (w *WatchTable) Scoped(scope func(lockPath string) bool) *WatchTable {
	return w.copyWith(func(c *WatchTable) { c.scope = scope })
}

// AsOf returns the table stamped with a zxid that every server had applied
// before answering. A lock changed after that zxid is analysed by its
// recipe's rules instead: the table cannot know its newer waiters' watches.
func (w *WatchTable) AsOf(zxid int64) *WatchTable {
	return w.copyWith(func(c *WatchTable) { c.asOf = zxid })
}

// copyWith returns a copy of the table (nil for nil) with set applied:
// the copy shares its origin's watches, and only its stamps differ.
func (w *WatchTable) copyWith(set func(c *WatchTable)) *WatchTable {
	if w == nil {
		return nil
	}
	c := *w
	set(&c)
	return &c
}

// Since returns the table stamped with the asOf of the table read before
// it (zero when none): a waiter whose node is newer than that and whose
// session watches nothing here may not have set its watch yet when this
// table was read, so its watch is unknown until the next table, not
// nothing. A waiter already there when the table before was read had the
// time between the two reads to set its watch, and is judged.
func (w *WatchTable) Since(prevAsOf int64) *WatchTable {
	return w.copyWith(func(c *WatchTable) { c.since = prevAsOf })
}

// tooNew reports whether a node created at czxid may be newer than its
// client's watch when the table was read: created after the table read
// before this one, or with no table read before it.
func (w *WatchTable) tooNew(czxid int64) bool {
	return w != nil && czxid > w.since
}

// LastZxid is the zxid of the tree's last change the read saw: its node's
// children counter and its nodes' creations.
func (t Tree) LastZxid() int64 {
	last := t.Self.Stat.Pzxid
	for _, n := range t.Children {
		last = max(last, n.Stat.Czxid)
	}
	for _, nodes := range t.Extra {
		for _, n := range nodes {
			last = max(last, n.Stat.Czxid)
		}
	}
	return last
}

// gap says why the table cannot tell the tree's watches, or "" when it
// can: it was read before the tree's last change (its node's children
// counter and its nodes' creations), or without this lock's watches.
func (w *WatchTable) gap(t Tree) string {
	if w == nil {
		return ""
	}
	if w.scope != nil && !w.scope(t.Path) {
		return "the servers' watch table was read without this lock's watches (before it was found, or for another lock alone)"
	}
	if w.asOf == 0 {
		return ""
	}
	if t.LastZxid() > w.asOf {
		return "the servers' watch table predates this lock's last change"
	}
	return ""
}

// NewWatchTable indexes a table of session → watched absolute paths.
// Duplicate paths are merged.
func NewWatchTable(bySession map[int64][]string) *WatchTable {
	w := &WatchTable{bySession: map[int64][]string{}, byPath: map[string][]int64{}}
	for s, paths := range bySession {
		seen := map[string]bool{}
		for _, p := range paths {
			if seen[p] {
				continue
			}
			seen[p] = true
			w.bySession[s] = append(w.bySession[s], p)
			w.byPath[p] = append(w.byPath[p], s)
		}
	}
	for _, ss := range w.byPath {
		slices.Sort(ss)
	}
	w.origin = w
	return w
}

// Without returns a copy of the table without session's watches: a reader
// removes its own session so that its watches are not taken for a client's.
func (w *WatchTable) Without(session int64) *WatchTable {
	if w == nil {
		return nil
	}
	rest := make(map[int64][]string, len(w.bySession))
	for s, p := range w.bySession {
		if s != session {
			rest[s] = p
		}
	}
	return NewWatchTable(rest)
}

// Watchers returns the sessions watching path, in ascending order.
func (w *WatchTable) Watchers(path string) []int64 {
	if w == nil {
		return nil
	}
	return w.byPath[path]
}

// Paths returns the paths session watches.
func (w *WatchTable) Paths(session int64) []string {
	if w == nil {
		return nil
	}
	return w.bySession[session]
}

// Sessions returns how many sessions have watches.
func (w *WatchTable) Sessions() int {
	if w == nil {
		return 0
	}
	return len(w.bySession)
}

// Equal reports whether two tables hold the same watches.
func (w *WatchTable) Equal(o *WatchTable) bool {
	if w == nil || o == nil {
		return w == o
	}
	if w.asOf != o.asOf || w.since != o.since || len(w.byPath) != len(o.byPath) {
		return false
	}
	if w.origin != nil && w.origin == o.origin {
		// The same table read once, stamped or scoped again: compared
		// entry by entry on every poll it costs as much as its reading.
		return true
	}
	for p, ss := range w.byPath {
		if !slices.Equal(ss, o.byPath[p]) {
			return false
		}
	}
	return true
}

// JoinPath is the path of the node name under the node dir, as ZooKeeper
// writes it: no doubled slash under the root.
func JoinPath(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// BaseName is a node path's last element: the text after its last slash,
// empty for the root (where path.Base says "/").
func BaseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// ParentPath is the path of a node's parent: the text before its last
// slash, "/" for a node under the root (and for the root). The paths it
// is given are clean and absolute, as the server gives them: path.Dir's
// cleaning would only cost time over a log's millions of changes.
func ParentPath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}

// name is ParseName of c, the tree's i-th child.
func (t Tree) name(i int, c Node) Name {
	if len(t.parsed) == len(t.Children) {
		return t.parsed[i]
	}
	return ParseName(c.Name)
}
