package lockcore

import "time"

// OldestWaiter returns the waiter that has waited longest (the oldest
// node among the waiters, parts of a participant aside) and how long it
// has waited as of now: its node's age, grown by the time since the lock
// was read, as a waiter has waited since it created its node. Like Age,
// it compares the server's clock (ctime) with the reader's. ok is false
// when no node waits; a plain lock's hidden waiters have no node to date,
// and a waiter not read yet (Participant.Pending) has no age to compare.
func (l *Lock) OldestWaiter(now time.Time) (p Participant, wait time.Duration, ok bool) {
	for _, q := range l.Participants {
		if q.Role != RoleWaiter || q.PartOf != "" || q.Pending {
			continue
		}
		if !ok || q.Age > p.Age {
			p, ok = q, true
		}
	}
	if !ok {
		return Participant{}, 0, false
	}
	return p, p.Age + Age(now, l.ReadAt), true
}

// IsElection reports whether recipe is a leader election, whose waiters
// are candidates next in line, waiting for as long as the leader leads:
// a long wait there is the normal state, not a stuck queue.
func IsElection(recipe Recipe) bool {
	return recipe == RecipeCuratorLeaderLatch || recipe == RecipeZKElection
}

// Elects reports whether the lock is a leader election: its recipe is one
// (IsElection), or the rule book entry that describes it has grant
// election (Solr's and Accumulo's elections, the user's own).
func (l *Lock) Elects() bool { return IsElection(l.Recipe) || l.Grant == GrantElection }
