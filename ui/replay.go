package ui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// A replay shows a recording (Options.Tape) through the same screens as a
// live run. It is read-only by construction: the App has no actions, no
// node reader and no watcher, only the tape. A time cursor stands for
// "now": the state is the tape's after every event up to it, and ages and
// "ago"s count from it.

// replaySpeeds are the speeds a replay plays at, tape time per real time.
var replaySpeeds = []int{1, 2, 5, 10, 20, 50, 100}

// replayFrame is how often a playing replay moves its cursor.
const replayFrame = 100 * time.Millisecond

// replayer is the time cursor over a tape.
type replayer struct {
	tape    *model.Tape
	n       int       // events applied
	at      time.Time // the cursor's time: TimeOf(n) ≤ at < the next event's
	playing bool
	speed   int // index in replaySpeeds
	frame   int // bumped on every play, so a stale frame's tick is dropped
}

func newReplayer(t *model.Tape) *replayer {
	r := &replayer{tape: t}
	// Open where the picture is first whole: after the first sync.
	for i := 0; i < t.Len(); i++ {
		if t.Event(i).Kind == zkwatch.EventSynced {
			r.n = i + 1
			break
		}
	}
	r.at = t.TimeOf(r.n)
	return r
}

// replayTickMsg moves a playing replay on by one frame.
type replayTickMsg struct{ frame int }

func replayTick(frame int) tea.Cmd {
	return tea.Tick(replayFrame, func(time.Time) tea.Msg { return replayTickMsg{frame: frame} })
}

// replaySeekMsg asks to move the cursor to a time (from the t prompt).
type replaySeekMsg struct{ at time.Time }

// The replay's bindings (keys.go), one each.

// replayPlay plays from the cursor, from the start at the end, or pauses.
func replayPlay(a *App, _ tea.KeyMsg) tea.Cmd {
	r := a.replay
	if r.playing {
		r.playing = false
		return nil
	}
	if r.n >= r.tape.Len() {
		a.seek(0, r.tape.Start())
	}
	r.playing = true
	r.frame++
	return replayTick(r.frame)
}

// replaySpeed plays by more (or fewer) times the tape's own pace.
func replaySpeed(step int) keyDo {
	return func(a *App, _ tea.KeyMsg) tea.Cmd {
		r := a.replay
		r.speed = max(0, min(r.speed+step, len(replaySpeeds)-1))
		return nil
	}
}

// replayNextChange goes to the next event that changes the picture.
func replayNextChange(a *App, _ tea.KeyMsg) tea.Cmd {
	r := a.replay
	for i := r.n; i < r.tape.Len(); i++ {
		if r.tape.Changes(i) {
			a.seek(r.afterEvent(i))
			return nil
		}
	}
	a.say("no later change: this is the end of the recording", false)
	return nil
}

// replayPrevChange goes to the picture before the current one, or the
// start.
func replayPrevChange(a *App, _ tea.KeyMsg) tea.Cmd {
	r := a.replay
	// The change that made the current picture is event n-1; the
	// previous picture is the one before it.
	for i := r.n - 2; i >= 0; i-- {
		if r.tape.Changes(i) {
			a.seek(r.afterEvent(i))
			return nil
		}
	}
	a.seek(0, r.tape.Start())
	return nil
}

// replayGrant goes to the selected lock's next (or previous) grant.
func replayGrant(next bool) keyDo {
	return func(a *App, _ tea.KeyMsg) tea.Cmd {
		path := a.selectedLockPath()
		if path == "" {
			a.say("select a lock first: grants are per lock", true)
			return nil
		}
		r := a.replay
		grants := r.tape.Grants(path)
		if next {
			for _, i := range grants {
				if i >= r.n {
					a.seek(r.afterEvent(i))
					return nil
				}
			}
			a.say("no later grant of "+path, false)
			return nil
		}
		for k := len(grants) - 1; k >= 0; k-- {
			if grants[k] < r.n-1 {
				a.seek(r.afterEvent(grants[k]))
				return nil
			}
		}
		a.say("no earlier grant of "+path, false)
		return nil
	}
}

// replayJump asks for a time to go to.
func replayJump(a *App, _ tea.KeyMsg) tea.Cmd {
	a.open(&timeDialog{tape: a.replay.tape, loc: a.env.loc, edit: newLineEditor(a.env.keys, 0)})
	return nil
}

