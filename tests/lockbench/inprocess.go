package lockbench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// Budgets for the in-process contenders.
const (
	connectTimeout = 30 * time.Second
	finishTimeout  = 60 * time.Second
)

// locker is one in-process contender's lock client.
type locker interface {
	// lock blocks until held and returns our node's path, or "" when the
	// client does not say.
	lock(ctx context.Context) (string, error)
	unlock(ctx context.Context) error
}

// oursLocker is lockcore's client, used as its documentation says, on a
// connection that counts its calls.
func oursLocker(conn *zk.Conn, path string, ops *opCounts) locker {
	return &oursLock{locker: lockclient.NewLocker(countedZK{Conn: conn, ops: ops}, lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive})}
}

type oursLock struct {
	locker *lockclient.Locker
	held   *lockclient.Held
}

func (l *oursLock) lock(ctx context.Context) (string, error) {
	h, err := l.locker.Acquire(ctx)
	if err != nil {
		return "", err
	}
	l.held = h
	return h.Node, nil
}

func (l *oursLock) unlock(ctx context.Context) error { return l.held.Release(ctx) }

// gozkLocker is go-zookeeper's zk.Lock, one per contender, reused.
func gozkLocker(conn *zk.Conn, path string, _ *opCounts) locker {
	return gozkLock{zk.NewLock(conn, path, zk.WorldACL(zk.PermAll))}
}

type gozkLock struct{ l *zk.Lock }

func (l gozkLock) lock(context.Context) (string, error) { return "", l.l.Lock() }
func (l gozkLock) unlock(context.Context) error         { return l.l.Unlock() }

// inProcess runs contenders as goroutines of this process, each with its
// own *zk.Conn, counting the watch notifications their connections get.
type inProcess struct {
	cfg        Config
	newLocker  lockerFunc
	contenders []*contender
	ops        opCounts

	ctx    context.Context // ends at close; bounds every acquire
	cancel context.CancelFunc
	stop   atomic.Bool
	wg     sync.WaitGroup
	own    atomic.Int64
	wakes  atomic.Int64
	// receipts counts each connection's notifications by node, for the
	// run's Tally.
	mu       sync.Mutex
	receipts map[receipt]int
	// disconnects counts dropped connections while looping.
	disconnects atomic.Int64
	// connectWrites counts the requests the contenders' connections sent
	// before each had its session: the connect request, and the SASL
	// exchange's when authenticating.
	connectWrites atomic.Int64
}

// contender is one goroutine's session and record.
type contender struct {
	id    int
	conn  *zk.Conn
	lk    locker
	node  atomic.Pointer[string] // the node it holds or last held
	holds []Hold
	// acquired counts holds as they happen, for progress.
	acquired atomic.Int64
	err      error
}

// lockerFunc makes a contender's locker on its connection; ops counts
// requests, for a locker that can.
type lockerFunc func(conn *zk.Conn, path string, ops *opCounts) locker

func newInProcess(cfg Config, newLocker lockerFunc) *inProcess {
	ctx, cancel := context.WithCancel(context.Background())
	return &inProcess{cfg: cfg, newLocker: newLocker, ctx: ctx, cancel: cancel, receipts: map[receipt]int{}}
}

func (d *inProcess) start(ctx context.Context) error {
	for i := range d.cfg.Contenders {
		c := &contender{id: i}
		conn, err := d.connect(ctx, c)
		if err != nil {
			return err
		}
		c.conn, c.lk = conn, d.newLocker(conn, d.cfg.Path, &d.ops)
		d.contenders = append(d.contenders, c)
	}
	return nil
}

// connect opens c's session and returns once it has one.
func (d *inProcess) connect(ctx context.Context, c *contender) (*zk.Conn, error) {
	var connecting atomic.Bool
	connecting.Store(true)
	var counted zk.Dialer = func(network, addr string, timeout time.Duration) (net.Conn, error) {
		conn, err := net.DialTimeout(network, addr, timeout)
		if err != nil {
			return nil, err
		}
		return &writeCounter{Conn: conn, counting: &connecting, n: &d.connectWrites}, nil
	}
	if d.cfg.Dial != nil {
		counted = d.cfg.Dial(counted)
	}
	conn, events, err := zk.Connect([]string{d.cfg.Addr}, SessionTimeout, zk.WithDialer(counted),
		zk.WithLogger(discard{}), zk.WithEventCallback(func(ev zk.Event) {
			if ev.State == zk.StateHasSession {
				connecting.Store(false)
			}
			d.count(c, ev)
		}))
	if err != nil {
		return nil, err
	}
	timeout := time.NewTimer(connectTimeout)
	defer timeout.Stop()
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				go func() {
					for range events {
					}
				}()
				return conn, nil
			}
		case <-ctx.Done():
			conn.Close()
			return nil, ctx.Err()
		case <-timeout.C:
			conn.Close()
			return nil, fmt.Errorf("no session with %s after %v", d.cfg.Addr, connectTimeout)
		}
	}
}

