package model

// lockJournal lists, in order, the paths whose Locks entry was set or
// removed, so that a view can take in what changed since it last looked
// rather than go over every lock after each event.
type lockJournal struct {
	// origin is the journal of the State that records the changes: this
	// one, or for a Snapshot's the State it was taken of, so that a
	// reader's marks carry from one snapshot to the next.
	origin *lockJournal
	base   int      // the number of changes forgotten before paths[0]
	paths  []string // change base+i is to paths[i]
}

// newLockJournal is a State's own journal.
func newLockJournal() *lockJournal {
	j := &lockJournal{}
	j.origin = j
	return j
}

// minJournal is how many changes the journal keeps at least; past that,
// and past twice the number of locks, it forgets them, and a reader whose
// mark is older starts over from every lock.
const minJournal = 4096

// LockMark is where a reader of LockChanges stands in one State's
// changes.
type LockMark struct {
	j *lockJournal
	n int
}

// noteLock records that path's Locks entry was set or removed.
func (s *State) noteLock(path string) {
	if s.journal == nil || s.journal.origin != s.journal {
		// A clone, or a snapshot moved on: its changes are its own.
		s.journal = newLockJournal()
	}
	j := s.journal
	if len(j.paths) >= max(minJournal, 2*len(s.Locks)) {
		// A new array: snapshots may still read the old one.
		j.base += len(j.paths)
		j.paths = nil
	}
	j.paths = append(j.paths, path)
}

// LockChanges returns the paths whose lock changed or went since mark (a
// mark an earlier call returned; a path may be listed more than once) and
// the mark to pass next time. ok is false when it cannot tell: mark is
// the zero mark, from another State (a clone has changes of its own, but
// a Snapshot shares its original's), or older than the changes kept.
// Then any lock may have changed.
//
// It does not change s: several viewers may read one State at once
// (zklocks serve's sessions share their cluster's).
func (s *State) LockChanges(mark LockMark) (paths []string, next LockMark, ok bool) {
	j := s.journal
	if j == nil {
		// Nothing was recorded in this State (a new one, or a clone).
		return nil, LockMark{}, false
	}
	next = LockMark{j: j.origin, n: j.base + len(j.paths)}
	if mark.j != j.origin || mark.n < j.base || mark.n > next.n {
		return nil, next, false
	}
	return j.paths[mark.n-j.base:], next, true
}
