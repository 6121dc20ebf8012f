package lockcore

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
