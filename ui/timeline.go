package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
)

// The timeline screen (4) draws a lock's recent past: one row per session
// over a time axis ending now (in a replay, at the cursor), its waits and
// holds as bars, grants and FIFO breaks marked; then the join-to-grant
// waits and the holds as percentiles and a histogram. b shows the busiest
// locks instead, one row each. Glyphs carry the meaning, colour only
// repeats it, so it reads the same under NO_COLOR.

// timelineWindows are the zoom levels; + and - step through them.
var timelineWindows = []time.Duration{10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute,
	15 * time.Minute, time.Hour, 6 * time.Hour}

// The glyphs of the bars.
const (
	glyphHold = "█"
	// glyphGone is a hold while its session is connected to no member:
	// its client is gone, yet the lock stays held.
	glyphGone  = "▒"
	glyphWait  = "░"
	glyphGrant = "▶"
	glyphBreak = "!"
)

// busiestRows is how many locks the busiest view shows at most.
const busiestRows = 20

// timelinePane shows the timeline of the selected lock or the busiest
// locks.
type timelinePane struct {
	env     *env
	w, h    int
	zoom    int
	busiest bool
	path    string // the selected lock, followed from the other screens
}

func newTimelinePane(e *env) timelinePane { return timelinePane{env: e, zoom: 2} }

func (p *timelinePane) setSize(w, h int) { p.w, p.h = w, h }

// refresh follows the lock selected elsewhere.
func (p *timelinePane) refresh(_ int, path string) {
	if path != "" {
		p.path = path
	}
}

func (p timelinePane) update(msg tea.Msg) (timelinePane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	k := p.env.keys
	switch {
	case key.Matches(km, k.ZoomIn):
		p.zoom = max(p.zoom-1, 0)
	case key.Matches(km, k.ZoomOut):
		p.zoom = min(p.zoom+1, len(timelineWindows)-1)
	case key.Matches(km, k.Busiest):
		p.busiest = !p.busiest
	}
	return p, nil
}

func (p *timelinePane) window() time.Duration { return timelineWindows[p.zoom] }

func (p *timelinePane) summary() string {
	what := "busiest locks"
	if !p.busiest {
		what = model.Printable(p.path)
		if p.path == "" {
			what = "no lock selected"
		}
	}
	return "timeline · " + what + " · last " + model.Duration(p.window())
}

// tlRow is one row of bars.
type tlRow struct {
	label string
	spans []model.Span
}

func (p timelinePane) view() string {
	st, now := p.env.st, p.env.now()
	win := p.window()
	from := now.Add(-win)
	state := p.env.state
	var rows []tlRow
	var times model.LockTimes
	title := ""
	if p.busiest || p.path == "" {
		title = "busiest locks"
		for _, path := range state.Busiest(busiestRows, from) {
			t := state.Timeline(path, from, now)
			rows = append(rows, tlRow{label: path, spans: t.Spans})
			times.Waits = append(times.Waits, t.Waits...)
			times.Holds = append(times.Holds, t.Holds...)
		}
		sortDurations(times.Waits)
		sortDurations(times.Holds)
	} else {
		title = p.path
		times = state.Timeline(p.path, from, now)
		rows = sessionRows(times.Spans)
	}
	// Labels (session ids, paths) take what they need, up to 32 cells,
	// as long as the bars keep three quarters of the line.
	labelW := min(max(p.w/6, 10), 24)
	for _, r := range rows {
		labelW = max(labelW, min(width(model.Printable(r.label)), 32, (p.w-3)/4))
	}
	barW := max(p.w-labelW-3, 10)
	lines := []string{" " + st.strong.s(fit(model.Printable(title), max(p.w-2, 1)))}
	lines = append(lines, " "+st.muted.s(fit(axisLabel(p.busiest || p.path == ""), labelW))+" "+p.axis(from, now, barW))
	fixed := len(lines) + 1 + p.statsHeight()
	room := max(p.h-fixed, 1)
	hidden := 0
	if len(rows) > room {
		hidden = len(rows) - room + 1
		rows = rows[hidden:]
	}
	for _, r := range rows {
		lines = append(lines, " "+fitTail(model.Printable(r.label), labelW)+" "+p.bars(r.spans, from, now, barW))
	}
	if len(rows) == 0 {
		lines = append(lines, " "+st.muted.s("nothing held or waited for in this window"))
	}
	legend := st.holder.s(glyphHold) + " hold  " + st.waiter.s(glyphWait) + " wait  " + st.holder.s(glyphGrant) +
		" grant  " + st.danger.s(glyphBreak) + " FIFO broken  "
	if anyDisconnected(times.Spans) {
		legend += st.danger.s(glyphGone) + " holder disconnected  "
	}
	legend += "│ now " + p.env.clock(now)
	if first := state.FirstSync; !first.IsZero() && first.After(from) {
		legend += st.muted.s("  · seen since " + p.env.clock(first))
	}
	if hidden > 0 {
		legend += st.muted.s("  (" + itoa(hidden) + " earlier rows not shown)")
	}
	lines = append(lines, " "+legend)
	lines = append(lines, p.stats(times)...)
	return strings.Join(lines, "\n")
}

