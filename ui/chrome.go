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
			b.WriteString(st.tabActive.s(" " + label + " "))
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
		segs = append(segs, segment{text: text, p: p, drop: 4})
	}
	if s.Conn.Session != 0 {
		segs = append(segs, segment{text: "session " + lockcore.SessionHex(s.Conn.Session), p: st.muted, drop: 2})
	}
	sync := "not synced yet"
	if !s.LastSync.IsZero() {
		sync = "synced " + a.env.clock(s.LastSync)
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

// helpView is the help overlay: every key, and how to read the screen.
func (a *App) helpView(h int) string {
	st := a.env.st
	lines := []string{st.strong.s(" Keys") + st.muted.s("  (? or esc closes)"), ""}
	for _, l := range strings.Split(a.help.FullHelpView(a.env.keys.full()), "\n") {
		lines = append(lines, " "+l)
	}
	lines = append(lines, a.op.help()...)
	legend := []string{"",
		st.strong.s(" Reading the screen"),
		" " + st.holder.s("holder") + "  has the lock (or a lease) now, by its recipe's rule",
		" " + st.waiter.s("waiter") + "  queued; waits on the node it watches, chained to a holder",
		" modes   R read · W write · X exclusive · lease semaphore lease",
		" token   the node's czxid, a fencing token that only grows",
		" client  address the servers saw for the session; ? when they did not say",
		" " + st.badgeStale.s(" STALE ") + " not connected or not synced: the picture may be out of date",
		" " + st.warning.s("⚠ partial") + " the walk for locks held only by persistent nodes has not ended (c: cost)",
		" " + st.badgeRO.s(" READ-ONLY ") + " nothing that changes ZooKeeper is allowed",
	}
	lines = append(lines, legend...)
	lines = append(lines, a.demoLegend()...)
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}
