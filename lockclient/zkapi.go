package lockclient

import "github.com/go-zookeeper/zk"

// ZK is the part of a ZooKeeper connection the lock client uses; *zk.Conn
// satisfies it. Paths are absolute on the server.
type ZK interface {
	Create(path string, data []byte, flags int32, acl []zk.ACL) (string, error)
	Children(path string) ([]string, *zk.Stat, error)
	ChildrenW(path string) ([]string, *zk.Stat, <-chan zk.Event, error)
	Get(path string) ([]byte, *zk.Stat, error)
	ExistsW(path string) (bool, *zk.Stat, <-chan zk.Event, error)
	Set(path string, data []byte, version int32) (*zk.Stat, error)
	Delete(path string, version int32) error
	Multi(ops ...interface{}) ([]zk.MultiResponse, error)
	SessionID() int64
	// State is the connection's state; a holder that is not connected
	// can no longer know that it holds.
	State() zk.State
}

// SessionEvents is a connection that tells of its session's state changes
// as they happen, so that a holder counts its lock lost the moment the
// connection drops. *zk.Conn does not: go-zookeeper hands session events
// only to the callback or channel given when dialling. Relay them with a
// Session and wrap the connection with WithSession; a connection without
// SessionEvents is polled instead.
type SessionEvents interface {
	// OnState registers f to be called after every change of the session's
	// state, until stop is called. f must not block: it runs on the
	// connection's own goroutine.
	OnState(f func(zk.State)) (stop func())
}
