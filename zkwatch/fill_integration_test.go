package zkwatch_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationReadLaterListsFirstThenReads: on a tree searched by dump,
// a watcher with ReadLater reports each lock at the first sync from its
// listing and the dump's owners, every contender in its place with its
// real session and marked not read, then reads the contenders and reports
// each lock again with the nodes' own czxid and ctime. A one-shot watcher
// never reports a contender not read.
func TestIntegrationReadLaterListsFirstThenReads(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	admin := zks.Connect(t)
	owners := []*zk.Conn{zks.Connect(t), zks.Connect(t), zks.Connect(t)}
	mkdirs(t, admin, root+"/locks")
	const locks = 12
	want := map[string]int64{} // contender path → its owner's session
	for i := range locks {
		parent := fmt.Sprintf("%s/locks/l-%02d", root, i)
		mkdirs(t, admin, parent)
		for _, o := range owners {
			want[contender(t, o, parent)] = o.SessionID()
		}
	}

	feed := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root}, EnrichEvery: -1, WalkBurst: 5, ReadLater: true})
	zktest.WaitUntil(t, 30*time.Second, func() string {
		// Unread outside Read: the Feed is not held while the watcher is asked.
		unread := feed.Watcher().Unread()
		var reported int
		var pending bool
		feed.Read(func(s *model.State) { reported, pending = len(s.Locks), anyUnread(s.Locks) })
		if reported < locks || unread > 0 || pending {
			return fmt.Sprintf("contenders never all read: %d locks reported, %d unread, a reported contender pending %v", reported, unread, pending)
		}
		return ""
	})
	first := map[string]*lockcore.Lock{}
	last := map[string]*lockcore.Lock{}
	synced := false
	for _, ev := range feed.Events() {
		switch ev.Kind {
		case zkwatch.EventSynced:
			if !synced && ev.Discovery.DumpAt.IsZero() {
				t.Fatalf("the first sync asked no dump: %+v", ev.Discovery)
			}
			synced = true
		case zkwatch.EventLock:
			if _, ok := first[ev.Path]; !ok {
				first[ev.Path] = ev.Lock
			}
			last[ev.Path] = ev.Lock
		}
	}

	unreadFirst := 0
	for path, l := range first {
		if len(l.Participants) != len(owners) || l.Holders() != 1 {
			t.Fatalf("%s first reported with %d participants, %d holders, want %d and 1", path, len(l.Participants), l.Holders(), len(owners))
		}
		for _, p := range l.Participants {
			if p.Session != want[p.Path] || !p.Ephemeral {
				t.Errorf("%s first reported owned by %#x (ephemeral %v), want %#x", p.Path, p.Session, p.Ephemeral, want[p.Path])
			}
			if p.Pending {
				unreadFirst++
				if p.Token != 0 || !p.Ctime.IsZero() || p.Role == lockcore.RoleHolder && p.Hold.How != lockcore.HoldPending {
					t.Errorf("%s reported not read, yet with token %d, ctime %v, hold %q", p.Path, p.Token, p.Ctime, p.Hold.How)
				}
			}
		}
	}
	if unreadFirst == 0 {
		t.Fatal("every contender was read before its lock's first report: the dump's owners were not used")
	}
	for path, l := range last {
		for _, p := range l.Participants {
			ok, st, err := admin.Exists(p.Path)
			if err != nil || !ok {
				t.Fatalf("%s: %v", p.Path, err)
			}
			if p.Pending || p.Token != st.Czxid || p.Session != st.EphemeralOwner || p.Ctime.UnixMilli() != st.Ctime {
				t.Errorf("%s in %s once read: pending %v token %d session %#x ctime %v, the node has czxid %d owner %#x ctime %d",
					p.Path, path, p.Pending, p.Token, p.Session, p.Ctime, st.Czxid, st.EphemeralOwner, st.Ctime)
			}
		}
		if h := l.Participants[0].Hold; h.How == lockcore.HoldPending || h.Max <= 0 {
			t.Errorf("%s's holder once read: hold %+v, want one bounded by its node's ctime", path, h)
		}
	}
	t.Logf("%d of %d contenders reported before they were read", unreadFirst, len(want))

	once := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root}, EnrichEvery: -1, WalkBurst: 5, ReadLater: true, Once: true})
	<-once.Done()
	for _, ev := range once.Events() {
		if ev.Kind == zkwatch.EventLock && anyUnread(map[string]*lockcore.Lock{ev.Path: ev.Lock}) {
			t.Fatalf("a one-shot watcher reported %s with a contender not read", ev.Path)
		}
	}
}

func anyUnread(locks map[string]*lockcore.Lock) bool {
	for _, l := range locks {
		for _, p := range l.Participants {
			if p.Pending {
				return true
			}
		}
	}
	return false
}

// TestIntegrationReadLaterReportsAJoinBeforeReadingIt: with ReadLater, a
// contender joining a known lock is reported first from the lock's
// listing, in its place, not read and of no known owner, then once read.
func TestIntegrationReadLaterReportsAJoinBeforeReadingIt(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	admin, joiner := zks.Connect(t), zks.Connect(t)
	parent := root + "/locks/join"
	mkdirs(t, admin, root+"/locks", parent)
	contender(t, admin, parent)

	feed := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}), zkwatch.WatchConfig{Roots: []string{root}, EnrichEvery: -1, ReadLater: true})
	next := func(what string) *lockcore.Lock {
		t.Helper()
		return feed.UntilEvent(t, what, func(ev zkwatch.Event) bool { return ev.Kind == zkwatch.EventLock && ev.Path == parent }).Lock
	}
	if l := next("the lock"); len(l.Participants) != 1 || anyUnread(map[string]*lockcore.Lock{parent: l}) {
		t.Fatalf("first report: %+v", l.Participants)
	}
	joined := contender(t, joiner, parent)
	early := next("the join")
	if len(early.Participants) != 2 {
		t.Fatalf("the join's first report has %d participants", len(early.Participants))
	}
	if p := early.Participants[1]; p.Path != joined || !p.Pending || p.Session != 0 || p.Role != lockcore.RoleWaiter || len(early.Anomalies) > 0 {
		t.Fatalf("the join first reported as %+v with anomalies %v, want %s pending, of no known owner, waiting", p, early.Anomalies, joined)
	}
	read := next("the joiner read")
	if p := read.Participants[1]; p.Path != joined || p.Pending || p.Session != joiner.SessionID() || p.Token == 0 {
		t.Fatalf("the joiner once read: %+v, want session %#x and its czxid", p, joiner.SessionID())
	}
}
