package ui

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// Our own lock: the operator can take one lock at a time with zklocks' own
// client (a fair participant of the lock's recipe, see lockclient.Acquire),
// watch it wait and hold, and give it back. It is ephemeral, so it goes
// with its session at the latest; ReleaseOwn gives it back on the way out.

// releaseTimeout bounds giving our lock back.
const releaseTimeout = 5 * time.Second

// ownLock is our own lock, from the moment it is asked for: waiting,
// held, or lost. The App owns it; panes only read it.
type ownLock struct {
	id   int
	path string // the lock's path
	mode lockcore.Mode
	// asked is when the operator asked for it, by the App's clock.
	asked time.Time
	// progress is where the wait last stood; nil before the first report
	// (and when the lock was free).
	progress *lockclient.Progress
	held     *lockclient.Held
	// lost says why the held lock was lost, once it was.
	lost error
	// ending: r was pressed, the wait is being given up or the lock
	// released.
	ending bool

	cancel   context.CancelFunc         // gives up the wait
	reports  <-chan lockclient.Progress // where the wait stands; closed when the acquisition returns
	returned <-chan struct{}            // closed once the acquisition has returned
	granted  <-chan *lockclient.Held    // the lock, if granted, for ReleaseOwn
	stop     chan struct{}              // closed to stop watching the held lock
}

// node is our contender's path, once known.
func (o *ownLock) node() string {
	switch {
	case o.held != nil:
		return o.held.Node
	case o.progress != nil:
		return o.progress.Node
	}
	return ""
}

// acquireAccess is what Actions.Access is asked about joining a lock:
// CREATE on its node (see zkwatch.NeedFor). Taking our own lock is not an
// audited ActionKind; the ACL check is the same for it.
const acquireAccess lockcore.ActionKind = "acquire"

// askAcquire asks in which mode to acquire the lock on screen, and reads
// whether the lock's ACL lets the session join it.
func (op *operator) askAcquire(sel selection) tea.Cmd {
	const what = "acquire"
	if !op.canAct(what) {
		return nil
	}
	if o := op.env.own; o != nil {
		op.host.say("acquire: r gives back "+o.path+" first: zklocks already holds or waits on it", true)
		return nil
	}
	l := sel.lock
	switch {
	case sel.screen == focusDetail && sel.gone:
		op.host.say("acquire: "+sel.lockPath+" is gone; it is no longer watched", true)
		return nil
	case sel.screen == focusLocks && sel.lockPath != "" && l == nil:
		op.host.say("acquire: "+sel.lockPath+": the ACL denies this session", true)
		return nil
	case l == nil:
		return nil
	}
	modes, why := lockcore.JoinModes(l.Recipe)
	if len(modes) == 0 {
		op.host.say("acquire: "+l.Path+" ("+string(l.Recipe)+"): "+why, true)
		return nil
	}
	op.host.open(newAcquireDialog(*op.env.keys, l, modes))
	return readAccess(op.actions, acquireAccess, l.Path)
}

// acquireChosenMsg: the operator chose how to acquire a lock.
type acquireChosenMsg struct{ spec lockclient.Spec }

func chooseAcquire(spec lockclient.Spec) tea.Cmd {
	return func() tea.Msg { return acquireChosenMsg{spec: spec} }
}

// startAcquire starts acquiring, and shows the lock's detail.
func (op *operator) startAcquire(spec lockclient.Spec, sel selection) tea.Cmd {
	if !op.canAct("acquire") {
		return nil
	}
	if op.env.own != nil {
		return nil
	}
	op.seq++
	ctx, cancel := context.WithCancel(context.Background())
	reports := make(chan lockclient.Progress, 1)
	returned := make(chan struct{})
	granted := make(chan *lockclient.Held, 1)
	o := &ownLock{id: op.seq, path: spec.Path, mode: spec.Mode, asked: op.env.now(),
		cancel: cancel, reports: reports, returned: returned, granted: granted}
	op.env.own = o
	if sel.screen != focusDetail || sel.lockPath != spec.Path {
		op.host.openLock(openLockMsg{path: spec.Path})
	}
	op.host.say("acquiring "+spec.Path+" ("+string(spec.Mode)+"); r gives up · zklocks' own client", false)
	run := ownRun{reports: reports, returned: returned, granted: granted}
	return tea.Batch(acquire(ctx, op.actions, spec, o.id, run), waitProgress(o.id, reports))
}

// acquireProgressMsg is where our waiting acquisition stands.
type acquireProgressMsg struct {
	id       int
	progress lockclient.Progress
}

