package zkwatch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zklocks/zklocks/zkwatch/jute"
	"github.com/zklocks/zklocks/zkwatch/session"
	"github.com/zklocks/zklocks/zkwatch/tick"
)

// The persistent recursive watch: on ZooKeeper 3.6 and later, one watch
// per root (addWatch, mode PERSISTENT_RECURSIVE) on a session of zklocks'
// own tells of every node created below it, so that a new lock anywhere
// is looked at at once rather than at the next dump or walk. It is used
// for discovery only: go-zookeeper's session makes every read and holds
// every watch on a lock. A persistent watch brings no catch-up events
// after a reconnect, so the roots are read again then; on a server that
// cannot set it, discovery is the dump's and the walk's alone.

// PersistentWatch says whether a persistent recursive watch finds new
// locks, and what it costs. It comes with Discovery.
type PersistentWatch struct {
	// Live: the watch is set on every root now; a new lock anywhere
	// below them is looked at as soon as it is created.
	Live bool
	// Note says why it is not used, or not live now ("" while live);
	// Off: it is not tried again (a server older than 3.6, one that
	// refused it, or turned off).
	Note string
	Off  bool
	// Server is the member it is set on, Version that member's release
	// (empty when srvr did not say).
	Server, Version string
	// Readded counts the times it was set again after its connection
	// dropped, each followed by a re-read of the roots.
	Readded int
	// Rate is the notifications of the last second, and Busy the time
	// spent taking them in that second once read from the connection
	// (decoding, filtering, queueing): reading them costs more, and is not
	// counted here (see docs/performance.md).
	Rate int
	Busy time.Duration
	// Queued is how many directories wait to be looked at, of at most
	// QueueMax.
	Queued, QueueMax int
	// Overflows counts the times the queue was full, the last at
	// OverflowAt: the notifications it dropped are made up for by a
	// re-read of the roots at the walk's pace.
	Overflows  int
	OverflowAt time.Time
	// Rereading: that re-read (or one after a reconnect) is under way,
	// RereadReads its requests so far.
	Rereading   bool
	RereadReads int
	// SparesDump: the last dump was asked while the watch was live, and
	// it has stayed live since, so the watch has told of every node made
	// after that dump and the next is asked only as rarely as the walk
	// runs. A dump asked before the watch went live is followed by
	// another soon after, for what the watch could not tell.
	SparesDump bool
}

// Persistent watch bounds.
const (
	// persistQueueMax is the default bound on the directories waiting to
	// be looked at: past it notifications are dropped, and the roots
	// re-read.
	persistQueueMax = 4096
	// persistSlowdown is how much less often dump is asked while the
	// persistent watch is live: it still finds what the watch cannot
	// (a lock made while its connection was down).
	persistSlowdown = 6
	// persistDumpEvery is the least gap between two dumps once a dump
	// was asked while the watch was live and it has stayed live since:
	// the watch has told of every node created after that dump, and a
	// connection lost is made up for by a re-read of the roots, so the
	// next dump makes up for nothing; it is asked as rarely as the walk
	// runs, should anything have slipped between the two.
	persistDumpEvery = defaultWalkEvery
	// persistRetryMax bounds the wait between two attempts to connect.
	persistRetryMax = 10 * time.Second
	// persistStopTimeout bounds removing the watch and closing the
	// session at exit.
	persistStopTimeout = 3 * time.Second
)

// persistState is the persistent watch's part of the watcher. Its own mu
// guards it: notifications arrive on the session's reading goroutine, at
// any rate, and must not wait for the watcher's mu.
type persistState struct {
	live atomic.Bool
	// sets counts the times the watch was set (went live); dumpedLive is
	// sets as it was when the last dump answered was asked, if the watch
	// was live then (see liveSet), else 0.
	sets, dumpedLive atomic.Int64
	count            atomic.Int64 // notifications taken
	spent            atomic.Int64 // nanoseconds spent taking them
	wake             chan struct{}
	mu               sync.Mutex
	desc             PersistentWatch
	queue            map[string]string // directory → a child created in it
	overflow         bool              // dropped notifications since the last take
	reread           *walker           // a re-read under way
	// rereadAgain: something was dropped while it was under way, maybe
	// where it had passed already: another follows it.
	rereadAgain bool
	lastCount   int64
	lastSpent   int64
	queueMax    int
	versions    map[string]string // each member's release, once srvr said
}

