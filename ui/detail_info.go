package ui

import (
	"fmt"
	"strings"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// maxHops bounds the chain drawn for one waiter; a longer chain shows its
// first hops, a count, and the hop that ends it.
const maxHops = 40

// labelWidth is the width of the labels of the information lines.
const labelWidth = 10

// infoLines collects the painted lines below the queue.
type infoLines struct {
	st    *styles
	w     int
	lines []string
}

// kv adds "label  value", the value wrapped under itself.
func (b *infoLines) kv(label, value string, p paint) {
	indent := strings.Repeat(" ", labelWidth+1)
	for i, part := range wrap(value, b.w-labelWidth-2, "") {
		if i == 0 {
			b.lines = append(b.lines, " "+b.st.muted.s(fit(label, labelWidth))+p.s(part))
		} else {
			b.lines = append(b.lines, indent+p.s(part))
		}
	}
}

// text adds plain text wrapped to the width, painted with p.
func (b *infoLines) text(s string, p paint, indent string) {
	for _, part := range wrap(s, b.w-1-width(indent), "") {
		b.lines = append(b.lines, " "+indent+p.s(part))
	}
}

// buildInfo works out the lines about the selection and the lock: on
// every change of either, never per frame.
func (p *detailPane) buildInfo() {
	if p.lock == nil {
		p.info = nil
		return
	}
	p.infoAt = p.env.now()
	b := &infoLines{st: p.env.st, w: max(p.w, 20)}
	if p.env.demoLine != "" {
		b.text(p.env.demoLine, p.env.st.muted, "")
	}
	if q := p.selected(); q != nil {
		p.participantInfo(b, q)
	}
	p.lockInfo(b)
	p.info = b.lines
	_, ih := p.split()
	p.scroll.fix(len(p.info), ih)
}

func (p *detailPane) participantInfo(b *infoLines, q *lockcore.Participant) {
	st, l := p.env.st, p.lock
	b.kv("path", model.Printable(q.Path), paint{})
	facts := []string{"session " + model.SessionText(q.Session), "client " + p.env.client(q.Session).Short(),
		"token " + tokenText(q, false), "waiting for " + p.env.ageText(l, q)}
	if q.Pending && q.Role == lockcore.RoleWaiter {
		facts[3] = "wait " + model.NotRead
	}
	if q.Role == lockcore.RoleHolder {
		facts[3] = model.HoldText(p.env.held(l, q.Hold), p.env.ageText(l, q))
	}
	if q.Session != 0 && !q.Ephemeral {
		facts[0] += " (not ephemeral)"
	}
	b.kv(string(q.Role), strings.Join(facts, " · "), paint{})
	if q.Identity != "" {
		// Who the contender is in its application's terms (a taught
		// entry's identity): the queue has no room for it at 80 columns.
		b.kv("who", model.Printable(q.Identity), paint{})
	}
	if k := p.env.state.Link(q.Session); k.State == lockcore.LinkDisconnected {
		then := "its nodes go when it expires, unless the client reconnects"
		if q.Role == lockcore.RoleHolder {
			then = "it holds until then, unless it reconnects; force-release passes the lock now"
		}
		b.kv("link", "disconnected, "+p.env.expires(k)+": no member holds a connection for this session "+
			"(its client crashed or is cut off); "+then, st.danger)
	} else if text := model.LivenessText(l, *q, k, p.env.now()); k.Liveness() == lockcore.LiveSilent {
		b.kv("liveness", model.Printable(text), st.danger)
	} else if strings.HasPrefix(text, "hung") {
		// Said only when it matters: a live client holding a short while
		// is the common case, and needs no line.
		b.kv("liveness", model.Printable(text), st.warning)
	}
	switch {
	case q.Pending:
		b.kv("pending", "its node is listed but "+model.NotRead+": its place, role and session are known "+
			"(the session from the servers' dump); its token, version, times and data follow when it is read", st.warning)
	case q.DataDenied:
		b.kv("data", "unreadable: the node's ACL denies this session its data (session, token and times come from exists)", st.warning)
	case dataText(q.Data, q.DataTruncated) != "":
		b.kv("data", dataText(q.Data, q.DataTruncated), st.muted)
	}
	if q.Role == lockcore.RoleWaiter || q.Watches != nil {
		p.waiterInfo(b, q)
	}
	if q.Role == lockcore.RoleHolder {
		p.watchersInfo(b, q)
	}
	if q.Note != "" {
		b.kv("note", model.Printable(q.Note), st.warning)
	}
}

// waiterInfo says what a waiter waits on: its chain to a holder, one hop
// per line, or why there is none.
func (p *detailPane) waiterInfo(b *infoLines, q *lockcore.Participant) {
	st := p.env.st
	switch {
	case q.WatchMaybeUnset():
		b.kv("waits on", "unknown yet: its client may not have set its watch when the servers' table was read; judged at the next table", st.warning)
	case q.WatchesUnknown:
		b.kv("waits on", "unknown: by the servers' watch table, this session watches only its own other nodes here, "+
			"so which of them this waiter waits through cannot be told", st.warning)
	case q.Watches == nil && len(p.lock.Assumed) > 0:
		// The fallback rule's guess: an in-house waiter may hold a
		// children watch on the lock node, which no table lists.
		b.kv("waits on", "no node of this lock, by the servers' watch table, which never lists a children watch "+
			"(as a herd's waiters hold on the lock node): whether anything will wake it cannot be told", st.warning)
	case q.Watches == nil:
		b.kv("waits on", "nothing in this lock, by the servers' watch table: it will not wake on its own", st.danger)
	case q.Watches.Children:
		b.kv("waits on", "the children of "+model.Printable(q.Watches.Path)+" ("+model.WatchedText(q.Watches)+"): a children watch, by its recipe's rule "+
			"(the servers never list children watches)", paint{})
	case len(q.Chain) == 0:
		b.kv("waits on", model.ShortNode(q.Watches.Node), paint{})
	default:
		p.chainInfo(b, q)
	}
}

// chainInfo draws a waiter's chain: the node it watches, the node that one
// watches, and so on to a holder, one hop per line.
func (p *detailPane) chainInfo(b *infoLines, q *lockcore.Participant) {
	st := p.env.st
	indent := strings.Repeat(" ", labelWidth+1)
	chain := q.Chain
	skipped := 0
	if len(chain) > maxHops {
		skipped = len(chain) - maxHops
		chain = append(append([]string(nil), chain[:maxHops-1]...), chain[len(chain)-1])
	}
	for i, node := range chain {
		lead := indent
		if i == 0 {
			lead = " " + st.muted.s(fit("waits on", labelWidth))
		}
		if skipped > 0 && i == len(chain)-1 {
			b.lines = append(b.lines, indent+st.muted.s("⋮ "+itoa(skipped)+" more hops"))
		}
		j, ok := p.index[node]
		if !ok {
			b.lines = append(b.lines, lead+st.warning.s("→ "+model.ShortNode(node)+" (gone since the lock was read)"))
			continue
		}
		b.lines = append(b.lines, lead+p.hop(&p.lock.Participants[j]))
	}
	j, ok := p.index[q.Chain[len(q.Chain)-1]]
	if !ok {
		return
	}
	last := &p.lock.Participants[j]
	switch {
	case last.Role == lockcore.RoleHolder:
	case last.WatchesUnknown:
		b.lines = append(b.lines, indent+st.warning.s("~ #"+itoa(j)+" watches an unknown node: the chain cannot be followed further"))
	case last.Watches == nil:
		b.lines = append(b.lines, indent+st.danger.s("✗ #"+itoa(j)+" watches nothing: no holder at the end"))
	case last.Watches.Node == q.Node || contains(q.Chain, last.Watches.Node):
		k := p.index[last.Watches.Node]
		b.lines = append(b.lines, indent+st.danger.s("↺ back to #"+itoa(k)+": these waiters watch each other and never wake"))
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hop is one line of a chain: position, mode, node and role, then session
// and client as far as they fit.
func (p *detailPane) hop(q *lockcore.Participant) string {
	st := p.env.st
	line := "→ #" + itoa(q.Position) + " " + modeText(q.Mode) + " " + nodeText(q.Node, p.full) + " "
	room := p.w - labelWidth - 2 - width(line) - len(q.Role)
	var rest string
	for _, extra := range []string{model.SessionText(q.Session), p.env.client(q.Session).Short()} {
		if width(rest)+1+width(extra) > room {
			break
		}
		rest += " " + extra
	}
	return line + st.role(q.Role).s(string(q.Role)) + st.muted.s(rest)
}

// watchersInfo says who watches a holder, when the servers said.
func (p *detailPane) watchersInfo(b *infoLines, q *lockcore.Participant) {
	if p.lock.WatchesSource != lockcore.WatchesFromServer {
		return
	}
	if len(q.Watchers) == 0 {
		b.kv("watched", "by no session (servers' watch table)", p.env.st.muted)
		return
	}
	parts := make([]string, len(q.Watchers))
	for i, s := range q.Watchers {
		parts[i] = model.SessionText(s) + " (" + p.env.client(s).Short() + ")"
	}
	b.kv("watched", "by "+strings.Join(parts, ", "), paint{})
}

// lockInfo adds what concerns the lock as a whole: hidden waiters,
// anomalies with their evidence, warnings.
func (p *detailPane) lockInfo(b *infoLines) {
	st, l := p.env.st, p.lock
	switch {
	case l.WatchesSource == lockcore.WatchesFromServer:
	case p.env.state.WatchesNote != "":
		b.kv("watches", "by each recipe's rule, because "+model.Printable(p.env.state.WatchesNote), st.muted)
	case l.WatchesGap != "":
		// Said here, once and muted: on a busy lock it is true most of
		// the time, and says nothing wrong of the lock.
		b.kv("watches", "by each recipe's rule until the table is read again: "+model.Printable(l.WatchesGap), st.muted)
	}
	for _, a := range l.Assumed {
		b.text("? assumed: "+model.Printable(a), st.warning, "")
	}
	p.appInfo(b)
	if l.Recipe == lockcore.RecipeEphemeral {
		known, ok := p.env.state.KnownHidden(l.Path)
		switch {
		case l.WatchesGap != "" && ok && len(known.Sessions) > 0:
			// The lock changed since the table was read: what that read
			// found is still the best there is, said as such.
			b.kv("hidden", itoa(len(known.Sessions))+" waiters as of the watch table read at "+p.env.clock(known.At)+
				", before the lock's last change: sessions watching the node", st.waiter)
			for _, s := range known.Sessions {
				b.lines = append(b.lines, strings.Repeat(" ", labelWidth+1)+model.SessionText(s)+"  "+st.muted.s(p.env.client(s).Short()))
			}
		case l.WatchesGap != "" && ok:
			b.kv("hidden", "none as of the watch table read at "+p.env.clock(known.At)+", before the lock's last change", st.muted)
		case l.WatchesGap != "":
			b.kv("hidden", "waiters unknown until the servers' watch table is read again", st.muted)
		case l.WatchesSource != lockcore.WatchesFromServer:
			b.kv("hidden", "waiters unknown: they are sessions watching the node, and the servers' watch table is unavailable", st.muted)
		case len(l.HiddenWaiters) == 0 && len(l.Observers) > 0:
			b.kv("hidden", "no waiter: every session watching the node is an observer", st.muted)
		case len(l.HiddenWaiters) == 0:
			b.kv("hidden", "no session watches the node: nobody waits", st.muted)
		default:
			b.kv("hidden", itoa(len(l.HiddenWaiters))+" waiters: sessions watching the node, invisible in the tree", st.waiter)
			for _, s := range l.HiddenWaiters {
				b.lines = append(b.lines, strings.Repeat(" ", labelWidth+1)+model.SessionText(s)+"  "+st.muted.s(p.env.client(s).Short()))
			}
		}
		p.observersInfo(b)
	}
	p.untoldInfo(b)
	if len(l.Anomalies) > 0 {
		b.lines = append(b.lines, " "+st.strong.s("anomalies ("+itoa(len(l.Anomalies))+")"))
	}
	for _, a := range l.Anomalies {
		head := "! " + string(a.Kind)
		if a.Node != "" {
			head += " " + model.ShortNode(a.Node)
		}
		b.lines = append(b.lines, " "+st.anomaly(a.Kind).s(clip(head, b.w-1)))
		b.text(model.Printable(a.Detail), paint{}, "  ")
	}
	for _, a := range l.MaybeLongHeld {
		b.lines = append(b.lines, " "+st.warning.s(clip("~ possibly long-held "+model.ShortNode(a.Node), b.w-1)))
		b.text(model.Printable(a.Detail), paint{}, "  ")
	}
	for _, w := range l.Warnings {
		b.text("! warning: "+model.Printable(w), st.warning, "")
	}
}

// appInfo says what the lock's application says of it: what it is, its
// holder in the application's terms, its fencing token and its members.
func (p *detailPane) appInfo(b *infoLines) {
	st, a := p.env.st, p.lock.App
	if a == nil {
		return
	}
	b.kv(a.Name, model.Printable(a.What), paint{})
	if a.Holder != "" {
		b.kv("holder", model.Printable(a.Holder), st.holder)
	}
	if a.Token != nil {
		b.kv("fencing", model.Printable(model.TokenText(a.Token)), paint{})
	}
	for _, m := range a.Members {
		paint := st.muted
		if m.Role == lockcore.RoleWaiter {
			paint = st.waiter
		}
		b.text(model.Printable(model.MemberText(m)), paint, "")
	}
	for _, n := range a.Notes {
		b.text(model.Printable(n), st.muted, "")
	}
}

// observersInfo lists the sessions watching a plain lock's node that are
// not counted as waiters, each with why; a verdict judged from a
// session's watches says so.
func (p *detailPane) observersInfo(b *infoLines) {
	st, obs := p.env.st, p.lock.Observers
	if len(obs) == 0 {
		return
	}
	b.kv("observers", itoa(len(obs))+": watching the node without waiting, not counted as waiters", st.muted)
	indent := strings.Repeat(" ", labelWidth)
	for _, o := range obs {
		b.lines = append(b.lines, " "+indent+model.SessionText(o.Session)+"  "+st.muted.s(p.env.client(o.Session).Short()))
		why := o.Evidence
		if !o.Certain {
			why = "judged, not known: " + why
		}
		b.text(model.Printable(why), st.muted, indent+"  ")
	}
}

// untoldInfo names the lock's holders whose sessions expired while their
// clients may still believe they hold, with both fencing tokens: the one
// a downstream store must now refuse, and the one it must accept.
func (p *detailPane) untoldInfo(b *infoLines) {
	st, l := p.env.st, p.lock
	for _, u := range p.env.state.Untold {
		if u.Lock != l.Path {
			continue
		}
		b.kv("not told", fmt.Sprintf("%s held with token 0x%x (%d) until its session expired %s: its client may believe it holds. "+
			"A downstream store must refuse that token; %s", model.SessionText(u.Session), u.Token, u.Token, p.env.ago(u.At),
			model.NewHoldersText(p.env.state.Holders(l.Path))), st.danger)
	}
}
