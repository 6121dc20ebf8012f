package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/check"
	"github.com/zklocks/zklocks/model/fleet"
)

// The fleet screen: every context of the config file, one row each,
// worst first, from light polls (a session and one read of the locks
// each, closed at once) rather than a watcher per cluster. enter opens a
// cluster's locks (the UI connects to it as :ctx does), esc comes back.

// FleetSource is every cluster's last poll, as fleet.Poller keeps them.
type FleetSource interface {
	// Start starts polling, if it has not started; it returns at once.
	Start()
	// Started reports whether Start was called.
	Started() bool
	// Snapshot is every cluster's last row, worst first, and a channel
	// closed at the next change.
	Snapshot() ([]fleet.Cluster, <-chan struct{})
	// PollNow polls every cluster again without waiting.
	PollNow()
	// Interval is the time between a cluster's polls.
	Interval() time.Duration
}

// fleetChangedMsg says a cluster's row changed.
type fleetChangedMsg struct{}

// waitFleet waits for the next change of the fleet's rows.
func waitFleet(changed <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		<-changed
		return fleetChangedMsg{}
	}
}

// fleetPane lists the clusters. The cursor follows its cluster by name
// as the rows re-sort.
type fleetPane struct {
	list
	src  FleetSource // nil with no fleet screen
	rows []fleet.Cluster
	sel  string
	// interval is the time between a cluster's polls, said where no
	// cluster is open.
	interval time.Duration
	// changes is closed at the fleet's next change; waiting says a
	// command waits for it. Nothing waits before the polls have started,
	// as nothing would end the wait.
	changes <-chan struct{}
	waiting bool
}

// newFleetPane returns the fleet screen of src (nil for none) with the
// cluster named sel under the cursor, starting the polls when start.
func newFleetPane(e *env, src FleetSource, sel string, start bool) fleetPane {
	p := fleetPane{list: list{env: e}, src: src, sel: sel}
	if src != nil {
		p.interval = src.Interval()
		if start {
			src.Start()
		}
		p.take()
	}
	return p
}

// take takes the fleet's last snapshot.
func (p *fleetPane) take() {
	rows, changes := p.src.Snapshot()
	p.set(rows)
	p.changes = changes
}

// show starts the polls, if they have not started, takes the last
// snapshot, and waits for the next change.
func (p *fleetPane) show() tea.Cmd {
	p.src.Start()
	p.take()
	return p.wait()
}

// wait waits for the fleet's next change, once the polls have started
// and unless a command waits already.
func (p *fleetPane) wait() tea.Cmd {
	if p.src == nil || !p.src.Started() || p.waiting {
		return nil
	}
	p.waiting = true
	return waitFleet(p.changes)
}

// changed takes the snapshot of a change and waits for the next.
func (p *fleetPane) changed() tea.Cmd {
	p.take()
	return waitFleet(p.changes)
}

func (p *fleetPane) setSize(w, h int) { p.resize(w, h, len(p.rows)) }
func (p *fleetPane) refresh(int)      {}

func (p *fleetPane) prompt(int) (string, bool) { return "", false }

func (p *fleetPane) handle(msg tea.Msg) (cmd tea.Cmd) { *p, cmd = p.update(msg); return cmd }

// set takes the rows of a new snapshot.
func (p *fleetPane) set(rows []fleet.Cluster) {
	p.rows = rows
	p.seek(p.sel, len(p.rows), func(i int) string { return p.rows[i].Name })
}

// selected is the cluster under the cursor, and whether there is one.
func (p *fleetPane) selected() (fleet.Cluster, bool) {
	if p.cur.idx >= len(p.rows) {
		return fleet.Cluster{}, false
	}
	return p.rows[p.cur.idx], true
}

func (p fleetPane) update(msg tea.Msg) (fleetPane, tea.Cmd) {
	if msg, ok := msg.(tea.KeyMsg); ok && key.Matches(msg, p.env.keys.Repoll) {
		p.src.PollNow()
		return p, func() tea.Msg { return flashMsg{text: "polling every cluster again"} }
	}
	// Its key map hands it no filter key: the rows are never filtered.
	p.listMsg(msg, len(p.rows), func() {}, p.remember)
	return p, nil
}

// remember makes the cluster under the cursor the one to follow.
func (p *fleetPane) remember() {
	if c, ok := p.selected(); ok {
		p.sel = c.Name
	}
}

