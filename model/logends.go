package model

import (
	"fmt"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// Enders only ZooKeeper's transaction log tells, or zklocks' own lock
// client of its own nodes (lockcore.ActionRelease): a watch does not say
// which session deleted a node.
const (
	// EndedByOwner: its own session deleted it.
	EndedByOwner Ender = "owner"
	// EndedByOther: another session than its owner deleted it
	// (HistoryEntry.Log.DeletedBy names it); the operator's action, when
	// an audit log has it, keeps the entry EndedByOperator.
	EndedByOther Ender = "other-session"
)

// LogEnd is what ZooKeeper's transaction log says of how a contender's
// node went, beyond who or what ended it: the session that deleted it
// when another did, its own session's timeout, and when its client was
// last heard from (its session's last transaction).
type LogEnd struct {
	DeletedBy      int64         `json:"deleted_by,omitempty"`
	SessionTimeout time.Duration `json:"session_timeout_ns,omitempty"`
	LastHeard      time.Time     `json:"last_heard,omitzero"`
	// Told: a transaction log told this ending, whose fields above may
	// still be zero (a session whose start the logs read never held).
	Told bool `json:"-"`
}

// exactEnd sets an ending from the transaction log's word for it, when
// the event that removed the node carried one (Event.Ends).
func (g *EventLog) exactEnd(e *HistoryEntry, p lockcore.Participant) {
	for _, end := range g.logEnds {
		if end.Path != p.Path || (p.Token != 0 && end.Czxid != p.Token) {
			continue
		}
		operator := e.EndedBy == EndedByOperator && e.Action != nil
		switch end.How {
		case zkwatch.EndDeletedByOwner:
			e.EndedBy = EndedByOwner
		case zkwatch.EndDeletedByOther:
			e.EndedBy = EndedByOther
			e.Log.DeletedBy = end.By
		case zkwatch.EndExpired:
			e.EndedBy = EndedByExpiry
		case zkwatch.EndClosed:
			e.EndedBy = EndedByClose
		}
		if end.How == zkwatch.EndDeletedByOther && operator {
			// Another session deleted it, and an audit log says whose
			// operation that was.
			e.EndedBy = EndedByOperator
		} else {
			e.Action = nil
		}
		e.Log.SessionTimeout, e.Log.LastHeard, e.Log.Told = end.Timeout, end.LastHeard, true
		return
	}
}

// loggedWhy is EndingWhy of an ending ZooKeeper's transaction log told:
// what the log says, where a watch's reading would say what it guessed
// from; and of a release by zklocks' own lock client. It is empty for
// other endings.
func loggedWhy(h HistoryEntry) string {
	if !h.Log.Told {
		if h.EndedBy == EndedByOwner {
			return "zklocks' own lock client deleted it: the server's reply to its delete confirmed it"
		}
		return ""
	}
	switch h.EndedBy {
	case EndedByOwner:
		return "ZooKeeper's transaction log says its own session deleted it"
	case EndedByOther:
		s := fmt.Sprintf("ZooKeeper's transaction log says session %s deleted it, not its own", SessionText(h.Log.DeletedBy))
		if h.Change == Released {
			s += ": its client was not told and may believe it holds; " + refuseToken(h.Token)
		}
		return s
	}
	heard := ""
	if !h.Log.LastHeard.IsZero() {
		heard = ", its client last heard at " + h.Log.LastHeard.UTC().Format("15:04:05.000")
	}
	switch h.EndedBy {
	case EndedByExpiry:
		timeout := "not in the logs read"
		if h.Log.SessionTimeout > 0 {
			timeout = Duration(h.Log.SessionTimeout)
		}
		s := fmt.Sprintf("ZooKeeper's transaction log says the server expired its session (timeout %s%s)", timeout, heard)
		if h.Change == Released {
			s += "; " + expiredUntold(h.Token)
		}
		return s
	case EndedByClose:
		return "ZooKeeper's transaction log says its client closed its session" + heard + ", and knows"
	}
	return ""
}
