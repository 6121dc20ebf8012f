// Package peers drives real ZooKeeper lock clients from Go tests.
//
// A [Peer] is one kind of client: a JVM running Apache Curator or
// ZooKeeper's own lock recipe, a Python process running kazoo, or an
// in-process driver for go-zookeeper's zk.Lock. A peer hosts any number of
// contenders, each with its own client object and therefore its own
// ZooKeeper session, so each contender's nodes can be told apart by their
// Stat.EphemeralOwner. [Peer.Acquire] returns once the contender's node is in
// the tree, which lets a test build a queue in the order it wants.
//
// The child programs live next to this file (java/, python/) and speak a line
// protocol on stdin and stdout:
//
//	Go → child:  acquire ID VARIANT PATH | release ID | quit
//	child → Go:  session ID HEXSESSION | acquired ID | released ID | error ID MESSAGE
//
// "session" comes as soon as the contender's client is connected, "acquired"
// when the client's acquire call returns, and "released" once the lock is
// released and the session closed. Each contender acquires on its own thread,
// so several can block at once. A child exits on quit or at EOF on stdin, so
// it does not outlive the test binary; stderr goes to t.Logf.
//
// Variants by kind:
//
//   - curator: "mutex" (InterProcessMutex), "mutex+revocable" (one made
//     revocable with makeRevocable: it releases, and its session ends, when
//     it hears a revocation request), "read" and "write"
//     (InterProcessReadWriteLock), "write+read" (the write lock, then the
//     read lock on the same thread: Curator's downgrade; held once both are),
//     "semaphore:N" (InterProcessSemaphoreV2, maxLeases N, nodes under
//     PATH/locks and PATH/leases).
//   - kazoo: "lock", "read", "write" (Lock, ReadLock, WriteLock) and
//     "semaphore:N" (Semaphore, max_leases N: lease nodes under PATH, its
//     queue a kazoo Lock at the sibling PATH + "-__lock__"). The contender ID
//     is the kazoo identifier, so it is the node data (on a semaphore's
//     lock nodes kazoo 2.8 writes it as Python prints bytes: b'ID').
//   - zkrecipe: "writelock" (org.apache.zookeeper.recipes.lock.WriteLock; the
//     peer creates PATH's ancestors, which the recipe does not) and
//     "election" (org.apache.zookeeper.recipes.leader.LeaderElectionSupport,
//     nodes PATH/n_<seq>, its host name, the node data, the contender ID;
//     the peer creates PATH).
//
// Elections: Curator "leaderlatch" (LeaderLatch) and "leaderselector"
// (LeaderSelector), kazoo "election" (Election) and zkrecipe "election".
// "acquired" means the client says it leads; release gives up leadership
// (or the candidacy) and closes the session. The participant id is the
// contender ID.
//   - gozk: "lock" (zk.NewLock).
//
// Methods that take a testing.TB fail the test through it, so call them from
// the test's goroutine.
package peers

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// Kind names a lock client.
type Kind string

// The lock clients a Peer can run.
const (
	Curator  Kind = "curator"  // Apache Curator 5.4 (JVM)
	Kazoo    Kind = "kazoo"    // kazoo 2.8 (Python)
	ZkRecipe Kind = "zkrecipe" // zookeeper-recipes-lock 3.8 (JVM)
	GoZk     Kind = "gozk"     // github.com/go-zookeeper/zk, in process
)

// Budgets for one step of a contender. A peer in its own process is judged
// by its progress instead of stepTimeout (see progressJudge): a JVM may
// still be starting, on two busy cores, under the race detector.
const (
	stepTimeout    = 30 * time.Second
	sessionTimeout = 10 * time.Second
	pollInterval   = 10 * time.Millisecond
	// judgeInterval is how often a wait asks whether to go on.
	judgeInterval = 100 * time.Millisecond
)

// errTimeout is what a wait that ran out of time wraps.
var errTimeout = errors.New("timed out")

// Contender is one contender's identity in ZooKeeper.
type Contender struct {
	ID      string
	Session int64 // its session id, the EphemeralOwner of its nodes
	// Node is the absolute path of the contender's node: its oldest node
	// (lowest czxid) among those present when Acquire saw it. For a
	// semaphore that is the node the session created first that still
	// existed: its lock node while it queues for the semaphore's mutex (a
	// Curator PATH/locks node, a kazoo PATH-__lock__ node), otherwise its
	// lease node. For Curator's write+read it is the write node.
	Node string
}

