package zkwatch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// Discovery defaults.
const (
	// defaultWalkBurst is how many reads the first walk makes at full
	// speed: a tree that small is walked whole before the first sync.
	defaultWalkBurst = 2000
	// defaultWalkRate paces the walk past its burst, in reads a second.
	defaultWalkRate = 2000
	// defaultDumpEvery is the least gap between two dumps.
	defaultDumpEvery = 5 * time.Second
	// defaultWalkEvery is the least gap between two walks when dump is
	// answered, so that the walk only looks for persistent contenders.
	defaultWalkEvery = 10 * time.Minute
	// walkEveryWithoutDump is that gap when the walk is the only way to
	// find new locks.
	walkEveryWithoutDump = 10 * time.Second
	// walkShare bounds the walk's duty cycle: after a walk that took d,
	// the next starts no sooner than d/walkShare after it began.
	walkShare = 0.1
)

// sessionMember is the member the session is connected to, which is
// known to answer, else the first.
func (d *discoverer) sessionMember() string {
	cur := d.w.conn.zk.Server()
	if slices.Contains(d.w.conn.target.Servers, cur) {
		return cur
	}
	return d.w.conn.target.Servers[0]
}

// dumpMember picks the member to ask for dump (see cheapestMember): every
// member lists every session's ephemeral nodes, and one member asked every
// dump paid for them alone. A failed dump is asked of the session's member
// again (see dump).
func (d *discoverer) dumpMember() string {
	return cheapestMember(d.w.conn.target.Servers, d.sessionMember(), d.w.costs.Spent)
}

// cheapestMember is the member whose answers took least of its time over
// the last minute (spent), own (the session's member, which already serves
// every read) last among equals. A member none of whose answers was timed
// in that minute is not chosen over own: its cost is not known, and the
// first dump, asked before any member's, goes to the member the session
// already talks to rather than to one not yet asked anything.
func cheapestMember(members []string, own string, spent func(string) time.Duration) string {
	best, least := own, spent(own)
	for _, m := range members {
		if t := spent(m); m != own && t > 0 && (t < least || t == least && best == own) {
			best, least = m, t
		}
	}
	return best
}

// dumpNext is the earliest time a dump may be asked again, of whichever
// member: each dump's cost paces the next, wherever it goes.
func (d *discoverer) dumpNext(every time.Duration) time.Time {
	var next time.Time
	for _, m := range d.w.conn.target.Servers {
		if t := d.w.costs.Next(m, "dump", every); t.After(next) {
			next = t
		}
	}
	return next
}

// dump asks a member for its dump (the four-letter word, or the
// AdminServer's dump where the word is refused) and returns the candidate
// lock parents under the roots, chroot-relative, with how many ephemeral
// nodes each holds; with owners, also the owner of each contender under
// the roots, by chroot-relative path (else nil).
func (d *discoverer) dump(ctx context.Context, owners bool) (map[string]words.EphemeralParent, *dumpOwners, error) {
	d.w.mu.Lock()
	first := d.progress.DumpAt.IsZero()
	d.w.mu.Unlock()
	// The first picture waits on the first dump: it is asked of the member
	// the session is connected to, known to answer, and not of another
	// picked by costs that are not timed yet.
	member := d.sessionMember()
	if !first {
		member = d.dumpMember()
	}
	candidates, owned, err := d.dumpOf(ctx, member, owners)
	if own := d.sessionMember(); err != nil && member != own && ctx.Err() == nil {
		// The member may be down, or refuse what the session's does not.
		candidates, owned, err = d.dumpOf(ctx, own, owners)
	}
	return candidates, owned, err
}

