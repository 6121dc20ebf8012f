package zkwatch

import (
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

// persistWatcher is a Watcher with what a notification's filter and queue
// need, and no session.
func persistWatcher(queueMax int, roots ...string) *Watcher {
	w := &Watcher{conn: &Conn{target: Target{Chroot: "/app"}}, cfg: WatchConfig{Roots: roots, PersistentQueueMax: queueMax}}
	w.discovery = newDiscoverer(w)
	return w
}

func created(path string) jute.WatcherEvent {
	return jute.WatcherEvent{Type: jute.EventNodeCreated, State: 3, Path: path}
}

func TestPersistentFilterQueuesWhatMayBeALock(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   jute.WatcherEvent
		dir  string // "" when nothing may be a lock
	}{
		{"a Curator contender", created("/app/svc/orders/_c_0f3e9a2b-7c1d-4e5f-8a9b-0c1d2e3f4a5b-lock-0000000003"), "/svc/orders"},
		{"a kazoo contender", created("/app/svc/jobs/4c5d__lock__0000000001"), "/svc/jobs"},
		{"a bare sequential name", created("/app/svc/x/n-0000000007"), "/svc/x"},
		{"a plain lock node by name", created("/app/svc/leader-lock"), "/svc"},
		{"a Curator semaphore's lease", created("/app/svc/sem/leases/anything"), "/svc/sem/leases"},
		{"a plain name", created("/app/svc/config/settings"), ""},
		{"a deleted contender", jute.WatcherEvent{Type: jute.EventNodeDeleted, Path: "/app/svc/orders/_c_x-lock-0000000004"}, ""},
		{"a changed node", jute.WatcherEvent{Type: jute.EventNodeDataChanged, Path: "/app/svc/n-0000000001"}, ""},
		{"outside the chroot", created("/other/n-0000000001"), ""},
		{"outside the roots", created("/app/elsewhere/n-0000000001"), ""},
		{"ZooKeeper's own", created("/app/zookeeper/n-0000000001"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := persistWatcher(8, "/svc", "/zookeeper")
			w.discovery.onPersistentEvent(tc.ev)
			q := w.discovery.persist.queue
			if tc.dir == "" {
				if len(q) != 0 {
					t.Errorf("queued %v, want nothing", q)
				}
			} else if _, ok := q[tc.dir]; !ok || len(q) != 1 {
				t.Errorf("queued %v, want %s alone", q, tc.dir)
			}
			if got := w.discovery.persist.count.Load(); got != 1 {
				t.Errorf("counted %d notifications, want 1", got)
			}
		})
	}
}

func TestPersistentQueueIsBounded(t *testing.T) {
	w := persistWatcher(3, "/")
	for _, p := range []string{"/a/n-0000000001", "/a/n-0000000002", "/b/n-0000000001", "/c/n-0000000001"} {
		w.discovery.onPersistentEvent(created("/app" + p))
	}
	ps := w.discovery.persist
	if len(ps.queue) != 3 || ps.overflow {
		t.Fatalf("three directories, one of them twice: queue %v, overflow %v", ps.queue, ps.overflow)
	}
	w.discovery.onPersistentEvent(created("/app/d/n-0000000001"))
	if len(ps.queue) != 3 || !ps.overflow {
		t.Fatalf("a fourth directory past a bound of 3: queue %v, overflow %v", ps.queue, ps.overflow)
	}
	w.discovery.onPersistentEvent(created("/app/a/n-0000000003"))
	if ps.queue["/a"] != "/a/n-0000000003" {
		t.Errorf("a directory queued already takes its latest node while full: %v", ps.queue)
	}
	if d := ps.describe(); d.Queued != 3 || d.QueueMax != 3 {
		t.Errorf("describe = %+v", d)
	}
}

func TestAtLeastPersistentWatches(t *testing.T) {
	for v, want := range map[string]bool{"3.8.0": true, "3.6.0": true, "3.10.1": true, "4.0.0": true,
		"3.5.9": false, "3.4.14": false, "": false, "x.y": false, "3": false} {
		if got := atLeast(v, 3, 6); got != want {
			t.Errorf("atLeast(%q, 3, 6) = %v, want %v", v, got, want)
		}
	}
}

// While the persistent watch is live, dump is asked six times less
// often; once a dump was asked while it was live, and it has stayed
// live, as rarely as the walk runs. A watch set again (its connection
// lost) brings the quicker pace back until the next dump, and no watch
// the plain one.
func TestDumpPaceFollowsThePersistentWatch(t *testing.T) {
	d := newDiscoverer(&Watcher{})
	ps := d.persist
	steps := []struct {
		name string
		do   func()
		want time.Duration
	}{
		{"no watch", func() {}, defaultDumpEvery},
		{"the watch set", func() { ps.sets.Add(1); ps.live.Store(true) }, defaultDumpEvery * persistSlowdown},
		{"a dump while it is live", func() { ps.dumpedLive.Store(ps.liveSet()) }, persistDumpEvery},
		{"its connection lost", func() { ps.live.Store(false) }, defaultDumpEvery},
		{"the watch set again", func() { ps.sets.Add(1); ps.live.Store(true) }, defaultDumpEvery * persistSlowdown},
		{"a dump while it is live again", func() { ps.dumpedLive.Store(ps.liveSet()) }, persistDumpEvery},
	}
	for _, s := range steps {
		s.do()
		if got := d.dumpEvery(); got != s.want {
			t.Errorf("%s: dump every %v, want %v", s.name, got, s.want)
		}
	}
}
