package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"

	"github.com/zklocks/zklocks/lockclient"
)

// The operations' dialogs. Like confirmDialog, each takes every key while
// open and closes on any key it does not know, Enter and Esc included.

// acquireDialog asks how to join a lock: in which mode and, for a semaphore
// whose limit the tree does not state, with how many leases.
type acquireDialog struct {
	path   string
	recipe lockcore.Recipe
	modes  []lockcore.Mode
	leases *int // the semaphore's limit, when the tree states it
	typing bool // asking for the limit
	number lineEditor
	// choices says which key picks which mode.
	choices string
	// learnt is what the lock's ACL says (see readAccess).
	learnt
}

func newAcquireDialog(k keyMap, l *lockcore.Lock, modes []lockcore.Mode) *acquireDialog {
	keys := make([]string, len(modes))
	for i, m := range modes {
		keys[i] = modeKey(k, m).Help().Key + " " + string(m)
	}
	return &acquireDialog{path: l.Path, recipe: l.Recipe, modes: modes, leases: l.MaxLeases,
		choices: strings.Join(keys, " · ")}
}

func modeKey(k keyMap, m lockcore.Mode) key.Binding {
	switch m {
	case lockcore.ModeRead:
		return k.ModeRead
	case lockcore.ModeWrite:
		return k.ModeWrite
	case lockcore.ModeLease:
		return k.ModeLease
	}
	return k.ModeExclusive
}

func (d *acquireDialog) update(k keyMap, msg tea.KeyMsg) (bool, tea.Cmd) {
	if closed, void := d.void(); void {
		return true, closed
	}
	if d.typing {
		switch {
		case key.Matches(msg, k.Digit), key.Matches(msg, k.Erase):
			d.number.update(msg)
			return false, nil
		case key.Matches(msg, k.Yes):
			n, err := strconv.Atoi(d.number.value())
			if err != nil || n <= 0 {
				return true, flashErr("acquire: no max leases given (a whole number above 0): nothing acquired")
			}
			return true, chooseAcquire(lockclient.Spec{Path: d.path, Mode: lockcore.ModeLease, MaxLeases: n})
		}
		return true, nil
	}
	for _, m := range d.modes {
		// With one choice, enter takes it: there is nothing to pick.
		one := len(d.modes) == 1 && key.Matches(msg, k.Accept)
		if !one && !key.Matches(msg, modeKey(k, m)) {
			continue
		}
		if m == lockcore.ModeLease && d.leases == nil {
			d.typing, d.number = true, newLineEditor(&k, 6)
			return false, nil
		}
		// A limit the tree states is read again as the lease is taken.
		return true, chooseAcquire(lockclient.Spec{Path: d.path, Mode: m})
	}
	return true, nil
}

func (d *acquireDialog) view(st *styles, w int) string {
	if box, void := d.voidView(st, w); void {
		return box
	}
	c := confirmDialog{title: "Acquire " + model.Printable(d.path) + "?"}
	how := "joins as a fair participant, watching only its predecessor"
	if lockcore.IsSemaphore(d.recipe) {
		how = "queues for a lease as the semaphore's own clients do"
	}
	c.lines = append(c.lines, "recipe "+string(d.recipe)+": zklocks' own client "+how+
		". Its node is ephemeral; r gives it back, and so does quitting.")
	if d.access != "" {
		c.lines = append(c.lines, model.Printable(d.access)+".")
	}
	if d.typing {
		c.lines = append(c.lines, "", d.number.line("max leases: ", paint{}, paint{}, dialogWidth(w)-1))
		if d.recipe != lockcore.RecipeKazooSemaphore {
			c.lines = append(c.lines, "Curator does not record a semaphore's limit in the tree: give the number "+
				"its applications use. A larger one lets zklocks take a lease they would not give.")
		}
		c.footer = "0-9 types · backspace erases · y acquires · any other key (enter, esc) cancels"
		return c.view(st, w)
	}
	if d.leases != nil {
		c.lines = append(c.lines, "max leases "+itoa(*d.leases)+", as the tree states")
	}
	c.footer = d.choices + " · any other key (enter, esc) cancels"
	if len(d.modes) == 1 {
		c.footer = d.choices + " (or enter) · any other key (esc) cancels"
	}
	return c.view(st, w)
}

// forceDialog confirms a force-release; for a Curator lock it offers to
// revoke instead.
type forceDialog struct {
	confirm confirmDialog
	// revoke is the polite alternative; nil when the client would ignore it.
	revoke tea.Cmd
}

func (d *forceDialog) update(k keyMap, msg tea.KeyMsg) (bool, tea.Cmd) {
	if _, void := d.confirm.void(); d.revoke != nil && !void && pressed(msg, k.Revoke) {
		return true, d.revoke
	}
	return d.confirm.update(k, msg)
}

func (d *forceDialog) view(st *styles, w int) string { return d.confirm.view(st, w) }

