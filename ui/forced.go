package ui

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// Following a contender the operator force-released: its session was not
// told, so while it stays connected its client may go on as if its node
// were there (a holder as if it held). The Sessions screen keeps it,
// marked, until it lets go: its session is gone from every server's
// connections, or it queues on that lock again.

// forcedRelease is a contender force-released from this UI.
type forcedRelease struct {
	lock, node string
	role       lockcore.Role
	at         time.Time
	// had are the session's nodes in the lock when it was force-released
	// (a session may own several): a node not among them means it queued
	// again.
	had map[string]bool
	// expired, when set, is a holder whose session expired rather than an
	// operator's force-release (model.State.Untold): its client was not
	// told either, and the state, not this UI, follows it.
	expired *model.Untold
}

// untoldRows are the state's expired holders not told, as rows beside the
// force-released ones.
func untoldRows(s *model.State) []forcedRelease {
	out := make([]forcedRelease, 0, len(s.Untold))
	for i := range s.Untold {
		u := &s.Untold[i]
		out = append(out, forcedRelease{lock: u.Lock, node: u.Lock + "/" + u.Node, role: lockcore.RoleHolder, at: u.At, expired: u})
	}
	return out
}

// noteForced records a force-release that went through.
func (a *App) noteForced(m actionDoneMsg) {
	if m.err != nil || m.action != "force-release" || m.owner == 0 || len(m.nodes) != 1 {
		return
	}
	had := map[string]bool{m.nodes[0]: true}
	if l := a.env.state.Locks[m.lock]; l != nil {
		for _, q := range l.Participants {
			if q.Session == m.owner {
				had[q.Path] = true
			}
		}
	}
	a.env.forced[m.owner] = forcedRelease{lock: m.lock, node: m.nodes[0], role: m.role, at: a.env.now(), had: had}
	a.gen++
	a.refresh()
}

// pruneForced forgets the force-released contenders that let go.
func (a *App) pruneForced() {
	s := a.env.state
	for session, f := range a.env.forced {
		_, listed := s.Clients[session]
		if s.ClientsComplete && !listed {
			delete(a.env.forced, session) // its session is gone
			continue
		}
		if l := s.Locks[f.lock]; l != nil {
			for _, q := range l.Participants {
				if q.Session == session && !f.had[q.Path] {
					delete(a.env.forced, session) // it queued again
				}
			}
		}
	}
}

// forcedColumns lay out a force-released contender's line on the
// Sessions screen: what it may believe is never cut, the lock's path is.
var forcedColumns = []column{{width: 2}, {width: 7}, {width: 12, flex: true, tail: true}, {whole: true}}

// forcedLine is a force-released contender's line on the Sessions screen.
func (p *sessionsPane) forcedLine(r *sessionRow, selected bool) string {
	st, f := p.env.st, r.forced
	believes := "waits"
	if f.role == lockcore.RoleHolder {
		believes = "holds"
	}
	cells := []cell{{}, {text: "forced", p: st.danger}, {text: model.Printable(f.lock)},
		{text: "not told: may believe it " + believes + " · force-released " + p.env.ago(f.at), p: st.danger}}
	if f.expired != nil {
		// Both tokens are in the lock's detail: the row says what to
		// look for.
		cells[1].text = "expired"
		cells[3].text = "not told: may believe it holds · expired " + p.env.ago(f.at)
	}
	cols := sizeToContent(forcedColumns, cells)
	return marker(st, selected) + row(cols, layout(cols, p.w-2), cells, selected, st.selected)
}

// untoldOf is session's expired hold not told, or nil.
func untoldOf(s *model.State, session int64) *model.Untold {
	for i := range s.Untold {
		if s.Untold[i].Session == session {
			return &s.Untold[i]
		}
	}
	return nil
}
