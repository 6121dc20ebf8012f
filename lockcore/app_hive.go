package lockcore

import (
	"fmt"
	"sort"
	"strings"
)

// Hive's ZooKeeper lock manager (ZooKeeperHiveLockManager, used with the
// legacy DummyTxnManager) locks an object by creating
// <object>/LOCK-<MODE>-<seq> under /<hive.zookeeper.namespace>/<db>/<table>
// [/<col>=<val>...], ephemeral for a query's locks and persistent for
// LOCK TABLE's. It then lists the children, without a watch: if a lower
// node conflicts (EXCLUSIVE is blocked by any lower EXCLUSIVE or SHARED,
// SHARED by a lower EXCLUSIVE, SEMI_SHARED by a lower EXCLUSIVE; nothing
// checks SEMI_SHARED), it deletes its node and tries again after
// hive.lock.sleep.between.retries. So every node that stays holds: a
// lock's nodes are co-holders, never a queue, and nobody waits on a watch.
// The data is queryId:lockTime:IMPLICIT|EXPLICIT:query:clientIp, the
// query stripped of colons and clientIp the lock manager's host.
const (
	hiveLockPrefix = "LOCK-"
	hiveShared     = "SHARED"
	hiveExclusive  = "EXCLUSIVE"
	hiveSemiShared = "SEMI_SHARED"
	hiveExplicit   = "EXPLICIT"
)

// KindHiveLock is a Hive lock node: LOCK-SHARED-, LOCK-EXCLUSIVE- or
// LOCK-SEMI_SHARED- and a sequence; Prefix is the mode word.
const KindHiveLock NameKind = "hive-lock"

// RecipeHive is Hive's ZooKeeper lock manager: co-holders, no queue.
const RecipeHive Recipe = "hive"

// AnomalyExplicitLock: a Hive lock taken by LOCK TABLE: persistent, it
// outlives the session and the query that took it, until UNLOCK TABLE or a
// delete by hand.
const AnomalyExplicitLock AnomalyKind = "explicit-lock"

// hiveMode maps Hive's mode words onto zklocks' modes: SHARED is a read,
// EXCLUSIVE a write; SEMI_SHARED reads too, with a note on how it differs.
func hiveMode(word string) (Mode, string) {
	switch word {
	case hiveExclusive:
		return ModeWrite, ""
	case hiveSemiShared:
		return ModeRead, "SEMI_SHARED: blocked by a lower EXCLUSIVE only, and no other mode checks for it"
	}
	return ModeRead, ""
}

// applyHiveRules decides Hive's nodes as its lock manager does: a node
// that a lower one conflicts with is a contender about to delete itself
// and retry; every other node holds.
func applyHiveRules(entries []*entry) {
	var lowestShared, lowestExclusive int64 = -1, -1
	sorted := append([]*entry(nil), entries...)
	sortBySeq(sorted)
	for _, e := range sorted {
		if e.name.Kind != KindHiveLock {
			continue
		}
		e.rule, e.noWatch = nil, true
		var blocker int64 = -1
		switch e.name.Prefix {
		case hiveExclusive:
			blocker = minSeq(lowestShared, lowestExclusive)
		case hiveShared, hiveSemiShared:
			blocker = lowestExclusive
		}
		switch {
		case blocker >= 0:
			e.role = RoleWaiter
			e.note = fmt.Sprintf("a lower conflicting lock (sequence %d) is there: Hive deletes this node and tries again after hive.lock.sleep.between.retries; it never waits on a watch", blocker)
		default:
			e.role = RoleHolder
		}
		switch e.name.Prefix {
		case hiveShared:
			lowestShared = minSeq(lowestShared, e.name.Seq)
		case hiveExclusive:
			lowestExclusive = minSeq(lowestExclusive, e.name.Seq)
		}
	}
}

func minSeq(a, b int64) int64 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// hiveObject names the object a Hive lock path locks, as Hive displays
// it (db@table@col=val/col=val), from the path under the namespace: the
// first element is the namespace, then the database, the table and the
// partition's levels.
func hiveObject(lockPath string) (what, object string) {
	elems := strings.Split(strings.Trim(lockPath, "/"), "/")
	switch {
	case len(elems) < 2:
		return "lock", lockPath
	case len(elems) == 2:
		return "database lock", elems[1]
	case len(elems) == 3:
		return "table lock", elems[1] + "@" + elems[2]
	}
	return "partition lock", elems[1] + "@" + elems[2] + "@" + strings.Join(elems[3:], "/")
}

