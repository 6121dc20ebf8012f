package ui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// costOverlay is the cost screen: what zklocks asks of the servers (its
// watches, how it finds locks, the watch table and its age) and what its
// four-letter words cost each member over the last minute.
type costOverlay struct {
	env    *env
	own    keySet // its keys: closing
	w, h   int
	closed bool
}

// newCost is the cost screen of a's cluster.
func newCost(a *App) overlay {
	c := &costOverlay{env: a.env}
	c.own = a.env.keys.costKeys(c)
	return c
}

func (c *costOverlay) setSize(w, h int) { c.w, c.h = w, h }

func (c *costOverlay) update(a *App, msg tea.KeyMsg) (bool, tea.Cmd) {
	cmd := a.dispatch(c.own, msg)
	return c.closed, cmd
}

func (c *costOverlay) bottom() []string { return nil }

func (c *costOverlay) view(func() string) string {
	st, s, e, w := c.env.st, c.env.state, c.env, c.w
	d := s.Discovery
	lines := []string{st.strong.s(" What zklocks costs the servers") + st.muted.s("  (c or esc closes)"), ""}
	field := func(name, text string) {
		lines = append(lines, wrap(" "+pad(name, 15)+text, w, strings.Repeat(" ", 16))...)
	}
	if s.Fix != "" {
		// First: on a short screen the fix is what must not be cut.
		for _, l := range wrap(" "+model.Printable(s.Fix), w, " ") {
			lines = append(lines, st.warning.s(l))
		}
		lines = append(lines, "")
	}
	if d.Persistent.Live {
		field("watches held", itoa(d.Watching)+" (per lock parent, semaphore part, lock directory), and one persistent recursive watch per root")
	} else {
		field("watches held", itoa(d.Watching)+" (per lock parent, semaphore part, lock directory; none elsewhere)")
	}
	field("new locks", newLocksText(d))
	if p := d.Persistent; p.Live || p.Note != "" {
		field("persistent", persistentText(e, p))
	}
	field("finding locks", discoveryText(e, d))
	switch {
	case s.WatchesNote != "":
		field("watch table", "recipe rules: "+model.Printable(s.WatchesNote))
	case s.WatchesAt.IsZero():
		field("watch table", "not read yet")
	case s.WatchesFor != "":
		field("watch table", "over the budget for every lock: read for "+model.Printable(s.WatchesFor)+" only (the lock last opened), "+
			e.clock(s.WatchesAt)+" ("+e.ago(s.WatchesAt)+")")
	default:
		field("watch table", "the servers', read "+e.clock(s.WatchesAt)+" ("+e.ago(s.WatchesAt)+")")
	}
	lines = append(lines, "", st.strong.s(" Four-letter words, last minute")+st.muted.s("  (VIA admin: asked of the AdminServer)"))
	head := fmt.Sprintf(" %-22s %-5s %-5s %6s %10s %9s %10s", "MEMBER", "WORD", "VIA", "ASKS", "BYTES", "TIME", "COST GAP")
	lines = append(lines, st.muted.s(head))
	if len(s.Cost) == 0 {
		lines = append(lines, st.muted.s(" nothing asked yet"))
	}
	for _, m := range s.Cost {
		for i, w := range m.Words {
			member := ""
			if i == 0 {
				member = model.Printable(m.Member)
			}
			lines = append(lines, fmt.Sprintf(" %-22s %-5s %-5s %6d %10s %9s %10s", fit(member, 22), w.Word, viaText(w.Via), w.Asks,
				model.Bytes(w.Bytes), model.Duration(w.Time.Round(time.Millisecond)), gapText(w.Every)))
		}
		share := fmt.Sprintf(" %-22s %s of its time, %s a minute", "", percent(m.Share()), model.Bytes(m.Bytes))
		p := st.muted
		if m.Share() > 0.01 {
			p = st.warning
		}
		lines = append(lines, p.s(share))
	}
	lines = append(lines, "", st.muted.s(" COST GAP: a word is asked again no sooner than 300× the time it last took, so"),
		st.muted.s(" that each stays under a third of a percent of a member's time."))
	for _, sv := range s.Servers {
		if len(sv.Refused) == 0 && sv.AdminErr == nil {
			continue
		}
		if note := zkwatch.WaysNote(sv); note != "" {
			lines = append(lines, wrap(" "+model.Printable(sv.Addr)+": "+model.Printable(note), w, "   ")...)
		}
	}
	if len(lines) > c.h {
		lines = lines[:c.h]
	}
	return strings.Join(lines, "\n")
}