// selectedLockPath is the lock the operator is looking at: the detail's,
// else the one under the locks list's cursor.
func (a *App) selectedLockPath() string {
	for _, f := range a.drill {
		if f == focusDetail {
			return a.detail.path
		}
	}
	if row := a.locks.selected(); row != nil && row.lock != nil {
		return row.path
	}
	return a.locks.sel
}

// afterEvent is the cursor just after event i: its count and time.
func (r *replayer) afterEvent(i int) (int, time.Time) { return i + 1, r.tape.TimeOf(i + 1) }

// atTime is the cursor at time at: its count and time.
func (r *replayer) atTime(at time.Time) (int, time.Time) { return r.tape.Count(at), at }

// seek shows the state after the first n events, with the clock at at.
func (a *App) seek(n int, at time.Time) {
	r := a.replay
	switch {
	case n == r.n:
	case n > r.n && n-r.n < 5000:
		// Forward: the App's state is its own copy; move it on.
		for i := r.n; i < n; i++ {
			a.env.state.Apply(r.tape.Event(i))
		}
	default:
		a.env.state = r.tape.StateAt(n)
	}
	changed := n != r.n
	r.n, r.at = n, at
	if changed {
		a.gen++
	}
	a.refresh()
}

// replayFrameTick plays one frame: the cursor moves on by the frame's
// length times the speed, and stops at the end.
func (a *App) replayFrameTick(msg replayTickMsg) tea.Cmd {
	r := a.replay
	if !r.playing || msg.frame != r.frame {
		return nil
	}
	at := r.at.Add(replayFrame * time.Duration(replaySpeeds[r.speed]))
	if end := r.tape.End(); !at.Before(end) {
		a.seek(r.tape.Len(), end)
		r.playing = false
		a.say("end of the recording", false)
		return nil
	}
	a.seek(r.atTime(at))
	return replayTick(r.frame)
}

// segment is the status bar's time cursor.
func (r *replayer) segment(st *styles, loc *time.Location) segment {
	state := "❚❚ paused"
	if r.playing {
		state = "▶ ×" + itoa(replaySpeeds[r.speed])
	} else if r.speed > 0 {
		state += " ×" + itoa(replaySpeeds[r.speed])
	}
	text := "REPLAY " + state + " " + r.at.In(loc).Format("2006-01-02 15:04:05.000") + " · " + itoa(r.n) + "/" + itoa(r.tape.Len())
	return segment{text: text, p: st.accent}
}

// timeDialog asks for a time to go to.
type timeDialog struct {
	tape *model.Tape
	loc  *time.Location
	edit lineEditor
	err  string
}

func (d *timeDialog) update(k keyMap, msg tea.KeyMsg) (bool, tea.Cmd) {
	switch {
	case key.Matches(msg, k.Cancel):
		return true, nil
	case key.Matches(msg, k.Accept):
		at, err := d.tape.ParseAt(d.edit.value(), d.loc)
		if err != nil {
			d.err = err.Error()
			return false, nil
		}
		return true, func() tea.Msg { return replaySeekMsg{at: at} }
	}
	d.edit.update(msg)
	d.err = ""
	return false, nil
}

func (d *timeDialog) view(st *styles, w int) string {
	inner := dialogWidth(w)
	lines := []string{st.strong.s("Go to a time"),
		fit("recording "+d.tape.Start().In(d.loc).Format("2006-01-02 15:04:05")+" – "+d.tape.End().In(d.loc).Format("15:04:05"), inner),
		"", d.edit.line("> ", paint{}, paint{}, inner-1), ""}
	if d.err != "" {
		for _, l := range wrap(d.err, inner, "") {
			lines = append(lines, st.danger.s(fit(l, inner)))
		}
	} else {
		lines = append(lines, st.muted.s(fit("03:12:04 · 2026-11-22 03:12 · +90s · -1m · start · end", inner)))
	}
	lines = append(lines, st.muted.s(fit("enter goes · esc cancels", inner)))
	for i, l := range lines {
		lines[i] = l + strings.Repeat(" ", max(inner-width(l), 0))
	}
	return st.dialog.Render(strings.Join(lines, "\n"))
}
