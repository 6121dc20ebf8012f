package recording

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// mixed is a run of every kind of event around a churn.
func mixed(t *testing.T, n int) []zkwatch.Event {
	t.Helper()
	c := newChurn(1, 20, 4, 7, 3*time.Millisecond)
	at := c.now
	evs := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: at, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Server: "127.0.0.1:2181", Session: 0x1000abc, Since: at}},
		{Kind: zkwatch.EventDenied, At: at, Path: "/secret", Err: errors.New("zk: not authenticated")},
		{Kind: zkwatch.EventServers, At: at, Servers: []zkwatch.ServerInfo{{Addr: "127.0.0.1:2181",
			Status: words.ServerStatus{Mode: "standalone", Version: "3.8.0"}, Failed: map[string]error{"wchc": errors.New("timeout")}}},
			Clients: map[int64]zkwatch.ClientInfo{c.sessions[0]: {Session: c.sessions[0], Server: "127.0.0.1:2181", Client: "10.0.0.7:4711",
				Asked: at.Add(-time.Second), Silent: 7 * time.Second, Heard: at.Add(-9 * time.Second), Timeout: 9 * time.Second}},
			ClientsComplete: true, WatchesAt: at},
	}
	for _, l := range c.locks {
		evs = append(evs, c.event(l))
	}
	evs = append(evs, zkwatch.Event{Kind: zkwatch.EventSynced, At: at, Discovery: zkwatch.Discovery{Complete: true, WalkReads: 40}},
		zkwatch.Event{Kind: zkwatch.EventAction, At: at, Path: c.locks[0].path + "/n", Action: &lockcore.Action{At: at, Kind: lockcore.ActionForceRelease,
			Node: c.locks[0].path + "/n", Token: 7, Owner: 0x100, User: "sre", Host: "jump-1", Via: "ui", Key: "SHA256:k", Server: "zk1:2181", Session: 0x1000abc}},
		zkwatch.Event{Kind: zkwatch.EventAction, At: at, Path: c.locks[1].path + "/n", Action: &lockcore.Action{At: at, Kind: lockcore.ActionFence,
			Node: c.locks[1].path + "/n", Failed: "node is gone", User: "sre"}})
	for i := range n {
		evs = append(evs, c.next())
		if i == n/2 {
			evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLockGone, At: c.now, Path: c.locks[3].path},
				zkwatch.Event{Kind: zkwatch.EventError, At: c.now, Err: errors.New("reading /locks/x: zk: connection closed")},
				zkwatch.Event{Kind: zkwatch.EventConn, At: c.now, Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Session: 0x1000abc, Since: c.now}})
		}
	}
	// Odd values: a persistent node, binary data, a chain stored as is.
	odd := c.event(c.locks[5])
	odd.Lock.Participants = append(odd.Lock.Participants, lockcore.Participant{Node: "lock-", Path: "/elsewhere/lock-",
		Recipe: lockcore.RecipeSequential, Mode: lockcore.ModeExclusive, Role: lockcore.RoleWaiter, Position: 99,
		Data: []byte{0xff, 0x00}, Chain: []string{"nowhere"}, ChainCut: true, Watchers: []int64{7, 0x7fffffffffffffff}, Note: "odd",
		WatchesUnknown: true, DataDenied: true, PartOf: "lock-0", Identity: "broker 2 at kafka2:9092"})
	// What an application says of its lock.
	odd.Lock.App = &lockcore.App{Name: "kafka", What: "controller election", Holder: "broker 1 at kafka1:9092", HolderSession: 7,
		Token:   &lockcore.AppToken{Name: "controller epoch", Path: "/controller_epoch", Value: "17", Version: 16},
		Members: []lockcore.AppMember{{Session: 8, Identity: "broker 2", Path: "/brokers/ids/2", Role: lockcore.RoleWaiter, Evidence: "watches"}},
		Notes:   []string{"a note"}}
	// Sessions watching a plain lock's node that do not wait.
	odd.Lock.Observers = []lockcore.Observer{{Session: 9, Certain: true, Evidence: "a zklocks watcher"},
		{Session: 10, Evidence: "also watches the path of another lock (/b)"}}
	evs = append(evs, odd, zkwatch.Event{Kind: zkwatch.EventLock, Path: "/no/time", Lock: &lockcore.Lock{Path: "/no/time", Recipe: lockcore.RecipeEmpty}})
	return evs
}