func newPersistState(queueMax int) *persistState {
	if queueMax <= 0 {
		queueMax = persistQueueMax
	}
	return &persistState{wake: make(chan struct{}, 1), queue: map[string]string{}, queueMax: queueMax,
		desc: PersistentWatch{QueueMax: queueMax}, versions: map[string]string{}}
}

// version returns member's release, asking it with ask the first time
// only: a member does not change release without a restart, and a
// reconnect should not cost a word.
func (ps *persistState) version(member string, ask func() (string, error)) (string, error) {
	ps.mu.Lock()
	v, ok := ps.versions[member]
	ps.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := ask()
	if err == nil {
		ps.mu.Lock()
		ps.versions[member] = v
		ps.mu.Unlock()
	}
	return v, err
}

// liveSet names the watch's current setting while it is live (it
// changes each time the watch is set again), and is 0 while it is not.
func (ps *persistState) liveSet() int64 {
	if !ps.live.Load() {
		return 0
	}
	return ps.sets.Load()
}

// sparesDump reports whether the last dump was asked while the watch was
// live and it has stayed live since (PersistentWatch.SparesDump).
func (ps *persistState) sparesDump() bool {
	live := ps.liveSet()
	return live != 0 && live == ps.dumpedLive.Load()
}

// describe returns what Discovery says of the watch.
func (ps *persistState) describe() PersistentWatch {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	d := ps.desc
	d.Live = ps.live.Load()
	d.SparesDump = ps.sparesDump()
	d.Queued = len(ps.queue)
	if ps.reread != nil {
		d.Rereading, d.RereadReads = true, ps.reread.Reads()
	}
	return d
}

func (ps *persistState) update(f func(d *PersistentWatch)) {
	ps.mu.Lock()
	f(&ps.desc)
	ps.mu.Unlock()
}

// errPersistOff is a refusal: the watch is not tried again.
type errPersistOff struct{ why string }

func (e *errPersistOff) Error() string { return e.why }

// persistentLoop sets the watch and keeps it set until ctx ends, then
// removes it and closes its session.
func (d *discoverer) persistentLoop(ctx context.Context) {
	ps := d.persist
	if d.w.cfg.PersistentWatchOff {
		ps.update(func(d *PersistentWatch) { d.Note, d.Off = "turned off", true })
		return
	}
	var ident session.Identity
	wait, first := time.Second, true
	for {
		s, server, version, err := d.openPersistent(ctx, &ident)
		if ctx.Err() != nil {
			if s != nil {
				d.stopPersistent(s)
			}
			return
		}
		var off *errPersistOff
		if errors.As(err, &off) {
			ps.update(func(d *PersistentWatch) { d.Note, d.Off, d.Server, d.Version = off.why, true, server, version })
			d.emitDiscovery(ctx)
			return
		}
		if err != nil {
			ps.update(func(d *PersistentWatch) { d.Note = "not set: " + shortErr(err) + "; trying again" })
			d.emitDiscovery(ctx)
			if !sleepCtx(ctx, wait) {
				return
			}
			wait = min(wait*2, persistRetryMax)
			continue
		}
		wait = time.Second
		if first {
			d.loops.Go(func() { d.persistentQueue(ctx) })
			d.loops.Go(func() { tick.Every(ctx, time.Second, func() { d.persistTick(ctx) }) })
		}
		ps.sets.Add(1)
		ps.live.Store(true)
		ps.update(func(d *PersistentWatch) {
			d.Note, d.Server, d.Version = "", server, version
			if !first {
				d.Readded++
			}
		})
		d.emitDiscovery(ctx)
		if !first {
			// Nothing created while the connection was down was told of.
			d.persistReread(ctx)
		}
		first = false
		select {
		case <-ctx.Done():
			d.stopPersistent(s)
			return
		case <-s.Done():
		}
		ident = s.Identity()
		ps.live.Store(false)
		ps.update(func(d *PersistentWatch) { d.Note = "connection lost (" + shortErr(s.Err()) + "): setting it again" })
		d.emitDiscovery(ctx)
	}
}

