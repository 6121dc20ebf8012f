package txnlog_test

import (
	"context"
	"os"
	"os/exec"
	"path"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/recording/txnlog"
	"github.com/zklocks/zklocks/zkwatch"
)

// incident is what the clients did, for the story to be checked against.
type incident struct {
	t     *testing.T
	conn  *zk.Conn
	ctime map[string]time.Time // a contender's node → its creation time, as the server reads it
	// The contenders, by what happened to them.
	rel, frc, kil, cls, frz, w1, r1, s1, s2 peers.Contender
}

// ctimeOf reads a contender's node's creation time from the server.
func (in *incident) ctimeOf(node string) {
	in.t.Helper()
	_, st, err := in.conn.Get(node)
	if err != nil {
		in.t.Fatalf("get %s: %v", node, err)
	}
	in.ctime[node] = time.UnixMilli(st.Ctime)
}

// waitGone waits until node is gone: its session's expiry, for one.
func (in *incident) waitGone(node string, within time.Duration) {
	in.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if ok, _, err := in.conn.Exists(node); err == nil && !ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	in.t.Fatalf("%s still there after %s", node, within)
}

// run has real clients, each in a process of its own, go through an
// incident on the ensemble at connect, nothing of zklocks running: a
// holder that releases, one force-released by another client (conn), one
// whose process is killed, one that closes its session, one frozen with
// SIGSTOP until it expires, a read/write lock and a semaphore. midway runs
// halfway through.
func run(t *testing.T, connect string, conn *zk.Conn, midway func()) *incident {
	in := &incident{t: t, conn: conn, ctime: map[string]time.Time{}}
	cur := peers.Start(t, peers.Curator, connect)
	kz := peers.Start(t, peers.Kazoo, connect)
	killed := peers.Start(t, peers.Curator, connect)
	closer := peers.Start(t, peers.Kazoo, connect)
	frozen := peers.Start(t, peers.Kazoo, connect)

	// The two expiries run their timeouts together.
	in.kil = killed.Acquire(t, "kil", "mutex", "/locks/killed")
	killed.WaitHeld(t, "kil", time.Minute)
	in.ctimeOf(in.kil.Node)
	in.frz = frozen.Acquire(t, "frz", "lock", "/locks/frozen")
	frozen.WaitHeld(t, "frz", time.Minute)
	in.ctimeOf(in.frz.Node)
	killed.Kill(t)
	frozen.Freeze(t)

	in.rel = cur.Acquire(t, "rel", "mutex", "/locks/released")
	cur.WaitHeld(t, "rel", time.Minute)
	in.ctimeOf(in.rel.Node)
	cur.Release(t, "rel")

	in.frc = kz.Acquire(t, "frc", "lock", "/locks/forced")
	kz.WaitHeld(t, "frc", time.Minute)
	in.ctimeOf(in.frc.Node)
	if err := conn.Delete(in.frc.Node, -1); err != nil {
		t.Fatalf("force-release %s: %v", in.frc.Node, err)
	}
	midway()

	in.cls = closer.Acquire(t, "cls", "lock", "/locks/closed")
	closer.WaitHeld(t, "cls", time.Minute)
	in.ctimeOf(in.cls.Node)
	closer.Close()

	in.w1 = cur.Acquire(t, "w1", "write", "/locks/rw")
	cur.WaitHeld(t, "w1", time.Minute)
	in.ctimeOf(in.w1.Node)
	in.r1 = cur.Acquire(t, "r1", "read", "/locks/rw")
	cur.Release(t, "w1")
	cur.WaitHeld(t, "r1", time.Minute)
	cur.Release(t, "r1")

	in.s1 = kz.Acquire(t, "s1", "semaphore:1", "/locks/sem")
	kz.WaitHeld(t, "s1", time.Minute)
	in.s2 = kz.Acquire(t, "s2", "semaphore:1", "/locks/sem")
	kz.Release(t, "s1")
	kz.WaitHeld(t, "s2", time.Minute)

	in.waitGone(in.kil.Node, time.Minute)
	in.waitGone(in.frz.Node, time.Minute)
	return in
}

// copyDir copies a server's data directory, running or not, as an
// operator would take it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-a", src+"/.", dst).CombinedOutput(); err != nil {
		t.Fatalf("cp %s: %v: %s", src, err, out)
	}
	if keep := os.Getenv("ZKLOCKS_KEEP_DATADIR"); keep != "" {
		_ = exec.Command("cp", "-a", dst, keep+"-"+path.Base(path.Dir(src))).Run()
	}
	return dst
}

