package ui

import (
	"strings"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// View renders the whole screen: title bar, the focused pane, the status
// bar and a line of help or messages, always exactly the terminal's size.
func (a *App) View() string {
	if a.width == 0 || a.height == 0 {
		return ""
	}
	if a.width < minWidth || a.height < minHeight {
		return a.tooSmall()
	}
	var b strings.Builder
	b.Grow(a.width * a.height * 2)
	b.WriteString(fitLine(a.titleBar(), a.width))
	b.WriteByte('\n')
	b.WriteString(block(a.body(), a.width, a.height-3))
	b.WriteByte('\n')
	b.WriteString(fitLine(a.statusBar(), a.width))
	b.WriteByte('\n')
	b.WriteString(fitLine(a.bottomLine(), a.width))
	return b.String()
}

func (a *App) body() string {
	h := a.height - 3
	if a.showHelp {
		return a.helpView(h)
	}
	if a.showCost {
		return a.costView(h)
	}
	var v string
	switch a.focused() {
	case focusLocks:
		v = a.locks.view()
	case focusSessions:
		v = a.sessions.view()
	case focusEvents:
		v = a.events.view()
	case focusDetail:
		v = a.detail.view()
	case focusNode:
		v = a.node.view()
	case focusTimeline:
		v = a.timeline.view()
	}
	if a.dialog != nil {
		v = overlay(v, a.dialog.view(a.env.st, a.width), a.width, h)
	}
	return v
}

func (a *App) tooSmall() string {
	lines := []string{"terminal too small", itoa(a.width) + "×" + itoa(a.height) + ", need " +
		itoa(minWidth) + "×" + itoa(minHeight), "q quits"}
	return block(strings.Join(lines, "\n"), a.width, a.height)
}

// fitLine cuts or pads a painted line to exactly w cells.
func fitLine(s string, w int) string {
	if width(s) > w {
		s = clip(s, w)
	}
	if n := width(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// block makes s exactly h lines of w cells.
func block(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = fitLine(l, w)
	}
	return strings.Join(lines, "\n")
}

// overlay puts box in the middle of the body, whole lines at a time.
func overlay(body, box string, w, h int) string {
	lines := strings.Split(block(body, w, h), "\n")
	boxLines := strings.Split(box, "\n")
	top := max((h-len(boxLines))/2, 0)
	for i, l := range boxLines {
		if top+i >= len(lines) {
			break
		}
		left := max((w-width(l))/2, 0)
		lines[top+i] = strings.Repeat(" ", left) + l
	}
	return strings.Join(lines, "\n")
}

// titleBar shows the screens, the one in front highlighted, and what the
// focused pane says of itself.
func (a *App) titleBar() string {
	st := a.env.st
	names := map[focus]string{focusLocks: "Locks", focusSessions: "Sessions", focusEvents: "Events", focusTimeline: "Timeline"}
	var b strings.Builder
	b.WriteString(st.title.s(" zklocks "))
	for i, t := range tabs {
		label := names[t]
		if a.width >= 100 {
			label = itoa(i+1) + " " + label
		}
		if t == a.tab {
			// Brackets mark it without colour too (NO_COLOR).
			b.WriteString(st.tabActive.s("[" + label + "]"))
		} else {
			b.WriteString(st.tab.s(" " + label + " "))
		}
	}
	left := b.String()
	right := a.summary()
	room := a.width - width(left) - 2
	if right == "" || room < 12 {
		return left
	}
	right = fitTail(right, min(width(right), room))
	return left + strings.Repeat(" ", a.width-width(left)-width(right)-1) + st.muted.s(right) + " "
}

// summary is the focused pane's one-line description of itself.
func (a *App) summary() string {
	switch a.focused() {
	case focusLocks:
		return a.locks.summary()
	case focusSessions:
		return a.sessions.summary()
	case focusEvents:
		return a.events.summary()
	case focusDetail:
		return a.detail.summary()
	case focusNode:
		return a.node.summary()
	case focusTimeline:
		return a.timeline.summary()
	}
	return ""
}

// segment is a piece of the status bar; when the bar is too wide, the
// highest drop goes first.
type segment struct {
	text string
	p    paint
	drop int
}

// statusBar shows the connection, the session, the last sync and the
// badges that change how to read the screen: READ-ONLY and STALE.
func (a *App) statusBar() string {
	st, s := a.env.st, a.env.state
	segs := append([]segment{a.connSegment()}, a.op.segments()...)
	if a.replay != nil {
		segs = append([]segment{a.replaySegment()}, segs...)
	}
	if a.closed {
		segs = append(segs, segment{text: "■ watch stopped", p: st.danger})
	}
	server := s.Conn.Server
	if server == "" {
		server = a.opt.Server
	}
	if server != "" {
		segs = append(segs, segment{text: model.Printable(server), drop: 3})
	}
	if n := len(s.Servers); n > 0 {
		up := 0
		for _, sv := range s.Servers {
			if sv.Err == nil {
				up++
			}
		}
		text, p := itoa(n)+" servers", st.muted
		if n == 1 {
			text = "1 server"
		}
		if up < n {
			text, p = itoa(up)+"/"+itoa(n)+" servers answer", st.warning
		}
		drop := 4
		if s.Fix != "" {
			// Said once, here, and never dropped; why, and the fix,
			// are on the cost screen.
			text, p, drop = "⚠ no clients (c: why)", st.warning, 0
		}
		segs = append(segs, segment{text: text, p: p, drop: drop})
	}
	if s.Conn.Session != 0 {
		segs = append(segs, segment{text: "session " + lockcore.SessionHex(s.Conn.Session), p: st.muted, drop: 2})
	}
	sync := "not synced yet"
	if !s.LastSync.IsZero() {
		last := s.LastSync
		if s.LastChange.After(last) {
			last = s.LastChange
		}
		sync = "updated " + a.env.clock(last)
	}
	segs = append(segs, segment{text: sync, p: st.muted, drop: 1})
	if seg, ok := a.discoverySegment(); ok {
		segs = append(segs, seg)
	}
	if a.opt.Demo != nil {
		segs = append(segs, a.demoSegment())
	}
	if a.opt.ReadOnly {
		segs = append(segs, segment{text: " READ-ONLY ", p: st.badgeRO})
	}
	if s.Stale() || a.closed {
		segs = append(segs, segment{text: " STALE ", p: st.badgeStale})
	}
	return joinSegments(segs, a.width, st.muted.s(" │ "))
}

func (a *App) connSegment() segment {
	st, c := a.env.st, a.env.state.Conn
	switch c.Phase {
	case zkwatch.Connected:
		return segment{text: "● connected", p: st.ok}
	case zkwatch.Connecting:
		return segment{text: "◌ connecting", p: st.warning}
	case zkwatch.Disconnected:
		return segment{text: "◌ reconnecting since " + a.env.clock(c.Since), p: st.warning}
	case zkwatch.Expired:
		return segment{text: "✗ session expired " + a.env.clock(c.Since), p: st.danger}
	}
	return segment{text: "■ closed", p: st.danger}
}

// joinSegments drops segments until they fit in w cells, then joins them.
func joinSegments(segs []segment, w int, sep string) string {
	sepW := width(sep)
	for {
		total, worst := -sepW, -1
		for i, s := range segs {
			total += width(s.text) + sepW
			if s.drop > 0 && (worst < 0 || s.drop > segs[worst].drop) {
				worst = i
			}
		}
		if total <= w-1 || worst < 0 {
			break
		}
		segs = append(segs[:worst:worst], segs[worst+1:]...)
	}
	parts := make([]string, len(segs))
	for i, s := range segs {
		parts[i] = s.p.s(s.text)
	}
	return " " + strings.Join(parts, sep)
}

// bottomLine is the filter prompt while typing, else a fresh message, else
// the focused pane's keys.
func (a *App) bottomLine() string {
	st := a.env.st
	switch a.focused() {
	case focusLocks:
		if a.locks.filter.typing {
			return a.locks.filter.prompt(st, a.width, len(a.locks.rows), a.locks.total)
		}
	case focusSessions:
		if a.sessions.filter.typing {
			return a.sessions.filter.prompt(st, a.width, a.sessions.matched, a.sessions.total)
		}
	case focusEvents:
		if a.events.filter.typing {
			return a.events.filter.prompt(st, a.width, len(a.events.rows), len(a.env.state.History))
		}
	}
	if f := a.flash; f.text != "" && a.env.now().Sub(f.at) < flashFor {
		if f.isErr {
			return st.danger.s(" ✗ ") + fit(f.text, a.width-3)
		}
		return st.info.s(" ● ") + fit(f.text, a.width-3)
	}
	return " " + a.help.ShortHelpView(a.env.keys.short(a.focused()))
}

// helpLines are the help overlay's lines: every key, and how to read the
// screen, each explanation wrapped to the width under its term.
func (a *App) helpLines() []string {
	st := a.env.st
	lines := []string{st.strong.s(" Keys") + st.muted.s("  (? or esc closes; ↑↓ pgup pgdn scroll)"), ""}
	for _, l := range strings.Split(a.help.FullHelpView(a.env.keys.full()), "\n") {
		lines = append(lines, " "+l)
	}
	lines = append(lines, a.op.help()...)
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
		{"⚠ partial", st.warning, "locks held only by persistent nodes may be missing: the walk that finds them " +
			"has not ended (c shows its cost)"},
		{" STALE ", st.badgeStale, "not connected or not synced: the picture may be out of date"},
		{" READ-ONLY ", st.badgeRO, "nothing that changes ZooKeeper is allowed"},
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
