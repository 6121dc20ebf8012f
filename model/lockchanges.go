package model

// lockJournal lists, in order, the paths whose Locks entry was set or
// removed, so that a view can take in what changed since it last looked
// rather than go over every lock after each event.
type lockJournal struct {
	base  int      // the number of changes forgotten before paths[0]
	paths []string // change base+i is to paths[i]
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
	if s.journal == nil {
		s.journal = &lockJournal{}
	}
	j := s.journal
	if len(j.paths) >= max(minJournal, 2*len(s.Locks)) {
		j.base += len(j.paths)
		j.paths = j.paths[:0]
	}
	j.paths = append(j.paths, path)
}

// LockChanges returns the paths whose lock changed or went since mark (a
// mark an earlier call returned; a path may be listed more than once) and
// the mark to pass next time. ok is false when it cannot tell: mark is
// the zero mark, from another State (a clone has changes of its own), or
// older than the changes kept. Then any lock may have changed.
//
// It does not change s: several viewers may read one State at once
// (zklocks serve's sessions share their cluster's).
func (s *State) LockChanges(mark LockMark) (paths []string, next LockMark, ok bool) {
	j := s.journal
	if j == nil {
		// Nothing was recorded in this State (a new one, or a clone).
		return nil, LockMark{}, false
	}
	next = LockMark{j: j, n: j.base + len(j.paths)}
	if mark.j != j || mark.n < j.base {
		return nil, next, false
	}
	return j.paths[mark.n-j.base:], next, true
}