// dumpOf is dump asked of member.
func (d *discoverer) dumpOf(ctx context.Context, member string, owners bool) (map[string]words.EphemeralParent, *dumpOwners, error) {
	var before int64
	if owners {
		var err error
		if before, err = d.memberZxid(ctx, member); err != nil {
			owners = false // the dump alone still finds the locks
		}
	}
	keep := func(dir string) bool {
		rel, ok := d.w.conn.rel(dir)
		return ok && d.underRoots(rel)
	}
	var eph words.Ephemerals
	if owners {
		eph.Owners = map[string]int64{}
	}
	ctx, cancel := context.WithTimeout(ctx, d.wordTimeout())
	defer cancel()
	// The answer is read whole before it is parsed, either way (see
	// words.Reader's Whole).
	_, err := d.w.conn.ways(d.w.costs).AskEither(ctx, member, "dump", words.Reader{
		Whole: true,
		Text: func(r *bufio.Reader) error {
			var err error
			eph, err = words.ParseDump(r, keep, eph.Owners, contenderName)
			return err
		},
		JSON: words.AdminEphemerals(&eph, keep, contenderName),
	})
	if err != nil {
		return nil, nil, err
	}
	out := make(map[string]words.EphemeralParent, len(eph.Parents))
	for p, ep := range eph.Parents {
		rel, _ := d.w.conn.rel(p)
		out[rel] = ep
	}
	if !owners {
		return out, nil, nil
	}
	owned := &dumpOwners{zxid: before, of: make(map[string]int64, len(eph.Owners))}
	for p, s := range eph.Owners {
		rel, _ := d.w.conn.rel(p)
		owned.of[rel] = s
	}
	return out, owned, nil
}

// dumpOwners are the owners of the contenders a dump listed, by
// chroot-relative path, and the member's last zxid just before it was
// asked: a lock parent created before that zxid and still there when
// listed is the one the dump saw, so its contenders' names are its own.
type dumpOwners struct {
	zxid int64
	of   map[string]int64
}

// memberZxid asks member for the last transaction it has seen (srvr, or
// the AdminServer's server_stats where the word is refused).
func (d *discoverer) memberZxid(ctx context.Context, member string) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, d.wordTimeout())
	defer cancel()
	var answer words.StatusAnswer
	via, err := d.w.conn.ways(d.w.costs).AskEither(ctx, member, "srvr", answer.Reader())
	if err != nil {
		return 0, err
	}
	st, err := answer.Status(via)
	if err != nil {
		return 0, err
	}
	if st.Zxid == 0 {
		return 0, fmt.Errorf("zkwatch: %s gave no zxid", member)
	}
	return st.Zxid, nil
}

// wordTimeout bounds one four-letter word the watcher asks itself.
func (d *discoverer) wordTimeout() time.Duration { return 10 * time.Second }

// underRoots reports whether p is at or below a root, within MaxDepth of
// it, and outside ZooKeeper's own subtree.
func (d *discoverer) underRoots(p string) bool {
	if p == systemTree || strings.HasPrefix(p, systemTree+"/") {
		return false
	}
	for _, root := range d.w.cfg.Roots {
		rest, ok := strings.CutPrefix(p, root)
		if !ok || (rest != "" && root != "/" && !strings.HasPrefix(rest, "/")) {
			continue
		}
		depth := strings.Count(strings.Trim(rest, "/"), "/")
		if strings.Trim(rest, "/") != "" {
			depth++
		}
		if d.w.cfg.MaxDepth <= 0 || depth <= d.w.cfg.MaxDepth {
			return true
		}
	}
	return false
}

// checkCandidates lists the candidate parents a dump named that are not
// tracked and have changed since last checked, without watches, and
// reports the locks among them to found: the parent itself, its
// semaphore, or a plain ephemeral lock node inside it.
func (d *discoverer) checkCandidates(ctx context.Context, candidates map[string]words.EphemeralParent, found func(string)) {
	d.w.mu.Lock()
	var todo []string
	for p, ep := range candidates {
		contender := d.sampleIsContender(p, ep.Sample)
		if node := lockcore.JoinPath(p, ep.Sample); ep.Sample != "" && !contender && d.w.cfg.Analysis.Book.IsLockNode(node) {
			// An ephemeral node is always a leaf: one named like a lock
			// is a plain lock node, tracked at once and kept while it
			// comes and goes. Listing the parent later could fall
			// between two holders and miss it for as long as the count
			// of ephemeral nodes stays the same.
			if _, tracked := d.w.tracked.owner[node]; !tracked {
				d.w.tracked.plain[node], d.w.next.found[node] = time.Time{}, true
			}
		}
		if _, tracked := d.w.tracked.owner[p]; tracked || d.checked[p] == ep.Count {
			continue
		}
		if _, part := lockcore.SemaphorePart(p); !part && contender {
			// Tracked at once: listing it first would cost a request
			// for each of thousands of lock parents.
			d.w.next.found[p] = true
			continue
		}
		todo = append(todo, p)
	}
	for p := range d.checked {
		if _, ok := candidates[p]; !ok {
			delete(d.checked, p)
		}
	}
	for p := range d.named {
		if _, ok := candidates[p]; !ok {
			delete(d.named, p)
		}
	}
	d.w.mu.Unlock()
	d.w.poke()
	work := d.w.newPool()
	for _, p := range todo {
		work.do(func() {
			if ctx.Err() != nil {
				return
			}
			if err := d.checkCandidate(p, found); err != nil {
				d.w.report(ctx, p, err, false)
				return
			}
			d.w.mu.Lock()
			d.checked[p] = candidates[p].Count
			d.w.mu.Unlock()
		})
	}
	work.run()
}

