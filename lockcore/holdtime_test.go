package lockcore

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestHolds(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	ctime := func(n Node) time.Time { return time.UnixMilli(n.Stat.Ctime) }
	type want struct {
		how      HoldHow
		min, max time.Duration
	}
	tests := []struct {
		name string
		tree func(b *builder) Tree
		want want
	}{
		{name: "head when created, nobody left since: held since its creation",
			tree: func(b *builder) Tree {
				t := queueTree("/l", b.node(c(0), 1))
				t.Self.Stat.Pzxid = t.Children[0].Stat.Czxid
				return t
			},
			want: want{HoldCreated, time.Hour - time.Second, time.Hour - time.Second}},
		{name: "waiters joined behind it, nobody left: held at least since the last joined",
			tree: func(b *builder) Tree {
				return settled(queueTree("/l", b.node(c(0), 1), b.node(c(1), 2), b.node(c(2), 3)))
			},
			want: want{HoldBounded, time.Hour - 3*time.Second, time.Hour - time.Second}},
		{name: "a predecessor left at a time ZooKeeper does not keep: at most its age",
			tree: func(b *builder) Tree {
				t := queueTree("/l", b.node(c(1), 1), b.node(c(2), 2))
				t.Self.Stat.Pzxid = t.Children[1].Stat.Czxid + 5
				return t
			},
			want: want{HoldBounded, 0, time.Hour - time.Second}},
		{name: "no pzxid read: at most its age",
			tree: func(b *builder) Tree { return queueTree("/l", b.node(c(0), 1)) },
			want: want{HoldBounded, 0, time.Hour - time.Second}},
		{name: "seen waiting, then holding, watched throughout: granted at this read",
			tree: func(b *builder) Tree {
				t := queueTree("/l", b.node(c(1), 1))
				t.Seen = &Sightings{At: readAt.Add(-time.Minute), Nodes: []Sighting{{Path: "/l/" + c(1), Token: t.Children[0].Stat.Czxid}}}
				t.Watched = true
				return t
			},
			want: want{HoldSeen, 0, 0}},
		{name: "seen waiting, then a lost connection, then holding: granted since the earlier read",
			tree: func(b *builder) Tree {
				t := queueTree("/l", b.node(c(1), 1))
				t.Seen = &Sightings{At: readAt.Add(-time.Minute), Nodes: []Sighting{{Path: "/l/" + c(1), Token: t.Children[0].Stat.Czxid}}}
				return t
			},
			want: want{HoldBounded, 0, time.Minute}},
		{name: "seen holding earlier: its hold is kept",
			tree: func(b *builder) Tree {
				t := queueTree("/l", b.node(c(1), 1))
				at := readAt.Add(-10 * time.Minute)
				t.Seen = &Sightings{At: readAt.Add(-time.Minute), Nodes: []Sighting{{Path: "/l/" + c(1), Token: t.Children[0].Stat.Czxid,
					Hold: &Hold{After: at, By: at, How: HoldSeen}}}}
				return t
			},
			want: want{HoldSeen, 10 * time.Minute, 10 * time.Minute}},
		{name: "a sighting of another node of the same name is not this node's",
			tree: func(b *builder) Tree {
				t := queueTree("/l", b.node(c(1), 1))
				t.Seen = &Sightings{At: readAt.Add(-time.Minute), Nodes: []Sighting{{Path: "/l/" + c(1), Token: 1,
					Hold: &Hold{After: readAt, By: readAt, How: HoldSeen}}}}
				t.Watched = true
				return t
			},
			want: want{HoldBounded, 0, time.Hour - time.Second}},
		{name: "a plain ephemeral lock node is created when granted",
			tree: func(b *builder) Tree {
				return Tree{Path: "/svc/leader-lock", Self: b.node("leader-lock", 7), ReadAt: readAt}
			},
			want: want{HoldCreated, time.Hour - time.Second, time.Hour - time.Second}},
		{name: "a kazoo lease is created when granted",
			tree: func(b *builder) Tree {
				self := Node{Name: "sem", Data: []byte("2")}
				self.Stat.DataLength = 1
				return Tree{Path: "/pool/sem", Self: self, ReadAt: readAt, Children: []Node{b.node(fmt.Sprintf("%032x", 0xa), 1)}}
			},
			want: want{HoldCreated, time.Hour - time.Second, time.Hour - time.Second}},
		{name: "a Curator lease may be created before it is granted",
			tree: func(b *builder) Tree {
				return Tree{Path: "/sem", Self: Node{Name: "sem"}, ReadAt: readAt,
					Children: []Node{b.node("leases", 0), b.node("locks", 0)},
					Extra:    map[string][]Node{"/sem/leases": {b.node(curatorName("lease-", 0), 1)}, "/sem/locks": {}}}
			},
			want: want{HoldBounded, 0, time.Hour - 3*time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tree := tt.tree(&builder{})
			l := Analyze(tree, nil, Options{})
			var holder *Participant
			for i := range l.Participants {
				if l.Participants[i].Role == RoleHolder {
					holder = &l.Participants[i]
					break
				}
			}
			if holder == nil {
				t.Fatalf("no holder: %s", layout(l))
			}
			h := holder.Hold
			if h.How != tt.want.how || h.Min != tt.want.min || h.Max != tt.want.max {
				t.Fatalf("hold %s min %s max %s, want %s %s %s", h.How, h.Min, h.Max, tt.want.how, tt.want.min, tt.want.max)
			}
			if h.Exact() != (h.Min == h.Max && h.How != HoldBounded) || h.After.After(h.By) {
				t.Fatalf("inconsistent hold %+v", h)
			}
			if h.How == HoldBounded && !h.After.Equal(ctime(nodeOf(tree, holder.Path))) && tree.Seen == nil {
				t.Fatalf("a bounded hold starts at the node's creation: %+v", h)
			}
			for _, p := range l.Participants {
				if p.Role == RoleWaiter && p.Hold != (Hold{}) {
					t.Fatalf("waiter %s has a hold %+v", p.Node, p.Hold)
				}
			}
		})
	}
}

