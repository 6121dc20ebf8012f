package recording_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/report"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

const holdTimeout = 60 * time.Second

// live applies the recorded events to a state as the UI does, keeping the
// picture after each one.
type live struct {
	mu    sync.Mutex
	state *model.State
	after []string // picture(state) after each event
	evs   []zkwatch.Event
	done  chan struct{}
	// seen is when each lock's first event came, when not nil.
	seen map[string]time.Time
}

func (l *live) run(events <-chan zkwatch.Event) {
	defer close(l.done)
	for ev := range events {
		l.mu.Lock()
		l.state.Apply(ev)
		l.after = append(l.after, picture(l.state))
		l.evs = append(l.evs, ev)
		if _, ok := l.seen[ev.Path]; l.seen != nil && !ok && ev.Kind == zkwatch.EventLock {
			l.seen[ev.Path] = time.Now()
		}
		l.mu.Unlock()
	}
}

func (l *live) check(cond func(*model.State) string) func() string {
	return func() string {
		l.mu.Lock()
		defer l.mu.Unlock()
		return cond(l.state)
	}
}

// picture is what the operator is shown of a state, as text to compare:
// every lock as show --json prints it, the event log and its counters,
// the connection and the servers' sessions. Times are to the microsecond,
// as a recording keeps them.
func picture(s *model.State) string {
	var b strings.Builder
	r := report.Report{}
	for _, l := range s.SortedLocks(model.ByPath) {
		r.Locks = append(r.Locks, *l)
	}
	r.WriteJSON(&b)
	for _, h := range s.History {
		fmt.Fprintf(&b, "%d %s %s %s %x %d %v %s\n", h.At.UnixMicro(), h.Change, h.Lock, h.Node, h.Session, h.Seq, h.OutOfOrder, h.EndedBy)
		if h.Action != nil {
			fmt.Fprintf(&b, "  by %s\n", model.AuditLine(*h.Action))
		}
	}
	for _, f := range s.Forced {
		fmt.Fprintf(&b, "forced %s %s %x %s %d\n", f.Lock, f.Node, f.Session, f.Role, f.At().UnixMicro())
	}
	fmt.Fprintf(&b, "grants %d breaks %d conn %v %x since %d sync %d first %d\n", s.Grants, s.FIFOBreaks, s.Conn.Phase,
		s.Conn.Session, s.Conn.Since.UnixMicro(), s.LastSync.UnixMicro(), s.FirstSync.UnixMicro())
	var sessions []string
	for id, c := range s.Clients {
		sessions = append(sessions, fmt.Sprintf("%x@%s", id, c.Client))
	}
	sort.Strings(sessions)
	fmt.Fprintf(&b, "clients %v complete %v servers %d errors %d\n", sessions, s.ClientsComplete, len(s.Servers), len(s.Errors))
	return b.String()
}

func holders(path string, n int) func(*model.State) string {
	return func(s *model.State) string {
		l := s.Locks[path]
		if l == nil || l.Holders() != n {
			return fmt.Sprintf("%s: want %d holders", path, n)
		}
		return ""
	}
}

