package ui

import (
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// How our own lock is shown: a line in its lock's detail, a star on its
// node's row, and a segment of the status bar on every screen.

// ownLines are the lock detail's lines about our own lock, when it is on
// the lock shown: where it waits and on whom, or its token and hold time,
// or why it was lost.
func (p *detailPane) ownLines() []string {
	o := p.env.own
	if o == nil || o.path != p.path {
		return nil
	}
	st, now := p.env.st, p.env.now()
	b := &infoLines{st: st, w: max(p.w, 20)}
	switch {
	case o.lost != nil:
		b.kv("✗ OURS", "LOST (r clears it): "+model.Printable(o.lost.Error()), st.danger)
	case o.held != nil:
		b.kv("★ ours", "held · fencing token "+token(o.held.Token)+" · held "+since(now, o.held.Acquired)+
			" · "+p.ownAction(o, "r releases"), st.holder)
	case o.progress != nil:
		pr := o.progress
		pos, waited := pr.Position, since(now, o.asked)
		if !pr.Since.IsZero() {
			waited = since(now, pr.Since)
		}
		if q := p.participantAt(pr.Node); q != nil {
			pos = q.Position
		}
		b.kv("★ ours", "waiting #"+itoa(pos)+" · watches "+p.watched(pr.Watching)+" · for "+waited+
			" · "+p.ownAction(o, "r gives up"), st.waiter)
	default:
		b.kv("★ ours", "joining as "+string(o.mode)+" · "+p.ownAction(o, "r gives up"), st.waiter)
	}
	// Two lines at most, so that the information below keeps one; the
	// status line has the whole story.
	if len(b.lines) > 2 {
		b.lines = b.lines[:2]
		b.lines[1] = clip(b.lines[1], width(b.lines[1])-1)
	}
	return b.lines
}

func (p *detailPane) ownAction(o *ownLock, key string) string {
	if o.ending {
		return "giving it back…"
	}
	return key
}

// participantAt returns the participant at an absolute path in the lock
// shown, or nil.
func (p *detailPane) participantAt(path string) *lockcore.Participant {
	if p.lock == nil || path == "" {
		return nil
	}
	for i := range p.lock.Participants {
		if p.lock.Participants[i].Path == path {
			return &p.lock.Participants[i]
		}
	}
	return nil
}

// watched names what our waiting node watches: its predecessor's position
// and name, or a directory whose children it watches.
func (p *detailPane) watched(path string) string {
	if q := p.participantAt(path); q != nil {
		return "#" + itoa(q.Position) // its row is on screen, with its name
	}
	return model.ShortNode(strings.TrimPrefix(path, p.path+"/"))
}

// rowMarker is the queue's cursor column, with a star on our own node,
// else ! on a node an anomaly names (~ on one only possibly long-held: ? is the help key alone).
func (p *detailPane) rowMarker(q *lockcore.Participant, selected bool) string {
	st := p.env.st
	m := marker(st, selected)
	if o := p.env.own; o != nil && o.path == p.path && q.Path != "" && q.Path == o.node() {
		return m[:len(m)-1] + st.accent.s("*")
	}
	for _, a := range p.lock.Anomalies {
		for _, n := range a.Nodes {
			if n == q.Node {
				return m[:len(m)-1] + st.anomaly(a.Kind).s("!")
			}
		}
	}
	for _, a := range p.lock.MaybeLongHeld {
		if a.Node == q.Node {
			return m[:len(m)-1] + st.warning.s("~")
		}
	}
	return m
}

// segments are the status bar's word on our own lock, on every screen.
func (op *operator) segments() []segment {
	o := op.env.own
	if o == nil {
		return nil
	}
	st, path := op.env.st, model.Printable(o.path)
	switch {
	case o.lost != nil:
		return []segment{{text: "✗ OUR LOCK LOST " + path, p: st.danger}}
	case o.held != nil:
		return []segment{{text: "● holding " + path, p: st.holder}}
	}
	return []segment{{text: "◌ waiting " + path, p: st.waiter}}
}

// since is how long ago t was, by now, in whole seconds.
func since(now, t time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		d = 0
	}
	return model.Duration(d.Truncate(time.Second))
}