// fenceDialog lists a lock's fencing candidates as they were when it
// opened: what it shows is the dry run. Selected candidates start checked,
// suspects unchecked; y deletes the checked ones in one transaction.
type fenceDialog struct {
	path  string
	cands []lockcore.FenceCandidate
	on    []bool
	// cur is the candidate under the cursor; the list scrolls around it
	// (view), not by cur.first.
	cur cursor
	act *model.Actions
	// where names the cluster the nodes are deleted on: "⎈ prod".
	where string
	// learnt says which candidate went while the dialog was open (see
	// goneWatcher): the fence would be refused, so it offers nothing; and
	// what the lock's ACL says (see readAccess).
	learnt
}

func newFenceDialog(path string, cands []lockcore.FenceCandidate, act *model.Actions, context string) *fenceDialog {
	d := &fenceDialog{path: path, cands: cands, on: make([]bool, len(cands)), act: act}
	switch {
	case context != "":
		d.where = "⎈ " + model.Printable(context)
	case act != nil && act.Server != "":
		d.where = model.Printable(act.Server)
	}
	for i, c := range cands {
		d.on[i] = c.Selected
	}
	return d
}

// chosen are the checked candidates, as shown.
func (d *fenceDialog) chosen() []lockclient.Expect {
	var es []lockclient.Expect
	for i, c := range d.cands {
		if d.on[i] {
			es = append(es, lockclient.ExpectParticipant(c.Participant))
		}
	}
	return es
}

func (d *fenceDialog) update(k keyMap, msg tea.KeyMsg) (bool, tea.Cmd) {
	if closed, void := d.void(); void {
		return true, closed
	}
	switch {
	case key.Matches(msg, k.Up, k.Down):
		// Only these move: any other key cancels the dialog.
		d.cur.move(k, msg, len(d.cands), fenceRows)
	case key.Matches(msg, k.Toggle):
		d.on[d.cur.idx] = !d.on[d.cur.idx]
	case key.Matches(msg, k.Digit):
		if i := int(msg.String()[0] - '1'); i >= 0 && i < len(d.cands) {
			d.cur.idx, d.on[i] = i, !d.on[i]
		}
	case key.Matches(msg, k.Yes):
		es := d.chosen()
		if len(es) == 0 {
			return true, flashErr("fence: nothing was checked, nothing deleted")
		}
		return true, fence(d.act, es)
	default:
		return true, nil
	}
	return false, nil
}

// fenceRows is how many candidates the fence dialog lists at once.
const fenceRows = 6

func (d *fenceDialog) view(st *styles, w int) string {
	if box, void := d.voidView(st, w); void {
		return box
	}
	inner := dialogWidth(w)
	es := d.chosen()
	c := confirmDialog{title: "Fence " + model.Printable(d.path) + ": delete " + itoa(len(es)) + " of " +
		count(len(d.cands), "node", "nodes") + " in one transaction?"}
	if d.where != "" {
		c.lines = append(c.lines, "On "+d.where+".")
	}
	c.lines = append(c.lines, "A snapshot, as the lock was when this opened; a dry run: nothing is deleted "+
		"before y. Each delete is version-checked; if any node changed or vanished since, none is deleted.")
	if d.access != "" {
		c.lines = append(c.lines, model.Printable(d.access)+".")
	}
	c.lines = append(c.lines, "")
	first := max(0, min(d.cur.idx-fenceRows/2, len(d.cands)-fenceRows))
	for i := first; i < min(first+fenceRows, len(d.cands)); i++ {
		cand := d.cands[i]
		line := "  [ ] "
		if d.on[i] {
			line = "  [x] "
		}
		if i == d.cur.idx {
			line = ">" + line[1:]
		}
		why := string(cand.Reason)
		if !cand.Selected {
			why += " suspect"
		}
		line += itoa(i+1) + " #" + itoa(cand.Participant.Position) + " " + model.ShortNode(cand.Participant.Node) + " " + why
		c.lines = append(c.lines, clip(line, inner))
	}
	if n := len(d.cands) - fenceRows; n > 0 {
		c.lines = append(c.lines, "  ("+itoa(n)+" more: ↑↓ scrolls)")
	}
	// The evidence of the candidate under the cursor, in full as far as
	// it fits.
	cand := d.cands[d.cur.idx]
	q := cand.Participant
	evidence := "#" + itoa(q.Position) + " " + string(q.Role) + " · session " + model.SessionText(q.Session) + " · " +
		string(cand.Reason) + ": " + model.Printable(cand.Evidence)
	lines := wrap(evidence, inner, "  ")
	if len(lines) > 5 {
		// The fifth line takes what is left, cut with one ellipsis.
		rest := lines[4]
		for _, l := range lines[5:] {
			rest += " " + strings.TrimLeft(l, " ")
		}
		lines = append(lines[:4], clip(rest, inner))
	}
	c.lines = append(c.lines, "")
	c.lines = append(c.lines, lines...)
	c.footer = "1-9 or ↑↓ space check · y deletes · any other key (enter, esc) cancels"
	return c.view(st, w)
}