// Peer runs contenders of one kind of lock client. Close it, or let the
// test's Cleanup do so, to end its sessions and its process.
type Peer struct {
	kind      Kind
	t         testing.TB
	log       *testLog
	backend   backend
	observer  *zk.Conn // our own session, for finding contenders' nodes
	closeOnce sync.Once

	mu         sync.Mutex
	contenders map[string]*status
	changed    chan struct{} // closed and replaced when anything changes
	ended      error         // why the backend stopped, once it has
}

// status is what a contender's client has reported.
type status struct {
	session  int64 // 0 until reported
	held     bool
	released bool
	err      string
}

// backend is what a Peer drives: a child process, or the in-process driver.
// Both speak the line protocol; their replies go to Peer.handle.
type backend interface {
	send(line string) error
	// stop asks for quit, ends every session and waits; it kills what
	// does not stop in time.
	stop() error
}

// Start launches a peer of kind against the ZooKeeper ensemble at connect
// (a connect string). t's Cleanup closes it. A missing client installation
// fails the test with the command that installs it.
func Start(t testing.TB, kind Kind, connect string, opts ...Option) *Peer {
	t.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	p := &Peer{
		kind:       kind,
		t:          t,
		log:        &testLog{t: t, prefix: string(kind) + ": "},
		contenders: map[string]*status{},
		changed:    make(chan struct{}),
	}
	var err error
	switch kind {
	case Curator, ZkRecipe:
		p.backend, err = startJava(t, kind, connect, o, p.handle, p.log.Printf, p.end)
	case Kazoo:
		p.backend, err = startKazoo(t, connect, o, p.handle, p.log.Printf, p.end)
	case GoZk:
		if o.saslUser != "" || o.acl != "" {
			t.Fatalf("peers: WithSASL is for curator and kazoo")
		}
		p.backend = newGozk(connect, p.handle, p.log)
	default:
		err = fmt.Errorf("unknown kind %q", kind)
	}
	if err != nil {
		t.Fatalf("peers: start %s: %v", kind, err)
	}
	t.Cleanup(p.Close)
	var dial zk.Dialer = net.DialTimeout
	if o.observerDialer != nil {
		dial = o.observerDialer
	}
	observer, events, err := zk.Connect(strings.Split(connect, ","), sessionTimeout, zk.WithLogger(discard{}), zk.WithDialer(dial))
	if err != nil {
		t.Fatalf("peers: connect to %s: %v", connect, err)
	}
	go func() {
		for range events {
		}
	}()
	p.observer = observer
	return p
}

// Acquire starts contender id acquiring variant on path, in a new session,
// and returns once the contender's node exists in ZooKeeper. It does not wait
// for the lock: queue contenders one Acquire after another to fix their
// order, then use [Peer.WaitHeld]. An id may be reused once released.
func (p *Peer) Acquire(t testing.TB, id, variant, path string) Contender {
	t.Helper()
	if id == "" || strings.ContainsAny(id, " \t\n") {
		t.Fatalf("peers: bad contender id %q", id)
	}
	dirs, err := contenderDirs(p.kind, variant, path)
	if err != nil {
		t.Fatalf("peers: %v", err)
	}
	p.mu.Lock()
	if s := p.contenders[id]; s != nil && !s.released && s.err == "" {
		p.mu.Unlock()
		t.Fatalf("peers: %s contender %q already exists", p.kind, id)
	}
	s := &status{}
	p.contenders[id] = s
	p.mu.Unlock()

	if err := p.backend.send(fmt.Sprintf("acquire %s %s %s", id, variant, path)); err != nil {
		t.Fatalf("peers: %s acquire %s: %v", p.kind, id, err)
	}
	err = p.awaitStep(func() (bool, error) { return s.session != 0, s.failure() })
	if err != nil {
		t.Fatalf("peers: %s contender %s (%s on %s) has no session: %v", p.kind, id, variant, path, err)
	}
	p.mu.Lock()
	session := s.session
	p.mu.Unlock()

	node, err := p.findNode(dirs, session, s)
	if err != nil {
		t.Fatalf("peers: %s contender %s (%s on %s, session %#x): no node: %v", p.kind, id, variant, path, session, err)
	}
	return Contender{ID: id, Session: session, Node: node}
}