// summary counts the clusters at each status.
func (p *fleetPane) summary() string {
	var b strings.Builder
	b.WriteString(count(len(p.rows), "cluster", "clusters"))
	for _, st := range []check.Status{check.Critical, check.Unknown, check.Warning} {
		n := 0
		for _, c := range p.rows {
			if c.Reach != fleet.Pending && c.Status() == st {
				n++
			}
		}
		if n > 0 {
			b.WriteString(" · " + itoa(n) + " " + strings.ToLower(st.String()))
		}
	}
	return b.String()
}

func (p *fleetPane) columns() []column {
	return []column{
		{title: "CONTEXT", width: 8, most: 24, min: 6},
		{title: "STATUS", width: 8, whole: true},
		{title: "STATE", width: 11, whole: true},
		{title: "READ", width: 6, right: true, whole: true, drop: 3},
		{title: "LOCKS", width: 5, right: true, whole: true, drop: 2},
		{title: "WAITING", width: 7, right: true, whole: true, drop: 1},
		{title: "LONGEST WAIT", width: 12, right: true, whole: true},
		{title: "WORST", width: 16, flex: true},
	}
}

func (p fleetPane) view() string {
	return p.listView(p.columns(), len(p.rows), func(i int) []cell { return p.cells(p.rows[i]) }, func(i int) string {
		if p.env.context != "" && p.rows[i].Name == p.env.context {
			return "⎈"
		}
		return ""
	}, "the config file defines no contexts")
}

// cells are a cluster's cells: what its last poll found, or why it
// found nothing.
func (p *fleetPane) cells(c fleet.Cluster) []cell {
	st := p.env.st
	now := p.env.now()
	name := cell{text: model.Printable(c.Name), p: st.strong}
	switch c.Reach {
	case fleet.Pending:
		return []cell{name, {text: "-", p: st.muted}, {text: "polling…", p: st.muted}, {text: "-"}, {text: "-"}, {text: "-"},
			{text: "-"}, {text: "", p: st.muted}}
	case fleet.Unreachable, fleet.Failed:
		down := "down " + model.Duration(max(now.Sub(c.Down), time.Second).Truncate(time.Second))
		if c.Down.IsZero() {
			down = "-"
		}
		return []cell{name, {text: check.Unknown.String(), p: st.warning}, {text: c.Reach.String(), p: st.danger},
			{text: down, p: st.danger}, {text: "-"}, {text: "-"}, {text: "-"}, {text: c.Why(), p: st.danger}}
	}
	r := c.Result
	waits := st.muted
	if r.Waiters > 0 {
		waits = st.waiter
	}
	worst := cell{text: c.Why(), p: st.muted}
	switch {
	case c.Worst.Kind != "":
		worst.p = p.statusPaint(c.Worst.Status)
	case c.Status() == check.Unknown:
		worst.p = st.warning
	}
	return []cell{name, {text: c.Status().String(), p: p.statusPaint(c.Status())}, {text: c.Reach.String(), p: st.ok},
		{text: ago(now, c.At), p: st.muted},
		{text: itoa(r.Locks)}, {text: itoa(r.Waiters), p: waits}, {text: fleet.LongestWait(c), p: waits}, worst}
}

// ago is how long before now t was, to the second: "12s ago", or "now".
func ago(now, t time.Time) string {
	d := now.Sub(t).Truncate(time.Second)
	if d <= 0 {
		return "now"
	}
	return model.Duration(d) + " ago"
}

// statusPaint paints a status by what it asks of the operator.
func (p *fleetPane) statusPaint(s check.Status) paint {
	st := p.env.st
	switch s {
	case check.Critical:
		return st.danger
	case check.Warning, check.Unknown:
		return st.warning
	}
	return st.ok
}

// statusBar is the status bar with no cluster open, w cells wide: what
// the fleet screen costs the clusters, and the read-only badge.
func (p *fleetPane) statusBar(w int, readOnly bool) string {
	st := p.env.st
	segs := []segment{{text: "no cluster open", p: st.strong},
		{text: "each cluster polled every " + model.Duration(p.interval) + ": a session and one read of its locks",
			p: st.muted, drop: 1}}
	if readOnly {
		segs = append(segs, segment{text: " READ-ONLY ", p: st.badgeRO})
	}
	return joinSegments(segs, w, st.muted.s(" │ "))
}