func nodeOf(t Tree, path string) Node {
	if path == t.Path {
		return t.Self
	}
	for dir, nodes := range t.Extra {
		for _, n := range nodes {
			if dir+"/"+n.Name == path {
				return n
			}
		}
	}
	for _, n := range t.Children {
		if t.Path+"/"+n.Name == path {
			return n
		}
	}
	return Node{}
}

// A waiter that queued longer than the threshold and has just got the lock
// is not long-held; one whose grant is not known is only possibly so; a
// holder becomes long-held as time passes with nothing read again.
func TestLongHeldCountsTheHoldNotTheQueue(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	opt := Options{LongHeld: 10 * time.Minute}
	n0, n1 := b.node(c(0), 1), b.node(c(1), 2)

	// c(0) has held since c(1) joined, an hour ago, at the latest.
	first := Analyze(settled(queueTree("/l", n0, n1)), nil, opt)
	if a := anomaly(t, first, AnomalyLongHeld); a.Node != c(0) || !strings.Contains(a.Detail, "at the latest") {
		t.Fatalf("long-held: %+v", a)
	}

	// c(0) released; c(1), queued an hour, is seen getting the lock.
	tree := Tree{Path: "/l", ReadAt: readAt.Add(time.Second), Children: []Node{n1}, Seen: first.Sightings(), Watched: true}
	tree.Self.Stat.Pzxid = n1.Stat.Czxid + 1 // the delete of c(0)
	l := Analyze(tree, nil, opt)
	if len(l.Anomalies) != 0 || len(l.MaybeLongHeld) != 0 {
		t.Fatalf("a waiter that has just got the lock is flagged: %+v %+v", l.Anomalies, l.MaybeLongHeld)
	}
	if h := l.Participants[0].Hold; h.How != HoldSeen || h.Max != 0 || l.Participants[0].Age < time.Hour-5*time.Second {
		t.Fatalf("hold %+v age %s", h, l.Participants[0].Age)
	}
	if l.At(readAt.Add(5*time.Minute)) != &l {
		t.Fatal("At changed a lock whose findings did not change")
	}
	later := l.At(readAt.Add(11 * time.Minute))
	if a := anomaly(t, *later, AnomalyLongHeld); a.Node != c(1) || !strings.Contains(a.Detail, "as the watcher saw") {
		t.Fatalf("after 11 minutes: %+v", a)
	}
	if len(l.Anomalies) != 0 {
		t.Fatal("At changed the lock in place")
	}
	if again := later.At(readAt.Add(12 * time.Minute)); again != later {
		t.Fatal("At remade a lock whose long-held findings stayed the same")
	}

	// Without the watcher's sighting, the same holder is only possibly
	// long-held: it may have got the lock just now.
	tree.Seen, tree.Watched = nil, false
	l = Analyze(tree, nil, opt)
	if len(l.Anomalies) != 0 || len(l.MaybeLongHeld) != 1 || l.MaybeLongHeld[0].Kind != AnomalyLongHeld ||
		!strings.Contains(l.MaybeLongHeld[0].Detail, "when is not known") {
		t.Fatalf("unknown grant: anomalies %+v maybe %+v", l.Anomalies, l.MaybeLongHeld)
	}
	if oldest, ok := l.OldestHold(); !ok || oldest.Exact() || oldest.Max < time.Hour-5*time.Second {
		t.Fatalf("oldest hold %+v", oldest)
	}
}

