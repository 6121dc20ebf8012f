package zkwatch

import (
	"context"
	"fmt"

	"github.com/go-zookeeper/zk"
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
