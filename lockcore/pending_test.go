package lockcore

import (
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// pendingNode is a contender as a dump and a listing tell it: its name and
// owner, nothing read.
func pendingNode(name string, owner int64) Node {
	return Node{Name: name, Stat: zk.Stat{EphemeralOwner: owner}, Pending: true}
}

func TestPendingContendersKeepTheirPlaceAndNoTimes(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	tree := queueTree("/l", pendingNode(c(2), 3), pendingNode(c(0), 1), pendingNode(c(1), 2))
	l := Analyze(tree, nil, Options{})
	if got, want := layout(l), c(0)+":h:- "+c(1)+":w:"+c(0)+" "+c(2)+":w:"+c(1); got != want {
		t.Fatalf("layout = %q, want %q", got, want)
	}
	noAnomaly(t, l)
	for _, p := range l.Participants {
		if !p.Pending || !p.Ephemeral || p.Session == 0 {
			t.Errorf("%s: pending %v ephemeral %v session %d, want pending, ephemeral, its owner", p.Node, p.Pending, p.Ephemeral, p.Session)
		}
		if !p.Ctime.IsZero() || p.Age != 0 || p.Token != 0 {
			t.Errorf("%s: ctime %v age %v token %d, want none of them", p.Node, p.Ctime, p.Age, p.Token)
		}
	}
	if h := l.Participants[0].Hold; h.How != HoldPending || h.Min != 0 || h.Max != 0 || h.Exact() {
		t.Errorf("pending holder's hold = %+v, want pending with no bounds", h)
	}
	if h, ok := l.OldestHold(); ok {
		t.Errorf("oldest hold %+v of a lock whose one holder is not read, want none", h)
	}
}

func TestPendingHolderReadLaterGetsItsHoldFromTheRules(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	var b builder
	holder, waiter := b.node(c(0), 1), b.node(c(1), 2)
	first := queueTree("/l", pendingNode(holder.Name, 1), pendingNode(waiter.Name, 2))
	before := Analyze(first, nil, Options{})
	seen := before.Sightings()

	read := settled(queueTree("/l", holder, waiter))
	read.Seen, read.Watched = seen, true
	l := Analyze(read, nil, Options{})
	h := l.Participants[0].Hold
	if h.How != HoldBounded || h.Max != time.Hour-time.Second {
		t.Fatalf("hold once read = %+v, want bounded by its own creation an hour ago", h)
	}
}

func TestPendingWaiterSeenThenHoldingIsGrantedAtTheRead(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	var b builder
	gone, waiter := b.node(c(0), 1), b.node(c(1), 2)
	first := queueTree("/l", pendingNode(gone.Name, 1), pendingNode(waiter.Name, 2))
	before := Analyze(first, nil, Options{})
	seen := before.Sightings()

	read := queueTree("/l", waiter)
	read.Self.Stat.Pzxid = waiter.Stat.Czxid + 5
	read.Seen, read.Watched = seen, true
	if h := Analyze(read, nil, Options{}).Participants[0].Hold; h.How != HoldSeen {
		t.Fatalf("hold = %+v, want seen: it was waiting at the last read, watched since", h)
	}
}

func TestPendingContenderWithNoOwnerIsNotJudged(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	var b builder
	tree := queueTree("/l", b.node(c(0), 1), pendingNode(c(1), 0))
	l := Analyze(tree, &WatchTable{}, Options{})
	noAnomaly(t, l)
	if p := l.Participants[1]; !p.Pending || p.Session != 0 || p.Role != RoleWaiter {
		t.Fatalf("unowned contender = %+v, want a pending waiter of no known session", p)
	}
}

func TestPendingHolderIsNeverJudgedLongHeldAsTimePasses(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	l := Analyze(queueTree("/l", pendingNode(c(0), 1), pendingNode(c(1), 2)), nil, Options{LongHeld: time.Minute})
	later := readAt.Add(time.Hour)
	if h := HoldAt(l.Participants[0].Hold, l.ReadAt, later); h.Min != 0 || h.Max != 0 || h.How != HoldPending {
		t.Errorf("pending hold an hour on = %+v, want still pending with no bounds", h)
	}
	if at := l.At(later); at != &l || len(at.Anomalies) != 0 || len(at.MaybeLongHeld) != 0 {
		t.Errorf("an hour on: anomalies %v, maybe %v, want none: nothing is known of the hold", at.Anomalies, at.MaybeLongHeld)
	}
	if until, ok := l.LongHeldSteadyUntil(readAt); ok {
		t.Errorf("steady until %v, want for ever: a pending hold does not grow", until)
	}
	if _, _, ok := l.OldestWaiter(later); ok {
		t.Error("oldest waiter found, want none: the only waiter is not read, so its wait is unknown")
	}
}

// A reader that analyses a lock again (a new watch table) from what it
// read, giving the analysis its own last sightings as the past, gets the
// same holds: it need not keep the sightings from before that read.
func TestHoldsSurviveAnalysisAgainFromTheirOwnSightings(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	var b builder
	gone, holder, waiter := b.node(c(0), 1), b.node(c(1), 2), b.node(c(2), 3)
	before := Analyze(settled(queueTree("/l", gone, holder, waiter)), nil, Options{})
	trees := map[string]Tree{
		"granted while watched": func() Tree {
			t := queueTree("/l", holder, waiter)
			t.Self.Stat.Pzxid = waiter.Stat.Czxid + 5
			t.Seen, t.Watched = before.Sightings(), true
			return t
		}(),
		"granted across a gap": func() Tree { t := queueTree("/l", holder, waiter); t.Seen = before.Sightings(); return t }(),
		"held since joined":    settled(queueTree("/l", gone, holder, waiter)),
		"holder not read yet":  queueTree("/l", pendingNode(holder.Name, 2), waiter),
	}
	for name, tree := range trees {
		first := Analyze(tree, nil, Options{})
		again := tree
		again.Seen = first.Sightings()
		second := Analyze(again, &WatchTable{}, Options{})
		if h1, h2 := first.Participants[0].Hold, second.Participants[0].Hold; h1 != h2 {
			t.Errorf("%s: hold %+v, analysed again from its own sightings %+v", name, h1, h2)
		}
	}
}