// openPersistent connects a session of zklocks' own (resuming ident's
// when the server still has it) and sets the watch on every root. It
// returns an *errPersistOff when the member cannot set it: older than
// 3.6 by its srvr, refusing addWatch, or closing the connection at it
// as a 3.5 server does with an unknown request.
func (d *discoverer) openPersistent(ctx context.Context, ident *session.Identity) (s *session.Session, server, version string, err error) {
	server = d.sessionMember()
	version, verr := d.persist.version(server, func() (string, error) { return d.memberVersion(ctx, server) })
	if verr == nil && !atLeast(version, 3, 6) {
		return nil, server, version, &errPersistOff{why: "ZooKeeper " + version + " on " + server + " has no persistent watches (3.6 and later)"}
	}
	timeout := d.w.conn.opt.SessionTimeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// Its connections authenticate by SASL as the watcher's do.
	dial, err := authSessionDialer(d.w.conn.opt, timeout)
	if err != nil {
		return nil, server, version, err
	}
	creds := credentials(d.w.conn.opt.Auth)
	s, err = session.Dial(dctx, dial, server, timeout, *ident, creds, d.onPersistentEvent)
	if errors.Is(err, session.ErrExpired) {
		*ident = session.Identity{}
		s, err = session.Dial(dctx, dial, server, timeout, session.Identity{}, creds, d.onPersistentEvent)
	}
	var refused *session.ReplyError
	if errors.As(err, &refused) {
		return nil, server, version, &errPersistOff{why: fmt.Sprintf("%s refused the credentials on the persistent watch's session (%s)", server, jute.ErrorName(refused.Code))}
	}
	if err != nil {
		return nil, server, version, err
	}
	for _, root := range d.w.cfg.Roots {
		err := s.AddWatch(dctx, d.w.conn.abs(root), jute.AddWatchPersistentRecursive)
		switch {
		case err == nil:
			continue
		case errors.As(err, &refused):
			s.CloseSession(dctx)
			return nil, server, version, &errPersistOff{why: fmt.Sprintf("%s refused addWatch on %s (%s)", server, root, jute.ErrorName(refused.Code))}
		case errors.Is(err, session.ErrClosed) && verr != nil:
			return nil, server, version, &errPersistOff{why: server + " closed the connection at addWatch (a server older than 3.6 does)"}
		}
		s.Close()
		return nil, server, version, err
	}
	return s, server, version, nil
}

// memberVersion asks member for its release, its cost counted with the
// watcher's other asks.
func (d *discoverer) memberVersion(ctx context.Context, member string) (string, error) {
	return d.w.conn.askVersion(ctx, member, d.w.costs, d.wordTimeout())
}

// stopPersistent removes the watch from every root and closes its
// session, so that the server holds nothing of it once zklocks exits.
// 3.6–3.8 know no persistent watcher types in removeWatches: Any removes
// it there and on later releases alike.
func (d *discoverer) stopPersistent(s *session.Session) {
	d.persist.live.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), persistStopTimeout)
	defer cancel()
	for _, root := range d.w.cfg.Roots {
		s.RemoveWatches(ctx, d.w.conn.abs(root), jute.WatcherAny)
	}
	s.CloseSession(ctx)
}
