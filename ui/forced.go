package ui

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// A contender taken from its client without the client being told: one
// the operator force-released (model.State.Forced), or a holder whose
// session expired (model.State.Untold). While it stays connected its
// client may go on as if its node were there (a holder as if it held);
// the Sessions screen keeps it, marked, until the state says it let go.

// forcedRelease is such a contender, as the Sessions screen lists it.
type forcedRelease struct {
	lock, node string
	session    int64
	role       lockcore.Role
	at         time.Time
	// expired, when set, is a holder whose session expired rather than an
	// operator's force-release.
	expired *model.Untold
	// maybe: its node was deleted while its session lived, not by this
	// zklocks' operator: released, or force-released by another client.
	maybe bool
}

// forcedRows are the state's force-released contenders and expired
// holders not told.
func forcedRows(s *model.State) []forcedRelease {
	out := make([]forcedRelease, 0, len(s.Forced)+len(s.Untold))
	for _, f := range s.Forced {
		out = append(out, forcedRelease{lock: f.Lock, node: f.Node, session: f.Session, role: f.Role, at: f.At(), maybe: f.Maybe})
	}
	for i := range s.Untold {
		u := &s.Untold[i]
		out = append(out, forcedRelease{lock: u.Lock, node: u.Lock + "/" + u.Node, session: u.Session, role: lockcore.RoleHolder, at: u.At, expired: u})
	}
	return out
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
	if f.maybe {
		// ZooKeeper does not say who deleted it: both are said.
		cells[1].text = "deleted"
		cells[3].text = "not told: may believe it holds · released/forced " + p.env.ago(f.at)
	}
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
