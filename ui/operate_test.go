package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// recordingZK is a lockclient.ZK double for the UI's unit tests: it holds
// nodes' stats, checks versions as ZooKeeper does, and records every call.
// The real behaviour is covered by the integration tests.
type recordingZK struct {
	mu    sync.Mutex
	nodes map[string]zk.Stat
	calls []string
}

// newRecordingZK holds every contender of the App's locks as shown.
func newRecordingZK(s *model.State) *recordingZK {
	z := &recordingZK{nodes: map[string]zk.Stat{}}
	for _, l := range s.Locks {
		for _, q := range l.Participants {
			z.nodes[q.Path] = zk.Stat{Czxid: q.Token, EphemeralOwner: q.Session, Version: q.Version}
		}
	}
	return z
}

func (z *recordingZK) record(format string, args ...any) {
	z.calls = append(z.calls, fmt.Sprintf(format, args...))
}

// writes are the calls that change something.
func (z *recordingZK) writes() []string {
	z.mu.Lock()
	defer z.mu.Unlock()
	var out []string
	for _, c := range z.calls {
		if !strings.HasPrefix(c, "get ") {
			out = append(out, c)
		}
	}
	return out
}

func (z *recordingZK) change(path string, f func(*zk.Stat)) {
	z.mu.Lock()
	defer z.mu.Unlock()
	st := z.nodes[path]
	f(&st)
	z.nodes[path] = st
}

func (z *recordingZK) Get(path string) ([]byte, *zk.Stat, error) {
	z.mu.Lock()
	defer z.mu.Unlock()
	z.record("get %s", path)
	st, ok := z.nodes[path]
	if !ok {
		return nil, nil, zk.ErrNoNode
	}
	return nil, &st, nil
}

func (z *recordingZK) Delete(path string, version int32) error {
	z.mu.Lock()
	defer z.mu.Unlock()
	z.record("delete %s %d", path, version)
	return z.deleteLocked(path, version)
}

func (z *recordingZK) deleteLocked(path string, version int32) error {
	st, ok := z.nodes[path]
	switch {
	case !ok:
		return zk.ErrNoNode
	case version != -1 && version != st.Version:
		return zk.ErrBadVersion
	}
	delete(z.nodes, path)
	return nil
}

func (z *recordingZK) Set(path string, data []byte, version int32) (*zk.Stat, error) {
	z.mu.Lock()
	defer z.mu.Unlock()
	z.record("set %s %s %d", path, data, version)
	st, ok := z.nodes[path]
	if !ok {
		return nil, zk.ErrNoNode
	}
	st.Version++
	z.nodes[path] = st
	return &st, nil
}

func (z *recordingZK) Multi(ops ...interface{}) ([]zk.MultiResponse, error) {
	z.mu.Lock()
	defer z.mu.Unlock()
	var parts []string
	for _, op := range ops {
		d := op.(*zk.DeleteRequest)
		parts = append(parts, fmt.Sprintf("%s %d", d.Path, d.Version))
		if st, ok := z.nodes[d.Path]; !ok || st.Version != d.Version {
			return nil, zk.ErrBadVersion
		}
	}
	z.record("multi-delete %s", strings.Join(parts, ", "))
	for _, op := range ops {
		delete(z.nodes, op.(*zk.DeleteRequest).Path)
	}
	return make([]zk.MultiResponse, len(ops)), nil
}

var errNotFaked = errors.New("not faked")

func (z *recordingZK) Create(string, []byte, int32, []zk.ACL) (string, error) { return "", errNotFaked }
func (z *recordingZK) Children(string) ([]string, *zk.Stat, error)            { return nil, nil, errNotFaked }
func (z *recordingZK) ChildrenW(string) ([]string, *zk.Stat, <-chan zk.Event, error) {
	return nil, nil, nil, errNotFaked
}
func (z *recordingZK) ExistsW(string) (bool, *zk.Stat, <-chan zk.Event, error) {
	return false, nil, nil, errNotFaked
}
func (z *recordingZK) SessionID() int64 { return sid(1) }
func (z *recordingZK) State() zk.State  { return zk.StateHasSession }

