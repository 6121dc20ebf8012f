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
	c.openEnds = slices.Clone(s.openEnds)
	c.Links = maps.Clone(s.Links)
	c.actions = maps.Clone(s.actions)
	c.foundPending = maps.Clone(s.foundPending)
	c.tracks = make(map[int64]*sessionTrack, len(s.tracks))
	for id, t := range s.tracks {
		tc := *t
		c.tracks[id] = &tc
	}
	return &c
}
