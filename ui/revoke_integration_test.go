package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
)

// TestIntegrationRevokeCurator: v on a real Curator holder says the
// request was made, then what became of it: released by a holder that
// made its lock revocable, still held by one that did not.
func TestIntegrationRevokeCurator(t *testing.T) {
	t.Parallel()
	zks := zktest.Start(t)
	curator := peers.Start(t, peers.Curator, zks.Addr())
	polite := curator.Acquire(t, "polite", "mutex+revocable", "/ui-rv/polite")
	plain := curator.Acquire(t, "plain", "mutex", "/ui-rv/plain")
	curator.WaitHeld(t, "polite", 30*time.Second)
	curator.WaitHeld(t, "plain", 30*time.Second)
	c := zks.Connect(t)
	a := New(Options{Profile: termenv.Ascii, Location: time.UTC, Actions: &model.Actions{ZK: c, User: "sre", Server: zks.Addr()}})
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	a.op.revokeWait = 2 * time.Second
	l := newLoop(t, a)

	for _, tt := range []struct {
		lock, node, want string
	}{
		{"/ui-rv/polite", polite.Node, "released"},
		{"/ui-rv/plain", plain.Node, "still held after 2s"},
	} {
		l.send(lockEvents(readLock(t, c, tt.lock)))
		l.send(openLockMsg{path: tt.lock, node: tt.node})
		l.keys("v", "y")
		requested := false
		l.until(tt.lock+": requested, then "+tt.want, func() bool {
			requested = requested || strings.Contains(a.flash.text, "revoke requested")
			return requested && strings.Contains(a.flash.text, tt.want)
		})
	}
	if exists(t, c, polite.Node) || !exists(t, c, plain.Node) {
		t.Fatal("the revocable holder's node is there, or the other's is gone")
	}
}
