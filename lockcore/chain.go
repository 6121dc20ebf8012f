package lockcore

// fillChains follows each waiter's watch target from participant to
// participant until it reaches a holder, leaves the participants (a children
// watch), breaks, or loops. Each loop found is returned once, in the order it
// is walked from its earliest member.
func fillChains(ps []Participant) (cycles [][]int) {
	index := make(map[string]int, len(ps))
	for i, p := range ps {
		index[p.Path] = i
	}
	next := func(i int) (int, bool) {
		if ps[i].Role == RoleHolder || ps[i].Watches == nil {
			return 0, false
		}
		j, ok := index[ps[i].Watches.Path]
		return j, ok
	}
	const (
		unvisited = iota
		walking
		done
	)
	state := make([]int, len(ps))
	for start := range ps {
		var path []int
		i := start
		for state[i] == unvisited {
			state[i] = walking
			path = append(path, i)
			j, ok := next(i)
			if !ok {
				break
			}
			if state[j] == walking {
				cycles = append(cycles, cycleFrom(path, j))
				break
			}
			i = j
		}
		for _, k := range path {
			state[k] = done
		}
	}
	for i := range ps {
		if ps[i].Role == RoleWaiter && ps[i].Watches != nil {
			ps[i].Chain, ps[i].ChainCut = chainOf(ps, i, next)
		}
	}
	return cycles
}

// FillChains sets each waiter's Chain and ChainCut from the participants'
// watch targets and roles, as Analyze does; it leaves holders' chains and
// those of waiters that watch nothing as they are. A recording stores a
// chain only where it differs from what FillChains gives.
func FillChains(ps []Participant) { fillChains(ps) }

// cycleFrom returns the loop that closes at j on the walked path.
func cycleFrom(path []int, j int) []int {
	for k, v := range path {
		if v == j {
			return append([]int(nil), path[k:]...)
		}
	}
	return nil
}

// MaxChain is how many hops of a waiter's chain are listed. In a long
// queue every waiter's chain is its whole prefix, so listing them all would
// grow with the square of the queue; the rest is marked as cut.
const MaxChain = 32

// chainOf lists the nodes after waiter i: each watched node in turn, up to
// a holder, a node that watches nothing in the lock, or a repeat, and at
// most MaxChain of them (cut reports whether it stopped there).
func chainOf(ps []Participant, i int, next func(int) (int, bool)) (chain []string, cut bool) {
	seen := map[int]bool{i: true}
	for {
		if len(chain) == MaxChain {
			return chain, true
		}
		chain = append(chain, ps[i].Watches.Node)
		j, ok := next(i)
		if !ok || seen[j] {
			return chain, false
		}
		seen[j] = true
		if _, more := next(j); !more {
			return chain, false
		}
		i = j
	}
}