// check asserts every hold and end of the incident against what the
// clients did.
func (in *incident) check(events []zkwatch.Event) {
	t := in.t
	type want struct {
		lock    string
		c       peers.Contender
		end     string
		by      int64
		timeout bool
	}
	for _, w := range []want{
		{"/locks/released", in.rel, model.EndReleased, 0, false},
		{"/locks/forced", in.frc, model.EndForced, in.conn.SessionID(), false},
		{"/locks/killed", in.kil, model.EndExpired, 0, true},
		{"/locks/closed", in.cls, model.EndClosed, 0, false},
		{"/locks/frozen", in.frz, model.EndExpired, 0, true},
		{"/locks/rw", in.w1, model.EndReleased, 0, false},
		{"/locks/sem", in.s1, model.EndReleased, 0, false},
	} {
		st := model.TellStory(events, w.lock, time.Time{}, time.Time{})
		if !st.Known {
			t.Errorf("%s: not in the story", w.lock)
			continue
		}
		h, ok := holdOf(st, w.c)
		if !ok {
			t.Errorf("%s: no hold of %s (%s) in %+v", w.lock, w.c.ID, lockcore.SessionHex(w.c.Session), st.Holds)
			continue
		}
		if h.End != w.end {
			t.Errorf("%s: %s's hold ended %q, want %q", w.lock, w.c.ID, h.End, w.end)
		}
		if want := in.ctime[w.c.Node]; !want.IsZero() && !h.Granted.Equal(want) {
			t.Errorf("%s: %s granted at %s, want its node's ctime %s", w.lock, w.c.ID, h.Granted, want)
		}
		if h.Start != model.StartSeen {
			t.Errorf("%s: %s's start is %q, want seen", w.lock, w.c.ID, h.Start)
		}
		if w.by != 0 && h.DeletedBy != lockcore.SessionHex(w.by) {
			t.Errorf("%s: deleted by %q, want %s", w.lock, h.DeletedBy, lockcore.SessionHex(w.by))
		}
		if w.timeout {
			if h.SessionTimeout <= 0 || h.LastHeard.IsZero() {
				t.Errorf("%s: expiry without its session's timeout (%s) or last heard (%s)", w.lock, h.SessionTimeout, h.LastHeard)
			}
			if d := h.Ended.Sub(h.LastHeard); d < h.SessionTimeout/2 {
				t.Errorf("%s: expired %s after its last transaction, well under its timeout %s", w.lock, d, h.SessionTimeout)
			}
		}
	}
	// The read/write lock's reader waited for the writer, and got it as
	// the writer released; the semaphore's second holder took its lease
	// after the first gave its up (kazoo creates the lease then: no
	// earlier).
	for _, w := range []struct {
		lock        string
		first, next peers.Contender
	}{{"/locks/rw", in.w1, in.r1}, {"/locks/sem", in.s1, in.s2}} {
		st := model.TellStory(events, w.lock, time.Time{}, time.Time{})
		first, ok1 := holdOf(st, w.first)
		next, ok2 := holdOf(st, w.next)
		if !ok1 || !ok2 {
			t.Errorf("%s: holds %+v", w.lock, st.Holds)
			continue
		}
		if w.lock == "/locks/sem" {
			if next.Granted.Before(first.Ended) {
				t.Errorf("%s: %s granted at %s, before %s's release %s", w.lock, w.next.ID, next.Granted, w.first.ID, first.Ended)
			}
			continue
		}
		if !next.Granted.Equal(first.Ended) {
			t.Errorf("%s: %s granted at %s, want at %s's release %s", w.lock, w.next.ID, next.Granted, w.first.ID, first.Ended)
		}
		if len(st.Waits) == 0 || st.Waits[0].End != model.EndGranted {
			t.Errorf("%s: waits %+v, want one granted", w.lock, st.Waits)
		}
	}
}

