package lockcore

import (
	"fmt"
	"slices"
	"strings"
)

// CrossLock is one session that holds some locks while it waits in others:
// what Curator's InterProcessMultiLock looks like part-way through taking
// its locks one after another, and equally what several threads sharing
// one client look like. The tree cannot tell the two apart, so a CrossLock
// is a fact about the session, never a verdict about a MultiLock.
type CrossLock struct {
	Session int64
	// Holds and WaitsIn are the lock paths, sorted.
	Holds, WaitsIn []string
}

// CrossCycle is a loop of sessions each waiting in a lock another one
// holds: the lock-order deadlock of two InterProcessMultiLocks (or any two
// clients) taking the same locks in different orders. It is certain only
// when each session's holding and waiting are one thread's, which the tree
// cannot say.
type CrossCycle struct {
	// Sessions in the loop, the first waiting for the second's lock, and
	// so on back to the first.
	Sessions []int64
	// Locks[i] is the lock session i waits in and session i+1 holds.
	Locks []string
}

// Detail says the cycle in one sentence of evidence.
func (c CrossCycle) Detail() string {
	var hops []string
	for i, s := range c.Sessions {
		next := c.Sessions[(i+1)%len(c.Sessions)]
		hops = append(hops, fmt.Sprintf("%s waits in %s, held by %s", SessionHex(s), c.Locks[i], SessionHex(next)))
	}
	return strings.Join(hops, "; ") + ": none of them gets its next lock until one gives up (two InterProcessMultiLocks taking the same locks in different orders deadlock so), unless each session's hold and wait belong to different threads"
}

// CrossLocks finds, across locks, the sessions holding some while waiting
// in others, and the loops among them. Persistent contenders (no session)
// and a session's waits in a lock it also holds are left out.
func CrossLocks(locks []*Lock) ([]CrossLock, []CrossCycle) {
	holds := map[int64]map[string]bool{}
	waits := map[int64]map[string]bool{}
	holders := map[string][]int64{}
	add := func(m map[int64]map[string]bool, s int64, p string) {
		if m[s] == nil {
			m[s] = map[string]bool{}
		}
		m[s][p] = true
	}
	for _, l := range locks {
		for _, p := range l.Participants {
			if p.Session == 0 {
				continue
			}
			if p.Role == RoleHolder {
				add(holds, p.Session, l.Path)
				if !slices.Contains(holders[l.Path], p.Session) {
					holders[l.Path] = append(holders[l.Path], p.Session)
				}
			} else {
				add(waits, p.Session, l.Path)
			}
		}
	}
	var out []CrossLock
	for s, held := range holds {
		var in []string
		for p := range waits[s] {
			if !held[p] {
				in = append(in, p)
			}
		}
		if len(in) == 0 {
			continue
		}
		slices.Sort(in)
		out = append(out, CrossLock{Session: s, Holds: sortedKeys(held), WaitsIn: in})
	}
	slices.SortFunc(out, func(a, b CrossLock) int { return int(sign(a.Session - b.Session)) })
	return out, crossCycles(out, holders)
}

// crossCycles follows each session's waits to the sessions holding those
// locks, among the sessions that hold while waiting, and reports each loop
// once, starting from its smallest session.
func crossCycles(cross []CrossLock, holders map[string][]int64) []CrossCycle {
	waitsIn := map[int64][]string{}
	for _, c := range cross {
		waitsIn[c.Session] = c.WaitsIn
	}
	var out []CrossCycle
	seen := map[string]bool{}
	var walk func(path []int64, locks []string)
	walk = func(path []int64, locks []string) {
		cur := path[len(path)-1]
		for _, lock := range waitsIn[cur] {
			for _, h := range holders[lock] {
				if h == cur {
					continue
				}
				if h == path[0] {
					c := CrossCycle{Sessions: slices.Clone(path), Locks: append(slices.Clone(locks), lock)}
					if key := fmt.Sprint(c.Sessions, c.Locks); !seen[key] && isSmallest(c.Sessions) {
						seen[key] = true
						out = append(out, c)
					}
					continue
				}
				if slices.Contains(path, h) || waitsIn[h] == nil || len(path) > 16 {
					continue
				}
				walk(append(path, h), append(locks, lock))
			}
		}
	}
	for _, c := range cross {
		walk([]int64{c.Session}, nil)
	}
	return out
}

func isSmallest(ss []int64) bool {
	for _, s := range ss[1:] {
		if s < ss[0] {
			return false
		}
	}
	return true
}

func sign(d int64) int64 {
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
