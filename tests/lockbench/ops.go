package lockbench

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockclient"
)

// op is one method of lockclient.ZK.
type op int

const (
	opCreate op = iota
	opChildren
	opChildrenW
	opGet
	opExistsW
	opSet
	opDelete
	opMulti
	numOps
)

var opNames = [numOps]string{"Create", "Children", "ChildrenW", "Get", "ExistsW", "Set", "Delete", "Multi"}

// OpStat is how our client used one request type: calls, the calls that
// returned an error (such as ErrNodeExists), and the time spent waiting for
// replies.
type OpStat struct {
	Name          string
	Calls, Failed int64
	Time          time.Duration
}

// opCounts counts lockcore's calls on all contenders' connections.
type opCounts struct {
	calls, failed, nanos [numOps]atomic.Int64
}

func (o *opCounts) snapshot() [numOps]OpStat {
	var s [numOps]OpStat
	for i := range s {
		s[i] = OpStat{Name: opNames[i], Calls: o.calls[i].Load(), Failed: o.failed[i].Load(), Time: time.Duration(o.nanos[i].Load())}
	}
	return s
}

func (o *opCounts) done(k op, start time.Time, err error) {
	o.calls[k].Add(1)
	o.nanos[k].Add(int64(time.Since(start)))
	if err != nil {
		o.failed[k].Add(1)
	}
}

// countedZK is a *zk.Conn, as lockclient.ZK, that counts every request
// method: the profile of our client's requests, measured where it makes
// them. Other methods (SessionID, State, and any lockclient.ZK gains later)
// go to the connection uncounted; the server's own count in Result is the
// authority either way.
type countedZK struct {
	*zk.Conn
	ops *opCounts
}

var _ lockclient.ZK = countedZK{}

func (z countedZK) Create(path string, data []byte, flags int32, acl []zk.ACL) (string, error) {
	t := time.Now()
	p, err := z.Conn.Create(path, data, flags, acl)
	z.ops.done(opCreate, t, err)
	return p, err
}

func (z countedZK) Children(path string) ([]string, *zk.Stat, error) {
	t := time.Now()
	n, s, err := z.Conn.Children(path)
	z.ops.done(opChildren, t, err)
	return n, s, err
}

func (z countedZK) ChildrenW(path string) ([]string, *zk.Stat, <-chan zk.Event, error) {
	t := time.Now()
	n, s, ch, err := z.Conn.ChildrenW(path)
	z.ops.done(opChildrenW, t, err)
	return n, s, ch, err
}

func (z countedZK) Get(path string) ([]byte, *zk.Stat, error) {
	t := time.Now()
	d, s, err := z.Conn.Get(path)
	z.ops.done(opGet, t, err)
	return d, s, err
}

func (z countedZK) ExistsW(path string) (bool, *zk.Stat, <-chan zk.Event, error) {
	t := time.Now()
	ok, s, ch, err := z.Conn.ExistsW(path)
	z.ops.done(opExistsW, t, err)
	return ok, s, ch, err
}

func (z countedZK) Set(path string, data []byte, version int32) (*zk.Stat, error) {
	t := time.Now()
	s, err := z.Conn.Set(path, data, version)
	z.ops.done(opSet, t, err)
	return s, err
}

func (z countedZK) Delete(path string, version int32) error {
	t := time.Now()
	err := z.Conn.Delete(path, version)
	z.ops.done(opDelete, t, err)
	return err
}

func (z countedZK) Multi(ops ...interface{}) ([]zk.MultiResponse, error) {
	t := time.Now()
	r, err := z.Conn.Multi(ops...)
	z.ops.done(opMulti, t, err)
	return r, err
}

// fmtOps describes calls per acquisition, e.g. "Create 3.00 (2.00 failed,
// 0.4ms)", for the request types used.
func fmtOps(ops []OpStat, acquisitions int) string {
	var parts []string
	for _, o := range ops {
		if o.Calls == 0 {
			continue
		}
		s := fmt.Sprintf("%s %.2f", o.Name, ratio(o.Calls, acquisitions))
		if o.Failed > 0 {
			s += fmt.Sprintf(" (%.2f failed)", ratio(o.Failed, acquisitions))
		}
		parts = append(parts, s+fmt.Sprintf(" %s", fmtDur(o.Time/time.Duration(o.Calls))))
	}
	return strings.Join(parts, ", ")
}
