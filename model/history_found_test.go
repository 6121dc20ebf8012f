package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// foundLock analyses an exclusive lock read at t0 whose contenders were
// created at the given times (zero: unknown); the parent's children last
// changed at the last contender's creation.
func foundLock(path string, created ...time.Time) *lockcore.Lock {
	tr := lockcore.Tree{Path: path, ReadAt: t0, Self: lockcore.Node{Name: "l", Stat: zk.Stat{Pzxid: int64(len(created))}}}
	for i, c := range created {
		ctime := int64(0)
		if !c.IsZero() {
			ctime = c.UnixMilli()
		}
		tr.Children = append(tr.Children, lockcore.Node{
			Name: fmt.Sprintf("_c_%032x-lock-%010d", i, i),
			Stat: zk.Stat{Czxid: int64(i + 1), Mzxid: int64(i + 1), EphemeralOwner: int64(100 + i), Ctime: ctime}})
	}
	l := lockcore.Analyze(tr, nil, lockcore.Options{})
	return &l
}

func TestStateLogsAFoundLockFromItsCtimes(t *testing.T) {
	synced := t0.Add(-10 * time.Second)
	cases := []struct {
		name    string
		created []time.Time
		want    string // change:seq@seconds before t0, * when reconstructed
	}{
		{"joins after the first sync, at their ctimes",
			[]time.Time{t0.Add(-3 * time.Second), t0.Add(-2 * time.Second)},
			"joined:0@3s* granted:0@0s joined:1@2s* "},
		{"one contender, created as found: its grant is its creation",
			[]time.Time{t0.Add(-time.Second)},
			"joined:0@1s* granted:0@1s* "},
		{"a contender there before the first sync is not logged",
			[]time.Time{t0.Add(-time.Minute), t0.Add(-2 * time.Second)},
			"joined:1@2s* "},
		{"unknown ctime: logged when seen",
			[]time.Time{{}},
			"joined:0@0s granted:0@0s "},
		{"a ctime after the read (clock skew): logged when seen",
			[]time.Time{t0.Add(time.Second)},
			"joined:0@0s granted:0@0s "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := NewState()
			s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
			s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: synced})
			s.Apply(lockEvent(foundLock("/l", tc.created...)))
			got := ""
			for _, h := range s.History {
				mark := ""
				if h.Reconstructed {
					mark = "*"
				}
				got += fmt.Sprintf("%s:%d@%s%s ", h.Change, h.Seq, t0.Sub(h.At).Round(time.Second), mark)
			}
			if got != tc.want {
				t.Errorf("history = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTimelineMarksReconstructedSpans(t *testing.T) {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0.Add(-time.Minute)})
	s.Apply(lockEvent(foundLock("/l", t0.Add(-3*time.Second), t0.Add(-2*time.Second))))
	tl := s.Timeline("/l", t0.Add(-time.Minute), t0)
	if len(tl.Spans) != 3 {
		t.Fatalf("spans = %+v", tl.Spans)
	}
	for _, sp := range tl.Spans {
		reconstructed := !sp.From.Equal(t0)
		if sp.Reconstructed != reconstructed || sp.Before {
			t.Errorf("span %+v: reconstructed %v, want %v", sp, sp.Reconstructed, reconstructed)
		}
	}
	if w := tl.Spans[0]; w.Hold || !w.From.Equal(t0.Add(-3*time.Second)) || !w.To.Equal(t0) {
		t.Errorf("the holder's wait = %+v, want from its ctime to when it was seen holding", w)
	}
}
