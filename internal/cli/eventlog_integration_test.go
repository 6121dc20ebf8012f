package cli

import (
	"context"
	"fmt"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// TestIntegrationEventLogSaysWhoEnded: three real Curator holds end three
// ways, and the event log, fed as the UI feeds it (the watcher's events,
// the operator's actions told through it), says which: the operator's
// force-release with its audit line, a voluntary release, and the
// expiry of a session whose process was killed, after a disconnected
// entry for it.
func TestIntegrationEventLogSaysWhoEnded(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	doomed := peers.Start(t, peers.Curator, zks.Addr())
	lockPath := root + "/ev/orders"
	first := curator.Acquire(t, "first", "mutex", lockPath)
	curator.WaitHeld(t, "first", 30*time.Second)
	// The second contender is Curator's shape on a session of the test's
	// own: the kit's peers close their session as they release, and a
	// session that ends with its node cannot be told to have released it.
	own := zks.Connect(t)
	secondNode, err := own.Create(lockPath+"/_c_00000000-0000-4000-8000-000000000002-lock-", nil,
		zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatal(err)
	}
	third := doomed.Acquire(t, "third", "mutex", lockPath)

	ctx := t.Context()
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{})
	actions := newActions(conn, nil, false, model.ViaUI)
	told := model.NewActionFeed()
	actions.Told = told.Tell
	wctx, stop := context.WithCancel(context.Background())
	w := zkwatch.Watch(wctx, conn, zkwatch.WatchConfig{Roots: []string{root + "/ev"}, EnrichEvery: 200 * time.Millisecond})
	feed := watchtest.Drain(told.Merge(wctx, w.Events()))
	t.Cleanup(func() { stop(); <-feed.Done() })
	feed.Describe(func(s *model.State) string { return "the log:\n" + logText(s) })
	entry := func(s *model.State, c model.Change, node string) *model.HistoryEntry {
		for i := range s.History {
			if h := &s.History[i]; h.Change == c && path.Join(h.Lock, h.Node) == node {
				return h
			}
		}
		return nil
	}
	feed.UntilWithin(t, 30*time.Second, "the three contenders, connected", func(s *model.State) bool {
		l := s.Locks[lockPath]
		if s.LastSync.IsZero() || l == nil || len(l.Participants) != 3 {
			return false
		}
		for _, p := range l.Participants {
			if s.Link(p.Session).State != lockcore.LinkConnected {
				return false
			}
		}
		return true
	})

	// The operator force-releases the first holder, as shown.
	var p lockcore.Participant
	feed.Read(func(s *model.State) { p = s.Locks[lockPath].Participants[0] })
	if p.Path != first.Node {
		t.Fatalf("the holder shown is %s, not %s", p.Path, first.Node)
	}
	if err := actions.ForceRelease(ctx, lockclient.Expect{Path: p.Path, Czxid: p.Token, EphemeralOwner: p.Session, Version: p.Version}); err != nil {
		t.Fatal(err)
	}
	feed.UntilWithin(t, 30*time.Second, "the force-release logged as the operator's", func(s *model.State) bool {
		h := entry(s, model.Released, first.Node)
		return h != nil && h.EndedBy == model.EndedByOperator && h.Action != nil && h.Action.Kind == lockcore.ActionForceRelease
	})

	// The second holder releases of its own accord, and its session
	// lives on.
	feed.UntilWithin(t, 30*time.Second, "the second contender granted", func(s *model.State) bool { return entry(s, model.Granted, secondNode) != nil })
	if err := own.Delete(secondNode, -1); err != nil {
		t.Fatal(err)
	}
	feed.UntilWithin(t, 30*time.Second, "the release logged as a release", func(s *model.State) bool {
		h := entry(s, model.Released, secondNode)
		return h != nil && h.EndedBy == model.EndedByRelease
	})

	// The third holder's process dies: its session is disconnected, then
	// expires, which takes its node.
	doomed.WaitHeld(t, "third", 30*time.Second)
	doomed.Kill(t)
	feed.UntilWithin(t, 30*time.Second, "the third holder's disconnection", func(s *model.State) bool { return entry(s, model.Disconnected, third.Node) != nil })
	feed.UntilWithin(t, 60*time.Second, "the expiry logged as an expiry", func(s *model.State) bool {
		h := entry(s, model.Released, third.Node)
		return h != nil && h.EndedBy == model.EndedByExpiry
	})
}

func logText(s *model.State) string {
	var b strings.Builder
	for _, h := range s.History {
		fmt.Fprintf(&b, "%s %s %s/%s by %q seen %v\n", h.At.Format("15:04:05.000"), h.Change, h.Lock, h.Node, h.EndedBy, h.Seen)
	}
	return b.String()
}
