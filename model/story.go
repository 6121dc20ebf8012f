package model

import (
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// Story is what a recording tells of one lock over a stretch of time,
// for a postmortem: every hold and wait with how it began and ended, the
// connections lost, the anomalies as they arose and cleared, and the
// figures. It is read from the event log and State.Timeline, the same as
// the UI's timeline, over the whole recording (the log's own bound does
// not apply).
type Story struct {
	Lock   string          `json:"lock"`
	Recipe lockcore.Recipe `json:"recipe,omitempty"`
	// From and To bound the stretch told; WatchingFrom is when the
	// recording first had the whole picture (its first sync): what was
	// already there then has no earlier time.
	From         time.Time `json:"from"`
	To           time.Time `json:"to"`
	WatchingFrom time.Time `json:"watching_from,omitzero"`
	// Known: the lock was in the recording at all.
	Known bool `json:"known"`
	// Holds and Waits in the order they began.
	Holds []StoryHold `json:"holds"`
	Waits []StoryWait `json:"waits"`
	// Connection lists the recording's own connection losses and the
	// contenders' sessions found connected to no member, in time order.
	Connection []StoryConn `json:"connection"`
	// Anomalies as they arose, each with when it cleared (zero: still
	// there at To).
	Anomalies []StoryAnomaly `json:"anomalies"`
	// WaitTimes (join to grant) and HoldTimes (grant to release) of those
	// seen from their start that ended in the stretch.
	WaitTimes StoryStats `json:"wait_times"`
	HoldTimes StoryStats `json:"hold_times"`
	// Partial says why the source did not hold the whole stretch (a
	// transaction log cut short, zxids no log holds); empty when it did.
	Partial []string `json:"partial,omitempty"`
	// Members says where ensemble members' transaction logs differ, or
	// where one lacks what the others hold.
	Members []string `json:"members,omitempty"`
}

// How a hold or wait's start is known.
const (
	// StartSeen: the recording saw it begin.
	StartSeen = "seen"
	// StartBefore: it was there when the recording first had the whole
	// picture; it began earlier, at a time not known.
	StartBefore = "before"
	// StartLate: first seen then (the lock found, or read again after a
	// lost connection); it began earlier.
	StartLate = "first-seen"
	// StartCtime: it began before its lock was found, at its node's
	// creation time (by the server's clock).
	StartCtime = "ctime"
)

// How a hold or wait ended.
const (
	// EndReleasedOrForced: its node was deleted while its session lived,
	// and not by zklocks' operator as far as the recording knows:
	// released by its holder, or force-released by another client
	// (ZooKeeper's watches do not say which session deleted a node).
	EndReleasedOrForced = "released-or-forced"
	// EndLeftOrForced is EndReleasedOrForced of a wait.
	EndLeftOrForced = "left-or-forced"
	EndReleased     = "released"       // its own session deleted its node, as a source naming the deleting session says
	EndExpired      = "expired"        // its node went with its session (see EndedByExpiry)
	EndClosed       = "session-closed" // its client closed its session (see EndedByClose)
	EndSessionEnded = "session-ended"  // its node went with its session, which expired or was closed: not known which (see EndedBySessionEnd)
	EndForced       = "forced"         // zklocks' operator deleted it (Audit says how)
	EndUnknown      = "unknown"        // its node went; no member's answer since said whether its session outlived it
	EndGranted      = "granted"        // a wait that became a hold
	EndLeft         = "left"           // a wait whose node its own session deleted, as a source naming the deleting session says
	EndOngoing      = "ongoing"        // still there at To
)

// StoryHold is one holder's hold.
type StoryHold struct {
	Session string    `json:"session"`
	Node    string    `json:"node"`
	Granted time.Time `json:"granted"`
	// Start says how Granted is known (StartSeen …).
	Start string `json:"start"`
	// OutOfOrder: the grant overtook an earlier waiter.
	OutOfOrder bool      `json:"out_of_order,omitempty"`
	Ended      time.Time `json:"ended,omitzero"`
	End        string    `json:"end"`
	// Held is Ended (or To) minus Granted; AtLeast when the start is not
	// when it began.
	Held    time.Duration `json:"held_ns"`
	AtLeast bool          `json:"held_at_least,omitempty"`
	// Disconnected is when its session was found connected to no member.
	Disconnected time.Time `json:"disconnected,omitzero"`
	// Frozen are the stretches its session was silent while it held: its
	// process stopped, its connection standing (see StoryFrozen).
	Frozen []StoryFrozen `json:"frozen,omitempty"`
	// Audit is the operator's audit line of a forced end.
	Audit string `json:"audit,omitempty"`
	StoryLogEnd
}

// StoryWait is one waiter's wait.
type StoryWait struct {
	Session string        `json:"session"`
	Node    string        `json:"node"`
	Joined  time.Time     `json:"joined"`
	Start   string        `json:"start"`
	Ended   time.Time     `json:"ended,omitzero"`
	End     string        `json:"end"`
	Waited  time.Duration `json:"waited_ns"`
	AtLeast bool          `json:"waited_at_least,omitempty"`
	// AtMost: the hold that ended it was first seen late, so the wait
	// ended by Ended, not at it (with AtLeast too, how long it lasted is
	// not known).
	AtMost bool   `json:"waited_at_most,omitempty"`
	Audit  string `json:"audit,omitempty"`
	StoryLogEnd
}

// StoryLogEnd is what a transaction log says of a hold's or wait's end
// (see LogEnd): the session that deleted its node when another than its
// own did, its own session's timeout, and when its client was last heard
// from. It is zero when no log said, and for a wait that was granted.
type StoryLogEnd struct {
	DeletedBy      string        `json:"deleted_by,omitempty"`
	SessionTimeout time.Duration `json:"session_timeout_ns,omitempty"`
	LastHeard      time.Time     `json:"last_heard,omitzero"`
}

// StoryConn is a connection lost: the recording's own (Session empty:
// what it saw after, until its next sync, is dated when seen), or a
// contender's session found connected to no member.
type StoryConn struct {
	At      time.Time `json:"at"`
	What    string    `json:"what"`
	Session string    `json:"session,omitempty"`
	Node    string    `json:"node,omitempty"`
}

// StoryAnomaly is an anomaly from when it arose to when it cleared.
type StoryAnomaly struct {
	Kind    lockcore.AnomalyKind `json:"kind"`
	Node    string               `json:"node,omitempty"`
	Session string               `json:"session,omitempty"`
	Detail  string               `json:"detail"`
	Arose   time.Time            `json:"arose"`
	Cleared time.Time            `json:"cleared,omitzero"`
}

// StoryStats are figures of durations, zero when Count is.
type StoryStats struct {
	Count int           `json:"count"`
	P50   time.Duration `json:"p50_ns"`
	P90   time.Duration `json:"p90_ns"`
	P99   time.Duration `json:"p99_ns"`
	Max   time.Duration `json:"max_ns"`
}

func statsOf(sorted []time.Duration) StoryStats {
	if len(sorted) == 0 {
		return StoryStats{}
	}
	return StoryStats{Count: len(sorted), P50: Percentile(sorted, 0.5), P90: Percentile(sorted, 0.9),
		P99: Percentile(sorted, 0.99), Max: sorted[len(sorted)-1]}
}

// TellStory replays events (a recording, in order) and tells lock's story
// over [from, to]; a zero from or to is the recording's first or last
// event's time. It is a StoryPass that follows lock alone.
func TellStory(events []zkwatch.Event, lock string, from, to time.Time) Story {
	p := NewStoryPass(func(l string) bool { return l == lock }, from)
	for _, ev := range events {
		p.Apply(ev)
	}
	p.Finish(to)
	return p.Story(lock, true)
}

// connLoss says what a change of the recording's own connection lost.
func connLoss(p zkwatch.ConnPhase) string {
	switch p {
	case zkwatch.Disconnected:
		return "the recording's connection lost: changes until the next sync are dated when seen"
	case zkwatch.Expired:
		return "the recording's session expired: everything was read again"
	case zkwatch.Closed:
		return "the recording stopped (restarted, or a part missing): nothing was watched until the next sync"
	}
	return ""
}

// entryKey tells a log's entries apart.
type entryKey struct {
	node   string
	token  int64
	change Change
	at     int64
}

func keyOfEntry(h HistoryEntry) entryKey { return entryKey{h.Node, h.Token, h.Change, h.At.UnixNano()} }

type anomalyKey struct {
	kind    lockcore.AnomalyKind
	node    string
	session int64
}

// trackAnomalies notes the anomalies of a lock's new reading that arose,
// and closes those no longer there.
func trackAnomalies(all []StoryAnomaly, open map[anomalyKey]int, now []lockcore.Anomaly, at time.Time) []StoryAnomaly {
	seen := map[anomalyKey]bool{}
	for _, a := range now {
		k := anomalyKey{a.Kind, a.Node, a.Session}
		seen[k] = true
		if _, ok := open[k]; ok {
			continue
		}
		open[k] = len(all)
		sa := StoryAnomaly{Kind: a.Kind, Node: a.Node, Detail: a.Detail, Arose: at}
		if a.Session != 0 {
			sa.Session = lockcore.SessionHex(a.Session)
		}
		all = append(all, sa)
	}
	for k, i := range open {
		if !seen[k] {
			all[i].Cleared = at
			delete(open, k)
		}
	}
	return all
}
