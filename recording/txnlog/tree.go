package txnlog

import (
	"path"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

// znode is one node of the rebuilt tree. Only the first
// lockcore.DataLimit bytes of its data are kept, as the watcher keeps them.
type znode struct {
	stat zk.Stat
	data []byte
	// kids are the node's children by name: a lock's are read after
	// every change of one, and finding each by its whole path cost a
	// join and a lookup in the tree's every node.
	kids map[string]*znode
}

// session is what the log and snapshot say of one session.
type session struct {
	timeout time.Duration
	// last is the time of its last transaction (its client last heard),
	// zero when none was seen.
	last       time.Time
	ephemerals map[string]struct{}
}

// tree is the data tree as ZooKeeper's DataTree would hold it after the
// transactions applied so far.
type tree struct {
	nodes    map[string]*znode
	sessions map[int64]*session
	// zxid and at are the last transaction applied.
	zxid int64
	at   time.Time
	// keeps, when not nil, says which nodes the tree holds (see
	// nodeFilter).
	keeps func(path string, owner int64) bool
}

func newTree() *tree {
	t := &tree{nodes: map[string]*znode{}, sessions: map[int64]*session{}}
	t.nodes["/"] = &znode{}
	return t
}

// change is one node created, changed or deleted by a transaction.
type change struct {
	path string
	// end, for a deleted node, says how it went.
	end *zkwatch.NodeEnd
}

func (t *tree) session(id int64) *session {
	s := t.sessions[id]
	if s == nil {
		s = &session{}
		t.sessions[id] = s
	}
	return s
}

// apply applies one transaction and says which nodes it touched.
func (t *tree) apply(r Record) []change {
	h := r.Header
	at := time.UnixMilli(h.Time)
	t.zxid, t.at = h.Zxid, at
	var out []change
	switch h.Type {
	case jute.OpCreateSession:
		s := t.session(h.ClientID)
		s.timeout, s.last = time.Duration(r.Txn.Timeout)*time.Millisecond, at
		return nil
	case jute.OpCloseSession:
		out = t.closeSession(h, at)
		delete(t.sessions, h.ClientID)
		return out
	case jute.OpMulti:
		for _, op := range r.Txn.Ops {
			out = append(out, t.applyOp(h, at, op)...)
		}
	default:
		out = t.applyOp(h, at, r.Txn)
	}
	if s := t.sessions[h.ClientID]; s != nil {
		s.last = at
	}
	return out
}

func (t *tree) applyOp(h jute.TxnHeader, at time.Time, op jute.Txn) []change {
	switch op.Type {
	case jute.OpCreate, jute.OpCreate2, jute.OpCreateContainer, jute.OpCreateTTL:
		var owner int64
		switch {
		case op.Type == jute.OpCreateContainer:
			owner = jute.OwnerContainer
		case op.Type == jute.OpCreateTTL:
			owner = -0x100000000000000 | op.TTL
		case op.Ephemeral:
			owner = h.ClientID
		}
		if t.create(op.Path, op.Data, owner, op.ParentCVersion, h.Zxid, at) {
			return []change{{path: op.Path}}
		}
	case jute.OpDelete, jute.OpDeleteContainer:
		n := t.nodes[op.Path]
		if n == nil {
			return nil
		}
		end := &zkwatch.NodeEnd{Path: op.Path, Czxid: n.stat.Czxid, By: h.ClientID, At: at, How: zkwatch.EndDeletedByOwner}
		if owner := n.stat.EphemeralOwner; jute.IsSessionOwner(owner) && owner != h.ClientID {
			end.How = zkwatch.EndDeletedByOther
		}
		t.fillSession(end, n.stat.EphemeralOwner)
		t.remove(op.Path, h.Zxid)
		return []change{{path: op.Path, end: end}}
	case jute.OpSetData:
		if n := t.nodes[op.Path]; n != nil {
			n.data = keep(op.Data)
			n.stat.DataLength = int32(len(op.Data))
			n.stat.Version, n.stat.Mzxid, n.stat.Mtime = op.Version, h.Zxid, at.UnixMilli()
			return []change{{path: op.Path}}
		}
	case jute.OpSetACL:
		if n := t.nodes[op.Path]; n != nil {
			n.stat.Aversion = op.Version
		}
	}
	return nil
}

// fillSession notes the owner session's timeout and when it was last
// heard from on an end.
func (t *tree) fillSession(end *zkwatch.NodeEnd, owner int64) {
	end.Session = owner
	if s := t.sessions[owner]; s != nil {
		end.Timeout, end.LastHeard = s.timeout, s.last
	}
}

// closeSession removes a session's ephemeral nodes: an expiry when the
// server's session tracker closed it (cxid 0), its client's close
// otherwise.
func (t *tree) closeSession(h jute.TxnHeader, at time.Time) []change {
	s := t.sessions[h.ClientID]
	how := zkwatch.EndClosed
	if h.Cxid == 0 {
		how = zkwatch.EndExpired
	}
	var paths []string
	if s != nil {
		for p := range s.ephemerals {
			paths = append(paths, p)
		}
	}
	// Deepest first, as ZooKeeper deletes them (an ephemeral has no
	// children, but the order is the server's).
	var out []change
	for _, p := range paths {
		n := t.nodes[p]
		if n == nil {
			continue
		}
		end := &zkwatch.NodeEnd{Path: p, Czxid: n.stat.Czxid, By: h.ClientID, At: at, How: how}
		t.fillSession(end, h.ClientID)
		t.remove(p, h.Zxid)
		out = append(out, change{path: p, end: end})
	}
	return out
}

// create adds a node; a node already there (a fuzzy snapshot's) is
// replaced by the log's, which is what the server holds after.
func (t *tree) create(p string, data []byte, owner int64, parentCVersion int32, zxid int64, at time.Time) bool {
	parent := t.nodes[lockcore.ParentPath(p)]
	if parent == nil || p == "/" || !strings.HasPrefix(p, "/") || !t.kept(p, owner) {
		return false
	}
	n := t.nodes[p]
	if n == nil {
		n = &znode{}
		t.nodes[p] = n
		if parent.kids == nil {
			parent.kids = map[string]*znode{}
		}
		parent.kids[lockcore.BaseName(p)] = n
		parent.stat.NumChildren = int32(len(parent.kids))
	}
	ms := at.UnixMilli()
	n.data = keep(data)
	n.stat = zk.Stat{Czxid: zxid, Mzxid: zxid, Ctime: ms, Mtime: ms, EphemeralOwner: owner,
		DataLength: int32(len(data)), NumChildren: int32(len(n.kids)), Pzxid: zxid}
	if parentCVersion == -1 {
		parentCVersion = parent.stat.Cversion + 1
	}
	parent.stat.Cversion, parent.stat.Pzxid = parentCVersion, zxid
	if jute.IsSessionOwner(owner) {
		s := t.session(owner)
		if s.ephemerals == nil {
			s.ephemerals = map[string]struct{}{}
		}
		s.ephemerals[p] = struct{}{}
	}
	return true
}

// remove deletes a node (and, should a fuzzy snapshot hold any, what is
// below it).
func (t *tree) remove(p string, zxid int64) {
	n := t.nodes[p]
	if n == nil {
		return
	}
	for k := range n.kids {
		t.remove(lockcore.JoinPath(p, k), zxid)
	}
	delete(t.nodes, p)
	if s := t.sessions[n.stat.EphemeralOwner]; s != nil {
		delete(s.ephemerals, p)
	}
	if parent := t.nodes[lockcore.ParentPath(p)]; parent != nil {
		delete(parent.kids, lockcore.BaseName(p))
		parent.stat.NumChildren = int32(len(parent.kids))
		parent.stat.Cversion++
		parent.stat.Pzxid = zxid
	}
}

// node is what the watcher would have read of p.
func (t *tree) node(p string) (lockcore.Node, bool) {
	n := t.nodes[p]
	if n == nil {
		return lockcore.Node{}, false
	}
	return n.read(path.Base(p)), true
}

// read is what the watcher would have read of n, named name.
func (n *znode) read(name string) lockcore.Node {
	st := n.stat
	if !jute.IsSessionOwner(st.EphemeralOwner) {
		// A container's or TTL node's mark: a client reads 0.
		st.EphemeralOwner = 0
	}
	return lockcore.Node{Name: name, Stat: st, Data: n.data}
}

// children are p's children as read nodes.
func (t *tree) children(p string) []lockcore.Node {
	n := t.nodes[p]
	if n == nil {
		return nil
	}
	out := make([]lockcore.Node, 0, len(n.kids))
	for k, c := range n.kids {
		out = append(out, c.read(k))
	}
	return out
}

// names are p's children's names.
func (t *tree) names(p string) []string {
	n := t.nodes[p]
	if n == nil {
		return nil
	}
	out := make([]string, 0, len(n.kids))
	for k := range n.kids {
		out = append(out, k)
	}
	return out
}
