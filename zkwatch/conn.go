package zkwatch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/zkwatch/words"

	"github.com/zklocks/zklocks/lockclient"
)

// Errors of connecting and reading.
var (
	// ErrUnreachable: no server of the target gave a session in time.
	ErrUnreachable = errors.New("zkwatch: zookeeper unreachable")
	// ErrNoNode: the path does not exist.
	ErrNoNode = zk.ErrNoNode
	// ErrNoAuth: the server's ACL denies this session the path.
	ErrNoAuth = zk.ErrNoAuth
	// ErrWatched: Watch was called on a Conn whose Watcher still runs. A
	// Conn has one Watcher at a time, as its session's watch
	// notifications and state changes go to one place (see Watch).
	ErrWatched = errors.New("zkwatch: the connection already has a watcher")
)

// Options configure a connection.
type Options struct {
	Target Target
	// SessionTimeout is asked of the server; zero means 10 s.
	SessionTimeout time.Duration
	// Logger receives go-zookeeper's log lines; nil discards them, so that
	// nothing reaches a full-screen terminal. The secrets of Auth are masked
	// in every line before it gets there.
	Logger zk.Logger
	// Auth are credentials added to the session, in order, as soon as it is
	// established; Dial returns only once the server has taken them all.
	// go-zookeeper re-sends them itself after every reconnect, before any
	// queued request, including when it has to start a new session.
	Auth []Auth
	// TLS, when not nil, makes every connection a TLS connection with this
	// configuration, for servers' secure client ports; see [TLSFiles]. An
	// empty ServerName means each server's own host.
	TLS *tls.Config
	// Admin says where the members' AdminServers listen: what the servers
	// say of their sessions and watches is asked of them where a
	// four-letter word is refused. nil means the defaults (http, port
	// 8080); words.AdminServer.Off never asks.
	Admin *words.AdminServer
}

// Conn is a ZooKeeper session, with paths relative to the target's chroot.
// go-zookeeper has no chroot of its own, so Conn prefixes every path.
type Conn struct {
	zk     *zk.Conn
	target Target
	events <-chan zk.Event
	tls    *tls.Config
	// onWatch receives every watch notification of the session, with its
	// server path; see setWatchHandler.
	onWatch *watchHandler
	// session relays session events to the lock holders acquired through
	// LockZK, so that a holder hears of a drop from the event itself.
	session *lockclient.Session
	// opt are the options the session was dialed with, for Another.
	opt Options
	// closed is set by Close: the session is over for the lock client
	// even though go-zookeeper still reports its id (see LockZK).
	closed atomic.Bool
	admin  *words.AdminServer
	// auth is what the session's connections share of authentication.
	auth *authState
	// memory remembers the words each member refused and which members
	// have no AdminServer, for every ask made through this Conn.
	memory *words.WayMemory
}

// watchHandler holds the function that watch notifications go to. go-zookeeper
// also hands each notification to the channel of the call that set the
// watch; a watcher that takes them here needs no goroutine per watch, and
// the channels, buffered for their one event, are left to the collector.
type watchHandler struct {
	mu sync.RWMutex
	fn func(zk.Event)
	// taken says a Watcher runs on the connection (see Watch).
	taken bool
}

// claim makes the caller the connection's one Watcher, or reports false
// when another one runs.
func (h *watchHandler) claim() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.taken {
		return false
	}
	h.taken = true
	return true
}

// release lets a later Watcher have the connection.
func (h *watchHandler) release() {
	h.mu.Lock()
	h.fn, h.taken = nil, false
	h.mu.Unlock()
}

func (h *watchHandler) set(fn func(zk.Event)) {
	h.mu.Lock()
	h.fn = fn
	h.mu.Unlock()
}

func (h *watchHandler) call(ev zk.Event) {
	h.mu.RLock()
	fn := h.fn
	h.mu.RUnlock()
	if fn != nil {
		fn(ev)
	}
}

type discardLogger struct{}

func (discardLogger) Printf(string, ...interface{}) {}