// acquireDoneMsg ends an acquisition: the lock held, or why not.
type acquireDoneMsg struct {
	id   int
	held *lockclient.Held
	err  error
}

// ownRun are the channels an acquisition reports on.
type ownRun struct {
	// reports get where the wait stands; the latest report replaces one
	// not yet read, so the acquisition never waits for the UI. Closed when
	// the acquisition returns.
	reports chan lockclient.Progress
	// granted gets the lock, if granted (buffered: one).
	granted chan<- *lockclient.Held
	// returned is closed last.
	returned chan<- struct{}
}

// acquire acquires with act. A lock granted just as ctx ended is given
// back at once: nobody is left to release it.
func acquire(ctx context.Context, act *model.Actions, spec lockclient.Spec, id int, run ownRun) tea.Cmd {
	return func() tea.Msg {
		defer close(run.returned)
		spec.Progress = func(p lockclient.Progress) { offer(run.reports, p) }
		h, err := act.Acquire(ctx, spec)
		close(run.reports)
		if err == nil && ctx.Err() != nil {
			rctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
			_ = h.Release(rctx)
			cancel()
			h, err = nil, ctx.Err()
		}
		if h != nil {
			run.granted <- h
		}
		return acquireDoneMsg{id: id, held: h, err: err}
	}
}

// offer puts p on ch, replacing a report not yet read. It never blocks
// while it is ch's only sender.
func offer(ch chan lockclient.Progress, p lockclient.Progress) {
	for {
		select {
		case ch <- p:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}

// waitProgress waits for the next report; nothing once the acquisition
// has returned.
func waitProgress(id int, reports <-chan lockclient.Progress) tea.Cmd {
	return func() tea.Msg {
		p, ok := <-reports
		if !ok {
			return nil
		}
		return acquireProgressMsg{id: id, progress: p}
	}
}

func (op *operator) acquireProgress(msg acquireProgressMsg) tea.Cmd {
	o := op.env.own
	if o == nil || o.id != msg.id {
		return nil
	}
	if o.held == nil {
		p := msg.progress
		o.progress = &p
	}
	return waitProgress(o.id, o.reports)
}

func (op *operator) acquireDone(msg acquireDoneMsg) tea.Cmd {
	o := op.env.own
	if o == nil || o.id != msg.id {
		if msg.held != nil { // not wanted any more: give it back
			return releaseHeld(msg.id, msg.held, "")
		}
		return nil
	}
	if msg.err == nil && msg.held == nil {
		msg.err = errors.New("no lock and no error from the client")
	}
	if msg.err != nil {
		op.env.own = nil
		o.cancel()
		if errors.Is(msg.err, context.Canceled) {
			op.host.say("gave up waiting on "+o.path+": our node and the session it waited on are closed", false)
		} else {
			op.host.say("acquire "+o.path+" failed: "+msg.err.Error(), true)
		}
		return nil
	}
	o.held, o.stop = msg.held, make(chan struct{})
	op.host.say("holding "+o.path+" · fencing token "+token(o.held.Token)+
		" · r releases", false)
	return watchHeld(o.id, o.held, o.stop)
}

// ownLostMsg: our lock was lost: its node deleted by someone else, our
// session expired, or the connection dropped (see lockclient.Held).
type ownLostMsg struct {
	id  int
	err error
}

// ownRevokedMsg: someone asked us, Curator-style, to release.
type ownRevokedMsg struct{ id int }

// watchHeld waits until the held lock is lost or revoked, or stop closes.
func watchHeld(id int, h *lockclient.Held, stop <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-h.Lost():
			return ownLostMsg{id: id, err: h.Err()}
		case <-h.Revoked():
			return ownRevokedMsg{id: id}
		case <-stop:
			return nil
		}
	}
}

func (op *operator) ownLost(msg ownLostMsg) {
	o := op.env.own
	if o == nil || o.id != msg.id {
		return
	}
	o.lost = msg.err
	if o.lost == nil {
		o.lost = lockclient.ErrLockLost
	}
	op.host.say("OUR LOCK IS LOST: "+o.lost.Error(), true)
}

func (op *operator) ownRevoked(msg ownRevokedMsg) tea.Cmd {
	o := op.env.own
	if o == nil || o.id != msg.id || o.ending {
		return nil
	}
	op.host.say("r releases "+o.path+": someone asks zklocks to (Curator revocation)", true)
	return watchHeld(o.id, o.held, o.stop)
}
