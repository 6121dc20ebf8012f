package zkwatch

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// readConcurrency bounds the requests one read keeps in flight on the
// session; go-zookeeper pipelines them on its one connection.
const readConcurrency = 64

// ReadTree reads everything lockcore needs about one lock path: the node,
// its children with their Stat and first bytes of data, the extra
// subtrees its recipe keeps elsewhere, and the nodes an application keeps
// beside it (lockcore.RelatedPaths). Children that vanish while being read
// are left out; nodes whose data the ACL denies are kept, with their Stat
// and DataDenied. The result is a snapshot that may be stale by the time it
// is shown. A path with no node whose parent has one is read as Absent:
// a plain lock node, free, looks so (and so does a path no lock uses; only
// the watches on it tell them apart). Errors wrap ErrNoNode (the parent
// has no node either) or ErrNoAuth (a list of children denied) and name
// the path.
func (c *Conn) ReadTree(ctx context.Context, path string) (lockcore.Tree, error) {
	if err := ValidatePath(path); err != nil {
		return lockcore.Tree{}, err
	}
	self, err := c.readNode(ctx, path)
	if errors.Is(err, zk.ErrNoNode) && path != "/" {
		if _, perr := c.readNode(ctx, lockcore.ParentPath(path)); perr != nil {
			return lockcore.Tree{}, err
		}
		return lockcore.Tree{Path: path, Absent: true, ReadAt: time.Now()}, nil
	}
	if err != nil {
		return lockcore.Tree{}, err
	}
	t := lockcore.Tree{Path: path, Self: self}
	names, stat, err := c.children(ctx, path)
	if err != nil {
		return lockcore.Tree{}, err
	}
	// The node's children counters as of the listing, not as of the
	// earlier read of its data: the analysis reasons from the pzxid about
	// the children listed, which an older pzxid would misdate.
	t.Self.Stat.Pzxid, t.Self.Stat.Cversion, t.Self.Stat.NumChildren = stat.Pzxid, stat.Cversion, stat.NumChildren
	if t.Children, err = c.readNodes(ctx, path, names); err != nil {
		return lockcore.Tree{}, err
	}
	for _, extra := range lockcore.ExtraPaths(path, self, names) {
		kids, _, err := c.children(ctx, extra)
		if errors.Is(err, zk.ErrNoNode) {
			kids, err = nil, nil
		}
		if err != nil {
			return lockcore.Tree{}, err
		}
		nodes, err := c.readNodes(ctx, extra, kids)
		if err != nil {
			return lockcore.Tree{}, err
		}
		if t.Extra == nil {
			t.Extra = map[string][]lockcore.Node{}
		}
		t.Extra[extra] = nodes
	}
	for _, rel := range lockcore.RelatedPaths(path, self, names) {
		n, err := c.readNode(ctx, rel)
		if errors.Is(err, zk.ErrNoNode) {
			n, err = lockcore.Node{}, nil
		}
		if err != nil {
			return lockcore.Tree{}, err
		}
		if t.Related == nil {
			t.Related = map[string]lockcore.Node{}
		}
		t.Related[rel] = n
	}
	t.ReadAt = time.Now()
	return t, nil
}

// children lists path's children, with its Stat as of the listing.
func (c *Conn) children(ctx context.Context, path string) ([]string, *zk.Stat, error) {
	type listed struct {
		names []string
		stat  *zk.Stat
	}
	l, err := call(ctx, func() (listed, error) {
		names, stat, err := c.zk.Children(c.abs(path))
		return listed{names, stat}, err
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	sort.Strings(l.names)
	return l.names, l.stat, nil
}

func (c *Conn) readNode(ctx context.Context, path string) (lockcore.Node, error) {
	n, err := call(ctx, func() (lockcore.Node, error) { return c.getNode(path, lockcore.BaseName(path)) })
	if err != nil {
		return lockcore.Node{}, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// getNode reads the node at path, named name. Data past lockcore.DataLimit
// is dropped, and not kept alive behind a shorter slice. A node whose ACL
// denies this session its data is still a node: its Stat comes from
// exists, which no ACL guards, and it is marked DataDenied.
func (c *Conn) getNode(path, name string) (lockcore.Node, error) {
	data, stat, err := c.zk.Get(c.abs(path))
	if errors.Is(err, zk.ErrNoAuth) {
		return c.statNode(path, name)
	}
	if err != nil {
		return lockcore.Node{}, err
	}
	if len(data) > lockcore.DataLimit {
		data = append([]byte(nil), data[:lockcore.DataLimit]...)
	}
	return lockcore.Node{Name: name, Stat: *stat, Data: data}, nil
}

// statNode reads the Stat of a node whose data this session may not read.
func (c *Conn) statNode(path, name string) (lockcore.Node, error) {
	ok, stat, err := c.zk.Exists(c.abs(path))
	switch {
	case err != nil:
		return lockcore.Node{}, err
	case !ok:
		return lockcore.Node{}, zk.ErrNoNode
	}
	return lockcore.Node{Name: name, Stat: *stat, DataDenied: true}, nil
}

// readNodes reads dir's named children concurrently, in names' order.
func (c *Conn) readNodes(ctx context.Context, dir string, names []string) ([]lockcore.Node, error) {
	nodes := make([]lockcore.Node, len(names))
	found := make([]bool, len(names))
	errs := make([]error, len(names))
	sem := make(chan struct{}, readConcurrency)
	var wg sync.WaitGroup
	for i, name := range names {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return nil, ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			n, err := c.readNode(ctx, lockcore.JoinPath(dir, name))
			switch {
			case errors.Is(err, zk.ErrNoNode):
			case err != nil:
				errs[i] = err
			default:
				nodes[i], found[i] = n, true
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	out := nodes[:0]
	for i, n := range nodes {
		if found[i] {
			out = append(out, n)
		}
	}
	return out, nil
}

// answerClock ends a context once no request made under it has been
// answered for d.
type answerClock struct {
	d     time.Duration
	timer *time.Timer
}

type answerClockKey struct{}

// WithAnswerTimeout returns a context for reads through a Conn that ends
// when the server has left every request made under it unanswered for d:
// a read of a lock with 100,000 contenders goes on for as long as answers
// keep coming, however slow the machine makes them, and ends once the
// server has gone quiet for d. The context's cause is then an error that
// wraps context.DeadlineExceeded. cancel releases it, as a context's
// cancel does.
func WithAnswerTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	quiet := fmt.Errorf("no answer for %v: %w", d, context.DeadlineExceeded)
	clock := &answerClock{d: d, timer: time.AfterFunc(d, func() { cancel(quiet) })}
	return context.WithValue(ctx, answerClockKey{}, clock), func() {
		clock.timer.Stop()
		cancel(context.Canceled)
	}
}

// answered restarts the wait of ctx's answer clock, if it has one.
func answered(ctx context.Context) {
	if clock, ok := ctx.Value(answerClockKey{}).(*answerClock); ok {
		clock.timer.Reset(clock.d)
	}
}