// newOperateApp is a test App that may act, on a recording ZooKeeper, with
// an audit log in memory.
func newOperateApp(t *testing.T, change ...func(*Options)) (*App, *recordingZK, *bytes.Buffer) {
	t.Helper()
	var z *recordingZK
	audit := &bytes.Buffer{}
	a := newTestApp(t, 80, 24, append([]func(*Options){func(o *Options) {
		z = newRecordingZK(o.State)
		o.Actions = &model.Actions{ZK: z, Audit: model.NewAudit(audit), User: "sre", Server: o.Server,
			Now: func() time.Time { return t0 }}
	}}, change...)...)
	return a, z, audit
}

// statusLine is the bottom line's message, in full.
func statusLine(a *App) string { return a.flash.text }

func TestOperateReadOnlyRefusesAndSaysWhy(t *testing.T) {
	a, z, audit := newOperateApp(t, func(o *Options) { o.ReadOnly = true; o.Actions.ReadOnly = true })
	for _, b := range []bool{a.env.keys.Acquire.Enabled(), a.env.keys.ReleaseOwn.Enabled(),
		a.env.keys.ForceRelease.Enabled(), a.env.keys.Revoke.Enabled(), a.env.keys.Fence.Enabled()} {
		if b {
			t.Fatal("an operation's binding is enabled under read-only")
		}
	}
	press(a, "?")
	if sc := screen(a); strings.Contains(sc, "force-release") || strings.Contains(sc, "acquire") {
		t.Fatalf("the help lists disabled operations:\n%s", sc)
	}
	press(a, "?")
	press(a, "a")
	if l := statusLine(a); !strings.Contains(l, "read-only: acquire is disabled") {
		t.Fatalf("a on the list: %q", l)
	}
	send(a, openLockMsg{path: "/locks/billing"})
	for k, what := range map[string]string{"a": "acquire", "r": "release", "D": "force-release", "v": "revoke", "F": "fence"} {
		a.flash = flash{}
		press(a, k)
		if openDialog(a) != nil {
			t.Fatalf("%s opened a dialog under read-only", k)
		}
		if l := statusLine(a); !strings.Contains(l, "read-only: "+what+" is disabled") {
			t.Fatalf("%s under read-only says %q", k, l)
		}
	}
	if w := z.writes(); len(w) != 0 || audit.Len() != 0 || a.env.own != nil {
		t.Fatalf("read-only wrote: %v, audit %q", w, audit.String())
	}
}

func TestOperateKeysInTheHelp(t *testing.T) {
	a, _, _ := newOperateApp(t)
	press(a, "?")
	if !lineHas(screen(a), "a acquire", "r release ours", "D force-release", "v revoke", "F fence") {
		t.Fatalf("the help does not list the operations:\n%s", screen(a))
	}
}

func TestOperateWithoutActionsSaysSo(t *testing.T) {
	a := newTestApp(t, 80, 24)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "D")
	if openDialog(a) != nil || !strings.Contains(statusLine(a), "force-release is unavailable") {
		t.Fatalf("D without actions: %q", statusLine(a))
	}
}

func TestForceReleaseNeedsY(t *testing.T) {
	a, z, audit := newOperateApp(t)
	holder := participant(t, a, "/locks/billing", 0)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "D")
	sc := screen(a)
	for _, want := range []string{"Force-release", "session  0x100008e2d9b0014", "client   10.0.2.0:50020 via 10.0.0.1:2181",
		"holding  X #0, held for 1h50m", "session is not told", "v revokes instead", "y deletes the node"} {
		if !strings.Contains(sc, want) {
			t.Fatalf("the dialog does not say %q:\n%s", want, sc)
		}
	}
	for _, cancel := range [][]string{{"enter"}, {"esc"}, {"q"}, {"n"}} {
		if press(a, cancel...) || openDialog(a) != nil {
			t.Fatalf("%s should cancel, and not quit", cancel)
		}
		press(a, "D")
	}
	press(a, "esc")
	if w := z.writes(); len(w) != 0 || audit.Len() != 0 {
		t.Fatalf("cancelled, yet: %v", w)
	}
	press(a, "D", "y")
	want := fmt.Sprintf("delete %s 0", holder.Path)
	if w := z.writes(); len(w) != 1 || w[0] != want {
		t.Fatalf("writes %v, want [%s]", w, want)
	}
	if l := statusLine(a); !strings.Contains(l, "force-released") || !strings.Contains(l, "not told") {
		t.Fatalf("result: %q", l)
	}
	if !strings.Contains(audit.String(), `"action":"force-release"`) {
		t.Fatalf("not audited: %q", audit.String())
	}
}

