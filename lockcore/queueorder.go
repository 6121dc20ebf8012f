package lockcore

import (
	"sort"
	"strconv"
	"strings"
)

// entry is one contender while the analysis runs.
type entry struct {
	node   Node
	name   Name
	rel    string
	path   string
	recipe Recipe
	mode   Mode
	// rule is the watch target by the recipe's rule; nil when it holds.
	// group orders semaphore parts: lease nodes (0) before queued acquirers (1).
	group int
	rule  *WatchTarget
	// byRule keeps the recipe's rule target when the server's table
	// replaces rule with what the session actually watches.
	byRule *WatchTarget
	role   Role
	note   string
	// partOf names the entry (rel) that stands for the same acquisition.
	partOf string
	// watchUnknown: the servers' table cannot tell what this waiter watches.
	watchUnknown bool
	// noWatch: its recipe's waiters watch nothing by design (a rule book
	// entry's waits: nothing), so an unwatched waiter is no anomaly.
	noWatch bool
	// assumed: the fallback rule gave it its role and watch, for a name
	// no rule book entry describes.
	assumed bool
	// persistentOK: its recipe's nodes may be persistent by design.
	persistentOK bool
	// identity names the contender, read by its rule book entry.
	identity string
}

// family groups the name kinds whose clients see each other's nodes. Two
// families in one parent means clients that can both hold at once.
func family(k NameKind) string {
	switch k {
	case KindCuratorLock, KindGoZKLock:
		return "curator-mutex/gozk-lock"
	case KindCuratorRead, KindCuratorWrite:
		return string(RecipeCuratorRWLock)
	case KindKazooLock, KindKazooRead:
		return "kazoo-lock/kazoo-rwlock"
	case KindHostRead, KindHostWrite:
		return string(RecipeHostRW)
	}
	return string(k)
}

// isContender reports whether a name kind takes part in a sequential queue.
func isContender(k NameKind) bool {
	switch k {
	case KindUnparsed, KindCuratorOther, KindCuratorLease, KindKazooLease, KindHBaseServer, KindServerSetMember:
		return false
	}
	return true
}

// recipeOf names the recipe of a queued contender: the built-in entry
// that lists its kind, in the mode its mode word means there. kazoo's
// Lock and WriteLock write identical names, so a __lock__ node is taken
// for a WriteLock exactly when read-lock nodes share its parent.
func recipeOf(k NameKind, kazooReads bool) (Recipe, Mode) {
	if k == KindKazooLock && kazooReads {
		return RecipeKazooRWLock, ModeWrite
	}
	if kc, ok := builtinBook().kinds[k]; ok {
		return Recipe(kc.entry.Name), kc.mode
	}
	return RecipeSequential, ModeExclusive
}

// sees reports whether the client that wrote e counts other as a contender
// ahead of or behind it, as that client's own code filters its parent's
// children.
func (e *entry) sees(other *entry, kazooReads bool) bool {
	ok := other.name.Kind
	switch e.name.Kind {
	case KindGoZKLock:
		// zk.Lock parses every child's sequence and waits on all of them.
		_, err := goZKSeq(other.name.Raw)
		return err == nil
	case KindZKWriteLock:
		// WriteLock sorts every child whose text after the last '-' is an int.
		return zkRecipeHasSeq(other.name.Raw)
	case KindKazooLock:
		return ok == KindKazooLock || (kazooReads && ok == KindKazooRead)
	case KindKazooRead:
		return ok == KindKazooLock
	}
	return family(ok) == family(e.name.Kind)
}

// goZKSeq is go-zookeeper's parseSeq: the text after the last '-', or after
// the last "__" when the name has no '-'.
func goZKSeq(name string) (int, error) {
	parts := strings.Split(name, "-")
	if len(parts) == 1 {
		parts = strings.Split(name, "__")
	}
	return strconv.Atoi(parts[len(parts)-1])
}

// zkRecipeHasSeq mirrors ZooKeeper's ZNodeName: the text after the last '-'
// read as a Java int.
func zkRecipeHasSeq(name string) bool {
	i := strings.LastIndexByte(name, '-')
	if i < 0 {
		return false
	}
	_, err := strconv.ParseInt(name[i+1:], 10, 32)
	return err == nil
}

