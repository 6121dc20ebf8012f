package model

import (
	"errors"
	"fmt"

	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// A contender listed but not read yet (lockcore.Participant.Pending) has a
// place, role, mode and session, but no token, version, times, hold or
// data: those read as NotRead (PendingMark in a narrow column), never as
// zeros, and it is judged by no check that needs them.

// NotRead is what a pending contender's unknown figures read as in words.
const NotRead = "not read yet"

// PendingMark stands for a figure not read yet in a narrow column.
const PendingMark = "…"

// ErrNotRead refuses a destructive action on a contender whose node is
// not read yet: the action's checks compare the node's token and version
// with what was shown, and neither is known.
var ErrNotRead = errors.New("its node is not read yet: its version and token are unknown; try again in a moment")

// CheckRead returns ErrNotRead, with p's path, when p is not read yet.
func CheckRead(p lockcore.Participant) error {
	if p.Pending {
		return fmt.Errorf("%s: %w", p.Path, ErrNotRead)
	}
	return nil
}

// PendingIn counts l's contenders not read yet; 0 for nil.
func PendingIn(l *lockcore.Lock) int {
	if l == nil {
		return 0
	}
	n := 0
	for i := range l.Participants {
		if l.Participants[i].Pending {
			n++
		}
	}
	return n
}

// checkExpect refuses to act on a node shown without its token: a
// contender not read yet (ExpectParticipant gives czxid 0, which no
// contender has).
func checkExpect(e lockclient.Expect) error {
	if e.Czxid == 0 {
		return fmt.Errorf("%s: %w", e.Path, ErrNotRead)
	}
	return nil
}

// PendingWaiters counts l's waiters not read yet, whose waits are unknown.
func PendingWaiters(l *lockcore.Lock) int {
	n := 0
	for i := range l.Participants {
		if p := &l.Participants[i]; p.Pending && p.Role == lockcore.RoleWaiter {
			n++
		}
	}
	return n
}

// Pending is how many contenders of every lock are not read yet, kept as
// locks arrive and go rather than counted over every lock.
func (s *State) Pending() int { return s.pending }

// notePending moves the count of contenders not read yet from prev's to
// next's (either nil).
func (s *State) notePending(prev, next *lockcore.Lock) {
	s.pending += PendingIn(next) - PendingIn(prev)
}

// OldestHold is a lock's longest known hold (see lockcore.Lock.OldestHold)
// among its holders that are read, with ok false when none is read;
// pending counts the holders not read yet, whose holds may be longer.
func OldestHold(l *lockcore.Lock) (h lockcore.Hold, ok bool, pending int) {
	h, ok = l.OldestHold()
	for i := range l.Participants {
		if p := &l.Participants[i]; p.Pending && p.Role == lockcore.RoleHolder {
			pending++
		}
	}
	return h, ok, pending
}

// contenders indexes one reading's participants, to find each of another
// reading's: by path and token, as a plain lock's successive holders share
// a path; by path alone where one side is not read yet (its token unknown),
// as a recipe never makes two nodes of one name at once. It points into
// the reading, which is never changed in place: a lock changes with every
// event, so an index that copied its participants (hundreds of bytes each)
// was the largest part, a third, of what the UI allocated while a large
// cluster's contenders were read.
type contenders struct {
	all []lockcore.Participant
	// pending: a side has a participant not read yet, so path alone finds.
	pending bool
	// byKey and byPath are built only for a reading too long to scan.
	byKey  map[contenderKey]*lockcore.Participant
	byPath map[string]*lockcore.Participant
}

// scanContenders is the most participants find goes through one by one
// rather than by maps: a scan of a few costs less than building the maps.
const scanContenders = 16

// indexContenders indexes l's participants to match those of other, the
// reading before or after it (either may be nil).
func indexContenders(l, other *lockcore.Lock) contenders {
	var c contenders
	if l == nil {
		return c
	}
	c.all = l.Participants
	c.pending = PendingIn(l) > 0 || PendingIn(other) > 0
	if len(c.all) <= scanContenders {
		return c
	}
	c.byKey = make(map[contenderKey]*lockcore.Participant, len(c.all))
	if c.pending {
		c.byPath = make(map[string]*lockcore.Participant, len(c.all))
	}
	for i := range c.all {
		p := &c.all[i]
		c.byKey[keyOf(*p)] = p
		if c.byPath != nil {
			c.byPath[p.Path] = p
		}
	}
	return c
}

// find returns the participant that is the same contender as p. Where two
// share a key, the later one is found, in a scan as in the maps.
func (c contenders) find(p lockcore.Participant) (lockcore.Participant, bool) {
	if c.byKey != nil {
		if q, ok := c.byKey[keyOf(p)]; ok {
			return *q, true
		}
		if q, ok := c.byPath[p.Path]; ok && (q.Pending || p.Pending) {
			return *q, true
		}
		return lockcore.Participant{}, false
	}
	for i := len(c.all) - 1; i >= 0; i-- {
		if q := &c.all[i]; q.Path == p.Path && q.Token == p.Token {
			return *q, true
		}
	}
	if c.pending {
		for i := len(c.all) - 1; i >= 0; i-- {
			if q := &c.all[i]; q.Path == p.Path {
				if q.Pending || p.Pending {
					return *q, true
				}
				break
			}
		}
	}
	return lockcore.Participant{}, false
}

// entriesCompleted bounds how far back completeEntries looks: a contender
// is read a round trip after it is first listed, so its entries are among
// the last few.
const entriesCompleted = 64

// completeEntries fills in, on the entries logged of p while it was not
// read yet (a join shown from its lock's listing, before its session was
// known), the session and token its read gave.
func (s *State) completeEntries(lock string, p lockcore.Participant) {
	for i := len(s.History) - 1; i >= 0 && i >= len(s.History)-entriesCompleted; i-- {
		e := &s.History[i]
		if e.Lock == lock && e.Node == p.Node && e.Token == 0 {
			if e.Session == 0 {
				e.Session = p.Session
			}
			e.Token = p.Token
		}
	}
}