func TestForceReleaseDialogNeverGuessesTheClient(t *testing.T) {
	a, _, _ := newOperateApp(t)
	send(a, openLockMsg{path: "/locks/billing", node: participant(t, a, "/locks/billing", 2).Path})
	press(a, "D")
	if sc := screen(a); !strings.Contains(sc, "client   unknown (no server named this session)") {
		t.Fatalf("an unknown client:\n%s", sc)
	}
	press(a, "esc")
	send(a, openLockMsg{path: "/locks/orphans"})
	press(a, "D")
	if sc := screen(a); !strings.Contains(sc, "session  persistent") || strings.Contains(sc, "v revokes") ||
		!strings.Contains(sc, "no client is told") {
		t.Fatalf("a persistent node:\n%s", sc)
	}
}

// TestForceReleaseActsOnTheNodeAsShown: what y deletes is the node the
// dialog showed; a node that changed since, even if the picture behind the
// dialog moved on, is refused and left alone.
func TestForceReleaseActsOnTheNodeAsShown(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(*zk.Stat)
		want   string
	}{
		{"recreated", func(s *zk.Stat) { s.Czxid += 100 }, "is a different node now"},
		{"new owner", func(s *zk.Stat) { s.EphemeralOwner = sid(99) }, "belongs to session"},
		{"written", func(s *zk.Stat) { s.Version = 3 }, "has version 3 now, was 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, z, audit := newOperateApp(t)
			holder := participant(t, a, "/locks/billing", 0)
			send(a, openLockMsg{path: "/locks/billing"})
			press(a, "D")
			z.change(holder.Path, tt.change)
			// The watcher's new picture arrives while the dialog is open.
			moved := mutex("/locks/billing", 3, 17)
			moved.Participants[0].Path, moved.Participants[0].Version = holder.Path, 3
			send(a, lockEvents(moved))
			press(a, "y")
			if w := z.writes(); len(w) != 0 {
				t.Fatalf("a changed node was written: %v", w)
			}
			l := statusLine(a)
			if !strings.Contains(l, "force-release refused, nothing was changed") || !strings.Contains(l, tt.want) {
				t.Fatalf("result: %q", l)
			}
			if !strings.Contains(audit.String(), `"result":"failed: lockcore: node changed`) {
				t.Fatalf("the refusal is not audited: %q", audit.String())
			}
		})
	}
	a, z, _ := newOperateApp(t)
	holder := participant(t, a, "/locks/billing", 0)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "D")
	z.mu.Lock()
	delete(z.nodes, holder.Path)
	z.mu.Unlock()
	press(a, "y")
	if l := statusLine(a); !strings.HasPrefix(l, "not force-released: ") || !strings.Contains(l, "had gone") || len(z.writes()) != 0 {
		t.Fatalf("a gone node: %q %v", l, z.writes())
	}
}

func TestRevoke(t *testing.T) {
	a, z, _ := newOperateApp(t)
	a.op.revokeWait = 200 * time.Millisecond
	holder := participant(t, a, "/locks/billing", 0)
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "D", "v")
	want := fmt.Sprintf("set %s __REVOKE__ 0", holder.Path)
	if w := z.writes(); len(w) != 1 || w[0] != want {
		t.Fatalf("v in the force dialog: %v, want [%s]", w, want)
	}
	// A request, not a release: after the wait, the node is still there.
	if l := statusLine(a); !strings.Contains(l, "still held after 200ms") || !a.flash.isErr {
		t.Fatalf("result: %q", l)
	}
	// v on its own asks first; enter cancels.
	press(a, "v")
	if !strings.Contains(screen(a), "Revoke: ask") {
		t.Fatalf("v:\n%s", screen(a))
	}
	press(a, "enter")
	if len(z.writes()) != 1 {
		t.Fatal("enter revoked")
	}
	// kazoo ignores revocation: v refuses, and the force dialog does not
	// offer it (v there cancels).
	send(a, openLockMsg{path: "/app/kazoo/jobs"})
	press(a, "v")
	if openDialog(a) != nil || !strings.Contains(statusLine(a), "only a Curator lock") {
		t.Fatalf("v on kazoo: %q", statusLine(a))
	}
	press(a, "D")
	if strings.Contains(screen(a), "v revokes") {
		t.Fatalf("the force dialog offers revoke on kazoo:\n%s", screen(a))
	}
	press(a, "v")
	if openDialog(a) != nil || len(z.writes()) != 1 {
		t.Fatalf("v in a kazoo force dialog: %v", z.writes())
	}
	// A persistent node has no client to ask.
	send(a, openLockMsg{path: "/locks/orphans"})
	press(a, "v")
	if openDialog(a) != nil || !strings.Contains(statusLine(a), "no session owns the node") || len(z.writes()) != 1 {
		t.Fatalf("v on a persistent node: %q %v", statusLine(a), z.writes())
	}
}

