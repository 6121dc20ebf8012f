package zkwatch

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// Enrichment is what the members said of themselves, their connections and
// their watches in one ask. It is read-only once made, and describes the
// servers as they answered, moments before At.
type Enrichment struct {
	// At is when the answers were in; zero before the first ask completes.
	At time.Time
	// Servers are the members, in the order given to NewEnricher.
	Servers []ServerInfo
	// Clients holds every session connected to a member that answered cons.
	// A session listed by two members (a client moving between them) keeps
	// the more recently established connection.
	Clients map[int64]ClientInfo
	// Complete is true when every member answered cons: a session missing
	// from Clients is then connected nowhere.
	Complete bool
	// ClientsAsked is when the oldest of the cons answers in Clients was
	// asked for (an answer is reused until its cost allows asking again).
	ClientsAsked time.Time
	// ClientsNote says why Complete is false, each cause once, such as
	// "cons refused by 127.0.0.1:2181, 127.0.0.1:2182".
	ClientsNote string
	// Watches merges every member's watch table, with absolute server paths
	// (see WithinChroot). It is nil unless every member answered wchc or
	// wchp: a session's watches are known only to the member it is
	// connected to. Like wchc, it lists data watches only.
	Watches *lockcore.WatchTable
	// WatchesNote says why Watches is nil, each cause once, such as
	// "wchc and wchp refused by 127.0.0.1:2181; no answer from 127.0.0.1:2182".
	WatchesNote string
	// ByPath is Watches by path: the sessions watching each path, in
	// ascending order. It is nil when Watches is.
	ByPath map[string][]int64
	// WatchesZxid is the lowest zxid the members had applied when their
	// tables were read, and WatchesAt the oldest read: a table is reused
	// until its cost allows reading it again.
	WatchesZxid int64
	WatchesAt   time.Time
	// Cost is what the four-letter words cost each member over the last
	// minute.
	Cost []words.MemberCost
	// Covers, when not nil, names the locks (chroot-relative paths) whose
	// watches Watches kept: see Interest.
	Covers func(lockPath string) bool
	// CoversGen is the lowest Interest.Gen of the members' tables: it
	// grows once every member's table was read after more locks were
	// found.
	CoversGen uint64
	// WatchesFor, when set, is the one lock Watches was read for: the
	// table as a whole is over the budget (see Enricher.Focus).
	WatchesFor string
}

// merge makes the picture from every member's answers.
func merge(answers []memberAnswer, at time.Time) Enrichment {
	return mergeTable(answers, at, true)
}

// mergeKeepingTable is merge for answers whose watch tables are the same
// reads as those previous was merged from (see tableSources): the merged
// table is previous's, not made again. Merging tens of thousands of
// watches every few seconds, when the tables are read far less often,
// would cost as much as reading them.
func mergeKeepingTable(answers []memberAnswer, at time.Time, previous Enrichment) Enrichment {
	en := mergeTable(answers, at, false)
	if en.WatchesNote == "" {
		en.Watches, en.ByPath = previous.Watches, previous.ByPath
	}
	return en
}

// tableSources names the watch-table reads in answers: each member's
// address with when its table was read, or "-" for none.
func tableSources(answers []memberAnswer) string {
	var b strings.Builder
	for _, a := range answers {
		b.WriteString(a.info.Addr)
		if a.watches == nil {
			b.WriteString(" -\n")
			continue
		}
		fmt.Fprintf(&b, " %d %s\n", a.watchesAt.UnixNano(), a.watchesWord)
	}
	return b.String()
}

func mergeTable(answers []memberAnswer, at time.Time, withTable bool) Enrichment {
	en := Enrichment{At: at, Clients: map[int64]ClientInfo{}}
	table := map[int64][]string{}
	var clientsWhy, watchesWhy notes
	for _, a := range answers {
		en.Servers = append(en.Servers, a.info)
		if !a.consOK {
			clientsWhy.add(a.missing("cons"), a.info.Addr)
		} else if en.ClientsAsked.IsZero() || a.consAt.Before(en.ClientsAsked) {
			en.ClientsAsked = a.consAt
		}
		for _, c := range a.conns {
			old, dup := en.Clients[c.Session]
			if c.Session == 0 || dup && old.Established.After(c.Established) {
				continue
			}
			en.Clients[c.Session] = ClientInfo{Session: c.Session, Server: a.info.Addr, Client: c.Client,
				LastOperation: c.LastOperation, Established: c.Established, Timeout: c.Timeout,
				Asked: a.consAt, Silent: a.silent[c.Session], Heard: a.heard[c.Session]}
		}
		switch {
		case a.overBudget > 0:
			watchesWhy.add(fmt.Sprintf("%d watches, over the budget of %d, on", a.overBudget, a.budget), a.info.Addr)
		case a.tableSkipped:
		case a.watches == nil && a.summaryFailed():
			watchesWhy.add(a.missing("wchs"), a.info.Addr)
		case a.watches == nil:
			watchesWhy.add(a.missing("wchc", "wchp"), a.info.Addr)
		default:
			if en.WatchesAt.IsZero() || a.watchesAt.Before(en.WatchesAt) {
				en.WatchesAt = a.watchesAt
			}
			if en.WatchesZxid == 0 || a.watchesZxid < en.WatchesZxid {
				en.WatchesZxid = a.watchesZxid
			}
			en.Covers = both(en.Covers, a.covers)
			if en.CoversGen == 0 || a.coversGen < en.CoversGen {
				en.CoversGen = a.coversGen
			}
			if a.watchesFor != "" {
				en.WatchesFor = a.watchesFor
			}
		}
		if withTable {
			for s, paths := range a.watches {
				table[s] = append(table[s], paths...)
			}
		}
	}
	en.Complete, en.ClientsNote = len(clientsWhy.causes) == 0, clientsWhy.String()
	if en.WatchesNote = watchesWhy.String(); en.WatchesNote == "" && withTable {
		en = en.withTable(table)
	}
	return en
}