// discoveryText says how locks are found and how far the walk has got.
func discoveryText(e *env, d zkwatch.Discovery) string {
	var parts []string
	switch {
	case d.DumpNote != "":
		parts = append(parts, model.Printable(d.DumpNote))
	case !d.DumpAt.IsZero():
		parts = append(parts, "dump "+e.clock(d.DumpAt)+" ("+itoa(d.Candidates)+" dirs with ephemerals)")
	}
	switch {
	case d.Walking:
		parts = append(parts, "walking, "+itoa(d.WalkReads)+" reads at ≤"+itoa(d.WalkRate)+"/s")
	case !d.WalkedAt.IsZero():
		w := "walked " + e.clock(d.WalkedAt) + " (" + itoa(d.WalkReads) + " reads)"
		if !d.NextWalk.IsZero() {
			w += ", next " + e.clock(d.NextWalk)
		}
		parts = append(parts, w)
	}
	if len(parts) == 0 {
		return "starting"
	}
	return strings.Join(parts, "; ")
}

// newLocksText says how soon a new lock is found: at once in a watched
// directory, on the poll's period in a polled one, and elsewhere within
// the period of the dump or the walk.
func newLocksText(d zkwatch.Discovery) string {
	if d.Persistent.Live {
		return "at once anywhere under the roots (a persistent recursive watch tells of every node created)"
	}
	if d.WholeTree && !d.TreeFull {
		return "at once: the tree is small enough to watch every directory (" + itoa(d.WatchedDirs) + ")"
	}
	text := "at once beside a lock (" + itoa(d.WatchedDirs) + " dirs watched)"
	if d.PolledCount > 0 {
		var names []string
		for _, p := range d.PolledDirs {
			names = append(names, model.Printable(p))
		}
		if d.PolledCount > len(names) {
			names = append(names, "…")
		}
		text += "; every ≥5s in " + strings.Join(names, ", ") + " (too many children to watch)"
	}
	switch {
	case d.ElsewhereWithin > 0 && d.DumpNote == "":
		text += "; elsewhere ≤" + gapText(d.ElsewhereWithin) + " (dump)"
	case d.ElsewhereWithin > 0:
		text += "; elsewhere ≤" + gapText(d.ElsewhereWithin) + " (walk)"
	default:
		text += "; elsewhere when the walk reaches them"
	}
	if d.TreeFull {
		text += "; the tree outgrew watching every directory"
	}
	return text
}

// persistentText says what the persistent recursive watch costs while it
// is live (its notifications, the time taken on them, its queue, an
// overflow's re-read), or why it is not.
func persistentText(e *env, p zkwatch.PersistentWatch) string {
	if !p.Live {
		text := model.Printable(p.Note)
		if p.Off {
			text += ": new locks away from known ones are found by dump and walk"
		}
		return text
	}
	on := model.Printable(p.Server)
	if p.Version != "" {
		on += " (ZooKeeper " + model.Printable(p.Version) + ")"
	}
	text := fmt.Sprintf("on %s: %d notifications/s, %s/s to filter them (%.1f %% of a core, reads not counted), queue %d/%d",
		on, p.Rate, model.Duration(p.Busy.Round(time.Millisecond)), p.Busy.Seconds()*100, p.Queued, p.QueueMax)
	if p.Readded > 0 {
		text += "; set again " + itoa(p.Readded) + "× after its connection dropped"
	}
	if p.Overflows > 0 {
		text += "; queue overflowed " + itoa(p.Overflows) + "×, last " + e.clock(p.OverflowAt)
	}
	if p.Rereading {
		text += "; re-reading the roots for what it dropped or missed, " + itoa(p.RereadReads) + " reads"
	}
	return text
}

// discoverySegment is the status bar's word on a search not finished: a
// picture without the locks only a walk finds is not the whole one.
func discoverySegment(e *env) (segment, bool) {
	d := e.state.Discovery
	if d.Complete || e.state.LastSync.IsZero() {
		return segment{}, false
	}
	text := "⚠ partial: walk " + itoa(d.WalkReads) + " reads"
	if !d.Walking {
		text = "⚠ partial: walk pending"
	}
	return segment{text: text, p: e.st.warning}, true
}

// viaText is how a word was last asked: "4lw" or "admin".
func viaText(v words.Via) string {
	if v == "" {
		return "4lw"
	}
	return string(v)
}

func percent(f float64) string { return fmt.Sprintf("%.3f %%", f*100) }

// gapText is a cost gap, whole seconds, or "<1s".
func gapText(d time.Duration) string {
	if d < time.Second {
		return "<1s"
	}
	return model.Duration(d.Round(time.Second))
}
