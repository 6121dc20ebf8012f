package lockcore

import (
	"fmt"
	"maps"
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
		out = append(out, CrossLock{Session: s, Holds: slices.Sorted(maps.Keys(held)), WaitsIn: in})
	}
	slices.SortFunc(out, func(a, b CrossLock) int { return int(sign(a.Session - b.Session)) })
	return out, crossCycles(out, holders)
}

// crossCycles finds the loops among the sessions that hold while
// waiting: one loop, the shortest through its smallest session, for each
// group of sessions that wait on each other (a strongly connected
// component of the waits-for graph), in time linear in the waits.
func crossCycles(cross []CrossLock, holders map[string][]int64) []CrossCycle {
	g := waitsFor(cross, holders)
	var out []CrossCycle
	for _, comp := range g.components(cross) {
		if c, ok := g.shortestLoop(comp); ok {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b CrossCycle) int { return int(sign(a.Sessions[0] - b.Sessions[0])) })
	return out
}

// waitEdge says a session waits in lock, which session to holds.
type waitEdge struct {
	to   int64
	lock string
}

// waitGraph is which session waits for which, among those holding while
// waiting.
type waitGraph map[int64][]waitEdge

func waitsFor(cross []CrossLock, holders map[string][]int64) waitGraph {
	inCross := map[int64]bool{}
	for _, c := range cross {
		inCross[c.Session] = true
	}
	g := waitGraph{}
	for _, c := range cross {
		for _, lock := range c.WaitsIn {
			for _, h := range holders[lock] {
				if h != c.Session && inCross[h] {
					g[c.Session] = append(g[c.Session], waitEdge{h, lock})
				}
			}
		}
	}
	return g
}

// components returns the strongly connected components of more than one
// session (Tarjan's algorithm).
func (g waitGraph) components(cross []CrossLock) [][]int64 {
	index, low := map[int64]int{}, map[int64]int{}
	onStack := map[int64]bool{}
	var stack []int64
	var comps [][]int64
	var connect func(v int64)
	connect = func(v int64) {
		index[v], low[v] = len(index), len(index)
		stack = append(stack, v)
		onStack[v] = true
		for _, e := range g[v] {
			if _, seen := index[e.to]; !seen {
				connect(e.to)
				low[v] = min(low[v], low[e.to])
			} else if onStack[e.to] {
				low[v] = min(low[v], index[e.to])
			}
		}
		if low[v] != index[v] {
			return
		}
		var comp []int64
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			comp = append(comp, w)
			if w == v {
				break
			}
		}
		if len(comp) > 1 {
			comps = append(comps, comp)
		}
	}
	for _, c := range cross {
		if _, seen := index[c.Session]; !seen {
			connect(c.Session)
		}
	}
	return comps
}

// shortestLoop finds, breadth first within comp, the shortest loop from
// its smallest session back to it.
func (g waitGraph) shortestLoop(comp []int64) (CrossCycle, bool) {
	member := map[int64]bool{}
	for _, s := range comp {
		member[s] = true
	}
	start := slices.Min(comp)
	type step struct {
		from int64
		lock string
	}
	prev := map[int64]step{}
	queue := []int64{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, e := range g[v] {
			if e.to == start {
				c := CrossCycle{Sessions: []int64{v}, Locks: []string{e.lock}}
				for w := v; w != start; w = prev[w].from {
					c.Sessions = append([]int64{prev[w].from}, c.Sessions...)
					c.Locks = append([]string{prev[w].lock}, c.Locks...)
				}
				return c, true
			}
			if _, seen := prev[e.to]; member[e.to] && !seen {
				prev[e.to] = step{v, e.lock}
				queue = append(queue, e.to)
			}
		}
	}
	return CrossCycle{}, false
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