// WaitHeld waits until contender id's client reports that it holds the
// lock, and fails the test if that does not happen within timeout.
func (p *Peer) WaitHeld(t testing.TB, id string, timeout time.Duration) {
	t.Helper()
	held, err := p.HeldWithin(t, id, timeout)
	if err == nil && !held {
		err = fmt.Errorf("%w after %v", errTimeout, timeout)
	}
	if err != nil {
		t.Fatalf("peers: %s contender %s does not hold the lock: %v", p.kind, id, err)
	}
}

// HeldWithin waits up to d for contender id's client to report that it
// holds the lock. It returns false and no error when d passed first, and an
// error when the contender failed or was released, so a caller can look at
// the tree between waits instead of giving one long wait.
func (p *Peer) HeldWithin(t testing.TB, id string, d time.Duration) (bool, error) {
	t.Helper()
	s := p.status(t, id)
	err := p.await(d, func() (bool, error) {
		if s.released {
			return false, errors.New("released")
		}
		return s.held, s.failure()
	})
	if errors.Is(err, errTimeout) {
		return false, nil
	}
	return err == nil, err
}

// Held reports whether contender id's client last said it holds the lock.
// It is the client's belief, not the tree's: a client whose node was deleted
// from under it still says it holds.
func (p *Peer) Held(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.contenders[id]
	return s != nil && s.held
}

// Release releases contender id's lock, or abandons its acquire if it does
// not hold yet, and closes its session. It returns once the client has done
// both, so the contender's nodes are gone. Releasing a released contender
// does nothing.
func (p *Peer) Release(t testing.TB, id string) {
	t.Helper()
	s := p.status(t, id)
	p.mu.Lock()
	released := s.released
	p.mu.Unlock()
	if released {
		return
	}
	if err := p.backend.send("release " + id); err != nil {
		t.Fatalf("peers: %s release %s: %v", p.kind, id, err)
	}
	if err := p.awaitStep(func() (bool, error) { return s.released, s.failure() }); err != nil {
		t.Fatalf("peers: %s contender %s was not released: %v", p.kind, id, err)
	}
}

// Kill SIGKILLs the peer's process, as a crash or the OOM killer would:
// its clients close no session, so each contender's session (and its
// nodes) lives on, connected to no server, until its timeout. It fails the
// test for a GoZk peer, which runs in the test's own process.
func (p *Peer) Kill(t testing.TB) {
	t.Helper()
	c, ok := p.backend.(*child)
	if !ok {
		t.Fatalf("peers: a %s peer has no process of its own to kill", p.kind)
	}
	if err := c.kill(); err != nil {
		t.Fatalf("peers: kill %s: %v", p.kind, err)
	}
}

// Close ends every contender's session and the peer's process. It is safe
// to call more than once; t's Cleanup calls it.
func (p *Peer) Close() {
	p.closeOnce.Do(func() {
		if p.backend != nil {
			if err := p.backend.stop(); err != nil {
				p.t.Errorf("peers: stop %s: %v", p.kind, err)
			}
		}
		if p.observer != nil {
			p.observer.Close()
		}
		p.log.stop()
	})
}

// Freeze SIGSTOPs the peer's process, as a long GC pause or a stalled VM
// would: its connections stay open, but its clients send nothing, not
// even pings, so each session expires at its timeout while its client
// still believes it holds. Thaw, or the test's end, SIGCONTs it. It fails
// the test for a GoZk peer, which runs in the test's own process.
func (p *Peer) Freeze(t testing.TB) {
	t.Helper()
	p.signal(t, syscall.SIGSTOP)
	t.Cleanup(func() { _ = p.backend.(*child).signal(syscall.SIGCONT) })
}

// Thaw SIGCONTs a frozen peer's process: its clients find their sessions
// expired only as they reconnect.
func (p *Peer) Thaw(t testing.TB) {
	t.Helper()
	p.signal(t, syscall.SIGCONT)
}

func (p *Peer) signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	c, ok := p.backend.(*child)
	if !ok {
		t.Fatalf("peers: a %s peer has no process of its own to signal", p.kind)
	}
	if err := c.signal(sig); err != nil {
		t.Fatalf("peers: %v %s: %v", sig, p.kind, err)
	}
}
