package txnlog

import (
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/smallmap"
)

// tracked is a lock found in the rebuilt tree.
type tracked struct {
	sightings *lockcore.Sightings
	// parts are the paths besides the lock's own that its analysis read
	// (a semaphore's leases, an application's related nodes).
	parts []string
	// plain: a single ephemeral node, which stays a (free) lock when it
	// goes, as the watcher keeps it.
	plain bool
}

// tracker finds the locks of the rebuilt tree and reports them, as the
// watcher would have, after each transaction that touched them.
type tracker struct {
	t   *tree
	opt lockcore.Options
	// only, when not empty, is the one lock followed: nothing else is
	// analysed, which keeps a long log's read to what is asked.
	only string
	// asked are the paths asked for by name (only, when it is set): each
	// reads as a lock where its node is there, empty (see Options.Asked).
	asked []string
	// live: the starting picture has been reported, so a lock found now
	// was created now, and its first contenders are seen joining.
	live  bool
	locks map[string]*tracked
	// byPart maps a part's path to the locks that read it.
	byPart map[string]map[string]bool
	// memo keeps isLockNode's answers for nodes of many children.
	memo map[string]lockNodeMemo
	emit func(zkwatch.Event)
}

func newTracker(t *tree, opt lockcore.Options, only string, asked []string, emit func(zkwatch.Event)) *tracker {
	if only != "" {
		// Another path would never be read again once reported.
		asked = []string{only}
	}
	return &tracker{t: t, opt: opt, only: only, asked: asked, locks: map[string]*tracked{}, byPart: map[string]map[string]bool{},
		memo: map[string]lockNodeMemo{}, emit: emit}
}

// discover reports every lock of the tree as it stands at at.
func (k *tracker) discover(at time.Time) {
	if k.only != "" {
		k.visit(k.only, at, nil)
	} else {
		for p, n := range k.t.nodes {
			if p == "/zookeeper" || strings.HasPrefix(p, "/zookeeper/") {
				continue
			}
			if k.isLock(p) {
				k.report(p, k.locks[p], n, at, nil)
			}
		}
	}
	// A lock asked for, left empty by its contenders, reads as no lock
	// from the tree alone; a watcher asked to read that path reads it as
	// an empty lock, and so does this.
	for _, p := range k.asked {
		if n := k.t.nodes[p]; k.locks[p] == nil && n != nil && len(n.kids) == 0 && p != "/" {
			k.report(p, nil, n, at, nil)
		}
	}
}

// touched reports the locks a transaction's changes can have changed.
func (k *tracker) touched(changes []change, at time.Time) {
	var ends []zkwatch.NodeEnd
	for _, c := range changes {
		if c.end != nil {
			ends = append(ends, *c.end)
		}
	}
	// Most transactions change one node and visit a lock or two.
	var seen smallmap.Map[struct{}]
	for _, c := range changes {
		for _, cand := range k.candidates(c.path) {
			if _, ok := seen.Get(cand); !ok {
				seen.Set(cand, struct{}{})
				k.visit(cand, at, ends)
			}
		}
	}
}

// candidates are the locks a change at p can concern: p itself (a plain
// lock node), its parent (a queue), the semaphore it is part of, and the
// locks that read p or its parent as a part.
func (k *tracker) candidates(p string) []string {
	dir := lockcore.ParentPath(p)
	out := []string{p, dir}
	if sem, ok := lockcore.SemaphorePart(dir); ok {
		out = append(out, sem)
	}
	if sem, ok := lockcore.SemaphorePart(p); ok {
		out = append(out, sem)
	}
	for l := range k.byPart[p] {
		out = append(out, l)
	}
	for l := range k.byPart[dir] {
		out = append(out, l)
	}
	if k.only == "" {
		return out
	}
	for _, c := range out {
		if c == k.only {
			return []string{c}
		}
	}
	return nil
}

// visit reports the lock at p, if it is one, or its going.
func (k *tracker) visit(p string, at time.Time, ends []zkwatch.NodeEnd) {
	if p == "/" || p == "/zookeeper" || strings.HasPrefix(p, "/zookeeper/") {
		return
	}
	tr := k.locks[p]
	n, ok := k.t.nodes[p]
	if !ok {
		switch {
		case tr == nil:
		case tr.plain:
			tr.sightings = nil
			l := lockcore.Analyze(lockcore.Tree{Path: p, Absent: true, ReadAt: at}, nil, k.opt)
			k.emit(zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: p, Lock: &l, Ends: ends})
		default:
			k.forget(p)
			k.emit(zkwatch.Event{Kind: zkwatch.EventLockGone, At: at, Path: p, Ends: ends})
		}
		return
	}
	if tr == nil && !k.isLock(p) {
		return
	}
	k.report(p, tr, n, at, ends)
}

