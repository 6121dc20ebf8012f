package model

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// pendingLockOf is lockOf with the contenders at the given sequence
// numbers listed but not read yet: names and owners only, as a listing
// and the servers' dump tell them.
func pendingLockOf(path string, pending map[int]bool, seqs ...int) *lockcore.Lock {
	t := lockcore.Tree{Path: path, ReadAt: t0}
	for _, s := range seqs {
		n := lockcore.Node{Name: fmt.Sprintf("_c_%032x-lock-%010d", s, s),
			Stat: zk.Stat{Czxid: int64(s + 1), EphemeralOwner: int64(100 + s), Ctime: t0.Add(-time.Minute).UnixMilli()}}
		if pending[s] {
			n = lockcore.Node{Name: n.Name, Stat: zk.Stat{EphemeralOwner: n.Stat.EphemeralOwner}, Pending: true}
		}
		t.Children = append(t.Children, n)
	}
	l := lockcore.Analyze(t, nil, lockcore.Options{})
	return &l
}

func all(seqs ...int) map[int]bool {
	m := map[int]bool{}
	for _, s := range seqs {
		m[s] = true
	}
	return m
}

func synced() *State {
	s := NewState()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventConn, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}})
	return s
}

func TestPendingCountFollowsLocksAsTheyAreRead(t *testing.T) {
	s := synced()
	steps := []struct {
		name string
		ev   zkwatch.Event
		want int
	}{
		{"a listed lock", lockEvent(pendingLockOf("/a", all(0, 1, 2), 0, 1, 2)), 3},
		{"another", lockEvent(pendingLockOf("/b", all(0, 1), 0, 1)), 5},
		{"its holder read", lockEvent(pendingLockOf("/a", all(1, 2), 0, 1, 2)), 4},
		{"all read", lockEvent(pendingLockOf("/a", nil, 0, 1, 2)), 2},
		{"the other gone", zkwatch.Event{Kind: zkwatch.EventLockGone, At: t0, Path: "/b"}, 0},
	}
	for _, st := range steps {
		s.Apply(st.ev)
		if got := s.Pending(); got != st.want {
			t.Fatalf("%s: pending = %d, want %d", st.name, got, st.want)
		}
	}
}

func TestReadingAPendingContenderIsNoEvent(t *testing.T) {
	s := synced()
	s.Apply(lockEvent(pendingLockOf("/t", all(0, 1), 0, 1)))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	s.Apply(lockEvent(pendingLockOf("/t", all(1), 0, 1))) // the holder read
	s.Apply(lockEvent(pendingLockOf("/t", nil, 0, 1)))    // the waiter read
	if got := changes(s); got != "" {
		t.Fatalf("history = %q, want nothing: reading a contender changes nothing in the lock", got)
	}
	if s.Grants != 0 {
		t.Errorf("grants = %d, want 0", s.Grants)
	}
	// What does happen is still logged, pending or read.
	s.Apply(lockEvent(pendingLockOf("/t", all(2), 0, 1, 2)))
	s.Apply(lockEvent(pendingLockOf("/t", all(1), 1, 2)))
	s.Apply(lockEvent(pendingLockOf("/t", nil, 1, 2)))
	if got, want := changes(s), "joined:2 released:0 granted:1 "; got != want {
		t.Fatalf("history = %q, want %q", got, want)
	}
}

func TestAPendingContenderOfALockFoundLateIsLoggedOnceRead(t *testing.T) {
	s := synced()
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0.Add(-10 * time.Second)})
	early := foundLock("/f", t0.Add(-time.Hour), t0.Add(-3*time.Second))
	listed := *early
	listed.Participants = append([]lockcore.Participant(nil), early.Participants...)
	for i := range listed.Participants {
		p := &listed.Participants[i]
		p.Pending, p.Token, p.Ctime, p.Age, p.Hold = true, 0, time.Time{}, 0, lockcore.Hold{}
		if p.Role == lockcore.RoleHolder {
			p.Hold.How = lockcore.HoldPending
		}
	}
	s.Apply(lockEvent(&listed))
	if len(s.History) != 0 {
		t.Fatalf("history while not read = %q, want nothing: when they joined is not known", changes(s))
	}
	s.Apply(lockEvent(early))
	if got, want := changes(s), "joined:1 "; got != want {
		t.Fatalf("history once read = %q, want %q: the holder was there before the first sync", got, want)
	}
	if !s.History[0].Reconstructed || !s.History[0].At.Equal(t0.Add(-3*time.Second)) {
		t.Errorf("join = %+v, want reconstructed at its ctime", s.History[0])
	}
}

