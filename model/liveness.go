package model

import (
	"fmt"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// LivenessText says, for people, what the servers' traffic counters tell
// of p's client (a contender of l, its session's link k) at now, and the
// fix it calls for: a frozen holder, a hung one (talking, and long-held by
// l's analysis), a crashed one read differently. "" for a node no session
// owns.
func LivenessText(l *lockcore.Lock, p lockcore.Participant, k lockcore.Link, now time.Time) string {
	if p.Session == 0 {
		return ""
	}
	holder := p.Role == lockcore.RoleHolder
	switch k.Liveness() {
	case lockcore.LiveSilent:
		s := "frozen: " + k.Silent.Short(now) + " (as of its member's answer at " + k.Silent.At.Format(time.TimeOnly) +
			"): its connection stands but its process sends nothing, not even pings (GC pause, SIGSTOP, stalled VM)"
		if holder {
			s += fmt.Sprintf("; the lock passes when its session expires, and if it wakes after that it is not told at once: "+
				"a downstream store must refuse its token 0x%x (%d); to pass the lock sooner, force-release it", p.Token, p.Token)
		}
		return s
	case lockcore.LiveGone:
		s := "crashed or cut off: connected to no member, " + k.ExpiresText(k.ExpiresWithin-now.Sub(k.At))
		if holder {
			s += "; the lock passes when its session expires; to pass it now, force-release it"
		}
		return s
	case lockcore.LiveTalking:
		if holder && LongHeld(l, p) {
			return "hung: alive (its member heard from it within its session timeout, and it has not gone silent), yet holding long: " +
				"its work, not its client, is stuck; " +
				"look at the process' threads (jstack, py-spy), then revoke or force-release"
		}
		return "alive: its member heard from it within its session timeout, and it has not gone silent"
	}
	if k.State == lockcore.LinkConnected {
		return "connected; whether it still pings is not known yet (one answer of its member shows nothing either way)"
	}
	return "not known: no member's answer lists its session yet"
}

// LongHeld reports whether l's analysis found p held too long
// (lockcore.AnomalyLongHeld).
func LongHeld(l *lockcore.Lock, p lockcore.Participant) bool {
	for _, a := range l.Anomalies {
		if a.Kind == lockcore.AnomalyLongHeld && a.Node == p.Node {
			return true
		}
	}
	return false
}

// EndingText says how a hold or wait ended (an entry whose node went), in
// a few words: "released, or force-released by another client", "expired", "closed its session", "force-released",
// "ended (released or expired: not known)".
func EndingText(h HistoryEntry) string {
	switch h.EndedBy {
	case EndedByOperator:
		return "force-released"
	case EndedByExpiry:
		return "expired"
	case EndedByClose:
		return "closed its session"
	case EndedBySessionEnd:
		return "ended with its session (expired or closed: not known)"
	case EndedByUnknown:
		if h.Change == Left {
			return "left (or expired: not known)"
		}
		return "ended (released or expired: not known)"
	case EndedByRelease:
		if h.Change == Left {
			return "left, or force-released by another client"
		}
		return "released, or force-released by another client"
	case EndedByOther:
		return "force-released by session " + SessionText(h.Log.DeletedBy)
	}
	return string(h.Change)
}

// EndingWhy says what an ending's reading rests on and what it calls for.
func EndingWhy(h HistoryEntry) string {
	if why := loggedWhy(h); why != "" {
		return why
	}
	switch h.EndedBy {
	case EndedByExpiry:
		s := "its session ended with its node (connected to no member as it went, or listed by none since)"
		if h.Change == Released {
			s += "; " + expiredUntold(h.Token)
		}
		return s
	case EndedByClose:
		return "its session ended with its node before it could have expired (its member had heard from it less than its timeout before): its client closed it, and knows"
	case EndedBySessionEnd:
		return "its session ended with its node, and nothing tells whether it expired (its client not told) or its client closed it"
	case EndedByUnknown:
		return "no member's answer since the node went tells whether its session lived on (a release) or ended with it (an expiry)"
	case EndedByRelease:
		if h.Session == 0 {
			return "the node no session owns was deleted by some client"
		}
		return "its session outlived its node (a member listed it after the node went), and not by this zklocks' operator: " +
			"ZooKeeper does not say which client deleted it, its own or another force-releasing it, whose client was then not told"
	}
	return ""
}

// expiredUntold is what an expired holder's client may believe, and what
// a downstream store must do of it.
func expiredUntold(token int64) string {
	return "its client, if it still runs, was not told and may believe it holds: " + refuseToken(token)
}

// refuseToken says which fencing token a downstream store must refuse.
func refuseToken(token int64) string {
	return fmt.Sprintf("a downstream store must refuse token 0x%x (%d)", token, token)
}
