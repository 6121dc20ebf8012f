package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// helpOverlay is the help screen: the focused screen's keys, then how to
// read the screen, scrolled from line top.
type helpOverlay struct {
	st     *styles
	help   help.Model
	keys   keySet // the focused screen's map, which it lists
	demo   bool   // explain the demo's counters too
	own    keySet // its own keys: scrolling, closing
	scroll scroller
	w, h   int
	closed bool
}

// newHelp is the help over a's focused screen.
func newHelp(a *App) overlay {
	h := &helpOverlay{st: a.env.st, help: a.help, keys: a.keys(), demo: a.opt.Demo != nil}
	h.own = a.env.keys.helpKeys(h)
	return h
}

func (h *helpOverlay) setSize(w, ht int) {
	h.w, h.h = w, ht
	h.help.Width = w
}

func (h *helpOverlay) update(a *App, msg tea.KeyMsg) (bool, tea.Cmd) {
	cmd := a.dispatch(h.own, msg)
	return h.closed, cmd
}

func (h *helpOverlay) bottom() []string { return nil }

// lines are the help's lines: every key, and how to read the screen, each
// explanation wrapped to the width under its term.
func (h *helpOverlay) lines() []string {
	st := h.st
	lines := []string{st.strong.s(" Keys") + st.muted.s("  (? or esc closes; ↑↓ pgup pgdn scroll)"), ""}
	lines = append(lines, h.keyLines()...)
	lines = append(lines, operationsHelp(st, h.keys.in(colOperate))...)
	lines = append(lines, "", st.strong.s(" Reading the screen"))
	for _, e := range []struct {
		term string
		p    paint
		text string
	}{
		{"holder", st.holder, "has the lock (or a lease) now, by its recipe's rule"},
		{"waiter", st.waiter, "queued; waits on the node it watches, chained to a holder"},
		{"modes", paint{}, "R read · W write · X exclusive · lease semaphore lease"},
		{"FOR", paint{}, "how long a holder has held, from when it got the lock; ≤N: at most N, " +
			"its node's age, as when it got the lock was not seen; for a waiter, how long it has waited"},
		{"token", paint{}, "the node's czxid, a fencing token that only grows"},
		{"client", paint{}, "the address the servers saw for the session (cons); ? when they did not say; " +
			"disconnected: every server answered and none lists it, so its nodes may have outlived it; " +
			"unknown yet: it joined after the servers were last asked"},
		{"watches: server", paint{}, "what each waiter watches, from the servers' own watch table (wchc)"},
		{"watches: recipe", paint{}, "what each waiter's recipe says it watches: the servers' table is refused, " +
			"too costly (--watch-budget) or older than the lock's last change"},
		{"updated", paint{}, "when the watches last reported a change; every lock is read in full at each " +
			"(re)connect, and the watches keep it current after"},
		{"! ~", st.warning, "before a contender: ! an anomaly names it; ~ it may be long-held, or a chain " +
			"goes on to a node that cannot be followed (what is not known for sure)"},
		{"joined*", paint{}, "in the event log: a join (or grant) that came before its lock was found, " +
			"at its node's creation time (ctime)"},
		{"⚠ partial", st.warning, "locks may be missing (held only by persistent nodes, or any lock when dump " +
			"is not answered): the walk that finds them has not ended (c shows its cost)"},
		{" STALE ", st.badgeStale, "not connected or not synced: the picture may be out of date"},
		{" READ-ONLY ", st.badgeRO, "nothing that changes ZooKeeper is allowed"},
		{" WRITE ", st.badgeWrite, "the operations (acquire, release, force-release, revoke, fence) may change " +
			"ZooKeeper, each after a y and written to the audit log"},
		{"⎈ name", st.strong, "the context (named cluster) of the config file; :ctx lists them, :ctx NAME switches"},
	} {
		lines = append(lines, legendLines(e.term, e.p, e.text, h.w)...)
	}
	if h.demo {
		lines = append(lines, demoLegend(st, h.w)...)
	}
	return lines
}

// keyLines are the key columns, side by side as many as fit the width
// and the rest below them, so that every key is readable at 80 cells:
// bubbles' help cuts the columns that do not fit to "…".
func (h *helpOverlay) keyLines() []string {
	m := h.help
	m.Width = 0 // measured here, never cut
	var lines []string
	cols := nonEmpty(h.keys.columns())
	for len(cols) > 0 {
		n := len(cols)
		for n > 1 && width(widestLine(m.FullHelpView(cols[:n]))) > h.w-1 {
			n--
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		for _, l := range strings.Split(m.FullHelpView(cols[:n]), "\n") {
			lines = append(lines, " "+l)
		}
		cols = cols[n:]
	}
	return lines
}

// nonEmpty is cols without those that have no enabled binding, which the
// help leaves out.
func nonEmpty(cols [][]key.Binding) [][]key.Binding {
	var out [][]key.Binding
	for _, c := range cols {
		for _, b := range c {
			if b.Enabled() {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

func widestLine(s string) string {
	widest := ""
	for _, l := range strings.Split(s, "\n") {
		if width(l) > width(widest) {
			widest = l
		}
	}
	return widest
}

// legendLines is one term of the legend: the term, then its explanation
// wrapped to w cells, continued under itself.
func legendLines(term string, p paint, text string, w int) []string {
	const col = 12
	lead := " " + p.s(term)
	pad := col - width(term)
	if pad < 1 {
		lead += "\n" + strings.Repeat(" ", col+1)
	} else {
		lead += strings.Repeat(" ", pad)
	}
	indent := strings.Repeat(" ", col+1)
	var out []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && col+1+width(line)+1+width(word) > w-1 {
			out = append(out, line)
			line = word
			continue
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	out = append(out, line)
	for i := range out {
		if i == 0 {
			out[i] = lead + out[i]
		} else {
			out[i] = indent + out[i]
		}
	}
	return strings.Split(strings.Join(out, "\n"), "\n")
}

// operationsHelp is the help's line on the operations bs, the enabled
// ones (one line: they do not fit as a further column at 80 cells).
func operationsHelp(st *styles, bs []key.Binding) []string {
	var parts []string
	for _, b := range bs {
		if b.Enabled() {
			parts = append(parts, st.strong.s(b.Help().Key)+" "+b.Help().Desc)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"", " " + strings.Join(parts, " · ")}
}

// room is how many lines fit above the help's footer.
func (h *helpOverlay) room() int { return max(h.h-1, 1) }

// move scrolls the help by a movement key, within it.
func (h *helpOverlay) move(k keyMap, msg tea.KeyMsg) {
	h.scroll.move(k, msg, len(h.lines()), h.room())
}

// view is the help from line top; when it is longer than the screen, its
// last line says where it is and how to scroll.
func (h *helpOverlay) view(func() string) string {
	lines := h.lines()
	if len(lines) <= h.h {
		return strings.Join(lines, "\n")
	}
	room := h.h - 1
	top := max(0, min(h.scroll.top, len(lines)-room))
	out := append(append([]string(nil), lines[top:top+room]...),
		h.st.muted.s(" lines "+itoa(top+1)+"–"+itoa(top+room)+" of "+itoa(len(lines))+
			" · ↑↓/jk pgup/pgdn g/G scroll · ? or esc closes"))
	return strings.Join(out, "\n")
}