func TestPendingHoldersSortAfterKnownOnesAndAreMarked(t *testing.T) {
	s := synced()
	s.Apply(lockEvent(pendingLockOf("/known", nil, 0, 1)))
	s.Apply(lockEvent(pendingLockOf("/listed", all(0, 1), 0, 1)))
	s.Apply(lockEvent(pendingLockOf("/empty", nil)))
	var got []string
	for _, l := range s.SortedLocks(ByAge) {
		got = append(got, l.Path+" "+OldestHoldShort(l))
	}
	if want := []string{"/known ≤1m00s", "/listed …", "/empty -"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("by age = %q, want %q", got, want)
	}
	if at, ok := LongestWait(s.Locks["/listed"]); ok {
		t.Errorf("longest wait of a lock whose waiter is not read = %v, want none", at)
	}
	h, known, pending := OldestHold(s.Locks["/listed"])
	if known || pending != 1 || HoldShort(h) == "0s" {
		t.Errorf("oldest hold = %+v known %v pending %d, want unknown, one pending", h, known, pending)
	}
	if got := OldestHoldShortOf(lockcore.Hold{How: lockcore.HoldSeen, Max: time.Minute}, true, 1); got != "1m00s+…" {
		t.Errorf("known hold with a holder not read = %q, want 1m00s+…", got)
	}
}

func TestActionsRefuseANodeNotReadYet(t *testing.T) {
	var log bytes.Buffer
	a := &Actions{ZK: nil, Audit: NewAudit(&log)}
	p := pendingLockOf("/p", all(0), 0).Participants[0]
	if err := CheckRead(p); !errors.Is(err, ErrNotRead) || !strings.Contains(err.Error(), "try again in a moment") {
		t.Fatalf("CheckRead = %v, want ErrNotRead", err)
	}
	e := lockclient.ExpectParticipant(p)
	for name, act := range map[string]func() error{
		"force-release": func() error { return a.ForceRelease(t.Context(), e) },
		"revoke":        func() error { return a.Revoke(t.Context(), e) },
		"fence":         func() error { return a.Fence(t.Context(), []lockclient.Expect{e}) },
	} {
		if err := act(); !errors.Is(err, ErrNotRead) {
			t.Errorf("%s of a node not read: %v, want ErrNotRead", name, err)
		}
	}
	if log.Len() != 0 {
		t.Errorf("audit log = %q, want nothing: nothing was tried", log.String())
	}
}

func TestPendingWaitersSortAfterKnownWaits(t *testing.T) {
	s := synced()
	s.Apply(lockEvent(pendingLockOf("/known", nil, 0, 1)))
	s.Apply(lockEvent(pendingLockOf("/listed", all(1), 0, 1)))
	s.Apply(lockEvent(pendingLockOf("/heldonly", all(0), 0)))
	var got []string
	for _, l := range s.SortedLocks(ByWait) {
		got = append(got, l.Path)
	}
	if want := "/known,/listed,/heldonly"; strings.Join(got, ",") != want {
		t.Fatalf("by wait = %q, want %s: known waits, then waiters not read, then none", got, want)
	}
}

func TestAPendingContenderFoundLateAndGrantedBeforeItIsReadIsGrantedOnce(t *testing.T) {
	s := synced()
	// The contenders were created (a minute before t0) after the first
	// sync: once read, their joins are found to be the log's.
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0.Add(-2 * time.Minute)})
	s.Apply(lockEvent(pendingLockOf("/f", all(0, 1), 0, 1)))
	s.Apply(lockEvent(pendingLockOf("/f", all(1), 1))) // 0 released, 1 granted, not read
	s.Apply(lockEvent(pendingLockOf("/f", nil, 1)))    // 1 read
	if got, want := changes(s), "released:0 granted:1 "; got != want {
		t.Fatalf("history = %q, want %q", got, want)
	}
}

// A join shown from its lock's listing, before the joiner was read (no
// session, no token), is completed by the read: the log names the
// joiner's session once it is known, and logs nothing more.
func TestAJoinLoggedBeforeItsReadGetsItsSession(t *testing.T) {
	s := synced()
	s.Apply(lockEvent(lockOf("/t", 0)))
	s.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0})
	listed := pendingLockOf("/t", all(1), 0, 1)
	// As the watcher reports a join before its read: no owner either.
	unowned := lockcore.Tree{Path: "/t", ReadAt: t0}
	for _, p := range listed.Participants {
		n := lockcore.Node{Name: p.Node, Stat: zk.Stat{Czxid: p.Token, EphemeralOwner: p.Session, Ctime: t0.Add(-time.Minute).UnixMilli()}}
		if p.Pending {
			n = lockcore.Node{Name: p.Node, Pending: true}
		}
		unowned.Children = append(unowned.Children, n)
	}
	early := lockcore.Analyze(unowned, nil, lockcore.Options{})
	s.Apply(lockEvent(&early))
	if len(s.History) != 1 || s.History[0].Change != Joined || s.History[0].Session != 0 {
		t.Fatalf("history before the read = %+v, want one join of no known session", s.History)
	}
	s.Apply(lockEvent(lockOf("/t", 0, 1)))
	if len(s.History) != 1 || s.History[0].Session != 101 || s.History[0].Token != 2 {
		t.Fatalf("history once read = %+v, want the one join, of session 101, token 2", s.History)
	}
}
