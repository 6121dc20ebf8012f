package model

import (
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// queuedLong is a lock whose holder queued an hour: seen getting the lock
// at t0 when seen is true, else with its grant unknown.
func queuedLong(seen bool) *lockcore.Lock {
	holder := lockcore.Node{Name: "_c_00000000000000000000000000000001-lock-0000000001",
		Stat: zk.Stat{Czxid: 2, EphemeralOwner: 101, Ctime: t0.Add(-time.Hour).UnixMilli()}}
	t := lockcore.Tree{Path: "/l", ReadAt: t0, Children: []lockcore.Node{holder}}
	t.Self.Stat.Pzxid = 3 // its predecessor's delete
	if seen {
		t.Seen = &lockcore.Sightings{At: t0.Add(-time.Second), Nodes: []lockcore.Sighting{{Path: "/l/" + holder.Name, Token: 2}}}
		t.Watched = true
	}
	l := lockcore.Analyze(t, nil, lockcore.Options{LongHeld: 10 * time.Minute})
	return &l
}

func TestAgeToFlagsAHoldAsItGrows(t *testing.T) {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: "/l", Lock: queuedLong(true)})
	if s.AgeTo(t0.Add(11 * time.Minute)) {
		t.Fatal("a stale picture (not connected, not synced) is re-judged")
	}
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	if s.AgeTo(t0.Add(9*time.Minute)) || len(s.Locks["/l"].Anomalies) != 0 {
		t.Fatal("held 9 minutes, under the threshold")
	}
	if !s.AgeTo(t0.Add(11*time.Minute)) || AnomalyKinds(s.Locks["/l"])[0] != "long-held" {
		t.Fatalf("held 11 minutes: %v", AnomalyKinds(s.Locks["/l"]))
	}
	if s.AgeTo(t0.Add(12 * time.Minute)) {
		t.Fatal("nothing new after 12 minutes")
	}
}

// A session that joined after the servers were last asked is unknown yet,
// not disconnected: only a session that owned a node when they were asked
// and that none of them lists, twice a second look apart, is.
func TestClientUnknownYet(t *testing.T) {
	s := NewState()
	s.Apply(lockEvent(lockOf("/l", 0)))
	for _, asked := range []time.Duration{time.Second, time.Second + zkwatch.SecondLook} {
		s.Apply(zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(asked), ClientsComplete: true,
			ClientsAsked: t0.Add(asked), Clients: map[int64]zkwatch.ClientInfo{}})
	}
	s.Apply(lockEvent(lockOf("/l", 0, 1)))
	if got := s.Client(100).Short(); got != "disconnected" || !s.Ghost(100) {
		t.Errorf("a session owning a node when cons was asked: %q", got)
	}
	if got := s.Client(101).Short(); got != "unknown yet" || s.Ghost(101) {
		t.Errorf("a session that joined since: %q", got)
	}
}

// AgeTo looks again within a steady span when a lock arrives or when the
// clock goes back (a replay seeking to an earlier moment).
func TestAgeToLooksAgainAfterAChange(t *testing.T) {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: "/l", Lock: queuedLong(true)})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	if s.AgeTo(t0.Add(time.Minute)) {
		t.Fatal("held a minute, under the threshold")
	}
	// A second lock, read eleven minutes after its grant, arrives inside
	// the first lock's steady span.
	late := queuedLong(true)
	late.Path, late.ReadAt = "/m", late.ReadAt.Add(-11*time.Minute)
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(2 * time.Minute), Path: "/m", Lock: late})
	if !s.AgeTo(t0.Add(3*time.Minute)) || len(AnomalyKinds(s.Locks["/m"])) == 0 {
		t.Fatalf("a lock that arrived long-held is not judged: %v", AnomalyKinds(s.Locks["/m"]))
	}
	if !s.AgeTo(t0.Add(11*time.Minute)) || len(AnomalyKinds(s.Locks["/l"])) == 0 {
		t.Fatalf("held 11 minutes: %v", AnomalyKinds(s.Locks["/l"]))
	}
	if !s.AgeTo(t0.Add(5*time.Minute)) || len(AnomalyKinds(s.Locks["/l"])) != 0 {
		t.Fatalf("back at 5 minutes, still flagged: %v", AnomalyKinds(s.Locks["/l"]))
	}
}