func record(t *testing.T, evs []zkwatch.Event, opt Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rec.zklocks")
	if opt.Now == nil {
		opt.Now = func() time.Time { return time.Date(2026, 11, 22, 2, 59, 0, 0, time.UTC) }
	}
	w, err := Create(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	evs := mixed(t, 3000)
	rec, err := Load(record(t, evs, Options{Header: Header{Server: "127.0.0.1:2181", Roots: []string{"/"}}}))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Headers[0].Server != "127.0.0.1:2181" || rec.Headers[0].Format != Version {
		t.Errorf("header = %+v", rec.Headers[0])
	}
	if len(rec.Events) != len(evs) {
		t.Fatalf("read %d events, wrote %d", len(rec.Events), len(evs))
	}
	for i := range evs {
		if d := diffEvent(evs[i], rec.Events[i]); d != "" {
			t.Fatalf("event %d (%v %s): %s", i, evs[i].Kind, evs[i].Path, d)
		}
	}
}

// diffEvent says how two events differ, comparing times as instants and
// errors by text.
func diffEvent(a, b zkwatch.Event) string {
	if a.At.UnixMicro() != b.At.UnixMicro() {
		return "at " + a.At.String() + " ≠ " + b.At.String()
	}
	if (a.Err == nil) != (b.Err == nil) || (a.Err != nil && a.Err.Error() != b.Err.Error()) {
		return "err differs"
	}
	if (a.Lock == nil) != (b.Lock == nil) {
		return "lock presence differs"
	}
	if a.Lock != nil {
		la, lb := *a.Lock, *b.Lock
		if la.ReadAt.UnixMicro() != lb.ReadAt.UnixMicro() {
			return "readAt differs"
		}
		la.ReadAt, lb.ReadAt = time.Time{}, time.Time{}
		la.Participants, lb.Participants = plain(la.Participants), plain(lb.Participants)
		// Holds are kept to the microsecond; their bounds, worked out
		// from times kept so, to two.
		if len(la.Participants) == len(lb.Participants) {
			for i := range la.Participants {
				ha, hb := la.Participants[i].Hold, lb.Participants[i].Hold
				near := func(x, y time.Duration) bool { return x-y <= 2*time.Microsecond && y-x <= 2*time.Microsecond }
				if ha.How != hb.How || ha.After.UnixMicro() != hb.After.UnixMicro() || ha.By.UnixMicro() != hb.By.UnixMicro() ||
					ha.After.IsZero() != hb.After.IsZero() || !near(ha.Min, hb.Min) || !near(ha.Max, hb.Max) {
					return fmt.Sprintf("participant %d's hold differs: %+v ≠ %+v", i, ha, hb)
				}
				la.Participants[i].Hold, lb.Participants[i].Hold = lockcore.Hold{}, lockcore.Hold{}
			}
		}
		if !reflect.DeepEqual(la, lb) {
			return "lock differs:\n" + sprint(la) + "\n" + sprint(lb)
		}
	}
	a.Lock, b.Lock, a.Err, b.Err, a.At, b.At = nil, nil, nil, nil, time.Time{}, time.Time{}
	if !sameTime(a.Conn.Since, b.Conn.Since) {
		return "conn since differs"
	}
	a.Conn.Since, b.Conn.Since = time.Time{}, time.Time{}
	sa, sb := serversOf(a), serversOf(b)
	if !sameTime(sa.WatchesAt, sb.WatchesAt) {
		return "watchesAt differs"
	}
	sa.WatchesAt, sb.WatchesAt = time.Time{}, time.Time{}
	if !reflect.DeepEqual(sa, sb) {
		return "servers differ"
	}
	a.Servers, b.Servers, a.Clients, b.Clients, a.WatchesAt, b.WatchesAt, a.Cost, b.Cost = nil, nil, nil, nil, time.Time{}, time.Time{}, nil, nil
	if !reflect.DeepEqual(a, b) {
		return "event differs:\n" + sprint(a) + "\n" + sprint(b)
	}
	return ""
}

func sameTime(a, b time.Time) bool { return a.Equal(b) }

func plain(ps []lockcore.Participant) []lockcore.Participant {
	out := make([]lockcore.Participant, len(ps))
	for i, p := range ps {
		// Times are kept to the microsecond.
		p.Age = p.Age.Truncate(time.Microsecond)
		p.Ctime = time.Unix(0, p.Ctime.UnixNano()).UTC()
		if p.Ctime.Equal(time.Unix(0, 0)) || p.Ctime.Year() < 2 {
			p.Ctime = time.Time{}
		}
		if len(p.Data) == 0 {
			p.Data = nil
		}
		if len(p.Watchers) == 0 {
			p.Watchers = nil
		}
		if len(p.Chain) == 0 {
			p.Chain = nil
		}
		out[i] = p
	}
	return out
}

func sprint(v any) string { return fmt.Sprintf("%+v", v) }

func TestRotation(t *testing.T) {
	t.Parallel()
	evs := mixed(t, 6000)
	path := record(t, evs, Options{MaxSize: 6 << 10, Keep: 3})
	var files []string
	for _, f := range []string{path + ".3", path + ".2", path + ".1", path} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s: %v", filepath.Base(f), err)
		}
		files = append(files, f)
	}
	if _, err := os.Stat(path + ".4"); err == nil {
		t.Errorf("kept a fifth part with Keep 3")
	}
	// The current part replays on its own, from its snapshot, to the same
	// last lock as the whole run.
	last, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	all, err := Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	if n, m := len(all.Events), len(last.Events); n <= m {
		t.Fatalf("all parts: %d events; last part: %d", n, m)
	}
	if d := diffEvent(evs[len(evs)-3], all.Events[len(all.Events)-3]); d != "" {
		t.Errorf("the parts in a row end differently: %s", d)
	}
	// Where the last part began depends on when its writer flushed: if
	// it began after this lock's last change, the lock comes from the
	// part's snapshot, stamped when the part began. Either way the lock
	// is the same.
	want := evs[len(evs)-3]
	got, found := zkwatch.Event{}, false
	for i := len(last.Events) - 3; i >= 0 && !found; i-- { // before the two odd events that end the run
		if e := last.Events[i]; e.Kind == zkwatch.EventLock && e.Path == want.Path {
			got, found = e, true
		}
	}
	got.At = want.At
	if d := diffEvent(want, got); !found || d != "" {
		t.Errorf("the last part ends with %s differently (found %v): %s", want.Path, found, d)
	}
	for i, h := range all.Headers[1:] {
		if h.Part <= all.Headers[i].Part {
			t.Errorf("parts out of order: %d after %d", h.Part, all.Headers[i].Part)
		}
	}
}
