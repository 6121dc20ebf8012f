package zkwatch

import (
	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockclient"
)

// LockZK returns the connection as lockcore's narrow ZooKeeper interface,
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
