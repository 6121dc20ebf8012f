package report

import (
	"bytes"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"strings"
	"testing"
	"time"
)

// TestEndedForcedNotTold: show's report of a recording tells a
// force-released contender whose session is still connected as not told,
// a holder with who holds now and a waiter as still waiting, in text and
// JSON; once its session is gone, it is told no more.
func TestEndedForcedNotTold(t *testing.T) {
	s := model.NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	all := lockOf("/t", 0, 1, 2)
	s.Apply(lockEvent(all))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	for _, i := range []int{0, 1} {
		p := all.Participants[i]
		s.Apply(model.ActionEvent(lockcore.Action{At: t0.Add(time.Second), Kind: lockcore.ActionForceRelease, Node: p.Path, Token: p.Token, Owner: p.Session}))
	}
	s.Apply(lockEvent(lockOf("/t", 2)))
	connected := zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(2 * time.Second), ClientsAsked: t0.Add(2 * time.Second), ClientsComplete: true,
		Clients: map[int64]zkwatch.ClientInfo{100: {Session: 100}, 101: {Session: 101}, 102: {Session: 102}}}
	s.Apply(connected)

	ended := s.EndedOf([]string{"/t"})
	if len(ended) != 2 || !ended[0].NotTold || !ended[1].NotTold || len(ended[0].NewHolders) != 1 || ended[1].NewHolders != nil {
		t.Fatalf("ended: %+v", ended)
	}
	r := Report{Locks: []lockcore.Lock{*s.Locks["/t"]}, Links: s.Links, Ended: ended}
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"not told: may believe it holds; holds now: 0x66 token", "not told: may believe it still waits"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(js.String(), `"not_told": true`); n != 2 {
		t.Errorf("%d endings not told in the JSON, want 2:\n%s", n, js.String())
	}

	gone := connected
	gone.At, gone.ClientsAsked, gone.Clients = t0.Add(4*time.Second), t0.Add(4*time.Second), map[int64]zkwatch.ClientInfo{102: {Session: 102}}
	s.Apply(gone)
	for _, e := range s.EndedOf([]string{"/t"}) {
		if e.NotTold {
			t.Errorf("told as not told after its session went: %+v", e)
		}
	}
}
