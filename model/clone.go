package model

import (
	"maps"
	"slices"
)

// Clone returns a copy of s that Apply can move on without changing s.
// Locks, servers and clients are shared: Apply replaces them, never
// changes them in place.
func (s *State) Clone() *State {
	c := *s
	c.Locks = maps.Clone(s.Locks)
	c.journal = nil // the clone's changes are its own
	c.Denied = maps.Clone(s.Denied)
	c.Errors = slices.Clone(s.Errors)
	c.History = slices.Clone(s.History)
	c.Operated = slices.Clip(s.Operated)
	c.openEnds = slices.Clone(s.openEnds)
	c.Links = maps.Clone(s.Links)
	c.actions = maps.Clone(s.actions)
	c.foundPending = maps.Clone(s.foundPending)
	c.hidden = maps.Clone(s.hidden)
	c.tracks = make(map[int64]*sessionTrack, len(s.tracks))
	for id, t := range s.tracks {
		tc := *t
		c.tracks[id] = &tc
	}
	return &c
}

// Snapshot returns a copy of s to read while s moves on, as Clone does,
// whose LockChanges carry on from the marks of s and of its earlier
// snapshots: a reader that goes from one snapshot of s to the next
// (zklocks serve's sessions) takes in only the locks that changed between
// them. Apply on a snapshot starts its changes afresh, as on a clone.
func (s *State) Snapshot() *State {
	c := s.Clone()
	if j := s.journal; j != nil {
		// The paths up to now, never written again: s appends past them,
		// and forgets into a new array.
		c.journal = &lockJournal{origin: j.origin, base: j.base, paths: j.paths[:len(j.paths):len(j.paths)]}
	}
	return c
}
