package model

import (
	"github.com/zklocks/zklocks/lockcore"
)

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
		untold[untoldKey(u.Lock, u.Node, u.Token)] = true
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
		f, wasForced := forced[h.NodePath()]
		byWhom := EndedByOperator
		if f.Maybe {
			byWhom = EndedByRelease
		}
		e := Ended{Entry: h, NotTold: untold[untoldKey(h.Lock, h.Node, h.Token)] || (wasForced && f.Session == h.Session && h.EndedBy == byWhom)}
		if e.NotTold && h.Change == Released {
			e.NewHolders = s.Holders(h.Lock)
		}
		out = append(out, e)
	}
	return out
}

// untoldKey is an untold holder's key, by its lock, its node's name there
// and its token, as Untold and the log's entries both say them.
func untoldKey(lock, node string, token int64) contenderKey {
	return contenderKey{lock + "/" + node, token}
}
