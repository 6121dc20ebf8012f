package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// TestIntegrationSecondOperator: two operators force-release the holders
// of one lock of real Curator clients; this UI, watching, always comes
// second. A dialog whose node the other operator deleted while it was
// open says so and deletes nothing when confirmed; an action confirmed a
// moment too late is refused, and says when the node went and what ended
// it, without package prefixes. Each holder is deleted exactly once, and
// the next waiter is never touched. This UI's own force-release comes
// back among the watcher's events, and its Sessions screen follows the
// holder it deleted.
func TestIntegrationSecondOperator(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	const lockPath = "/second/orders"
	curator := peers.Start(t, peers.Curator, zks.Addr())
	first := curator.Acquire(t, "first", "mutex", lockPath)
	curator.WaitHeld(t, "first", 30*time.Second)
	second := curator.Acquire(t, "second", "mutex", lockPath)
	third := curator.Acquire(t, "third", "mutex", lockPath)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{})
	w := zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{Roots: []string{"/second"}, EnrichEvery: 200 * time.Millisecond})
	feed := model.NewActionFeed()
	var ours, theirs zktest.SyncBuffer
	a := New(Options{Profile: termenv.Ascii, Location: time.UTC, Events: feed.Merge(ctx, w.Events()),
		Actions: &model.Actions{ZK: conn.LockZK(), Audit: model.NewAudit(&ours), User: "sre-b", Host: "host-b",
			Via: model.ViaUI, Told: feed.Tell}})
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	l := newLoop(t, a)
	l.run(a.Init())
	other := &model.Actions{ZK: zks.Connect(t), Audit: model.NewAudit(&theirs), User: "sre-a", Host: "host-a", Via: model.ViaCLI}

	holds := func(c peers.Contender) func() bool {
		return func() bool {
			lk := a.env.state.Locks[lockPath]
			if lk == nil {
				return false
			}
			p, ok := lk.Participant(strings.TrimPrefix(c.Node, lockPath+"/"))
			return ok && p.Role == lockcore.RoleHolder && !p.Pending
		}
	}
	expectOf := func(c peers.Contender) lockclient.Expect {
		p, _ := a.env.state.Locks[lockPath].Participant(strings.TrimPrefix(c.Node, lockPath+"/"))
		return lockclient.ExpectParticipant(p)
	}
	noPrefix := func(text string) {
		t.Helper()
		for _, p := range []string{"lockcore:", "zk:", "zkwatch:"} {
			if strings.Contains(text, p) {
				t.Fatalf("a package prefix in what the operator reads: %q", text)
			}
		}
	}

	// The dialog is open on the first holder when the other operator
	// deletes it: it says so, and y deletes nothing.
	l.until("the first holder shown", holds(first))
	l.send(openLockMsg{path: lockPath})
	l.keys("g", "D")
	if openDialog(a) == nil {
		t.Fatalf("no dialog; status %q", a.flash.text)
	}
	if err := other.ForceRelease(ctx, expectOf(first)); err != nil {
		t.Fatal(err)
	}
	// Told at once, with when, and what ended it as far as the members'
	// answers tell: its session outlived it (a release or another
	// operator), or, while no answer since says, that it is not known
	// yet (members asked less often under load, as their cost paces).
	l.until("the dialog told its node went", func() bool { return strings.Contains(screen(a), "Nothing to do") })
	if sc := screen(a); !strings.Contains(sc, "went at") || !(strings.Contains(sc, "its session still connected") ||
		strings.Contains(sc, "not known yet")) || !strings.Contains(sc, "any key closes") || strings.Contains(sc, "y deletes") {
		t.Fatalf("the dialog:\n%s", sc)
	}
	t.Logf("the dialog:\n%s", screen(a))
	l.keys("y")
	l.until("the dialog closed", func() bool { return openDialog(a) == nil && strings.Contains(a.flash.text, "nothing was done") })
	noPrefix(a.flash.text)
	if ours.String() != "" {
		t.Fatalf("a dialog whose node went acted: %s", ours.String())
	}

	// Confirmed a moment too late: refused, then explained once the
	// watcher has seen the node go.
	l.until("the second holder shown", holds(second))
	l.keys("g", "D")
	if openDialog(a) == nil {
		t.Fatalf("no dialog; status %q", a.flash.text)
	}
	if err := other.ForceRelease(ctx, expectOf(second)); err != nil {
		t.Fatal(err)
	}
	l.keys("y")
	l.until("the refusal", func() bool { return strings.HasPrefix(a.flash.text, "not force-released: ") })
	l.until("the refusal explained", func() bool { return strings.Contains(a.flash.text, " went at ") })
	text := a.flash.text
	t.Logf("the refusal: %s", text)
	if !strings.HasPrefix(text, "not force-released: ") || len(text) > 2*(120-3) ||
		!(strings.Contains(text, "still connected") || strings.Contains(text, "not known yet")) {
		t.Fatalf("the refusal: %q", text)
	}
	noPrefix(text)

	// One delete each: the other operator's two went through, ours was
	// refused, and the third contender, now holding, is untouched.
	if n := strings.Count(theirs.String(), `"result":"ok"`); n != 2 {
		t.Fatalf("the other operator's audit: %s", theirs.String())
	}
	if got := ours.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, `"result":"failed: `) ||
		!strings.Contains(got, `"via":"ui"`) || !strings.Contains(got, `"host":"host-b"`) {
		t.Fatalf("our audit: %s", got)
	}
	l.until("the third holding", holds(third))
	curator.WaitHeld(t, "third", 30*time.Second)

	// Ours goes through: the action comes back among the watcher's
	// events, and the state follows the holder, whose client was not
	// told, on the Sessions screen. The other operator's two deletes came
	// from a zklocks this one does not hear: where a member's answer
	// showed their sessions living on, they are followed too, as maybe
	// forced, with no action; ours is the one force-release known.
	l.keys("g", "D", "y")
	l.until("the third followed as force-released", func() bool {
		var known []model.Forced
		for _, f := range a.env.state.Forced {
			if !f.Maybe {
				known = append(known, f)
			} else if f.Action != nil || (f.Node != first.Node && f.Node != second.Node) {
				t.Fatalf("followed as maybe forced: %+v, want only the other operator's two", f)
			}
		}
		return len(known) == 1 && known[0].Node == third.Node && known[0].Role == lockcore.RoleHolder && known[0].Action.Via == model.ViaUI
	})
	l.keys("esc", "2")
	l.until("the Sessions screen follows it", func() bool {
		return lineWith(screen(a), "forced", lockPath, "not told: may believe it holds")
	})
}
