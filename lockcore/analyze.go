package lockcore

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Options tune an analysis.
type Options struct {
	// LongHeld is the hold past which a holder is reported long-held: its
	// hold (from its grant, not its creation) is known to be longer; a
	// holder whose hold only may be longer is in Lock.MaybeLongHeld. Zero
	// turns the check off.
	LongHeld time.Duration
	// Book is the rule book to read locks by: the user's entries and the
	// built-in ones. Nil: the built-in entries alone.
	Book *Book
}

// Analyze turns what was read of one lock path into its participants in
// queue order and its anomalies. w is the servers' merged watch table, or
// nil when any server refused it; the caller removes its own session's
// watches from it first. Analyze never fails: names it cannot place become
// unparsed anomalies.
func Analyze(t Tree, w *WatchTable, opt Options) Lock {
	l := Lock{Path: t.Path, ReadAt: t.ReadAt, WatchesSource: WatchesFromRecipe, LongHeldAfter: max(opt.LongHeld, 0)}
	if why := w.gap(t); why != "" {
		w, l.WatchesGap = nil, why
	}
	if w != nil {
		l.WatchesSource = WatchesFromServer
	}
	names := make([]string, len(t.Children))
	for i, c := range t.Children {
		names[i] = c.Name
	}
	t.parsed = parseNames(names)
	var entries []*entry
	described := opt.Book.describes(t.Path, t.Self, names, t.parsed, t.Absent)
	switch {
	case t.Absent && described != nil:
		l.Recipe, l.Entry = Recipe(described.Name), described.Name
		if described.Waits != WaitNothing {
			splitWatchers(&l, w, 0)
		}
	case t.Absent:
		l.Recipe = RecipeEphemeral
		splitWatchers(&l, w, 0)
	case described != nil:
		entries = bookEntries(&l, described, t, w)
	default:
		entries = queueEntries(&l, t.Path, t.Children)
	}
	for _, e := range entries {
		e.byRule = e.rule
	}
	if w != nil {
		resolveServerWatches(&l, entries, w)
	}
	l.Participants = participants(entries, t.ReadAt)
	fillHolds(&l, t, entries)
	byRule := watchersByRule(l.Participants)
	for i := range l.Participants {
		p := &l.Participants[i]
		if w != nil {
			p.Watchers = w.Watchers(p.Path)
		} else {
			p.Watchers = byRule[p.Path]
		}
	}
	cycles := fillChains(l.Participants)
	l.Anomalies = append(l.Anomalies, findAnomalies(&l, entries, cycles, w, opt)...)
	readApp(&l, t)
	if l.Entry == "" && builtinBook().byName(string(l.Recipe)) != nil {
		l.Entry = string(l.Recipe)
	}
	if c := opt.Book.orBuiltin().byName(l.Entry); c != nil {
		l.Grant = c.Grant
	}
	l.Warnings = append(l.Warnings, counterWarnings(t)...)
	if n := deniedData(l.Participants); n > 0 {
		l.Warnings = append(l.Warnings, fmt.Sprintf("the data of %d of %d contenders is unreadable: their ACL denies this session (queue, sessions and tokens come from the children list and exists)", n, len(l.Participants)))
	}
	return l
}

func deniedData(ps []Participant) int {
	n := 0
	for _, p := range ps {
		if p.DataDenied {
			n++
		}
	}
	return n
}

// newEntry starts an entry for node n found in dir.
func newEntry(lockPath, dir string, n Node) *entry {
	p := JoinPath(dir, n.Name)
	return &entry{node: n, name: ParseName(n.Name), path: p, rel: relativeTo(lockPath, p)}
}

// queueEntries handles a parent of sequential contenders.
func queueEntries(l *Lock, dir string, children []Node) []*entry {
	entries, families := scanQueue(l, dir, children)
	l.Recipe = queueRecipe(entries, families)
	if len(entries) == 0 && len(children) > 0 {
		l.Recipe = RecipeUnknown
	}
	if len(families) > 1 {
		l.Anomalies = append(l.Anomalies, mixedAnomaly(entries, families))
	}
	return entries
}

// scanQueue parses the children of dir, reports those that are not
// contenders, and applies each contender's recipe's rule.
func scanQueue(l *Lock, dir string, children []Node) ([]*entry, map[string]int) {
	var entries []*entry
	families := map[string]int{}
	kazooReads := false
	var strays []*entry
	for _, c := range children {
		e := newEntry(l.Path, dir, c)
		if !isContender(e.name.Kind) {
			strays = append(strays, e)
			continue
		}
		kazooReads = kazooReads || e.name.Kind == KindKazooRead
		families[family(e.name.Kind)]++
		entries = append(entries, e)
	}
	kinds := map[NameKind]hooks{}
	for _, e := range entries {
		e.recipe, e.mode = recipeOf(e.name.Kind, kazooReads)
		h, ok := kinds[e.name.Kind]
		if !ok {
			h = kindHooks(e.name.Kind)
			kinds[e.name.Kind] = h
		}
		if h.mode != nil {
			e.mode, e.note = h.mode(e)
		}
	}
	assumeSequential(l, entries)
	applyQueueRules(entries, kazooReads, kinds)
	for _, h := range kinds {
		if h.rules != nil {
			h.rules(entries, dir)
		}
	}
	for _, e := range strays {
		if !expectedBeside(e.name, kinds) {
			l.Anomalies = append(l.Anomalies, unparsedAnomaly(e))
		}
	}
	return entries, families
}