func TestIntegrationTxnLogTellsEveryEndExactly(t *testing.T) {
	// Snapshots every few dozen transactions: the read goes on across
	// several logs, and one snapshot is taken during the incident.
	srv := zktest.Start(t, zktest.WithConfig("snapCount=40"))
	in := run(t, srv.Addr(), srv.Connect(t), func() {})
	dir := copyDir(t, srv.DataDir())
	if !txnlog.IsDataDir(dir) {
		t.Fatalf("%s not taken for a data directory", dir)
	}
	res, err := txnlog.Load(context.Background(), []string{dir}, txnlog.Options{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(res.Partial) > 0 {
		t.Errorf("partial: %v", res.Partial)
	}
	in.check(res.Recording.Events)
	// Followed alone, a lock's story is the same.
	one, err := txnlog.Load(context.Background(), []string{dir}, txnlog.Options{Lock: "/locks/killed"})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	a := model.TellStory(res.Recording.Events, "/locks/killed", time.Time{}, time.Time{})
	b := model.TellStory(one.Recording.Events, "/locks/killed", time.Time{}, time.Time{})
	if len(a.Holds) != 1 || len(b.Holds) != 1 || !reflect.DeepEqual(a.Holds[0], b.Holds[0]) {
		t.Errorf("/locks/killed alone: %+v, among all: %+v", b.Holds, a.Holds)
	}
}

func TestIntegrationTxnLogOfAnEnsembleWithAMemberDown(t *testing.T) {
	e := zktest.StartEnsemble(t, 3, zktest.WithConfig("snapCount=40"))
	members := e.Members()
	down := members[(e.Leader()+1)%len(members)]
	in := run(t, e.ConnectString(), e.Connect(t), down.Stop)
	var dirs []string
	for _, m := range members {
		dirs = append(dirs, copyDir(t, m.DataDir()))
	}
	res, err := txnlog.Load(context.Background(), dirs, txnlog.Options{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(res.Partial) > 0 {
		t.Errorf("partial: %v", res.Partial)
	}
	in.check(res.Recording.Events)
	downDir := dirs[(e.Leader()+1)%len(members)]
	said := false
	for _, m := range res.Members {
		said = said || strings.Contains(m, downDir)
		if strings.Contains(m, "differs") {
			t.Errorf("members disagree: %s", m)
		}
	}
	if !said {
		t.Errorf("the stopped member's missing transactions are not said: %q", res.Members)
	}
	// Its log alone has not the end of the incident.
	alone, err := txnlog.Load(context.Background(), []string{downDir}, txnlog.Options{})
	if err != nil {
		t.Fatalf("Load of the stopped member: %v", err)
	}
	if alone.Last >= res.Last {
		t.Errorf("the stopped member's log reaches %#x, the ensemble's %#x", alone.Last, res.Last)
	}
}

// holdOf is c's hold in a story: its session's, on its node's lock.
func holdOf(st model.Story, c peers.Contender) (model.StoryHold, bool) {
	for _, h := range st.Holds {
		if h.Session == lockcore.SessionHex(c.Session) {
			return h, true
		}
	}
	return model.StoryHold{}, false
}

// A server that compresses its snapshots (zookeeper.snapshot.compression
// .method: gz, or snappy as snappy-java's stream, both of which Debian's
// ZooKeeper writes) gives its starting picture from one.
func TestIntegrationCompressedSnapshotIsRead(t *testing.T) {
	for _, method := range []string{"gz", "snappy"} {
		t.Run(method, func(t *testing.T) {
			srv := zktest.Start(t, zktest.WithJVMFlags("-Dzookeeper.snapshot.compression.method="+method))
			conn := srv.Connect(t)
			open := zk.WorldACL(zk.PermAll)
			for _, p := range []string{"/locks", "/locks/orders"} {
				if _, err := conn.Create(p, nil, 0, open); err != nil {
					t.Fatal(err)
				}
			}
			name, err := lockcore.NodePrefix(lockcore.RecipeCuratorMutex, lockcore.ModeExclusive, 0, "")
			if err != nil {
				t.Fatal(err)
			}
			holder := srv.Connect(t)
			node, err := holder.Create("/locks/orders/"+name, []byte("holder"), zk.FlagEphemeral|zk.FlagSequence, open)
			if err != nil {
				t.Fatal(err)
			}
			// A restart writes a snapshot of what it loaded; the holder's
			// session outlives it.
			srv.Restart()
			after := time.Now()
			dir := copyDir(t, srv.DataDir())
			res, err := txnlog.Load(context.Background(), []string{dir}, txnlog.Options{Range: recording.Range{From: after}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(res.Snapshot, "."+method) {
				t.Fatalf("the picture began at %q, not a %s snapshot", res.Snapshot, method)
			}
			var l *lockcore.Lock
			for _, ev := range res.Recording.Events {
				if ev.Kind == zkwatch.EventLock && ev.Path == "/locks/orders" {
					l = ev.Lock
				}
			}
			if l == nil || len(l.Participants) != 1 || l.Participants[0].Path != node || l.Participants[0].Session != holder.SessionID() ||
				l.Participants[0].Role != lockcore.RoleHolder {
				t.Fatalf("the lock from the snapshot: %+v", l)
			}
		})
	}
}
