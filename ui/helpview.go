package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
)

// The help overlay: the focused screen's keys, then how to read the
// screen.

// helpLines are the help overlay's lines: every key, and how to read the
// screen, each explanation wrapped to the width under its term.
func (a *App) helpLines() []string {
	st := a.env.st
	lines := []string{st.strong.s(" Keys") + st.muted.s("  (? or esc closes; ↑↓ pgup pgdn scroll)"), ""}
	keys := a.keys()
	for _, l := range strings.Split(a.help.FullHelpView(keys.columns()), "\n") {
		lines = append(lines, " "+l)
	}
	lines = append(lines, a.operationsHelp(keys.in(colOperate))...)
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
		lines = append(lines, legendLines(e.term, e.p, e.text, a.width)...)
	}
	return append(lines, a.demoLegend()...)
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

// operationsHelp is the help overlay's line on the operations bs, the
// enabled ones (one line: they do not fit as a further column at 80 cells).
func (a *App) operationsHelp(bs []key.Binding) []string {
	var parts []string
	for _, b := range bs {
		if b.Enabled() {
			parts = append(parts, a.env.st.strong.s(b.Help().Key)+" "+b.Help().Desc)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{"", " " + strings.Join(parts, " · ")}
}

// helpRoom is how many help lines fit above the help's footer.
func (a *App) helpRoom() int { return max(a.height-4, 1) }

// scrollHelp moves the help overlay by n lines (or to an end), within it.
func (a *App) scrollHelp(n int) {
	a.helpTop = max(0, min(a.helpTop+n, len(a.helpLines())-a.helpRoom()))
}

// helpView is the help overlay, from line helpTop; when it is longer than
// the screen, its last line says where it is and how to scroll.
func (a *App) helpView(h int) string {
	lines := a.helpLines()
	if len(lines) <= h {
		return strings.Join(lines, "\n")
	}
	room := h - 1
	top := max(0, min(a.helpTop, len(lines)-room))
	out := append(append([]string(nil), lines[top:top+room]...),
		a.env.st.muted.s(" lines "+itoa(top+1)+"–"+itoa(top+room)+" of "+itoa(len(lines))+
			" · ↑↓/jk pgup/pgdn g/G scroll · ? or esc closes"))
	return strings.Join(out, "\n")
}
