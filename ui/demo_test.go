package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// fakeDemo records the controls used and reports fixed counters.
type fakeDemo struct {
	calls []string
	stats DemoStats
	fail  error
}

func (f *fakeDemo) LockPath() string { return "/locks/orders" }
func (f *fakeDemo) Add(context.Context) (string, error) {
	f.calls = append(f.calls, "add")
	return "contender 7 joined", f.fail
}
func (f *fakeDemo) Kill() (string, error) {
	f.calls = append(f.calls, "kill")
	return "killed contender 3's session", f.fail
}
func (f *fakeDemo) Freeze() (string, error) {
	f.calls = append(f.calls, "freeze")
	f.stats.Frozen = 1
	return "hung contender 1", f.fail
}
func (f *fakeDemo) Unfreeze() (string, error) {
	f.calls = append(f.calls, "unfreeze")
	f.stats.Frozen = 0
	return "let 1 hung holder go", f.fail
}
func (f *fakeDemo) LoseReply(context.Context) (string, error) {
	f.calls = append(f.calls, "lose")
	return "contender 8 lost a create reply and waits behind its own orphan (session 0x100008e2d9b0042)", f.fail
}
func (f *fakeDemo) Naive() bool      { return false }
func (f *fakeDemo) Stats() DemoStats { return f.stats }

func newDemoApp(t *testing.T, w, h int, d *fakeDemo) *App {
	t.Helper()
	a := newTestApp(t, w, h, func(o *Options) { o.Demo = d })
	// Init's commands, less the clock's tick (which waits a second).
	for _, c := range a.Init()().(tea.BatchMsg) {
		if c == nil {
			continue
		}
		got := make(chan tea.Msg, 1)
		go func() { got <- c() }()
		select {
		case msg := <-got:
			send(a, msg)
		case <-time.After(200 * time.Millisecond):
		}
	}
	return a
}

func TestDemoOpensOnItsLockWithCounters(t *testing.T) {
	d := &fakeDemo{stats: DemoStats{WakeupsPerRelease: 41.0 / 41}}
	a := newDemoApp(t, 80, 24, d)
	if a.focused() != focusDetail || a.detail.path != "/locks/orders" {
		t.Fatalf("focused %v on %q, want the demo lock's detail", a.focused(), a.detail.path)
	}
	sc := screen(a)
	for _, want := range []string{"DEMO 1.00 wakeups/release · FIFO kept", "+ add contender", "X kill", "N herd", "Z hang", "L lose reply"} {
		if !strings.Contains(sc, want) {
			t.Errorf("screen lacks %q:\n%s", want, sc)
		}
	}
	golden(t, "demo_detail_80x24", a)

	d.stats = DemoStats{WakeupsPerRelease: 200.0 / 40, FIFOBreaks: 31, Orphans: 1}
	send(a, demoStatsMsg{stats: d.stats})
	if sc := screen(a); !strings.Contains(sc, "DEMO 5.00 wakeups/release · FIFO broken ×31 · 1 orphan") {
		t.Errorf("naive counters not shown:\n%s", sc)
	}

	// At 80×24 the help is longer than the screen: it scrolls to the
	// demo's legend at its end.
	press(a, "?")
	if sc := screen(a); !strings.Contains(sc, "lose reply") || !strings.Contains(sc, "lines 1–20 of") {
		t.Errorf("help lacks the demo's keys or where it is:\n%s", sc)
	}
	press(a, "G")
	sc = screen(a)
	for _, want := range []string{"per release: watch notifications", "FIFO", "--long-held it shows", "F fences"} {
		if !strings.Contains(sc, want) {
			t.Errorf("help's end lacks %q:\n%s", want, sc)
		}
	}
	golden(t, "demo_help_end_80x24", a)
	press(a, "k", "pgup", "g")
	if sc := screen(a); !strings.Contains(sc, "lines 1–20 of") {
		t.Errorf("g does not go back to the top:\n%s", sc)
	}
	press(a, "esc")
	if helpOpen(a) {
		t.Error("esc does not close the help")
	}
}

func TestDemoKeys(t *testing.T) {
	d := &fakeDemo{}
	a := newDemoApp(t, 120, 40, d)
	press(a, "+")
	if !strings.Contains(screen(a), "contender 7 joined") {
		t.Errorf("Add's answer not shown:\n%s", screen(a))
	}
	press(a, "X", "Z", "Z", "L")
	if got := strings.Join(d.calls, " "); got != "add kill freeze unfreeze lose" {
		t.Errorf("calls %q, want add kill freeze unfreeze lose", got)
	}
	d.fail = errors.New("demo: no holder")
	press(a, "Z")
	if sc := screen(a); !strings.Contains(sc, "✗ demo: no holder") {
		t.Errorf("the control's error not shown:\n%s", sc)
	}
	// Typing in a filter is not a control.
	press(a, "esc", "3", "/", "X")
	if n := len(d.calls); n != 6 {
		t.Errorf("%d calls after typing X in the filter, want 6", n)
	}
}

func TestNoDemoNoDemoKeys(t *testing.T) {
	a := newTestApp(t, 120, 40)
	before := screen(a)
	// a is acquire outside demo mode (operate_own.go): not a demo key.
	press(a, "X", "Z", "L")
	if screen(a) != before {
		t.Errorf("demo keys changed the screen outside demo mode")
	}
	press(a, "?")
	if sc := screen(a); strings.Contains(sc, "lose reply") || strings.Contains(sc, "wakeups") {
		t.Errorf("help shows the demo outside demo mode:\n%s", sc)
	}
}

// The demo's flash lines at 80 columns start with the key to press and
// what it does, before the details that may be cut.
func TestDemoFlashLinesPutTheKeyFirst(t *testing.T) {
	d := &fakeDemo{}
	a := newDemoApp(t, 80, 24, d)
	press(a, "L")
	lines := strings.Split(screen(a), "\n")
	if msg := lines[len(lines)-2]; !strings.HasPrefix(msg, " ● F, y fences the orphan · contender 8 lost a create reply") {
		t.Errorf("after L: %q", msg)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "(session 0x100008e2d9b0042)") {
		t.Errorf("the message is cut: %q", last)
	}
	golden(t, "demo_lose_reply_80x24", a)
	press(a, "Z")
	if line := statusLine(a); !strings.HasPrefix(line, "Z lets it go · hung contender 1") {
		t.Errorf("after Z: %q", line)
	}
}