func queueRecipe(entries []*entry, families map[string]int) Recipe {
	switch {
	case len(entries) == 0:
		return RecipeEmpty
	case len(families) > 1:
		return RecipeMixed
	}
	recipe := entries[0].recipe
	for _, e := range entries {
		// Curator's mutex and go-zookeeper's lock share one family; name
		// the lock after Curator when both are present, as it is the one
		// that defined the shape.
		if e.recipe == RecipeCuratorMutex || e.recipe == RecipeKazooRWLock {
			recipe = e.recipe
		}
	}
	return recipe
}

func unparsedAnomaly(e *entry) Anomaly {
	detail := "name matches no lock recipe, so no client counts it as a contender"
	if e.name.Kind == KindCuratorOther {
		detail = "a Curator protected node of a recipe that is neither a lock nor an election, not a contender"
	}
	return Anomaly{Kind: AnomalyUnparsed, Node: e.rel, Nodes: []string{e.rel},
		Session: e.node.Stat.EphemeralOwner, Detail: detail}
}

// mixedAnomaly names the families sharing one parent and who holds in each.
func mixedAnomaly(entries []*entry, families map[string]int) Anomaly {
	var fams []string
	for f := range families {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	var holders []string
	for _, e := range entries {
		if e.role == RoleHolder {
			holders = append(holders, e.rel)
		}
	}
	detail := fmt.Sprintf("contenders of %d recipes that do not see each other's nodes share this parent (%s)",
		len(fams), strings.Join(fams, ", "))
	if len(holders) > 1 {
		detail += fmt.Sprintf("; %d contenders hold at once", len(holders))
	}
	return Anomaly{Kind: AnomalyMixedRecipes, Nodes: holders, Detail: detail}
}

// ephemeralEntries handles a plain ephemeral lock node: its owner holds, and
// its waiters are the sessions watching it, invisible in the tree, but for
// those taken for observers.
func ephemeralEntries(l *Lock, t Tree, w *WatchTable) []*entry {
	l.Recipe = RecipeEphemeral
	self := t.Self
	self.Name = BaseName(t.Path)
	e := &entry{node: self, name: Name{Raw: self.Name}, path: t.Path, rel: self.Name,
		recipe: RecipeEphemeral, mode: ModeExclusive, role: RoleHolder}
	splitWatchers(l, w, self.Stat.EphemeralOwner)
	return []*entry{e}
}

// participants turns entries into queue-ordered participants.
func participants(entries []*entry, readAt time.Time) []Participant {
	sort.SliceStable(entries, func(i, j int) bool { return queueLess(entries[i], entries[j]) })
	out := make([]Participant, len(entries))
	for i, e := range entries {
		ctime := time.UnixMilli(e.node.Stat.Ctime)
		if e.node.Pending {
			ctime = time.Time{}
		}
		out[i] = Participant{
			Node: e.rel, Path: e.path, Recipe: e.recipe,
			Seq: e.name.Seq, HasSeq: e.name.HasSeq,
			Mode: e.mode, Role: e.role, Position: i,
			Session: e.node.Stat.EphemeralOwner, Ephemeral: e.node.Ephemeral(),
			Watches: e.rule, Token: e.node.Stat.Czxid, Version: e.node.Stat.Version,
			Ctime: ctime, Age: Age(readAt, ctime),
			Data: e.node.Data, DataTruncated: e.node.Truncated(), Note: e.note, PartOf: e.partOf,
			WatchesUnknown: e.watchUnknown, DataDenied: e.node.DataDenied, Pending: e.node.Pending,
			Identity: e.identity,
		}
	}
	return out
}

// queueLess is display order: the queue's numeric order within a group,
// lease holders before queued acquirers, creation order for ties.
func queueLess(a, b *entry) bool {
	if a.group != b.group {
		return a.group < b.group
	}
	if a.name.HasSeq && b.name.HasSeq && a.name.Seq != b.name.Seq {
		return a.name.Seq < b.name.Seq
	}
	if a.name.Kind == KindSolrElection && b.name.Kind == KindSolrElection && a.name.Raw != b.name.Raw {
		return a.name.Raw < b.name.Raw
	}
	return a.node.Stat.Czxid < b.node.Stat.Czxid
}
