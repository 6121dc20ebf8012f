package ui

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// DemoControls drive a running `zklocks demo` from the UI. Each control
// returns a sentence for the status line.
// Add and LoseReply start a session and block until it is established.
type DemoControls interface {
	// LockPath is the demo's lock, which the UI opens on.
	LockPath() string
	Add(ctx context.Context) (string, error)
	Kill() (string, error)
	Freeze() (string, error)
	Unfreeze() (string, error)
	LoseReply(ctx context.Context) (string, error)
	// Naive: the demo's lock is the naive one, whose LoseReply orphan is
	// the lock node itself (freed by a force-release, not a fence).
	Naive() bool
	Stats() DemoStats
}

// DemoStats are the demo's counters that the UI shows.
type DemoStats struct {
	// WakeupsPerRelease: the watch notifications each release delivered to
	// the other contenders' sessions, on average.
	WakeupsPerRelease float64
	// FIFOBreaks counts grants that overtook a contender waiting longer.
	FIFOBreaks int
	// Frozen is how many holders are frozen; Orphans how many nodes whose
	// create reply was lost are still there.
	Frozen, Orphans int
}

// demoTimeout bounds a control that starts a session.
const demoTimeout = 15 * time.Second

// demoStatsMsg carries the demo's counters, read once a second.
type demoStatsMsg struct{ stats DemoStats }

func readDemoStats(d DemoControls) tea.Cmd {
	return func() tea.Msg { return demoStatsMsg{stats: d.Stats()} }
}

// demoDoneMsg is what a demo control said.
type demoDoneMsg struct {
	text string
	err  error
	// stats are the counters right after the control.
	stats DemoStats
}

// demoAction runs a control away from the UI's goroutine.
func demoAction(d DemoControls, do func(ctx context.Context) (string, error)) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), demoTimeout)
		defer cancel()
		text, err := do(ctx)
		return demoDoneMsg{text: text, err: err, stats: d.Stats()}
	}
}

// The demo's bindings (keys.go), one each; they are bound only when
// Options.Demo is set.

// demoAdd adds a contender.
func demoAdd(a *App, _ tea.KeyMsg) tea.Cmd {
	d := a.opt.Demo
	return demoAction(d, d.Add)
}

// demoKill kills a contender's session.
func demoKill(a *App, _ tea.KeyMsg) tea.Cmd {
	d := a.opt.Demo
	return demoAction(d, func(context.Context) (string, error) { return d.Kill() })
}

// demoHang hangs the longest holder, or lets the hung one go.
func demoHang(a *App, _ tea.KeyMsg) tea.Cmd {
	d := a.opt.Demo
	return demoAction(d, func(context.Context) (string, error) {
		if d.Stats().Frozen > 0 {
			return d.Unfreeze()
		}
		text, err := d.Freeze()
		return "Z lets it go · " + text, err
	})
}

// demoSwitch leaves for the demo of the other lock, fair or naive.
func demoSwitch(a *App, _ tea.KeyMsg) tea.Cmd {
	if a.opt.DemoSwitch == nil {
		a.say("N is off: a recording (--record) holds one run of the demo", true)
		return nil
	}
	a.say("switching the demo to the "+a.opt.DemoSwitch()+" lock", false)
	return tea.Quit
}

// demoLoseReply loses a contender's create reply, and says how to clear
// the orphan it leaves.
func demoLoseReply(a *App, _ tea.KeyMsg) tea.Cmd {
	d, k := a.opt.Demo, a.env.keys
	hint := keyHint(k.Fence, "fences the orphan")
	if d.Naive() {
		hint = "on the lock node, " + keyHint(k.ForceRelease, "force-releases the orphan")
	}
	return demoAction(d, func(ctx context.Context) (string, error) {
		text, err := d.LoseReply(ctx)
		return hint + " · " + text, err
	})
}

// keyHint says which key does what, confirmed with y: "F, y fences…".
func keyHint(b key.Binding, does string) string {
	return b.Help().Key + ", y " + does
}

func (a *App) demoDone(msg demoDoneMsg) {
	a.demoStats = msg.stats
	if msg.err != nil {
		a.say(msg.err.Error(), true)
		return
	}
	a.say(msg.text, false)
}

// demoSegment is the status bar's demo counters: wakeups per release (the
// watch notifications a release delivered to the other contenders'
// sessions, the releaser's notice of its own delete not counted) and
// whether a grant ever overtook a longer waiter.
func demoSegment(st *styles, s DemoStats) segment {
	text := "DEMO " + fmt.Sprintf("%.2f", s.WakeupsPerRelease) + " wakeups/release · "
	p := st.accent
	switch {
	case s.FIFOBreaks > 0:
		text += "FIFO broken ×" + itoa(s.FIFOBreaks)
		p = st.warning
	default:
		text += "FIFO kept"
	}
	if s.Frozen > 0 {
		text += " · " + itoa(s.Frozen) + " hung"
	}
	if n := s.Orphans; n > 0 {
		text += " · " + itoa(n) + " orphan"
		p = st.danger
	}
	return segment{text: text, p: p}
}

// demoLegend explains the demo's counters in the help, w cells wide.
func demoLegend(st *styles, w int) []string {
	lines := []string{"", st.strong.s(" Demo")}
	for _, e := range [][2]string{
		{"wakeups", "per release: watch notifications each release delivered to the other contenders' sessions " +
			"(a holder's notice of its own delete is not counted): 1 for a fair lock, about the number of waiters " +
			"for the naive one"},
		{"FIFO", "whether a grant ever overtook a contender waiting longer"},
		{"+ X", "add a contender · kill one's session: its node vanishes and the chain heals"},
		{"Z", "hangs the holder that has held longest: alive, pinging, never releasing (Z again lets it go); past --long-held it shows as long-held and hung"},
		{"L", "loses a create reply: the contender retries and waits behind its own orphan; F fences the orphan"},
	} {
		lines = append(lines, legendLines(e[0], paint{}, e[1], w)...)
	}
	return lines
}