// TestIntegrationRecordReplay records what the watcher sees while Curator
// and kazoo clients hold and queue, the operator force-releases a holder
// (the action merged into the watcher's events, as the program does) and
// the watcher's own session expires; replayed, the state after each
// recorded event is the live state after that event, the operator's
// action and the holder it left not told included.
func TestIntegrationRecordReplay(t *testing.T) {
	t.Parallel()
	srv := zktest.Start(t)
	admin := srv.Connect(t)
	for _, p := range []string{"/rec", "/rec/curator", "/rec/kazoo"} {
		if _, err := admin.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	curator := peers.Start(t, peers.Curator, srv.Addr())
	kazoo := peers.Start(t, peers.Kazoo, srv.Addr())

	// The watcher's session goes through a proxy, so that it can be made
	// to expire.
	proxy := zktest.NewProxy(t, srv.Addr())
	conn := watchtest.Dial(t, proxy.Addr(), zkwatch.Options{SessionTimeout: 2 * time.Second})
	path := filepath.Join(t.TempDir(), "locks.zklocks")
	w, err := recording.Create(path, recording.Options{Header: recording.Header{Server: srv.Addr(), Roots: []string{"/rec"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &live{state: model.NewState(), done: make(chan struct{})}
	feed := model.NewActionFeed()
	actions := &model.Actions{ZK: admin, User: "sre", Via: model.ViaUI, Server: srv.Addr(), Told: feed.Tell}
	go l.run(recording.Tee(feed.Merge(ctx, zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{Roots: []string{"/rec"}, EnrichEvery: time.Second}).Events()), w))
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			<-l.done
		}
	}
	defer stop()
	zktest.WaitUntil(t, holdTimeout, l.check(func(s *model.State) string {
		if s.LastSync.IsZero() {
			return "not synced"
		}
		return ""
	}))

	// Holds and queues.
	curator.Acquire(t, "c1", "mutex", "/rec/curator")
	curator.WaitHeld(t, "c1", holdTimeout)
	curator.Acquire(t, "c2", "mutex", "/rec/curator")
	curator.Acquire(t, "c3", "mutex", "/rec/curator")
	kazoo.Acquire(t, "k1", "lock", "/rec/kazoo")
	kazoo.WaitHeld(t, "k1", holdTimeout)
	kazoo.Acquire(t, "k2", "lock", "/rec/kazoo")
	zktest.WaitUntil(t, holdTimeout, l.check(func(s *model.State) string {
		if c, k := s.Locks["/rec/curator"], s.Locks["/rec/kazoo"]; c == nil || k == nil || c.Waiters() != 2 || k.Waiters() != 1 {
			return "queues not seen"
		}
		return ""
	}))
	kazoo.Release(t, "k1")
	kazoo.WaitHeld(t, "k2", holdTimeout)

	// The operator force-releases c1: its node deleted under it; c2 takes
	// the lock, and c1's client, not told, is followed.
	l.mu.Lock()
	c1 := l.state.Locks["/rec/curator"].Participants[0]
	l.mu.Unlock()
	if err := actions.ForceRelease(ctx, lockclient.ExpectParticipant(c1)); err != nil {
		t.Fatal(err)
	}
	curator.WaitHeld(t, "c2", holdTimeout)
	zktest.WaitUntil(t, holdTimeout, l.check(func(s *model.State) string {
		if len(s.Forced) != 1 || s.Forced[0].Node != c1.Path {
			return fmt.Sprintf("c1 not followed as force-released: %+v", s.Forced)
		}
		return ""
	}))

	// The watcher's session expires while a contender joins; it comes back
	// with a new session and reads everything again.
	l.mu.Lock()
	first := l.state.Conn.Session
	l.mu.Unlock()
	proxy.Blackhole(true)
	zktest.WaitUntil(t, holdTimeout, l.check(func(s *model.State) string {
		if s.Conn.Phase != zkwatch.Disconnected {
			return "not disconnected"
		}
		return ""
	}))
	kazoo.Acquire(t, "k3", "lock", "/rec/kazoo")
	time.Sleep(4 * time.Second) // twice the session timeout: the server expires the session
	proxy.Blackhole(false)
	zktest.WaitUntil(t, holdTimeout, l.check(func(s *model.State) string {
		if s.Conn.Phase != zkwatch.Connected || s.Conn.Session == first {
			return "no new session"
		}
		if k := s.Locks["/rec/kazoo"]; k == nil || k.Waiters() != 1 {
			return "k3 not seen"
		}
		return ""
	}))
	curator.Release(t, "c2")
	curator.WaitHeld(t, "c3", holdTimeout)
	zktest.WaitUntil(t, holdTimeout, l.check(holders("/rec/curator", 1)))
	time.Sleep(1500 * time.Millisecond) // a servers' reading after the last change
	stop()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	rec, err := recording.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Events) != len(l.evs) {
		t.Fatalf("the recording holds %d events; the live state took %d", len(rec.Events), len(l.evs))
	}
	tape := model.NewTape(rec.Events)
	kinds := map[zkwatch.EventKind]int{}
	for i, ev := range l.evs {
		if !same(ev, rec.Events[i]) {
			t.Fatalf("recorded event %d is not the live one: %v %s at %v", i, rec.Events[i].Kind, rec.Events[i].Path, rec.Events[i].At)
		}
		kinds[ev.Kind]++
		if got := picture(tape.StateAt(i + 1)); got != l.after[i] {
			t.Fatalf("after event %d (%v %s) the replay differs from the live state:\n--- replay\n%s\n--- live\n%s",
				i, ev.Kind, ev.Path, got, l.after[i])
		}
	}
	expired := false
	for _, ev := range rec.Events {
		expired = expired || ev.Kind == zkwatch.EventConn && ev.Conn.Phase == zkwatch.Expired
	}
	if !expired {
		t.Error("the watcher's session expiry is not in the recording")
	}
	final := tape.StateAt(tape.Len())
	if len(final.Forced) != 1 || final.Forced[0].Node != c1.Path || final.Forced[0].Role != lockcore.RoleHolder {
		t.Errorf("the replay does not follow the force-released holder: %+v", final.Forced)
	}
	if final.Grants < 3 || kinds[zkwatch.EventConn] < 3 || kinds[zkwatch.EventServers] == 0 || kinds[zkwatch.EventAction] != 1 {
		t.Errorf("the recording missed something: %d grants, events by kind %v", final.Grants, kinds)
	}
	t.Logf("%d events replayed, each equal to the live state; %d grants; by kind %v", len(rec.Events), final.Grants, kinds)
}

// same reports whether a recorded event is the live one it stands for.
func same(a, b zkwatch.Event) bool {
	return a.Kind == b.Kind && a.Path == b.Path && a.At.UnixMicro() == b.At.UnixMicro()
}
