package lockcore

import (
	"fmt"
	"strings"
)

// Accumulo's ServiceLock (ZooLock before 2.1) queues ephemeral-sequential
// zlock#<uuid>#<seq> nodes (zlock-<seq> before 2.1) in a lock directory
// under the instance root /accumulo/<instance id>; the lowest holds. The
// holder's LockID, "<path from the root>/<node>$<session in hex>", is
// stored in the metadata and checked later: the fencing token. FATE
// transactions lock tables with persistent-sequential flock# entries in
// <root>/table_locks/<table id>, which outlive sessions (ServiceLock,
// ServiceLockData, ServerServices, FateLock, DistributedReadWriteLock).

// Name kinds of Accumulo's nodes.
const (
	// KindAccumuloLock is an Accumulo ServiceLock node: zlock#<uuid>#<seq>
	// (2.1 on), or zlock-<seq> (1.x and 2.0).
	KindAccumuloLock NameKind = "accumulo-lock"
	// KindAccumuloFate is an Accumulo FATE table lock entry, persistent:
	// flock#<seq> (2.1, the entry in its data) or flock#<TYPE>:<fate
	// id>#<seq> (the entry in its name).
	KindAccumuloFate NameKind = "accumulo-fate"
)

const (
	accumuloLockDash = "zlock-"
	accumuloFate     = "flock#"
)

// accumuloLockNames reads zlock-<seq>, the name before 2.1, which the
// entry's pattern (2.1's zlock#<uuid>#<seq>) cannot also state.
func accumuloLockNames(n *Name, body string) bool {
	if body != accumuloLockDash {
		return false
	}
	n.Kind = KindAccumuloLock
	return true
}

// accumuloFateNames reads flock#<seq>, 2.1's entry with the entry in its
// data, which the entry's pattern (flock#<entry>#<seq>) cannot also state.
func accumuloFateNames(n *Name, body string) bool {
	if body != accumuloFate || strings.HasPrefix(n.SeqText, "-") {
		return false
	}
	n.Kind = KindAccumuloFate
	return true
}

// accumuloServices maps the directories under the instance root that hold
// service locks to the service's name.
var accumuloServices = map[string]string{
	"managers": "manager", "masters": "manager", "gc": "garbage collector", "monitor": "monitor",
	"coordinators": "compaction coordinator", "tservers": "tablet server", "sservers": "scan server",
	"compactors": "compactor",
}

// lowestOfRun is ServiceLock's findLowestPrevPrefix: from the predecessor
// back, the lowest of the nodes in a row that share its zlock#<uuid>#.
func lowestOfRun(ahead *queueView) *entry { return ahead.runStart }

// fateMode reads a FATE entry's mode; an entry that states none is taken
// as a write, which waits for every entry before it, and says so.
func fateMode(e *entry) (Mode, string) {
	entry := e.name.Prefix
	if entry == "" {
		entry = string(e.node.Data)
	}
	if m, _, ok := DecodeAccumuloFateEntry(entry); ok {
		return m, ""
	}
	return ModeWrite, "its lock type is not stated (" + quoteData([]byte(entry)) + "): ordered as a write"
}

// accumuloRoot splits a lock path into the instance root, the service and
// the path below the root.
func accumuloRoot(lockPath string) (root, service, rel string, ok bool) {
	parts := strings.Split(strings.TrimPrefix(lockPath, "/"), "/")
	for i := len(parts) - 1; i >= 0; i-- {
		name, known := accumuloServices[parts[i]]
		if known || parts[i] == "table_locks" {
			root = "/" + strings.Join(parts[:i], "/")
			if root == "/" {
				root = ""
			}
			if !known {
				name = "table lock"
			}
			return root, name, lockPath[len(root):], true
		}
	}
	return "", "", "", false
}

func analyzeAccumulo(l *Lock, t Tree) {
	_, service, rel, ok := accumuloRoot(t.Path)
	if l.Recipe == RecipeAccumuloFate {
		analyzeFate(l, t)
		return
	}
	a := &App{Name: "accumulo", What: "service lock"}
	if ok {
		a.What = service + " lock"
	}
	l.App = a
	for i := range l.Participants {
		p := &l.Participants[i]
		if p.DataDenied {
			continue
		}
		if id, decoded := DecodeAccumuloLockData(p.Data); decoded {
			p.Identity = id
		} else if len(p.Data) > 0 {
			p.Identity = undecoded("the server", p.Data, p.DataTruncated, false)
		}
	}
	h, held := holderOf(l)
	if !held {
		return
	}
	a.Holder, a.HolderSession = h.Identity, h.Session
	if ok {
		a.Token = &AppToken{Name: "LockID", Path: h.Path, Value: fmt.Sprintf("%s/%s$%x", rel, BaseName(h.Path), uint64(h.Session)), Version: -1}
	}
}

// analyzeFate names FATE table lock entries by their transactions.
func analyzeFate(l *Lock, t Tree) {
	a := &App{Name: "accumulo", What: "FATE table lock of table " + BaseName(t.Path),
		Notes: []string{"FATE table locks are persistent: they belong to transactions, not sessions, and FATE polls for them rather than watching"}}
	l.App = a
	for i := range l.Participants {
		p := &l.Participants[i]
		entry := ParseName(BaseName(p.Path)).Prefix
		if entry == "" {
			entry = string(p.Data)
		}
		if m, tx, ok := DecodeAccumuloFateEntry(entry); ok {
			p.Identity = "FATE transaction " + tx + " (" + string(m) + ")"
		}
		if p.Role == RoleHolder && a.Holder == "" {
			a.Holder = p.Identity
		}
	}
}

// accumuloLockShape is the rule book entry of RecipeAccumuloLock and its hooks.
func accumuloLockShape() builtin {
	return builtin{Entry: Entry{
		Name: string(RecipeAccumuloLock), About: "Apache Accumulo's ServiceLock (zlock#<uuid>#<seq>; zlock-<seq> before 2.1)",
		Children: "zlock#{id:uuid}#{seq}", Grant: GrantElection, Identity: "decoder:accumulo-lock", Order: OrderText,
	}, hooks: hooks{names: accumuloLockNames, kinds: map[string]NameKind{"": KindAccumuloLock}, shape: parsedAs(KindAccumuloLock), reads: readQueue, waitsFor: lowestOfRun, app: analyzeAccumulo}}
}

// accumuloFateShape is the rule book entry of RecipeAccumuloFate and its hooks.
func accumuloFateShape() builtin {
	return builtin{Entry: Entry{
		Name: string(RecipeAccumuloFate), About: "Apache Accumulo's FATE table locks (flock#<seq>, read or write in the data)",
		Children: "flock#{id}#{seq}", Grant: GrantReadWrite, Persistent: true, Order: OrderNumber,
	}, hooks: hooks{names: accumuloFateNames, kinds: map[string]NameKind{"": KindAccumuloFate}, shape: parsedAs(KindAccumuloFate), reads: readQueue, mode: fateMode, app: analyzeAccumulo}}
}