// comparesAsText reports whether the client orders sequence suffixes as
// strings (Curator, kazoo) rather than as numbers (go-zookeeper, ZooKeeper's
// recipes), as the entry that lists its kind says (text where none does);
// the two disagree once a parent's counter has wrapped.
func comparesAsText(k NameKind) bool {
	if kc, ok := builtinBook().kinds[k]; ok {
		return kc.entry.Order == OrderText
	}
	return k != KindBookNumber
}

// before reports whether a precedes b in the order of the client that
// wrote viewer.
func before(viewer NameKind, a, b *entry) bool {
	if comparesAsText(viewer) && a.name.SeqText != b.name.SeqText {
		return a.name.SeqText < b.name.SeqText
	}
	if a.name.Seq != b.name.Seq {
		return a.name.Seq < b.name.Seq
	}
	if viewer == KindSolrElection && a.name.Raw != b.name.Raw {
		// Solr's sortSeqs: a node that joined at the head shares the
		// sequence of the one it overtakes, and the names decide.
		return a.name.Raw < b.name.Raw
	}
	return a.node.Stat.Czxid < b.node.Stat.Czxid
}

// queueView is what one client has seen of the queue so far while scanning
// it in that client's order.
type queueView struct {
	first, last, firstWrite, lastWrite *entry
	// runStart is the first of the nodes just before the next one that
	// share the last node's client prefix, for Accumulo's ServiceLock,
	// whose waiter watches the lowest of that run.
	runStart *entry
}

func (v *queueView) add(o *entry) {
	if v.first == nil {
		v.first = o
	}
	if v.last == nil || o.name.Prefix == "" || o.name.Kind != v.last.name.Kind || o.name.Prefix != v.last.name.Prefix {
		v.runStart = o
	}
	v.last = o
	if o.mode == ModeWrite {
		if v.firstWrite == nil {
			v.firstWrite = o
		}
		v.lastWrite = o
	}
}

// applyQueueRules sets the role and rule target of every entry of a
// sequential lock parent by its own recipe's rule. Each kind of client is
// scanned once in its own order: O(kinds × n log n), so parents with
// hundreds of thousands of children stay cheap.
func applyQueueRules(entries []*entry, kazooReads bool, hooked map[NameKind]hooks) {
	kinds := map[NameKind]*entry{}
	for _, e := range entries {
		kinds[e.name.Kind] = e
	}
	order := make([]*entry, len(entries))
	for kind, viewer := range kinds {
		copy(order, entries)
		sort.SliceStable(order, func(i, j int) bool { return before(kind, order[i], order[j]) })
		var seen queueView
		for _, o := range order {
			if o.name.Kind == kind {
				decide(o, &seen, hooked[kind].waitsFor)
			}
			if viewer.sees(o, kazooReads) {
				seen.add(o)
			}
		}
	}
}

// decide applies e's recipe's rule to what its client sees ahead of it;
// waitsFor, when its entry has the hook, names what a waiter watches.
func decide(e *entry, ahead *queueView, waitsFor func(*queueView) *entry) {
	target := ahead.last
	switch {
	case e.mode == ModeRead:
		target = readTarget(e, ahead)
	case waitsFor != nil && target != nil:
		target = waitsFor(ahead)
	}
	if target == nil {
		e.role = RoleHolder
		return
	}
	e.role = RoleWaiter
	e.rule = &WatchTarget{Node: target.rel, Path: target.path}
}

// readTarget is the write a reader waits on: Curator's reader watches the
// first write in the queue, kazoo's and the host-tagged shape's the nearest
// earlier one. A Curator reader whose own session holds that first write is
// the write holder taking the read lock too, which Curator grants at once.
func readTarget(e *entry, ahead *queueView) *entry {
	if ahead.firstWrite == nil {
		return nil
	}
	if e.name.Kind != KindCuratorRead {
		return ahead.lastWrite
	}
	w := ahead.firstWrite
	if w == ahead.first && e.node.Ephemeral() && w.node.Stat.EphemeralOwner == e.node.Stat.EphemeralOwner {
		e.note = "granted at once: its session holds the write lock, and Curator lets the write holder take the read lock"
		return nil
	}
	return w
}
