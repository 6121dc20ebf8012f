package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"

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
		return tooSmall(a.width, a.height)
	}
	// One instant per frame: a hold or wait shown in a row and again in
	// the detail below it must read the same, not differ by the time it
	// took to draw between them.
	now, clock := a.env.now(), a.env.now
	a.env.now = func() time.Time { return now }
	defer func() { a.env.now = clock }()
	var b strings.Builder
	b.Grow(a.width * a.height * 2)
	bottom := a.bottomLines()
	b.WriteString(fitLine(a.titleBar(), a.width))
	b.WriteByte('\n')
	// A message longer than a line borrows the body's last line while it
	// is shown, rather than be cut.
	b.WriteString(block(a.body(), a.width, a.height-2-len(bottom)))
	b.WriteByte('\n')
	b.WriteString(fitLine(a.statusBar(), a.width))
	for _, l := range bottom {
		b.WriteByte('\n')
		b.WriteString(fitLine(l, a.width))
	}
	return b.String()
}

// body is the focused screen, or the overlay open over it.
func (a *App) body() string {
	under := a.pane(a.focused()).view
	if a.over != nil {
		return a.over.view(under)
	}
	return under()
}

// tooSmall is the whole screen, w×h, of a terminal smaller than the
// layout works in.
func tooSmall(w, h int) string {
	lines := []string{"terminal too small", itoa(w) + "×" + itoa(h) + ", need " +
		itoa(minWidth) + "×" + itoa(minHeight), "q quits"}
	return block(strings.Join(lines, "\n"), w, h)
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

// titleBar shows the screens, the one in front highlighted, and what the
// focused pane says of itself.
func (a *App) titleBar() string {
	st := a.env.st
	right := a.pane(a.focused()).summary()
	left := a.tabsView(a.width >= 100, false)
	if room := a.width - width(left) - 2; width(right) > room {
		// The summary is cut only when the other tabs' numbers alone
		// leave it too little room.
		left = a.tabsView(true, true)
	}
	room := a.width - width(left) - 2
	if right == "" || room < 12 {
		return left
	}
	right = fitTail(right, min(width(right), room))
	return left + strings.Repeat(" ", a.width-width(left)-width(right)-1) + st.muted.s(right) + " "
}

// tabsView is the title bar's left: the name, then the tabs, the one in
// front in brackets (marked without colour too, for NO_COLOR); numbered
// adds each tab's key, compact shows the other tabs by their key alone.
func (a *App) tabsView(numbered, compact bool) string {
	st := a.env.st
	var b strings.Builder
	b.WriteString(st.title.s(" zklocks "))
	if a.focused() == focusFleet {
		b.WriteString(st.tabActive.s("[Fleet]"))
		return b.String()
	}
	for i, t := range tabs {
		label := tabNames[t]
		switch {
		case compact && t != a.tab:
			label = itoa(i + 1)
		case numbered:
			label = itoa(i+1) + " " + label
		}
		if t == a.tab {
			b.WriteString(st.tabActive.s("[" + label + "]"))
		} else {
			b.WriteString(st.tab.s(" " + label + " "))
		}
	}
	return b.String()
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
	if a.opt.FleetOnly {
		return a.fleet.statusBar(a.width, a.opt.ReadOnly)
	}
	segs := append([]segment{connSegment(a.env)}, a.op.segments()...)
	if a.replay != nil {
		lead := []segment{a.replay.segment(st, a.env.loc)}
		if n := len(a.opt.TapeWarnings); n > 0 {
			// What was read is not all there was, or not all agreed on.
			lead = append(lead, segment{text: "⚠ " + itoa(n) + " " + plural(n, "warning", "warnings"), p: st.warning})
		}
		segs = append(lead, segs...)
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
	if a.opt.Identity != "" {
		segs = append(segs, segment{text: "as " + model.Printable(a.opt.Identity), p: st.muted, drop: 3})
	}
	if seg, ok := serversSegment(st, s); ok {
		segs = append(segs, seg)
	}
	if s.Conn.Session != 0 {
		segs = append(segs, segment{text: "session " + lockcore.SessionHex(s.Conn.Session), p: st.muted, drop: 2})
	}
	segs = append(segs, syncSegment(a.env))
	if seg, ok := discoverySegment(a.env); ok {
		segs = append(segs, seg)
	}
	if n := s.Pending(); n > 0 {
		// Said while any contender's times, token and data are still to
		// be read, so that its … cells read as "not yet", not "never".
		segs = append(segs, segment{text: "⋯ " + grouped(n) + " " + plural(n, "contender", "contenders") + " not read yet", p: st.warning})
	}
	if a.opt.Demo != nil {
		segs = append(segs, demoSegment(st, a.demoStats))
	}
	if a.opt.Context != "" {
		segs = append([]segment{{text: "⎈ " + model.Printable(a.opt.Context), p: st.strong}}, segs...)
	}
	segs = append(segs, badges(st, a.opt, s.Stale() || a.closed)...)
	return joinSegments(segs, a.width, st.muted.s(" │ "))
}

// serversSegment is how many of the ensemble's members answer, once any
// is known (ok false before).
func serversSegment(st *styles, s *model.State) (segment, bool) {
	n := len(s.Servers)
	if n == 0 {
		return segment{}, false
	}
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
		// Said once, here, and never dropped; why, and the fix, are on
		// the cost screen.
		text, p, drop = "⚠ no clients (c: why)", st.warning, 0
	}
	return segment{text: text, p: p, drop: drop}, true
}

// syncSegment is when the picture was last brought up to date: the last
// sync, or a change heard after it.
func syncSegment(e *env) segment {
	s := e.state
	sync := "not synced yet"
	if !s.LastSync.IsZero() {
		last := s.LastSync
		if s.LastChange.After(last) {
			last = s.LastChange
		}
		sync = "updated " + e.clock(last)
	}
	return segment{text: sync, p: e.st.muted, drop: 1}
}

// badges are the status bar's last segments, never dropped: whether the
// operator may write, and whether what is shown may be out of date.
func badges(st *styles, opt Options, stale bool) []segment {
	var segs []segment
	switch {
	case opt.ReadOnly && opt.ReadOnlyBadge != "":
		segs = append(segs, segment{text: " " + model.Printable(opt.ReadOnlyBadge) + " ", p: st.badgeRO})
	case opt.ReadOnly:
		segs = append(segs, segment{text: " READ-ONLY ", p: st.badgeRO})
	case opt.Actions != nil:
		segs = append(segs, segment{text: " WRITE ", p: st.badgeWrite})
	}
	if stale {
		segs = append(segs, segment{text: " STALE ", p: st.badgeStale})
	}
	return segs
}

// connSegment is the status bar's connection.
func connSegment(e *env) segment {
	st, c := e.st, e.state.Conn
	switch c.Phase {
	case zkwatch.Connected:
		return segment{text: "● connected", p: st.ok}
	case zkwatch.Connecting:
		return segment{text: "◌ connecting", p: st.warning}
	case zkwatch.Disconnected:
		return segment{text: "◌ reconnecting since " + e.clock(c.Since), p: st.warning}
	case zkwatch.Expired:
		return segment{text: "✗ session expired " + e.clock(c.Since), p: st.danger}
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

// bottomLines are the overlay's (the command bar's prompt), else the
// filter prompt while typing, else a fresh message (on two lines when it
// needs them), else the focused pane's keys.
func (a *App) bottomLines() []string {
	st := a.env.st
	if a.over != nil {
		if lines := a.over.bottom(); lines != nil {
			return lines
		}
	}
	if prompt, open := a.pane(a.focused()).prompt(a.width); open {
		return []string{prompt}
	}
	if f, shown := a.flashShown(); shown {
		lead := st.info.s(" ● ")
		if f.isErr {
			lead = st.danger.s(" ✗ ")
		}
		lines := wrap(f.text, a.width-3, "")
		if len(lines) > 2 || a.height < minHeight+1 {
			return []string{lead + fit(f.text, a.width-3)}
		}
		for i := range lines {
			if i == 0 {
				lines[i] = lead + lines[i]
			} else {
				lines[i] = "   " + lines[i]
			}
		}
		return lines
	}
	return []string{" " + a.shortHelp(a.keys().short, a.width-1)}
}

// shortHelp is the one-line help of bs in w cells: keys are left out from
// the end, never help and quit, rather than cut in the middle of a word.
func (a *App) shortHelp(bs []key.Binding, w int) string {
	h := a.help
	h.Width = 0
	k := a.env.keys
	keep := append([]key.Binding(nil), bs...)
	for {
		v := h.ShortHelpView(keep)
		if width(v) <= w {
			return v
		}
		drop := -1
		for i := len(keep) - 1; i >= 0; i-- {
			if keep[i].Enabled() && !sameKeys(keep[i], k.Help) && !sameKeys(keep[i], k.Quit) {
				drop = i
				break
			}
		}
		if drop < 0 {
			return v
		}
		keep = append(keep[:drop], keep[drop+1:]...)
	}
}

// sameKeys reports whether a and b are bound to the same keys.
func sameKeys(a, b key.Binding) bool {
	return strings.Join(a.Keys(), " ") == strings.Join(b.Keys(), " ")
}
