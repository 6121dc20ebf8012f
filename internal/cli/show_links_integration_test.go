package cli

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// linkOf is the link of session, a contender of the lock at path, in the
// watcher's state.
func linkOf(s *model.State, path string, session int64) (lockcore.Link, bool) {
	if _, ok := contenderOf(s, path, session); !ok {
		return lockcore.Link{}, false
	}
	return s.Link(session), true
}

// contenderOf is session's contender in the lock at path.
func contenderOf(s *model.State, path string, session int64) (lockcore.Participant, bool) {
	l := s.Locks[path]
	if l == nil {
		return lockcore.Participant{}, false
	}
	for _, p := range l.Participants {
		if p.Session == session {
			return p, true
		}
	}
	return lockcore.Participant{}, false
}

func hasKind(kinds []string, k lockcore.AnomalyKind) bool { return slices.Contains(kinds, string(k)) }

// TestIntegrationDisconnectedHolder: a kazoo holder whose process is
// SIGKILLed leaves its session, and so the lock, behind until the session
// times out. show and the watcher say the session is connected to no
// member, and report a disconnected-holder anomaly, while the node is still
// there; once the session expires, the waiter holds and the anomaly is
// gone.
func TestIntegrationDisconnectedHolder(t *testing.T) {
	t.Parallel()
	// Every session gets 30 s, whatever its client asks, so that there is
	// time to see the holder's outlive its client on a busy machine.
	srv := zktest.Start(t, zktest.WithConfig("minSessionTimeout=30000", "maxSessionTimeout=30000"))
	const path = "/gone/lock"
	gone, stays := peers.Start(t, peers.Kazoo, srv.Addr()), peers.Start(t, peers.Kazoo, srv.Addr())
	holder := gone.Acquire(t, "holder", "lock", path)
	gone.WaitHeld(t, "holder", 30*time.Second)
	waiter := stays.Acquire(t, "waiter", "lock", path)
	hex := fmt.Sprintf("0x%x", holder.Session)

	w := watchtest.Start(t, srv.Addr(), zkwatch.WatchConfig{Roots: []string{"/gone"}, EnrichEvery: time.Second})
	// The watcher learns the holder's negotiated timeout while connected.
	w.UntilCheck(t, 30*time.Second, func(s *model.State) string {
		for _, c := range []peers.Contender{holder, waiter} {
			if k, ok := linkOf(s, path, c.Session); !ok || k.State != lockcore.LinkConnected {
				return fmt.Sprintf("watcher: %s link %+v (found %v), want connected", c.ID, k, ok)
			}
		}
		return ""
	})
	before := show(t, srv.Addr(), path)
	for _, p := range before.Locks[0].Participants {
		if p.Conn == nil || *p.Conn != "connected" || p.Expires != nil {
			t.Fatalf("show before the kill: %s connection %v, expires %v; want connected, null", p.Node, p.Conn, p.Expires)
		}
	}

	gone.Kill(t)

	// show: the holder's node is still there, its session connected to
	// no member, with the leader's schedule of its expiry.
	var after showJSON
	zktest.WaitUntil(t, 20*time.Second, func() string {
		after = show(t, srv.Addr(), path)
		ps := after.Locks[0].Participants
		if len(ps) != 2 || ps[0].Session == nil || *ps[0].Session != hex || ps[0].Role != "holder" {
			return fmt.Sprintf("show: the killed holder's node should still hold: %+v", ps)
		}
		if ps[0].Conn == nil || *ps[0].Conn != "disconnected" {
			return fmt.Sprintf("show: holder connection %v, want disconnected", ps[0].Conn)
		}
		return ""
	})
	ps := after.Locks[0].Participants
	if ps[1].Conn == nil || *ps[1].Conn != "connected" {
		t.Errorf("show: waiter connection %v, want connected", ps[1].Conn)
	}
	// The leader schedules expiry at most a timeout (30 s), rounded up to
	// the next tick (2 s), after the last contact, at second precision.
	if e := ps[0].Expires; e == nil || *e < 0 || *e > 33000 {
		t.Errorf("show: holder expires_within_ms %v, want 0..33000 (the leader's schedule)", e)
	}
	if !hasKind(kinds(after), lockcore.AnomalyDisconnectedHolder) {
		t.Errorf("show: anomalies %v, want disconnected-holder", kinds(after))
	}
	out, _, _ := run(t, "show", "--server", srv.Addr(), path)
	t.Logf("show after the kill:\n%s", out)
	if !strings.Contains(out, "disconnected-holder") || !strings.Contains(out, "session "+hex+" (#0 holder): disconnected, expires within ~") {
		t.Errorf("show text should say the holder is disconnected and when it expires:\n%s", out)
	}

	// The watcher: the same, with the expiry from the timeout seen in cons.
	w.UntilCheck(t, 20*time.Second, func(s *model.State) string {
		p, ok := contenderOf(s, path, holder.Session)
		k := s.Link(holder.Session)
		switch {
		case !ok || p.Role != lockcore.RoleHolder:
			return fmt.Sprintf("watcher: the killed holder's node should still hold (found %v, %s)", ok, p.Role)
		case k.State != lockcore.LinkDisconnected:
			return fmt.Sprintf("watcher: holder link %+v, want disconnected", k)
		case k.ExpirySource != "cons" || k.ExpiresWithin <= 0 || k.ExpiresWithin > 30*time.Second:
			return fmt.Sprintf("watcher: holder expiry %+v, want within the 30 s timeout, from cons", k)
		case !hasKind(anomalyKinds(s.Locks[path]), lockcore.AnomalyDisconnectedHolder):
			return fmt.Sprintf("watcher: anomalies %v, want disconnected-holder", anomalyKinds(s.Locks[path]))
		}
		return ""
	})

	// The session expires; the waiter's client says it holds.
	stays.WaitHeld(t, "waiter", 90*time.Second)
	final := show(t, srv.Addr(), path)
	if ps := final.Locks[0].Participants; len(ps) != 1 || ps[0].Role != "holder" || hasKind(kinds(final), lockcore.AnomalyDisconnectedHolder) {
		t.Errorf("show after expiry: %+v, anomalies %v; want the waiter holding, no disconnected-holder", ps, kinds(final))
	}
	w.UntilCheck(t, 30*time.Second, func(s *model.State) string {
		l := s.Locks[path]
		if l == nil || len(l.Participants) != 1 || l.Participants[0].Session != waiter.Session || l.Participants[0].Role != lockcore.RoleHolder {
			return fmt.Sprintf("watcher after expiry: %+v, want the waiter holding", l)
		}
		if hasKind(anomalyKinds(l), lockcore.AnomalyDisconnectedHolder) || s.Ghost(holder.Session) {
			return fmt.Sprintf("watcher after expiry: anomalies %v", anomalyKinds(l))
		}
		return ""
	})
}

func anomalyKinds(l *lockcore.Lock) []string {
	var out []string
	for _, a := range l.Anomalies {
		out = append(out, string(a.Kind))
	}
	return out
}
