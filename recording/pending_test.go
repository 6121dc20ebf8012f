package recording

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// listedLock is a Curator mutex of n contenders read at `at`, those not
// in read listed but not read yet (name and owner only).
func listedLock(at time.Time, n int, read ...int) *lockcore.Lock {
	known := map[int]bool{}
	for _, i := range read {
		known[i] = true
	}
	t := lockcore.Tree{Path: "/locks/big", ReadAt: at}
	for i := range n {
		node := lockcore.Node{Name: fmt.Sprintf("_c_%032x-lock-%010d", i+1, i),
			Stat: zk.Stat{Czxid: int64(0x200000000 + i), EphemeralOwner: int64(0x500 + i), Version: 1,
				Ctime: at.Add(-time.Duration(n-i) * time.Minute).UnixMilli()}, Data: []byte(fmt.Sprintf("10.0.0.%d", i))}
		if !known[i] {
			node = lockcore.Node{Name: node.Name, Stat: zk.Stat{EphemeralOwner: node.Stat.EphemeralOwner}, Pending: true}
		}
		t.Children = append(t.Children, node)
	}
	l := lockcore.Analyze(t, nil, lockcore.Options{})
	return &l
}

func TestPendingContendersRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	lock := func(d time.Duration, n int, read ...int) zkwatch.Event {
		return zkwatch.Event{Kind: zkwatch.EventLock, At: at.Add(d), Path: "/locks/big", Lock: listedLock(at.Add(d), n, read...)}
	}
	evs := []zkwatch.Event{
		lock(0, 4),                   // listed: nothing read
		lock(time.Second, 4, 0),      // the holder read first
		lock(2*time.Second, 4, 0, 2), // a waiter, out of order
		lock(3*time.Second, 5, 0, 2), // a new contender, listed
		lock(4*time.Second, 5, 0, 1, 2, 3, 4),
		lock(5*time.Second, 5, 0, 1, 2), // read again after a resync: listed anew
	}
	rec, err := Load(record(t, evs, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for i := range evs {
		if d := diffEvent(evs[i], rec.Events[i]); d != "" {
			t.Fatalf("event %d: %s", i, d)
		}
	}
	first := rec.Events[0].Lock
	for _, p := range first.Participants {
		if !p.Pending || p.Token != 0 || !p.Ctime.IsZero() || p.Age != 0 || p.Data != nil {
			t.Fatalf("replayed %s: pending %v token %d ctime %v age %v data %q, want pending with nothing read",
				p.Node, p.Pending, p.Token, p.Ctime, p.Age, p.Data)
		}
	}
	if h := first.Participants[0].Hold; h.How != lockcore.HoldPending {
		t.Errorf("replayed holder's hold = %+v, want pending", h)
	}
	if p := rec.Events[4].Lock.Participants[3]; p.Pending || p.Token == 0 {
		t.Errorf("replayed once read: %+v, want read with its token", p)
	}
}
