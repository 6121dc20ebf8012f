package model

import (
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// Report is what one read of some lock paths found: the answer of `show`.
type Report struct {
	// Server is the connect string that was read.
	Server string
	// WatchesSource says whether watch targets are the servers' own table
	// or each recipe's rule.
	WatchesSource lockcore.WatchSource
	// WatchesNote says why the servers' table was not used, when it was not.
	WatchesNote string
	// WatchesErr is the error WatchesNote says, for what the text tells
	// once: a member that refuses the table's words (see Fix).
	WatchesErr error
	// LinksNote says why whether sessions are connected is not known
	// (not every member answered cons), or why when a disconnected one
	// expires is not.
	LinksNote string
	// Locks, with the anomalies their sessions' links call for
	// (lockcore.WithLinks), and Links those links, by session.
	Locks []lockcore.Lock
	Links lockcore.SessionLinks
	// Clients are the sessions' clients as the members listed them, and
	// ClientsComplete whether every member answered (see
	// zkwatch.Enrichment).
	Clients         map[int64]zkwatch.ClientInfo
	ClientsComplete bool
	// Servers are the members as they answered: which way each word came,
	// which were refused, and why the AdminServer was not used.
	Servers []zkwatch.ServerInfo
	// Fix says what to change on the servers when neither way answers.
	Fix string
	// Errors are the paths that could not be read, in the order asked.
	Errors []PathError
	// Ended are the holds and waits of these locks that ended, oldest
	// first, as an event log tells them (see EndedOf); empty for a live
	// read, which sees no endings.
	Ended []Ended
	// Partial says why the source (a transaction log cut short, zxids no
	// log holds) did not hold all it was asked for; empty when it did.
	Partial []string
}

// Ended is a hold or wait whose node went, as the event log tells it.
type Ended struct {
	Entry HistoryEntry
	// NotTold: an expired holder whose client may still believe it holds
	// (State.Untold), or a force-released contender whose client may
	// still believe its node is there, a holder that it holds, or a
	// holder whose node was deleted while its session lived on, talking
	// (State.Forced, Maybe); NewHolders hold the lock now.
	NotTold    bool
	NewHolders []lockcore.Participant
}

// EndedOf returns the endings in s's event log of the locks at paths,
// oldest first.
func (s *State) EndedOf(paths []string) []Ended {
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	untold := map[contenderKey]bool{}
	for _, u := range s.Untold {
		untold[contenderKey{u.Lock + "/" + u.Node, u.Token}] = true
	}
	forced := map[string]Forced{} // a force-released node's path → who
	for _, f := range s.Forced {
		forced[f.Node] = f
	}
	var out []Ended
	for _, h := range s.History {
		if !want[h.Lock] || (h.Change != Released && h.Change != Left) {
			continue
		}
		node := h.Lock + "/" + h.Node
		f, wasForced := forced[node]
		byWhom := EndedByOperator
		if f.Maybe {
			byWhom = EndedByRelease
		}
		e := Ended{Entry: h, NotTold: untold[contenderKey{node, h.Token}] || (wasForced && f.Session == h.Session && h.EndedBy == byWhom)}
		if e.NotTold && h.Change == Released {
			e.NewHolders = s.Holders(h.Lock)
		}
		out = append(out, e)
	}
	return out
}

// PathError is a path that could not be read, and why.
type PathError struct {
	Path string
	Err  error
}
