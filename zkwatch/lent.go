package zkwatch

import (
	"context"
	"fmt"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockclient"
)

// NodeDataLimit is how much of a node's data ReadNodeDetail keeps: enough to
// read any lock's data, small enough that a viewer never holds a megabyte.
const NodeDataLimit = 64 << 10

// NodeDetail is one node as read on demand: its full Stat, the first
// NodeDataLimit bytes of its data, and its ACL. It is a snapshot: by the time
// it is shown the node may have changed or gone.
type NodeDetail struct {
	// Path is the node's path, relative to the connection's chroot.
	Path string
	// Stat is the node's metadata as returned with its data.
	Stat zk.Stat
	// Data holds at most NodeDataLimit bytes of the node's data.
	Data []byte
	// DataLen is the length of the node's whole data, in bytes.
	DataLen int
	// ACL is the node's access control list, read just after the data.
	ACL []zk.ACL
}

// Truncated reports whether Data holds less than the node's whole data.
func (d NodeDetail) Truncated() bool { return d.DataLen > len(d.Data) }

// ReadNodeDetail reads path's data, Stat and ACL. The server sends the whole
// data (up to its jute.maxbuffer); only the first NodeDataLimit bytes are
// kept. It gives up when ctx ends, though the request itself cannot be
// withdrawn. Errors name the path and wrap ErrNoNode when the node is gone
// and ErrNoAuth when its ACL denies this session.
func (c *Conn) ReadNodeDetail(ctx context.Context, path string) (NodeDetail, error) {
	if err := ValidatePath(path); err != nil {
		return NodeDetail{}, err
	}
	if err := ctx.Err(); err != nil {
		return NodeDetail{}, fmt.Errorf("%s: %w", path, err)
	}
	d, err := call(ctx, func() (NodeDetail, error) {
		data, stat, err := c.zk.Get(c.abs(path))
		if err != nil {
			return NodeDetail{}, err
		}
		d := NodeDetail{Path: path, Stat: *stat, DataLen: len(data)}
		// Copy, so that a megabyte of data is not kept alive by its head.
		d.Data = append([]byte(nil), data[:min(len(data), NodeDataLimit)]...)
		acl, _, err := c.zk.GetACL(c.abs(path))
		if err != nil {
			return NodeDetail{}, err
		}
		d.ACL = acl
		return d, nil
	})
	if err != nil {
		return NodeDetail{}, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// ChildrenLimit is the most children ReadChildren returns; a node with more
// is listed in part, with its whole count.
const ChildrenLimit = 10_000

// ReadChildren lists path's children, sorted, at most ChildrenLimit of
// them, and how many there are. It gives up when ctx ends. Errors name the
// path and wrap ErrNoNode when the node is gone and ErrNoAuth when its ACL
// denies this session.
func (c *Conn) ReadChildren(ctx context.Context, path string) (names []string, total int, err error) {
	if err := ValidatePath(path); err != nil {
		return nil, 0, err
	}
	names, _, err = c.children(ctx, path)
	if err != nil {
		return nil, 0, err
	}
	total = len(names)
	if total > ChildrenLimit {
		names = names[:ChildrenLimit:ChildrenLimit]
	}
	return names, total, nil
}

// LockZK returns the connection as lockclient's narrow ZooKeeper interface,
// with paths relative to the chroot like every other path of Conn, and the
// session's events, so that a holder hears of a drop as it happens.
func (c *Conn) LockZK() lockclient.ZK {
	if c.session == nil {
		return chrooted{c}
	}
	return lockclient.WithSession(chrooted{c}, c.session)
}

type chrooted struct{ c *Conn }

func (r chrooted) Create(p string, data []byte, flags int32, acl []zk.ACL) (string, error) {
	created, err := r.c.zk.Create(r.c.abs(p), data, flags, acl)
	if err != nil {
		return "", explain(err)
	}
	rel, _ := r.c.rel(created)
	return rel, nil
}

func (r chrooted) Children(p string) ([]string, *zk.Stat, error) {
	names, stat, err := r.c.zk.Children(r.c.abs(p))
	return names, stat, explain(err)
}

func (r chrooted) ChildrenW(p string) ([]string, *zk.Stat, <-chan zk.Event, error) {
	return r.c.zk.ChildrenW(r.c.abs(p))
}

func (r chrooted) Get(p string) ([]byte, *zk.Stat, error) {
	data, stat, err := r.c.zk.Get(r.c.abs(p))
	return data, stat, explain(err)
}

func (r chrooted) ExistsW(p string) (bool, *zk.Stat, <-chan zk.Event, error) {
	return r.c.zk.ExistsW(r.c.abs(p))
}

func (r chrooted) Set(p string, data []byte, version int32) (*zk.Stat, error) {
	return r.c.zk.Set(r.c.abs(p), data, version)
}

func (r chrooted) Delete(p string, version int32) error {
	return explain(r.c.zk.Delete(r.c.abs(p), version))
}

func (r chrooted) Multi(ops ...interface{}) ([]zk.MultiResponse, error) {
	for _, op := range ops {
		if d, ok := op.(*zk.DeleteRequest); ok {
			d.Path = r.c.abs(d.Path)
		}
	}
	return r.c.zk.Multi(ops...)
}

// SessionID is 0 once the Conn is closed: a closed session's ephemeral
// nodes are gone with it, so the lock client stops retrying for them
// (go-zookeeper keeps reporting the old id).
func (r chrooted) SessionID() int64 {
	if r.c.closed.Load() {
		return 0
	}
	return r.c.zk.SessionID()
}

func (r chrooted) State() zk.State { return r.c.zk.State() }

// Another dials a new session to the same target with the same options
// (credentials, TLS, session timeout), and returns once it is established.
// Work whose ephemeral nodes and watches must end when it does takes a
// session of its own: ZooKeeper removes a session's watches only when they
// fire or the session closes, and go-zookeeper cannot remove one. The
// caller must Close the Conn.
func (c *Conn) Another(ctx context.Context) (*Conn, error) { return Dial(ctx, c.opt) }
