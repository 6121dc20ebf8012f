package model

import (
	"slices"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// HiddenAsOf is what the servers' watch table last said of a plain lock's
// hidden waiters (the sessions watching its node), and when it was read.
// A busy plain lock changes faster than the table is read: between two
// reads its analysis cannot tell its hidden waiters, but those the last
// read found are most likely still waiting, and are worth showing as
// what they are — a reading from At.
type HiddenAsOf struct {
	Sessions []int64
	At       time.Time
}

// noteHidden remembers a plain lock's hidden waiters when its analysis
// read them from the table.
func (e *Enrichment) noteHidden(l *lockcore.Lock) {
	if l.Recipe != lockcore.RecipeEphemeral || l.WatchesSource != lockcore.WatchesFromServer || l.WatchesGap != "" {
		return
	}
	if e.hidden == nil {
		e.hidden = map[string]HiddenAsOf{}
	}
	at := e.WatchesAt
	if at.IsZero() {
		at = l.ReadAt
	}
	e.hidden[l.Path] = HiddenAsOf{Sessions: slices.Clone(l.HiddenWaiters), At: at}
}

// KnownHidden returns, for a plain lock whose analysis cannot tell its
// hidden waiters now (the table predates its last change), those the
// last table read found, less the sessions that now own a node in it
// (a waiter that has since got the lock waits no more). False when the
// analysis tells them itself, or no read ever did.
func (s *State) KnownHidden(path string) (HiddenAsOf, bool) {
	l := s.Locks[path]
	h, ok := s.hidden[path]
	if l == nil || !ok || l.WatchesGap == "" {
		return HiddenAsOf{}, false
	}
	owners := map[int64]bool{}
	for _, p := range l.Participants {
		owners[p.Session] = true
	}
	var left []int64
	for _, id := range h.Sessions {
		if !owners[id] {
			left = append(left, id)
		}
	}
	return HiddenAsOf{Sessions: left, At: h.At}, true
}