func TestFenceDialog(t *testing.T) {
	a, z, audit := newOperateApp(t)
	send(a, openLockMsg{path: "/locks/orphans"})
	press(a, "F")
	golden(t, "fence_dialog_80x24", a)
	sc := screen(a)
	if !lineHas(sc, "[x] 1 #0", "persistent") || !lineHas(sc, "[x] 2 #1", "self-wait") ||
		!lineHas(sc, "[ ] 3 #2", "suspect") || !strings.Contains(sc, "delete 2 of 3 nodes") {
		t.Fatalf("candidates:\n%s", sc)
	}
	// Toggle the suspect by number and back by space; enter cancels.
	press(a, "3")
	if !lineHas(screen(a), "> [x] 3 #2") || !strings.Contains(screen(a), "delete 3 of 3 nodes") {
		t.Fatalf("3 should check the suspect:\n%s", screen(a))
	}
	press(a, " ")
	if !lineHas(screen(a), "> [ ] 3 #2") {
		t.Fatalf("space should uncheck it:\n%s", screen(a))
	}
	press(a, "enter")
	if openDialog(a) != nil || len(z.writes()) != 0 {
		t.Fatal("enter should cancel the fence")
	}
	l := a.env.state.Locks["/locks/orphans"]
	p0, p1 := l.Participants[0], l.Participants[1]
	press(a, "F", "y")
	want := fmt.Sprintf("multi-delete %s %d, %s %d", p0.Path, p0.Version, p1.Path, p1.Version)
	if w := z.writes(); len(w) != 1 || w[0] != want {
		t.Fatalf("fence wrote %v, want [%s]", w, want)
	}
	if !strings.Contains(statusLine(a), "fenced 2 nodes in one transaction") || strings.Count(audit.String(), `"fence"`) != 2 {
		t.Fatalf("result %q, audit %q", statusLine(a), audit.String())
	}
}

func TestFenceAbortsWhenANodeChanged(t *testing.T) {
	a, z, _ := newOperateApp(t)
	send(a, openLockMsg{path: "/locks/orphans"})
	press(a, "F")
	z.change(participant(t, a, "/locks/orphans", 1).Path, func(s *zk.Stat) { s.Version = 7 })
	press(a, "y")
	if w := z.writes(); len(w) != 0 {
		t.Fatalf("a fence with a changed node wrote: %v", w)
	}
	if l := statusLine(a); !strings.Contains(l, "fence refused, nothing was changed") {
		t.Fatalf("result: %q", l)
	}
	// A lock without candidates says so rather than opening an empty dialog.
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "F")
	if openDialog(a) != nil || !strings.Contains(statusLine(a), "nothing to fence") {
		t.Fatalf("F without candidates: %q", statusLine(a))
	}
}