// LongHeldSteadyUntil names the last moment whose findings are those of
// now: one moment later, a bound passes the threshold and they change.
func TestLongHeldSteadyUntil(t *testing.T) {
	b := &builder{}
	c := func(i int) string { return curatorName("lock-", i) }
	opt := Options{LongHeld: 10 * time.Minute}
	n0, n1 := b.node(c(0), 1), b.node(c(1), 2)
	first := Analyze(settled(queueTree("/l", n0, n1)), nil, opt)
	tree := Tree{Path: "/l", ReadAt: readAt.Add(time.Second), Children: []Node{n1}, Seen: first.Sightings(), Watched: true}
	tree.Self.Stat.Pzxid = n1.Stat.Czxid + 1
	seen := Analyze(tree, nil, opt)
	tree.Seen, tree.Watched = nil, false
	unknown := Analyze(tree, nil, opt)

	findings := func(l *Lock) string {
		var s []string
		for _, a := range l.Anomalies {
			s = append(s, string(a.Kind)+" "+a.Node)
		}
		for _, a := range l.MaybeLongHeld {
			s = append(s, "maybe "+a.Node)
		}
		return strings.Join(s, ", ")
	}
	for _, tt := range []struct {
		name string
		l    Lock
		now  time.Time
		want time.Time // zero: steady for ever
	}{
		{"a hold seen granted, under the threshold", seen, readAt.Add(time.Minute), tree.ReadAt.Add(10 * time.Minute)},
		{"a hold of unknown grant, possibly long", unknown, readAt.Add(time.Minute), tree.ReadAt.Add(10*time.Minute - unknown.Participants[0].Hold.Min)},
		{"the first holder, known long", first, readAt.Add(time.Minute), time.Time{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			until, ok := tt.l.LongHeldSteadyUntil(tt.now)
			if ok != !tt.want.IsZero() || !until.Equal(tt.want) {
				t.Fatalf("steady until %v (%v), want %v", until, ok, tt.want)
			}
			now := findings(tt.l.At(tt.now))
			if !ok {
				if later := findings(tt.l.At(tt.now.Add(100 * time.Hour))); later != now {
					t.Fatalf("steady for ever, yet %q became %q", now, later)
				}
				return
			}
			if at := findings(tt.l.At(until)); at != now {
				t.Errorf("findings %q at now, %q at the span's end", now, at)
			}
			if after := findings(tt.l.At(until.Add(time.Millisecond))); after == now {
				t.Errorf("findings %q did not change just after the span", now)
			}
		})
	}
}

func TestHoldAsOf(t *testing.T) {
	read := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name     string
		hold     Hold
		min, max time.Duration
	}{
		{"bounded", Hold{After: read.Add(-5 * time.Second), By: read.Add(-2 * time.Second), How: HoldBounded}, 2 * time.Second, 5 * time.Second},
		{"seen", Hold{After: read.Add(-time.Second), By: read.Add(-time.Second), How: HoldSeen}, time.Second, time.Second},
		// A grant the server's clock puts after the read: no negative hold.
		{"ahead of the read", Hold{After: read.Add(time.Second), By: read.Add(time.Second), How: HoldCreated}, 0, 0},
		// Bounds already there are kept where no grant is known.
		{"pending", Hold{How: HoldPending, Min: 7, Max: 9}, 7, 9},
		{"none", Hold{Min: 7, Max: 9}, 7, 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.hold.AsOf(read)
			if got.Min != c.min || got.Max != c.max || got.How != c.hold.How || !got.After.Equal(c.hold.After) || !got.By.Equal(c.hold.By) {
				t.Errorf("AsOf = %+v, want min %v max %v and the rest unchanged", got, c.min, c.max)
			}
		})
	}
}

func TestNewHoldIsPlainAndBounded(t *testing.T) {
	read := time.Now()
	ctime := read.Add(-3 * time.Second).UTC()
	h := NewHold(ctime, read, HoldBounded, read)
	if h.After != time.Unix(0, ctime.UnixNano()) || h.By != time.Unix(0, read.UnixNano()) {
		t.Errorf("times %v, %v: want them plain, as the analysis makes them", h.After, h.By)
	}
	if h.Min != 0 || h.Max != 3*time.Second || h.How != HoldBounded {
		t.Errorf("NewHold = %+v, want bounded 0 to 3s", h)
	}
}
