//go:build !race

package chaos

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// stallAfter is how long a lock's queue may hold nodes while nobody, ours
// or a real client, leaves its critical section, before the run calls the
// queue stalled. It is longer than every wait the run ends by itself: a
// real client's realHoldTimeout, its release step and the force-release
// after it, then our contenders' 30-second retry.
const stallAfter = 3 * time.Minute

// awaitQueues waits until finished is closed, and returns early with the
// locks whose queue stopped moving (see queueWatch). Every few seconds it
// first calls sweep, which clears what real clients left behind.
func awaitQueues(finished <-chan struct{}, c *zk.Conn, locks []lockDef, book *ledger, sweep func()) []lockDef {
	byPath := map[string]lockDef{}
	var paths []string
	for _, l := range locks {
		byPath[l.path] = l
		paths = append(paths, l.path)
	}
	w := newQueueWatch(stallAfter, time.Now(), paths, func(p string) int { return queued(c, byPath[p]) }, book.lastExit)
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-finished:
			return nil
		case <-tick.C:
			sweep()
			if stalled := w.check(time.Now()); len(stalled) > 0 {
				var out []lockDef
				for _, p := range stalled {
					out = append(out, byPath[p])
				}
				return out
			}
		}
	}
}

// queued counts the contender nodes under a lock; a parent it cannot read
// counts as holding none, so only a queue seen to hold nodes can stall.
func queued(c *zk.Conn, l lockDef) int {
	n := 0
	for _, dir := range l.nodeDirs() {
		names, _, err := c.Children(dir)
		if err == nil {
			n += len(names)
		}
	}
	return n
}

// describeStall lists a stalled lock's nodes, each with whose it is: one of
// our contenders (named) or a session that is not ours, a real client's.
// A queue headed by a real client's node is that client's to explain; one
// headed by ours is our fault.
func describeStall(c *zk.Conn, l lockDef, cs []*contender) string {
	ours := map[int64]string{}
	for _, k := range cs {
		ours[k.conn.SessionID()] = fmt.Sprintf("ours: %s, state %s, holding %v", k.name, k.conn.State(), k.holding.Load())
	}
	whose := func(session int64) string {
		if w, ok := ours[session]; ok {
			return w
		}
		return "not ours: a real client's"
	}
	var b strings.Builder
	for _, dir := range l.nodeDirs() {
		b.WriteString(describeDir(c, dir, whose))
	}
	return b.String()
}

// describeDir lists dir's nodes in sequence order, with their owners
// (named by whose, when given), creation zxids and data.
func describeDir(c *zk.Conn, dir string, whose func(int64) string) string {
	var b strings.Builder
	names, _, err := c.Children(dir)
	slices.SortFunc(names, func(a, b string) int { return strings.Compare(sequence(a), sequence(b)) })
	fmt.Fprintf(&b, "%s (%v), in sequence order:\n", dir, err)
	for _, n := range names {
		data, st, err := c.Get(path.Join(dir, n))
		if err != nil {
			continue
		}
		owner := fmt.Sprintf("0x%x", st.EphemeralOwner)
		if whose != nil {
			owner += " (" + whose(st.EphemeralOwner) + ")"
		}
		fmt.Fprintf(&b, "  %s owner %s czxid 0x%x data %q\n", n, owner, st.Czxid, data)
	}
	return b.String()
}