// withMissing marks the picture incomplete for members that could not be
// asked: no watch table (a session connected to them would look as if it
// watched nothing), and no claim that a session missing from Clients is
// connected nowhere.
func (en Enrichment) withMissing(missing []string) Enrichment {
	note := "not asked: " + strings.Join(missing, "; ")
	en.Complete = false
	en.ClientsNote = joinNotes(en.ClientsNote, note)
	en.WatchesNote = joinNotes(en.WatchesNote, note)
	en.Watches, en.ByPath, en.Covers = nil, nil, nil
	return en
}

func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// WithinChroot returns the picture with watched paths made relative to
// chroot, as a client connected with that chroot names them, and watches
// outside it left out, but for zklocks' mark (lockcore.ObserverMark),
// kept as it is. An empty chroot or "/" changes nothing.
func (en Enrichment) WithinChroot(chroot string) Enrichment {
	chroot = strings.TrimSuffix(chroot, "/")
	if chroot == "" || en.ByPath == nil {
		return en
	}
	return en.rebuild(func(p string, _ int64) (string, bool) {
		if p == lockcore.ObserverMark {
			// One server path whatever the chroot of its carriers.
			return p, true
		}
		return underChroot(chroot, p)
	})
}

// Without returns the picture without session's watches, so that a reader
// does not take its own watches for a client's. Clients keeps the session:
// its connection is real.
func (en Enrichment) Without(session int64) Enrichment {
	if en.ByPath == nil || len(en.Watches.Paths(session)) == 0 {
		// Nothing of session's to drop: the table is not rebuilt, which
		// on every poll would cost as much as reading it.
		return en
	}
	return en.rebuild(func(p string, s int64) (string, bool) { return p, s != session })
}

// Ghosts returns the sessions among owners (ephemeral owners of lock nodes)
// that no member lists in cons, in ascending order, without duplicates and
// without 0. Such a session is connected nowhere: it is expiring, or its
// ephemeral nodes outlived it (a known server bug). Only a Complete picture
// can tell, so otherwise Ghosts returns nil. A session that connected after
// At looks like a ghost too: compare with owners read before At.
func (en Enrichment) Ghosts(owners []int64) []int64 {
	if !en.Complete {
		return nil
	}
	var ghosts []int64
	for _, s := range owners {
		if _, ok := en.Clients[s]; s != 0 && !ok {
			ghosts = append(ghosts, s)
		}
	}
	slices.Sort(ghosts)
	return slices.Compact(ghosts)
}

// rebuild remakes Watches and ByPath from ByPath, keeping each watch that
// keep accepts, under the path it returns.
func (en Enrichment) rebuild(keep func(path string, session int64) (string, bool)) Enrichment {
	bySession := map[int64][]string{}
	for p, sessions := range en.ByPath {
		for _, s := range sessions {
			if q, ok := keep(p, s); ok {
				bySession[s] = append(bySession[s], q)
			}
		}
	}
	return en.withTable(bySession)
}

// withTable sets Watches and ByPath from a fresh session → paths table,
// which it sorts in place.
func (en Enrichment) withTable(bySession map[int64][]string) Enrichment {
	en.ByPath = map[string][]int64{}
	for s, paths := range bySession {
		slices.Sort(paths)
		bySession[s] = slices.Compact(paths)
		for _, p := range bySession[s] {
			en.ByPath[p] = append(en.ByPath[p], s)
		}
	}
	for _, sessions := range en.ByPath {
		slices.Sort(sessions)
	}
	en.Watches = lockcore.NewWatchTable(bySession)
	return en
}

// invert turns a wchp table (path → sessions) into a wchc one; nil stays nil.
func invert(byPath map[string][]int64) map[int64][]string {
	if byPath == nil {
		return nil
	}
	bySession := map[int64][]string{}
	for p, sessions := range byPath {
		for _, s := range sessions {
			bySession[s] = append(bySession[s], p)
		}
	}
	return bySession
}

// notes groups members by why an answer of theirs is missing, so that each
// cause is said once.
type notes struct {
	causes  []string
	servers map[string][]string
}

func (n *notes) add(cause, server string) {
	if n.servers == nil {
		n.servers = map[string][]string{}
	}
	if _, ok := n.servers[cause]; !ok {
		n.causes = append(n.causes, cause)
	}
	n.servers[cause] = append(n.servers[cause], server)
}

// String joins the causes: "wchc and wchp refused by a, b; not serving: c".
func (n notes) String() string {
	parts := make([]string, len(n.causes))
	for i, c := range n.causes {
		parts[i] = c + " " + strings.Join(n.servers[c], ", ")
	}
	return strings.Join(parts, "; ")
}

// both accepts what a and b accept; nil accepts everything.
func both(a, b func(string) bool) func(string) bool {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return func(p string) bool { return a(p) && b(p) }
}