func analyzeHive(l *Lock) {
	what, object := hiveObject(l.Path)
	a := &App{Name: "hive", What: what + " on " + object,
		Notes: []string{"Hive's lock manager never queues: a query that meets a conflicting lock deletes its node and tries again later, so every node that stays is a holder"}}
	l.App = a
	// SHOW LOCKS reads every lock node with a data watch: sessions that
	// watch Hive's nodes wait for nothing.
	dropHerd(l, "sessions watch these lock nodes, as Hive's SHOW LOCKS leaves them doing; nobody waits on a Hive lock's node")
	var holders []*Participant
	for i := range l.Participants {
		p := &l.Participants[i]
		if p.Role == RoleHolder {
			holders = append(holders, p)
		}
		d, ok := DecodeHiveLockData(p.Data)
		if !ok {
			if !p.Pending {
				p.Identity = undecoded("the query", p.Data, p.DataTruncated, p.DataDenied)
			}
			continue
		}
		p.Identity = hiveIdentity(d)
		if d.Explicit && !p.Ephemeral {
			l.Anomalies = append(l.Anomalies, one(AnomalyExplicitLock, *p, fmt.Sprintf(
				"taken by LOCK TABLE (query %s from %s, %s): persistent, it stays after the session that took it ends, until UNLOCK TABLE or a delete by hand",
				d.QueryID, d.Client, stamp(d.LockTime))))
		}
	}
	switch len(holders) {
	case 0:
	case 1:
		a.Holder, a.HolderSession = holders[0].Identity, holders[0].Session
	default:
		a.Holder = fmt.Sprintf("%d co-holders (%s)", len(holders), hiveModeCounts(holders))
	}
}

func hiveIdentity(d HiveLockData) string {
	kind := "query"
	if d.Explicit {
		kind = "LOCK TABLE"
	}
	s := fmt.Sprintf("%s %s from %s", kind, d.QueryID, d.Client)
	if !d.LockTime.IsZero() {
		s += ", locked " + stamp(d.LockTime)
	}
	if q := strings.TrimSpace(d.Query); q != "" {
		s += ": " + q
	}
	return s
}

// hiveModeCounts counts holders by Hive's own mode words: "2 SHARED".
func hiveModeCounts(ps []*Participant) string {
	counts := map[string]int{}
	for _, p := range ps {
		counts[ParseName(BaseName(p.Node)).Prefix]++
	}
	var out []string
	for _, m := range []string{hiveExclusive, hiveShared, hiveSemiShared} {
		if counts[m] > 0 {
			out = append(out, fmt.Sprintf("%d %s", counts[m], m))
		}
	}
	return strings.Join(out, ", ")
}

// sortBySeq orders entries by sequence number, then creation.
func sortBySeq(es []*entry) {
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].name.Seq != es[j].name.Seq {
			return es[i].name.Seq < es[j].name.Seq
		}
		return es[i].node.Stat.Czxid < es[j].node.Stat.Czxid
	})
}

// isHiveExplicit reports whether a participant's data says LOCK TABLE took it.
func isHiveExplicit(p Participant) bool {
	d, ok := DecodeHiveLockData(p.Data)
	return ok && d.Explicit
}

// NestedDirs names the children of a lock to look for more locks in: a
// Hive object's lock nodes sit beside the objects below it (a database's
// tables, a table's partitions), each of which may be locked too. For
// every other lock it returns nil: its children are its contenders.
func NestedDirs(childNames []string) []string {
	hive := false
	for _, c := range childNames {
		hive = hive || ParseName(c).Kind == KindHiveLock
	}
	if !hive {
		return nil
	}
	var out []string
	for _, c := range childNames {
		if !ParseName(c).HasSeq {
			out = append(out, c)
		}
	}
	return out
}

// hiveShape is the rule book entry of RecipeHive and its hooks.
func hiveShape() builtin {
	return builtin{Entry: Entry{
		Name: string(RecipeHive), About: "Apache Hive's ZooKeeperHiveLockManager (LOCK-<mode>-<seq> under /<namespace>/<db>/<table>/<partition>)",
		Children: "LOCK-{mode}-{seq}", Modes: map[string]Mode{hiveShared: ModeRead, hiveExclusive: ModeWrite, hiveSemiShared: ModeRead},
		Grant: GrantCoHolding, Persistent: true, Identity: "data:^([^:]+):",
	}, hooks: hooks{kinds: map[string]NameKind{"": KindHiveLock}, shape: parsedAs(KindHiveLock), reads: readQueue,
		mode: func(e *entry) (Mode, string) { return hiveMode(e.name.Prefix) }, rules: func(es []*entry, _ string) { applyHiveRules(es) }, beside: noSequence, app: func(l *Lock, _ Tree) { analyzeHive(l) }}}
}
