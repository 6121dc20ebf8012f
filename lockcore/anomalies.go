package lockcore

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// findAnomalies looks for trouble among participants already in queue
// order, with chains and watchers filled in; entries[i] is Participants[i].
func findAnomalies(l *Lock, entries []*entry, cycles [][]int, w *WatchTable, opt Options) []Anomaly {
	ps := l.Participants
	var out []Anomaly
	for i, p := range ps {
		switch {
		case p.Pending && p.Session == 0:
			// Listed, owner not known yet: nothing to judge until read.
		case !p.Ephemeral && p.Recipe == RecipeAccumuloFate:
			// FATE table locks are persistent by design: they belong to
			// transactions, which outlive sessions and restarts.
		case !p.Ephemeral && entries[i].persistentOK:
			// Its recipe keeps such nodes by design (a rule book entry's
			// persistent: true).
		case !p.Ephemeral && p.Recipe == RecipeHive && isHiveExplicit(p):
			// LOCK TABLE's locks are persistent by design: the Hive
			// analysis reports them as explicit locks.
		case p.Recipe == RecipeHive && p.Role == RoleWaiter:
			// Hive never waits on a watch: a node a lower one blocks is
			// deleted by its client and tried again later.
		case !p.Ephemeral:
			out = append(out, one(AnomalyPersistent, p,
				fmt.Sprintf("not ephemeral (created %s): no session owns it, so it stays until someone deletes it", stamp(p.Ctime))))
		case p.Role == RoleWaiter && p.Watches == nil && !p.WatchesUnknown && w != nil && !entries[i].noWatch && entries[i].assumed:
			// The fallback rule guessed a watch on the node before; an
			// in-house lock's waiters may instead watch the lock node's
			// children (a herd), which no server lists.
			out = append(out, one(AnomalyUnwatchedWaiter, p,
				fmt.Sprintf("waits, but by the servers' table session %s watches no node of this lock; a children watch (on the lock node, as a herd's waiters hold) "+
					"cannot be seen there, so whether anything will wake it cannot be told: teach zklocks the lock to have it judged", SessionHex(p.Session))))
		case p.Role == RoleWaiter && p.Watches == nil && !p.WatchesUnknown && w != nil && !entries[i].noWatch:
			out = append(out, one(AnomalyUnwatchedWaiter, p,
				fmt.Sprintf("waits, but session %s watches nothing in this lock, so nothing will wake it", SessionHex(p.Session))))
		}
	}
	long, maybe := longHeld(l, opt.LongHeld, l.ReadAt)
	out = append(out, long...)
	l.MaybeLongHeld = maybe
	if l.Recipe != RecipeHive {
		// Each HiveServer2 takes every query's locks through one
		// session: several nodes of one session are its design.
		out = append(out, duplicateSessions(ps, entries)...)
	}
	out = append(out, selfWaits(ps)...)
	for _, c := range cycles {
		out = append(out, cycleAnomaly(ps, c))
	}
	if w != nil {
		out = append(out, herds(l, entries, w)...)
	}
	return out
}

func one(kind AnomalyKind, p Participant, detail string) Anomaly {
	return Anomaly{Kind: kind, Node: p.Node, Nodes: []string{p.Node}, Session: p.Session, Detail: detail}
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return "at a time not read yet"
	}
	return t.UTC().Format(time.RFC3339)
}

// duplicateSessions reports sessions owning more than one contender. Lease
// nodes are left out (one session may hold several leases), and so is a
// Curator read lock taken by the write holder.
func duplicateSessions(ps []Participant, entries []*entry) []Anomaly {
	bySession := map[int64][]int{}
	var sessions []int64
	for i, p := range ps {
		if p.Session == 0 || entries[i].group == 0 && p.Mode == ModeLease || entries[i].note != "" && p.Role == RoleHolder {
			continue
		}
		if bySession[p.Session] == nil {
			sessions = append(sessions, p.Session)
		}
		bySession[p.Session] = append(bySession[p.Session], i)
	}
	var out []Anomaly
	for _, s := range sessions {
		idx := bySession[s]
		if len(idx) < 2 {
			continue
		}
		var nodes, evidence []string
		for _, i := range idx {
			nodes = append(nodes, ps[i].Node)
			evidence = append(evidence, fmt.Sprintf("%s created %s (%s)", ps[i].Node, stamp(ps[i].Ctime), ps[i].Role))
		}
		out = append(out, Anomaly{Kind: AnomalyDuplicateSession, Node: nodes[0], Nodes: nodes, Session: s,
			Detail: fmt.Sprintf("session %s owns %d contenders: %s; threads sharing one client do this, and so does a create retried after a lost reply",
				SessionHex(s), len(idx), strings.Join(evidence, ", "))})
	}
	return out
}