// count sorts a watch notification to c's connection: about its own node,
// or a wake-up.
func (d *inProcess) count(c *contender, ev zk.Event) {
	switch ev.Type {
	case zk.EventNodeCreated, zk.EventNodeDeleted, zk.EventNodeDataChanged, zk.EventNodeChildrenChanged:
	case zk.EventSession:
		if ev.State == zk.StateDisconnected && !d.stop.Load() {
			d.disconnects.Add(1)
		}
		return
	default:
		return
	}
	d.mu.Lock()
	d.receipts[receipt{c.id, ev.Path}]++
	d.mu.Unlock()
	if own := c.node.Load(); own != nil && *own == ev.Path {
		d.own.Add(1)
	} else {
		d.wakes.Add(1)
	}
}

func (d *inProcess) observe() observed {
	return observed{received: Received{InProcess: true, Own: d.own.Load(), Wakes: d.wakes.Load()}, ops: d.ops.snapshot()}
}

// tally counts holds against the notifications received by node; it is
// whole only once the loops have stopped (see Tally).
func (d *inProcess) tally(holds []Hold) Tally {
	d.mu.Lock()
	defer d.mu.Unlock()
	return tallyReceipts(holds, d.receipts)
}

func (d *inProcess) begin() error {
	for _, c := range d.contenders {
		d.wg.Add(1)
		go d.loop(c)
	}
	return nil
}

// loop acquires and releases until stopped; the critical section is
// reading the clock twice.
func (d *inProcess) loop(c *contender) {
	defer d.wg.Done()
	for !d.stop.Load() {
		node, err := c.lk.lock(d.ctx)
		if err != nil {
			c.err = fmt.Errorf("contender %d: acquire: %w", c.id, err)
			return
		}
		acquired := nowMicros()
		if node != "" {
			c.node.Store(&node)
		}
		releasing := nowMicros()
		c.holds = append(c.holds, Hold{Contender: c.id, Acquired: acquired, Released: releasing, Node: node})
		c.acquired.Add(1)
		if err := c.lk.unlock(d.ctx); err != nil {
			c.err = fmt.Errorf("contender %d: release: %w", c.id, err)
			return
		}
	}
}

func (d *inProcess) progress(context.Context) ([]int64, error) {
	n := make([]int64, len(d.contenders))
	for i, c := range d.contenders {
		n[i] = c.acquired.Load()
	}
	return n, nil
}

func (d *inProcess) finish(ctx context.Context) ([]Hold, int64, error) {
	d.stop.Store(true)
	done := make(chan struct{})
	go func() { d.wg.Wait(); close(done) }()
	timeout := time.NewTimer(finishTimeout)
	defer timeout.Stop()
	select {
	case <-done:
	case <-ctx.Done():
		return nil, 0, ctx.Err()
	case <-timeout.C:
		return nil, 0, fmt.Errorf("contenders still looping %v after stop", finishTimeout)
	}
	var holds []Hold
	var errs []error
	for _, c := range d.contenders {
		holds = append(holds, c.holds...)
		errs = append(errs, c.err)
	}
	return holds, d.disconnects.Load(), errors.Join(errs...)
}

func (d *inProcess) close() {
	d.stop.Store(true)
	d.cancel()
	for _, c := range d.contenders {
		c.conn.Close() // ends a zk.Lock that still waits
	}
	d.wg.Wait()
}

// discard drops go-zookeeper's connection chatter (32 sessions connect
// per configuration).
type discard struct{}

func (discard) Printf(string, ...any) {}

// writeCounter counts the frames written on a connection while counting
// is set: go-zookeeper and the SASL exchange write one request a call.
type writeCounter struct {
	net.Conn
	counting *atomic.Bool
	n        *atomic.Int64
}

func (w *writeCounter) Write(p []byte) (int, error) {
	if w.counting.Load() {
		w.n.Add(1)
	}
	return w.Conn.Write(p)
}