// Dial connects and returns once the session is established, or fails with
// ErrUnreachable when ctx ends first, or sooner, also matching ErrRefused,
// when every server refused the connection twice in a row. The caller must
// Close the Conn.
func Dial(ctx context.Context, opt Options) (*Conn, error) {
	if len(opt.Target.Servers) == 0 {
		return nil, fmt.Errorf("no zookeeper server given")
	}
	timeout := opt.SessionTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	logger := opt.Logger
	if logger == nil {
		logger = discardLogger{}
	}
	recorder := &lastError{Logger: logger}
	refused := newRefusals()
	dial := refused.dialer(sessionDialer(opt))
	auth, err := newDialAuth(opt.Auth, timeout)
	if err != nil {
		return nil, err
	}
	dial = handshakeDialer(authDialer(dial, auth), timeout/time.Duration(len(opt.Target.Servers)))
	// Session events come through a callback: go-zookeeper's own event
	// channel holds six events and drops the rest, and an expiry sends one
	// per invalidated watch through it, which could push a state change out.
	states := make(chan zk.Event, sessionEventBuffer)
	watches := &watchHandler{}
	session := &lockclient.Session{}
	onEvent := func(ev zk.Event) {
		if ev.Type != zk.EventSession {
			watches.call(ev)
			return
		}
		session.Event(ev)
		select {
		case states <- ev:
		default:
		}
	}
	c, _, err := zk.Connect(opt.Target.Servers, timeout, zk.WithEventCallback(onEvent),
		zk.WithLogger(newRedactLogger(recorder, opt.Auth)), zk.WithLogInfo(false), zk.WithDialer(dial))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreachable, opt.Target, err)
	}
	for {
		select {
		case ev := <-states:
			if ev.State == zk.StateHasSession {
				if err := addAuth(ctx, c, opt.Auth); err != nil {
					c.Close()
					return nil, fmt.Errorf("%s: %w", opt.Target, err)
				}
				admin := opt.Admin
				if admin == nil {
					admin = &words.AdminServer{}
				}
				return &Conn{zk: c, target: opt.Target, events: states, tls: opt.TLS, onWatch: watches, session: session,
					opt: opt, admin: admin, memory: words.NewWayMemory(), auth: auth}, nil
			}
			if ev.State == zk.StateAuthFailed {
				c.Close()
				return nil, fmt.Errorf("%w: %s: authentication failed", ErrUnreachable, opt.Target)
			}
		case <-auth.rejected:
			c.Close()
			return nil, fmt.Errorf("%s: %w", opt.Target, auth.problem())
		case <-refused.all:
			c.Close()
			return nil, fmt.Errorf("%w: %w by %s at every attempt: nothing listens there (is the server up? is the port right?)",
				ErrUnreachable, ErrRefused, strings.Join(refused.addrs(), ", "))
		case <-ctx.Done():
			c.Close()
			if err := auth.stuck(); err != nil {
				return nil, fmt.Errorf("%s: %w", opt.Target, err)
			}
			why := dialFailure(recorder.last(), opt.TLS != nil)
			return nil, fmt.Errorf("%w: no session from %s: %s", ErrUnreachable, strings.Join(opt.Target.Servers, ", "), why)
		}
	}
}

// sessionEventBuffer holds session state changes until the watcher reads
// them; they come a few at a time, at connection changes only.
const sessionEventBuffer = 64

// lastError remembers go-zookeeper's last log line, which says why a
// connection attempt failed.
type lastError struct {
	zk.Logger
	mu   sync.Mutex
	line string
}

func (l *lastError) Printf(format string, args ...interface{}) {
	l.mu.Lock()
	l.line = fmt.Sprintf(format, args...)
	l.mu.Unlock()
	l.Logger.Printf(format, args...)
}

func (l *lastError) last() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.line
}

// Close ends the session; its ephemeral nodes and watches go with it.
func (c *Conn) Close() { c.closed.Store(true); c.zk.Close() }

// SessionID returns the current session id.
func (c *Conn) SessionID() int64 { return c.zk.SessionID() }

// Target returns what the connection was made to.
func (c *Conn) Target() Target { return c.target }

// TLS returns a copy of the TLS configuration the session's connections
// use, or nil for plain TCP. Four-letter words to a secure client port need
// it too: the servers answer them over TLS only.
func (c *Conn) TLS() *tls.Config {
	if c.tls == nil {
		return nil
	}
	return c.tls.Clone()
}

// Admin returns where the members' AdminServers are asked.
func (c *Conn) Admin() *words.AdminServer { return c.admin }

// Answered says how each member answered the words this connection asked
// it outside an Enricher (the watch table of ReadWatches, discovery's
// dump, the leader's expiry times): by member, the way each word last
// came.
func (c *Conn) Answered() map[string]map[string]words.Via { return c.memory.Answered() }

// ways is how this connection asks members, counting in costs.
func (c *Conn) ways(costs *words.Costs) words.Ways {
	return words.Ways{TLS: c.tls, Admin: c.admin, Costs: costs, Memory: c.memory}
}

// abs turns a chroot-relative path into the server's absolute path.
func (c *Conn) abs(p string) string {
	if c.target.Chroot == "" {
		return p
	}
	if p == "/" {
		return c.target.Chroot
	}
	return c.target.Chroot + p
}

// rel turns a server path into a chroot-relative one; ok is false for paths
// outside the chroot.
func (c *Conn) rel(p string) (string, bool) { return underChroot(c.target.Chroot, p) }

// underChroot turns server path p into the path a client connected with
// chroot root names it by (root without a trailing slash; "" for none);
// ok is false for a path outside root.
func underChroot(root, p string) (string, bool) {
	switch {
	case root == "":
		return p, true
	case p == root:
		return "/", true
	case strings.HasPrefix(p, root+"/"):
		return p[len(root):], true
	}
	return "", false
}

// call runs a blocking go-zookeeper request, giving up when ctx ends. The
// request itself cannot be withdrawn; its answer is dropped. An answer
// restarts the wait of a WithAnswerTimeout context.
func call[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		answered(ctx)
		return r.v, explain(r.err)
	case <-ctx.Done():
		var zero T
		return zero, context.Cause(ctx)
	}
}
