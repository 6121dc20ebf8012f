package watchtest

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// fatalTB records a Fatalf and ends the goroutine it was called in, as
// testing.T's does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fed is a Feed that has drained evs and whose watcher has not ended.
func fed(evs ...zkwatch.Event) *Feed {
	f := &Feed{state: model.NewState(), seen: map[string]time.Time{}, done: make(chan struct{})}
	for _, ev := range evs {
		f.state.Apply(ev)
		f.events = append(f.events, ev)
	}
	return f
}

// failure runs wait in a goroutine of its own and returns its Fatalf.
func failure(t *testing.T, f *Feed, what string, ok func() bool) string {
	t.Helper()
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.wait(tb, 50*time.Millisecond, func() string { return what }, ok)
	}()
	<-done
	return tb.msg
}

// A wait that times out names what it waited for and the last event seen.
func TestTimeoutNamesConditionAndLastEvent(t *testing.T) {
	at := time.Date(2026, 11, 26, 3, 4, 5, 0, time.UTC)
	f := fed(
		zkwatch.Event{Kind: zkwatch.EventConn, At: at, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		zkwatch.Event{Kind: zkwatch.EventError, At: at, Path: "/app/locks", Err: errors.New("zk: not authenticated")},
	)
	msg := failure(t, f, "the holder granted", func() bool { return false })
	for _, want := range []string{"never saw the holder granted within 50ms", "last event: error /app/locks: zk: not authenticated at 03:04:05.000 (2 events in all)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the failure %q does not say %q", msg, want)
		}
	}
}

// UntilCheck's failure is the check's last answer.
func TestUntilCheckSaysWhatIsWrong(t *testing.T) {
	f := fed(zkwatch.Event{Kind: zkwatch.EventSynced})
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.UntilCheck(tb, 50*time.Millisecond, func(s *model.State) string { return fmt.Sprintf("%d locks, want 1", len(s.Locks)) })
	}()
	<-done
	if !strings.Contains(tb.msg, "never saw 0 locks, want 1 within 50ms; last event: synced") {
		t.Errorf("the failure: %q", tb.msg)
	}
}

// A wait on a watcher that has ended fails at once and says so.
func TestEndedWatcherFailsTheWait(t *testing.T) {
	f := fed()
	close(f.done)
	start := time.Now()
	msg := failure(t, f, "a lock", func() bool { return false })
	if !strings.Contains(msg, "never saw a lock: the watcher ended; last event: none") {
		t.Errorf("the failure: %q", msg)
	}
	if time.Since(start) > 40*time.Millisecond {
		t.Errorf("the wait went on after the watcher ended: %v", time.Since(start))
	}
}

// UntilEvent finds events drained before it was called, in order, each
// after the one it last returned.
func TestUntilEventFollowsTheStream(t *testing.T) {
	first, second := &lockcore.Lock{Path: "/l"}, &lockcore.Lock{Path: "/l"}
	f := fed(zkwatch.Event{Kind: zkwatch.EventSynced}, zkwatch.Event{Kind: zkwatch.EventLock, Path: "/l", Lock: first},
		zkwatch.Event{Kind: zkwatch.EventLock, Path: "/l", Lock: second})
	isLock := func(ev zkwatch.Event) bool { return ev.Kind == zkwatch.EventLock }
	if ev := f.UntilEvent(t, "the lock", isLock); ev.Lock != first {
		t.Fatalf("the first UntilEvent returned %+v", ev)
	}
	if ev := f.UntilEvent(t, "the lock again", isLock); ev.Lock != second {
		t.Fatalf("the second UntilEvent returned %+v", ev)
	}
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	close(f.done)
	go func() { defer close(done); f.UntilEvent(tb, "a third", isLock) }()
	<-done
	if !strings.Contains(tb.msg, "never saw a third: the watcher ended") {
		t.Errorf("a third UntilEvent: %q", tb.msg)
	}
}

func TestDescribeEvent(t *testing.T) {
	at := time.Date(2026, 11, 26, 3, 4, 5, 600_000_000, time.UTC)
	for _, c := range []struct {
		ev   zkwatch.Event
		want string
	}{
		{zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: "/l", Lock: &lockcore.Lock{Participants: make([]lockcore.Participant, 2)}}, "lock /l, 2 participants at 03:04:05.600"},
		{zkwatch.Event{Kind: zkwatch.EventSynced, At: at}, "synced at 03:04:05.600"},
		{zkwatch.Event{Kind: zkwatch.EventKind(99), At: at}, "kind 99 at 03:04:05.600"},
	} {
		if got := DescribeEvent(c.ev); got != c.want {
			t.Errorf("DescribeEvent = %q, want %q", got, c.want)
		}
	}
}