func TestAcquireAsksTheMode(t *testing.T) {
	a, _, _ := newOperateApp(t)
	chosen := func(keys ...string) (lockclient.Spec, bool) {
		var cmd tea.Cmd
		for _, k := range keys {
			_, cmd = a.Update(keyMsg(k))
		}
		if cmd == nil {
			return lockclient.Spec{}, false
		}
		m, ok := cmd().(acquireChosenMsg)
		return m.spec, ok
	}
	send(a, openLockMsg{path: "/locks/billing"})
	press(a, "a")
	if !strings.Contains(screen(a), "e exclusive (or enter) · any other key (esc) cancels") {
		t.Fatalf("a on a mutex:\n%s", screen(a))
	}
	// One choice: enter takes it.
	if s, ok := chosen("enter"); !ok || s.Path != "/locks/billing" || s.Mode != lockcore.ModeExclusive {
		t.Fatalf("enter with one choice: %+v", s)
	}
	if s, ok := chosen("a", "e"); !ok || s.Path != "/locks/billing" || s.Mode != lockcore.ModeExclusive {
		t.Fatalf("e: %+v", s)
	}
	send(a, openLockMsg{path: "/locks/orders"})
	if s, ok := chosen("a", "r"); !ok || s.Mode != lockcore.ModeRead {
		t.Fatalf("r on a read-write lock: %+v", s)
	}
	// Two choices: enter cancels.
	if _, ok := chosen("a", "enter"); ok || openDialog(a) != nil {
		t.Fatal("enter should cancel when there is a choice")
	}
	// A Curator semaphore does not record its limit: it is asked for.
	send(a, openLockMsg{path: "/pool/workers"})
	press(a, "a", "l")
	if sc := screen(a); !strings.Contains(sc, "max leases: █") || !strings.Contains(sc, "Curator does not record") {
		t.Fatalf("lease on a Curator semaphore:\n%s", sc)
	}
	if s, ok := chosen("1", "2", "backspace", "4", "y"); !ok || s.Mode != lockcore.ModeLease || s.MaxLeases != 14 {
		t.Fatalf("14 leases: %+v", s)
	}
	if _, ok := chosen("a", "l", "4", "enter"); ok || openDialog(a) != nil {
		t.Fatal("enter should cancel the number too")
	}
	// Trees zklocks cannot join say why, from the list as from the detail.
	for _, path := range []string{"/services/scheduler/leader-lock", "/locks/\u202eevil"} {
		send(a, openLockMsg{path: path})
		press(a, "a")
		if openDialog(a) != nil || !strings.Contains(statusLine(a), "acquire: ") {
			t.Fatalf("a on %s: %q", path, statusLine(a))
		}
	}
	press(a, "esc", "a")
	if !strings.Contains(screen(a), "Acquire /locks/orders?") {
		t.Fatalf("a on the list:\n%s", screen(a))
	}
}

// waitingOnBilling is /locks/billing with our own node queued last, and
// the App told so, 12 s into the wait.
func waitingOnBilling(t *testing.T, a *App) (ours lockcore.Participant) {
	t.Helper()
	b := newTree("/locks/billing")
	b.kid(curator("lock-", 20, 17), sid(20), 2*time.Hour, "10.0.1.20")
	b.kid(curator("lock-", 21, 18), sid(21), 12*time.Minute, "10.0.1.21")
	b.kid(curator("lock-", 22, 19), sid(22), 3*time.Minute+5*time.Second, "10.0.1.22")
	b.kid(curator("lock-", 1, 23), sid(1), 12*time.Second, "zklocks host-a pid 4242")
	l := b.analyze(nil, longHeld)
	send(a, lockEvents(l))
	send(a, openLockMsg{path: l.Path})
	_, cmd := a.Update(acquireChosenMsg{spec: lockclient.Spec{Path: l.Path, Mode: lockcore.ModeExclusive}})
	if cmd == nil || a.env.own == nil {
		t.Fatal("no acquisition started")
	}
	ours = l.Participants[3]
	a.Update(acquireProgressMsg{id: a.env.own.id, progress: lockclient.Progress{Node: ours.Path, Position: 3,
		Watching: l.Participants[2].Path, Since: t0.Add(-12 * time.Second)}})
	return ours
}

