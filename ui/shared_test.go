package ui

import (
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// sharedPicture is a Shared kept by the test, as zklocks serve's hub
// keeps one for every session.
type sharedPicture struct {
	mu      sync.Mutex
	state   *model.State
	changed chan struct{}
}

func (s *sharedPicture) State() *model.State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

func (s *sharedPicture) Changed() <-chan struct{} { return s.changed }

func (s *sharedPicture) publish(st *model.State) {
	s.mu.Lock()
	s.state = st
	s.mu.Unlock()
	s.changed <- struct{}{}
}

// Two Apps on one shared picture each keep their own cursor and filter,
// both show each new picture, and neither changes it: not by events, not
// by ageing.
func TestSharedPicture(t *testing.T) {
	first := fixtureState().Clone()
	sh := &sharedPicture{state: first, changed: make(chan struct{}, 1)}
	now := t0
	shared := func(o *Options) { o.Shared, o.State, o.Now = sh, nil, func() time.Time { return now } }
	a, b := newTestApp(t, 100, 30, shared), newTestApp(t, 100, 30, shared)
	if a.env.state != first || b.env.state != first {
		t.Fatal("an App does not start on the shared picture")
	}
	press(a, "j", "j")
	press(b, "/", "fifo", "enter")
	if a.locks.cur.idx != 2 || b.locks.cur.idx != 0 || !b.locks.filter.active() || a.locks.filter.active() {
		t.Fatalf("cursors and filters are not each App's own: a at %d (filter %v), b at %d (filter %v)",
			a.locks.cur.idx, a.locks.filter.active(), b.locks.cur.idx, b.locks.filter.active())
	}

	// A new picture, with one more lock, reaches both.
	next := first.Clone()
	l := newTree("/locks/new-one").analyze(nil, longHeld)
	next.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: l.Path, Lock: l})
	next = next.Clone()
	sh.publish(next)
	msg := waitForShared(sh)()
	for _, app := range []*App{a, b} {
		_, cmd := app.Update(msg)
		if app.env.state != next {
			t.Fatal("an App did not take the new picture")
		}
		if cmd == nil {
			t.Fatal("an App stopped waiting for pictures")
		}
	}
	if sc := screen(a); !strings.Contains(sc, "/locks/new-one") {
		t.Fatalf("the new lock is not shown:\n%s", sc)
	}
	if a.locks.cur.idx != 2 {
		t.Fatalf("a new picture moved the cursor to %d", a.locks.cur.idx)
	}

	// Time passing ages a picture; a shared one is aged by its keeper,
	// never by an App.
	untouched := next.Clone()
	now = t0.Add(2 * time.Hour)
	if !untouched.Clone().AgeTo(now) {
		t.Fatal("the test's picture would not age: it cannot tell whether an App ages it")
	}
	a.Update(tickMsg(now))
	b.Update(tickMsg(now))
	if !reflect.DeepEqual(next, untouched) {
		t.Fatal("an App changed the shared picture as time passed")
	}

	// The keeper stops: the App says its picture is no longer updated.
	close(sh.changed)
	a.Update(waitForShared(sh)())
	if !a.closed || !strings.Contains(a.flash.text, "no longer updated") {
		t.Fatalf("a closed picture: closed %v, %q", a.closed, a.flash.text)
	}
}

// A read-only session says why each of its operations is disabled, and
// opens no dialog.
func TestReadOnlyWhy(t *testing.T) {
	a := newTestApp(t, 100, 30, func(o *Options) {
		o.ReadOnly, o.ReadOnlyWhy, o.Actions = true, "your SSH key's role is view", &model.Actions{}
	})
	press(a, "enter")
	for k, what := range map[string]string{"a": "acquire", "D": "force-release", "v": "revoke", "F": "fence"} {
		a.flash = flash{}
		press(a, k)
		want := "read-only: " + what + " is disabled (your SSH key's role is view)"
		if !strings.HasPrefix(a.flash.text, "read-only: "+what) || !strings.HasSuffix(a.flash.text, "(your SSH key's role is view)") || openDialog(a) != nil {
			t.Errorf("%s: said %q (dialog %v), want %q", k, a.flash.text, openDialog(a) != nil, want)
		}
	}
}
