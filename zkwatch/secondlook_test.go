package zkwatch

import (
	"context"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch/words"
)

// AskSoon asks srvr again but keeps cons within the interval; LookAgain
// reads cons again too, once, and its cost still paces it.
func TestEnricherLookAgainReadsConsAgain(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt"), "cons": readReply(t, "cons.txt")})
	e, clock := newTestEnricher(5*time.Second, m)
	e.Costs = words.NewCostsWithClock(clock.now)
	e.Poll(context.Background())
	clock.advance(2 * time.Second)
	e.AskSoon()
	e.Poll(context.Background())
	if got := m.counts(); got["srvr"] != 2 || got["cons"] != 1 {
		t.Fatalf("after AskSoon: asked %v, want srvr twice and cons once", got)
	}
	clock.advance(time.Second)
	e.LookAgain()
	looked := e.Poll(context.Background())
	if got := m.counts(); got["srvr"] != 3 || got["cons"] != 2 {
		t.Fatalf("after LookAgain: asked %v, want srvr 3 times and cons twice", got)
	}
	if !looked.ClientsAsked.Equal(clock.now()) {
		t.Errorf("the second look's clients were asked at %v, want now (%v)", looked.ClientsAsked, clock.now())
	}
	clock.advance(time.Second)
	e.AskSoon()
	e.Poll(context.Background())
	if got := m.counts(); got["cons"] != 2 {
		t.Fatalf("LookAgain lasted past its poll: asked %v", got)
	}
	// A cons answer that cost its member a second waits for its cost.
	e.Costs.Record(m.addr, "cons", words.ViaWord, time.Second, 1<<20)
	clock.advance(time.Second)
	e.LookAgain()
	e.Poll(context.Background())
	if got := m.counts(); got["cons"] != 2 {
		t.Errorf("a costly cons was read again at a second look: asked %v", got)
	}
}

func TestLookAgainAt(t *testing.T) {
	asked := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clients := func(sessions ...int64) map[int64]ClientInfo {
		m := map[int64]ClientInfo{}
		for _, s := range sessions {
			m[s] = ClientInfo{Session: s}
		}
		return m
	}
	answer := func(complete bool, sessions ...int64) Enrichment {
		return Enrichment{Complete: complete, ClientsAsked: asked, At: asked.Add(time.Second), Clients: clients(sessions...)}
	}
	for _, tc := range []struct {
		name   string
		before map[int64]ClientInfo
		en     Enrichment
		every  time.Duration
		want   time.Time
	}{
		{"a session no longer listed", clients(1, 2), answer(true, 2, 3), 5 * time.Second, asked.Add(SecondLook)},
		{"every session still listed, one new", clients(1), answer(true, 1, 2), 5 * time.Second, time.Time{}},
		{"an incomplete answer tells nothing", clients(1, 2), answer(false, 2), 5 * time.Second, time.Time{}},
		{"no complete answer before", nil, answer(true), 5 * time.Second, time.Time{}},
		{"the period is as short as a second look", clients(1), answer(true), SecondLook, time.Time{}},
	} {
		if got := lookAgainAt(tc.before, tc.en, tc.every); !got.Equal(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A caller's next tick may come a hair less than a period after the last
// ask began: srvr and cons are asked again then, not a period later.
func TestEnricherTickALittleEarlyAsksAgain(t *testing.T) {
	m := newFakeMember(t, map[string]string{"srvr": readReply(t, "srvr_standalone.txt"), "cons": readReply(t, "cons.txt")})
	e, clock := newTestEnricher(5*time.Second, m)
	e.Costs = words.NewCostsWithClock(clock.now)
	e.Poll(context.Background())
	clock.advance(5*time.Second - 10*time.Millisecond)
	e.Poll(context.Background())
	if got := m.counts(); got["srvr"] != 2 || got["cons"] != 2 {
		t.Errorf("a tick 10 ms early asked %v, want srvr and cons twice each", got)
	}
}

// Locks found call an early poll only while the members' watch table is
// read: without one (refused, or a member over the budget) the poll
// would ask every member again for nothing, and only the period wakes
// the loop; the locks found stay noted for when a table can be read.
func TestEarlyPollOnlyForATable(t *testing.T) {
	w := &Watcher{enrich: enrichState{lockFound: make(chan struct{}, 1)}}
	w.enrich.lockFound <- struct{}{}
	tick := make(chan time.Time, 1)
	tick <- time.Now()
	if got, ok := w.nextPoll(context.Background(), tick, 5*time.Second, time.Now(), time.Time{}, false); got != wakeTick || !ok {
		t.Fatalf("without a table: woke for %v, want the period", got)
	}
	if len(w.enrich.lockFound) != 1 {
		t.Fatal("the locks found were forgotten")
	}
	if got, ok := w.nextPoll(context.Background(), make(chan time.Time), 5*time.Second, time.Now(), time.Time{}, true); got != wakeFound || !ok {
		t.Errorf("with a table: woke for %v, want the locks found", got)
	}
}
