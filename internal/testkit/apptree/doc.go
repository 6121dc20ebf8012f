// Package apptree builds applications' lock trees in a real ZooKeeper as
// each application's own code writes them: the same paths and names, create
// modes, data bytes and watches, from plain go-zookeeper sessions standing
// in for the application's processes where the application itself cannot
// run here. Each builder says which source it follows. Tests only: product
// code never imports it.
package apptree

import (
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
)

// MkdirAll creates path and its missing parents as persistent nodes with
// no data, as the applications' ensurePath helpers do.
func MkdirAll(t testing.TB, c *zk.Conn, path string) {
	t.Helper()
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i := range parts {
		dir := "/" + strings.Join(parts[:i+1], "/")
		if _, err := c.Create(dir, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && err != zk.ErrNodeExists {
			t.Fatalf("apptree: create %s: %v", dir, err)
		}
	}
}

// Create creates one node, failing the test on error, and returns the
// path the server gave it (with its sequence, when sequential).
func Create(t testing.TB, c *zk.Conn, path string, data []byte, flags int32) string {
	t.Helper()
	p, err := c.Create(path, data, flags, zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatalf("apptree: create %s: %v", path, err)
	}
	return p
}

// WatchData sets a data watch on path (exists, as most applications' losers
// do), whether or not the node is there.
func WatchData(t testing.TB, c *zk.Conn, path string) {
	t.Helper()
	if _, _, _, err := c.ExistsW(path); err != nil {
		t.Fatalf("apptree: exists-watch %s: %v", path, err)
	}
}

// Base returns a path's last element.
func Base(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }
