package lockbench

import "sort"

// Tally is a whole run's accounting of releases and watch notifications,
// each side read where nothing moves: before the first loop begins and
// after the last one has stopped. By then every notification a release
// caused has reached its connection (a holder's about its own node before
// its delete's reply, a waiter's before it could go on), so both sides
// count the same events. A window's figures cannot be compared so: its
// edges are read at the middle of an mntr exchange, and releases and
// notifications near an edge fall on either side of it.
type Tally struct {
	// Releases is every release the contenders called; each had returned
	// by the end of the run.
	Releases int
	// Notifications is what the server counted sending in the run, to
	// whoever watched.
	Notifications int64
	// InProcess is false for clients in other processes: the fields below
	// are then not counted.
	InProcess bool
	// Received is every watch notification the contenders' connections
	// received in the run.
	Received int64
	// Named is how many releases named their node (see locker.lock);
	// Told is how many of those had the holder's connection told of the
	// node's deletion, once, and Untold lists the others.
	Named, Told int
	Untold      []string
}

// Add sums two runs' tallies.
func (t Tally) Add(u Tally) Tally {
	return Tally{
		Releases: t.Releases + u.Releases, Notifications: t.Notifications + u.Notifications,
		InProcess: t.InProcess || u.InProcess, Received: t.Received + u.Received,
		Named: t.Named + u.Named, Told: t.Told + u.Told, Untold: append(append([]string(nil), t.Untold...), u.Untold...),
	}
}

// receipt is one connection's notification about one node.
type receipt struct {
	contender int
	path      string
}

// tallyReceipts counts holds against the notifications each contender's
// connection received about each node: a release of a named node is told
// when its holder's connection heard of that node exactly once.
func tallyReceipts(holds []Hold, receipts map[receipt]int) Tally {
	t := Tally{Releases: len(holds), InProcess: true}
	for _, n := range receipts {
		t.Received += int64(n)
	}
	for _, h := range holds {
		if h.Node == "" {
			continue
		}
		t.Named++
		if receipts[receipt{h.Contender, h.Node}] == 1 {
			t.Told++
		} else {
			t.Untold = append(t.Untold, h.Node)
		}
	}
	sort.Strings(t.Untold)
	return t
}