// report analyses the lock at p as it stands and sends it; tr is what
// is tracked of it (nil when it is found now), n its node. The caller
// has looked both up already: a transaction's locks are looked up among
// thousands of nodes.
func (k *tracker) report(p string, tr *tracked, n *znode, at time.Time, ends []zkwatch.NodeEnd) {
	var self lockcore.Node
	if n != nil {
		self = n.read(lockcore.BaseName(p))
	}
	children := k.t.children(p)
	names := make([]string, len(children))
	for i, c := range children {
		names[i] = c.Name
	}
	if tr == nil {
		tr = &tracked{plain: self.Ephemeral() && len(names) == 0}
		k.locks[p] = tr
		if k.live {
			// Found as it was made: reported empty first, so that its
			// contenders are seen joining at their exact times.
			empty := lockcore.Tree{Path: p, Self: self, ReadAt: at, Absent: tr.plain}
			if tr.plain {
				empty.Self = lockcore.Node{}
			}
			l := lockcore.Analyze(empty, nil, k.opt)
			tr.sightings = l.Sightings()
			k.emit(zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: p, Lock: &l})
		}
	}
	lt := lockcore.Tree{Path: p, Self: self, Children: children, ReadAt: at, Seen: tr.sightings, Watched: tr.sightings != nil}
	var parts []string
	for _, e := range lockcore.ExtraPaths(p, self, names) {
		lt.SetExtra(e, k.t.children(e))
		parts = append(parts, e)
	}
	for _, r := range lockcore.RelatedPaths(p, self, names) {
		n, _ := k.t.node(r)
		lt.SetRelated(r, n)
		parts = append(parts, r)
	}
	k.setParts(p, tr, parts)
	l := lockcore.Analyze(lt, nil, k.opt)
	tr.sightings = l.Sightings()
	k.emit(zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: p, Lock: &l, Ends: ends})
}

func (k *tracker) setParts(p string, tr *tracked, parts []string) {
	for _, old := range tr.parts {
		delete(k.byPart[old], p)
	}
	tr.parts = parts
	for _, n := range parts {
		if k.byPart[n] == nil {
			k.byPart[n] = map[string]bool{}
		}
		k.byPart[n][p] = true
	}
}

func (k *tracker) forget(p string) {
	if tr := k.locks[p]; tr != nil {
		k.setParts(p, tr, nil)
	}
	delete(k.locks, p)
}

// isLock decides, as the watcher's discovery does, whether the node at p
// is a lock. A lock's contenders are not locks of their own, whatever
// their names: the watcher's walk does not go below a lock.
func (k *tracker) isLock(p string) bool {
	if dir := lockcore.ParentPath(p); k.locks[dir] != nil || k.isSemaphorePart(dir) || k.isLockNode(dir) {
		return false
	}
	return k.isLockNode(p)
}

// isSemaphorePart is whether p is a semaphore's part (a kazoo
// semaphore's sibling queue, Curator's leases/ or locks/): the nodes in
// it are the semaphore's contenders, whatever their names.
func (k *tracker) isSemaphorePart(p string) bool {
	sem, ok := lockcore.SemaphorePart(p)
	if !ok {
		return false
	}
	s, ok := k.t.node(sem)
	return ok && len(lockcore.ExtraPaths(sem, s, k.t.names(sem))) > 0
}

// memoChildren is how many children a node has before isLockNode keeps
// its answer: the parent of thousands of locks is asked of each time one
// of them is found, and reading its children's names again each time
// cost as much as all else the read did.
const memoChildren = 64

// lockNodeMemo is isLockNode's answer for a node, true while the node is
// the same one and its stat unchanged (a child created or deleted moves
// the stat's cversion and pzxid, its data its mzxid and version), and so
// is the semaphore's node it may be a part of (Curator's locks/ and
// leases/, whose answer reads it), or its absence.
type lockNodeMemo struct {
	n       *znode
	stat    zk.Stat
	sem     string
	semN    *znode
	semStat zk.Stat
	is      bool
}

// holds is whether m is still p's answer, n p's node now.
func (m lockNodeMemo) holds(t *tree, n *znode) bool {
	if n == nil || m.n != n || m.stat != n.stat {
		return false
	}
	if m.sem == "" {
		return true
	}
	s := t.nodes[m.sem]
	return s == m.semN && (s == nil || s.stat == m.semStat)
}

// isLockNode is isLock for p alone, whatever its parent.
func (k *tracker) isLockNode(p string) bool {
	n := k.t.nodes[p]
	if m, ok := k.memo[p]; ok && m.holds(k.t, n) {
		return m.is
	}
	is, names := k.lockNode(p)
	// A DDL task's answer, which reads its active list, is not kept.
	if n != nil && len(names) >= memoChildren && !lockcore.IsDDLTask(p, names) {
		m := lockNodeMemo{n: n, stat: n.stat, is: is}
		if sem, ok := lockcore.SemaphorePart(p); ok {
			m.sem, m.semN = sem, k.t.nodes[sem]
			if m.semN != nil {
				m.semStat = m.semN.stat
			}
		}
		k.memo[p] = m
	}
	return is
}

// lockNode is isLockNode read from the tree, and p's children's names.
func (k *tracker) lockNode(p string) (bool, []string) {
	self, ok := k.t.node(p)
	if !ok || p == "/" {
		return false, nil
	}
	names := k.t.names(p)
	return k.lockNodeOf(p, self, names), names
}

// lockNodeOf is lockNode of p, self its node, names its children's.
func (k *tracker) lockNodeOf(p string, self lockcore.Node, names []string) bool {
	book := k.opt.Book
	if lockcore.IsDDLTask(p, names) {
		return len(k.t.names(p+"/active")) > 0
	}
	if len(names) == 0 {
		if _, persistent, ok := book.SingleNodeEntry(p); ok && (persistent || self.Ephemeral()) {
			return true
		}
		if self.Ephemeral() {
			return book.IsLockNode(p) || (lockcore.MaybeAppLockNode(p) && lockcore.IsAppLockNode(p, self))
		}
	}
	if k.isSemaphorePart(p) {
		return false
	}
	switch c, probe := book.Classify(p, self, names); c {
	case lockcore.IsALock:
		return true
	case lockcore.IfEphemeral:
		n, ok := k.t.node(lockcore.JoinPath(p, probe))
		return ok && n.Ephemeral()
	}
	return false
}