// sampleName is what contenderName said of the sample ephemeral node a
// dump named in a parent.
type sampleName struct {
	sample    string
	contender bool
}

// sampleIsContender is contenderName for a dump candidate's sample, asked
// of the rule book once per parent and sample: the book is the watcher's
// for its life, and each dump of a cluster names the same sample in most
// of its thousands of lock parents. The watcher's mu is held.
func (d *discoverer) sampleIsContender(parent, sample string) bool {
	if n, ok := d.named[parent]; ok && n.sample == sample {
		return n.contender
	}
	c := d.contenderName(parent, sample)
	d.named[parent] = sampleName{sample: sample, contender: c}
	return c
}

// contenderName reports whether an ephemeral node's name alone makes its
// parent a lock: a lock recipe's contender name (the rule book's entries
// for the parent's path among them), or a bare sequential name (a lock
// parent when its oldest such child is ephemeral, as this one is).
func (d *discoverer) contenderName(parent, name string) bool {
	c, _ := d.w.cfg.Analysis.Book.Classify(parent, lockcore.Node{}, []string{name})
	return c != lockcore.NotALock
}

// checkCandidate decides whether a directory holding ephemeral nodes holds
// a lock.
func (d *discoverer) checkCandidate(p string, found func(string)) error {
	if task, ok := lockcore.DDLTaskOf(p); ok {
		// A ClickHouse host executing a DDL task: the task is the lock.
		found(task)
		return nil
	}
	switch sem, part, err := d.w.semaphoreOf(p); {
	case err != nil:
		return err
	case part:
		found(sem)
		return nil
	}
	names, stat, err := d.w.list(p)
	if errors.Is(err, zk.ErrNoNode) {
		return nil
	}
	if err != nil {
		return err
	}
	isLock, _, err := d.w.isLock(p, names, stat)
	if err != nil {
		return err
	}
	if isLock {
		found(p)
		return nil
	}
	for _, n := range names {
		child := lockcore.JoinPath(p, n)
		byName := d.w.cfg.Analysis.Book.IsLockNode(child)
		if !byName && !lockcore.MaybeAppLockNode(child) {
			continue
		}
		node, err := d.w.get(child)
		if err != nil {
			continue // gone, or denied: a lock the walk may still report
		}
		if node.Ephemeral() && node.Stat.NumChildren == 0 && (byName || lockcore.IsAppLockNode(child, node)) {
			found(child)
		}
	}
	return nil
}

// dumpNote explains a discovery without dump.
func dumpNote(err error) string {
	var none *words.NoWayError
	switch {
	case errors.As(err, &none) && errors.Is(err, words.ErrFourLetterRefused):
		return fmt.Sprintf("dump refused and %s: new locks are found by walking the tree", strings.TrimPrefix(none.Admin.Error(), "zkwatch: "))
	case errors.Is(err, words.ErrFourLetterRefused):
		return "dump refused: new locks are found by walking the tree"
	}
	return fmt.Sprintf("dump failed (%v): new locks are found by walking the tree", err)
}

// contenderName is discoverer.contenderName by the built-in entries alone,
// for a dump's owners: a user's contender's owner is read with its node.
func contenderName(name string) bool {
	c, _ := lockcore.Classify(lockcore.Node{}, []string{name})
	return c != lockcore.NotALock
}
