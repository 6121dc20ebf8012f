package lockcore

import "fmt"

// readCuratorSemaphore reads an InterProcessSemaphoreV2: acquirers
// queue in a mutex under locks/; the one at its head creates a lease node
// under leases/ and waits, watching leases/, until the leases are at most
// maxLeases, then releases the mutex. Every other lease node is held. The
// head's lease node, when the head has one (created after its locks/ node),
// is the same acquisition as its locks/ node: one client, counted once.
func readCuratorSemaphore(l *Lock, t Tree, _ *WatchTable) []*entry {
	l.Recipe = RecipeCuratorSemaphore
	leasesPath, locksPath := JoinPath(t.Path, curatorLeasesDir), JoinPath(t.Path, curatorLocksDir)
	leaseWatch := &WatchTarget{Node: curatorLeasesDir + "/*", Path: leasesPath, Children: true}
	queue, _ := scanQueue(l, locksPath, t.Extra[locksPath])
	head := queueHead(queue, l.Recipe, leaseWatch,
		"holds the semaphore's mutex and waits, watching leases/, until the leases are at most maxLeases, which the tree does not record")
	var leases []*entry
	for _, n := range t.Extra[leasesPath] {
		e := newEntry(t.Path, leasesPath, n)
		if e.name.Kind != KindCuratorLease {
			l.Anomalies = append(l.Anomalies, unparsedAnomaly(e))
			continue
		}
		e.recipe, e.mode, e.role = RecipeCuratorSemaphore, ModeLease, RoleHolder
		leases = append(leases, e)
	}
	if head != nil {
		if own := newestOf(leases, head.node.Stat.EphemeralOwner); own != nil && own.node.Stat.Czxid > head.node.Stat.Czxid {
			own.role, own.rule = RoleWaiter, leaseWatch
			own.note = "the lease of the acquirer at the head of locks/, which waits until the leases are at most maxLeases"
			head.partOf = own.rel
		}
	}
	return append(leases, queue...)
}

// readKazooSemaphore reads a kazoo Semaphore: every lease node is
// held; acquirers queue in a kazoo Lock at the sibling "<path>-__lock__",
// whose head watches the semaphore's children for a free lease.
func readKazooSemaphore(l *Lock, t Tree, _ *WatchTable) []*entry {
	l.Recipe = RecipeKazooSemaphore
	l.MaxLeases = maxLeasesOf(t.Self)
	queuePath := kazooQueuePath(t.Path)
	queue, _ := scanQueue(l, queuePath, t.Extra[queuePath])
	limit := "max_leases"
	if l.MaxLeases != nil {
		limit = fmt.Sprint(*l.MaxLeases)
	}
	queueHead(queue, l.Recipe, &WatchTarget{Node: "*", Path: t.Path, Children: true},
		"heads the semaphore's queue and waits, watching the lease nodes, until fewer than "+limit+" are held")
	var leases []*entry
	for _, n := range t.Children {
		e := newEntry(t.Path, t.Path, n)
		e.recipe, e.mode, e.role = RecipeKazooSemaphore, ModeLease, RoleHolder
		leases = append(leases, e)
	}
	return append(leases, queue...)
}

// queueHead turns the holder of a semaphore's acquirer queue into a waiter
// for a lease and marks every queued acquirer as asking for a lease.
func queueHead(queue []*entry, recipe Recipe, leaseWatch *WatchTarget, note string) *entry {
	var head *entry
	for _, e := range queue {
		e.recipe, e.mode, e.group = recipe, ModeLease, 1
		if e.role == RoleHolder && head == nil {
			head = e
			e.role, e.rule, e.note = RoleWaiter, leaseWatch, note
		}
	}
	return head
}

// newestOf returns the newest entry owned by session.
func newestOf(entries []*entry, session int64) *entry {
	var newest *entry
	for _, e := range entries {
		if e.node.Stat.EphemeralOwner == session && session != 0 &&
			(newest == nil || e.node.Stat.Czxid > newest.node.Stat.Czxid) {
			newest = e
		}
	}
	return newest
}