// anyDisconnected reports whether a hold among spans had its session
// connected to no member.
func anyDisconnected(spans []model.Span) bool {
	for _, sp := range spans {
		if sp.Hold && !sp.Disconnected.IsZero() {
			return true
		}
	}
	return false
}

func axisLabel(busiest bool) string {
	if busiest {
		return "lock"
	}
	return "session"
}

// sessionRows groups spans by session, in the order sessions first show.
func sessionRows(spans []model.Span) []tlRow {
	var rows []tlRow
	at := map[int64]int{}
	for _, sp := range spans {
		i, ok := at[sp.Session]
		if !ok {
			i = len(rows)
			at[sp.Session] = i
			label := "persistent"
			if sp.Session != 0 {
				label = model.SessionText(sp.Session)
			}
			rows = append(rows, tlRow{label: label})
		}
		rows[i].spans = append(rows[i].spans, sp)
	}
	return rows
}

// axis is the time axis over the bars: the window's start, middle and end.
func (p *timelinePane) axis(from, now time.Time, w int) string {
	st := p.env.st
	left, right := p.env.clock(from), p.env.clock(now)+"│"
	mid := p.env.clock(from.Add(now.Sub(from) / 2))
	line := []rune(strings.Repeat("─", w))
	put := func(at int, s string) {
		for i, r := range []rune(s) {
			if at+i >= 0 && at+i < len(line) {
				line[at+i] = r
			}
		}
	}
	put(0, left)
	if w >= 3*len(left)+4 {
		put(w/2-len(mid)/2, mid)
	}
	put(w-len([]rune(right)), right)
	return st.muted.s(string(line))
}

// bars draws spans over [from, now] in w cells: a hold wins over a wait
// in a cell, and a grant's cell is marked (a FIFO break above all).
func (p *timelinePane) bars(spans []model.Span, from, now time.Time, w int) string {
	st := p.env.st
	step := now.Sub(from) / time.Duration(w)
	if step <= 0 {
		step = 1
	}
	cell := func(t time.Time) int { return int(t.Sub(from) / step) }
	kind := make([]int, w) // 0 none, 1 wait, 2 hold, 3 hold disconnected, 4 grant, 5 break
	for _, sp := range spans {
		a, b := 0, w-1
		if !sp.From.IsZero() {
			a = max(cell(sp.From), 0)
		}
		if !sp.To.IsZero() {
			b = min(cell(sp.To), w-1)
			if b > a && sp.To.Sub(from)%step == 0 {
				b-- // a span ending on a cell's edge does not fill it
			}
		}
		k := 1
		if sp.Hold {
			k = 2
		}
		for i := a; i <= b && i < w; i++ {
			kind[i] = max(kind[i], k)
		}
		if sp.Hold && !sp.Disconnected.IsZero() && !sp.Disconnected.After(now) {
			for i := max(cell(sp.Disconnected), a, 0); i <= b && i < w; i++ {
				kind[i] = max(kind[i], 3)
			}
		}
		if sp.Hold && sp.Granted && !sp.From.Before(from) && a < w {
			g := 4
			if sp.OutOfOrder {
				g = 5
			}
			kind[a] = max(kind[a], g)
		}
	}
	var b strings.Builder
	for i := 0; i < w; {
		j := i
		for j < w && kind[j] == kind[i] {
			j++
		}
		n := j - i
		switch kind[i] {
		case 0:
			b.WriteString(strings.Repeat(" ", n))
		case 1:
			b.WriteString(st.waiter.s(strings.Repeat(glyphWait, n)))
		case 2:
			b.WriteString(st.holder.s(strings.Repeat(glyphHold, n)))
		case 3:
			b.WriteString(st.danger.s(strings.Repeat(glyphGone, n)))
		case 4:
			b.WriteString(st.holder.s(strings.Repeat(glyphGrant, n)))
		case 5:
			b.WriteString(st.danger.s(strings.Repeat(glyphBreak, n)))
		}
		i = j
	}
	return b.String()
}