// selfWaits reports waiters whose chain runs through an older node of their
// own session: the session waits on itself.
func selfWaits(ps []Participant) []Anomaly {
	byNode := make(map[string]int, len(ps))
	for i, p := range ps {
		byNode[p.Node] = i
	}
	var out []Anomaly
	for _, p := range ps {
		if p.Role != RoleWaiter || p.Session == 0 {
			continue
		}
		for _, n := range p.Chain {
			j, ok := byNode[n]
			if !ok || ps[j].Session != p.Session || ps[j].Node == p.Node {
				continue
			}
			q := ps[j]
			created := "created " + stamp(q.Ctime)
			if !p.Ctime.IsZero() && !q.Ctime.IsZero() {
				created += fmt.Sprintf(", %s earlier", p.Ctime.Sub(q.Ctime).Round(time.Millisecond))
			}
			out = append(out, Anomaly{Kind: AnomalySelfWait, Node: q.Node, Nodes: []string{q.Node, p.Node}, Session: p.Session,
				Detail: fmt.Sprintf("%s waits behind %s of its own session %s (%s): an orphan of a lost create reply, unless two threads share this session",
					p.Node, q.Node, SessionHex(p.Session), created)})
			break
		}
	}
	return out
}

func cycleAnomaly(ps []Participant, c []int) Anomaly {
	sort.Ints(c)
	var nodes []string
	for _, i := range c {
		nodes = append(nodes, ps[i].Node)
	}
	return Anomaly{Kind: AnomalyWaitCycle, Node: nodes[0], Nodes: nodes, Session: ps[c[0]].Session,
		Detail: fmt.Sprintf("%d waiters watch each other in a loop (%s), so none of them will ever wake", len(nodes), strings.Join(nodes, " → "))}
}

// herds reports contenders that more sessions watch than the recipe needs:
// each change there wakes every one of them. Children watches cannot be seen
// in the servers' table, so a herd on a parent's children goes unreported.
func herds(l *Lock, entries []*entry, w *WatchTable) []Anomaly {
	if l.Recipe == RecipeEphemeral {
		if n := len(l.HiddenWaiters); n >= 2 && len(l.Participants) == 1 {
			p := l.Participants[0]
			return []Anomaly{{Kind: AnomalyHerd, Node: p.Node, Nodes: []string{p.Node}, Session: p.Session,
				Detail: fmt.Sprintf("%d sessions wait on this node; when it goes, all of them wake and race to create it", n)}}
		}
		return nil
	}
	expected := map[string]map[int64]bool{}
	for i, p := range l.Participants {
		if r := entries[i].byRule; r != nil {
			if expected[r.Path] == nil {
				expected[r.Path] = map[int64]bool{}
			}
			expected[r.Path][p.Session] = true
		}
	}
	var out []Anomaly
	for _, p := range l.Participants {
		// A holder watching its own node (to learn that it lost the lock)
		// wakes no one else.
		var watchers []int64
		extra := 0
		for _, s := range p.Watchers {
			// zklocks' own watches wake no contender either.
			if s == p.Session || w.marked(s) {
				continue
			}
			watchers = append(watchers, s)
			if !expected[p.Path][s] {
				extra++
			}
		}
		if len(watchers) < 2 || extra == 0 {
			continue
		}
		out = append(out, Anomaly{Kind: AnomalyHerd, Node: p.Node, Nodes: []string{p.Node},
			Detail: fmt.Sprintf("%d sessions watch %s, %d more than the recipe needs; each change wakes them all", len(watchers), p.Node, extra)})
	}
	return out
}