func TestAcquireWaitingHeldLost(t *testing.T) {
	a, _, _ := newOperateApp(t)
	ours := waitingOnBilling(t, a)
	golden(t, "detail_acquire_waiting_80x24", a)
	sc := screen(a)
	if !lineHas(sc, "★ ours", "waiting #3", "watches #2", "for 12s", "r gives up") ||
		!lineHas(sc, " *", "-lock-0000000023") || !strings.Contains(sc, "◌ waiting /locks/billing") {
		t.Fatalf("waiting:\n%s", sc)
	}
	// A report for an earlier acquisition is dropped.
	a.Update(acquireProgressMsg{id: a.env.own.id - 1, progress: lockclient.Progress{Node: ours.Path, Position: 9}})
	if !strings.Contains(screen(a), "waiting #3") {
		t.Fatal("a stale report was shown")
	}

	held := &lockclient.Held{Node: ours.Path, Token: ours.Token, Session: sid(1), Acquired: t0.Add(-5 * time.Second)}
	if _, cmd := a.Update(acquireDoneMsg{id: a.env.own.id, held: held}); cmd == nil {
		t.Fatal("a held lock should be watched")
	}
	sc = screen(a)
	if !lineHas(sc, "★ ours", "held · fencing token "+hex(ours.Token), "held 5s", "r releases") ||
		!strings.Contains(sc, "● holding /locks/billing") {
		t.Fatalf("held:\n%s", sc)
	}

	why := fmt.Errorf("%w: %s was deleted by another session (token %d)", lockclient.ErrLockLost, ours.Path, ours.Token)
	a.Update(ownLostMsg{id: a.env.own.id, err: why})
	sc = screen(a)
	if !lineHas(sc, "✗ OURS", "LOST (r clears it): lockcore: lock lost") || !strings.Contains(sc, "✗ OUR LOCK LOST /locks/billing") ||
		!strings.Contains(statusLine(a), "OUR LOCK IS LOST: lock lost: /locks/billing/_c_") {
		t.Fatalf("lost:\n%s", sc)
	}
	checkSize(t, sc, 80, 24)

	// r gives it back; the answer clears it.
	id := a.env.own.id
	if _, cmd := a.Update(keyMsg("r")); cmd == nil || !a.env.own.ending {
		t.Fatal("r should release")
	}
	a.Update(ownReleasedMsg{id: id, path: "/locks/billing", token: ours.Token, err: why})
	if a.env.own != nil || !strings.Contains(statusLine(a), "gave back /locks/billing, which had been lost") {
		t.Fatalf("after release: %q", statusLine(a))
	}
	if strings.Contains(screen(a), "ours") {
		t.Fatalf("our lock is still shown:\n%s", screen(a))
	}
}

func TestAcquireGiveUpAndOneAtATime(t *testing.T) {
	a, _, _ := newOperateApp(t)
	waitingOnBilling(t, a)
	o := a.env.own
	press(a, "esc", "j", "a")
	if openDialog(a) != nil || !strings.Contains(statusLine(a), "r gives back /locks/billing first") {
		t.Fatalf("a second acquisition: %q", statusLine(a))
	}
	press(a, "r")
	if !o.ending || !strings.Contains(statusLine(a), "giving up the wait") {
		t.Fatalf("r while waiting: %q", statusLine(a))
	}
	a.Update(acquireDoneMsg{id: o.id, err: context.Canceled})
	if a.env.own != nil || !strings.Contains(statusLine(a), "gave up waiting on /locks/billing") {
		t.Fatalf("after giving up: %q", statusLine(a))
	}
	// A lock granted to an acquisition no longer wanted is given back.
	if _, cmd := a.Update(acquireDoneMsg{id: o.id, held: &lockclient.Held{}}); cmd == nil {
		t.Fatal("an unwanted lock is not given back")
	}
	press(a, "r")
	if !strings.Contains(statusLine(a), "nothing to release") {
		t.Fatalf("r with nothing: %q", statusLine(a))
	}
	// An acquisition that fails says why.
	waitingOnBilling(t, a)
	a.Update(acquireDoneMsg{id: a.env.own.id, err: fmt.Errorf("%w: mixed", lockcore.ErrRecipe)})
	if a.env.own != nil || !strings.Contains(statusLine(a), "acquire /locks/billing failed: recipe cannot be used") {
		t.Fatalf("failure: %q", statusLine(a))
	}
}

func TestOfferKeepsTheLatestReport(t *testing.T) {
	ch := make(chan lockclient.Progress, 1)
	for i := 0; i < 5; i++ {
		offer(ch, lockclient.Progress{Position: i})
	}
	if p := <-ch; p.Position != 4 {
		t.Fatalf("read %d, want the latest, 4", p.Position)
	}
}

// The evidence of a suspect is cut once, at the fifth line, and Esc says
// that the dialog was cancelled.
func TestFenceDialogSuspectAndCancel(t *testing.T) {
	a, z, _ := newOperateApp(t)
	send(a, openLockMsg{path: "/locks/orphans"})
	press(a, "F", "down", "down")
	sc := screen(a)
	if strings.Contains(sc, "……") || strings.Contains(sc, "this   ") {
		t.Errorf("the evidence is joined badly:\n%s", sc)
	}
	golden(t, "fence_dialog_suspect_80x24", a)
	press(a, "esc")
	if openDialog(a) != nil || statusLine(a) != "cancelled: nothing was done" || len(z.writes()) != 0 {
		t.Fatalf("esc: dialog %v, status %q, writes %v", openDialog(a) != nil, statusLine(a), z.writes())
	}
}
