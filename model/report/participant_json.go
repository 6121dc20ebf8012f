package report

import (
	"encoding/base64"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// participantJSON is one contender of show --json's lock; what it holds
// of its hold, its data, where its client was last seen and its
// liveness are each a part of their own, built apart.
type participantJSON struct {
	Node            string   `json:"node"`
	Path            string   `json:"path"`
	Recipe          string   `json:"recipe"`
	Seq             *int64   `json:"seq"`
	Mode            string   `json:"mode"`
	Role            string   `json:"role"`
	Position        int      `json:"position"`
	Session         *string  `json:"session"`
	Ephemeral       bool     `json:"ephemeral"`
	Watches         *string  `json:"watches"`
	WatchesChildren bool     `json:"watches_children,omitempty"`
	WatchesUnknown  bool     `json:"watches_unknown,omitempty"`
	Chain           []string `json:"chain"`
	ChainCut        bool     `json:"chain_truncated,omitempty"`
	Watchers        []string `json:"watchers"`
	// Pending: the node is listed, not read yet; token, ctime and age_ms
	// are then null, held_how "pending", and there is no data.
	Pending bool    `json:"pending,omitempty"`
	Token   *int64  `json:"token"`
	Ctime   *string `json:"ctime"`
	AgeMs   *int64  `json:"age_ms"`
	heldJSON
	dataJSON
	Note            string  `json:"note,omitempty"`
	Identity        string  `json:"identity,omitempty"`
	PartOf          string  `json:"part_of,omitempty"`
	Connection      *string `json:"connection"`
	ExpiresWithinMs *int64  `json:"expires_within_ms"`
	clientJSON
	lastSeenJSON
	livenessJSON
}

// heldJSON is a holder's hold: how long (exact, or its bounds) and how it
// is known; all absent for a waiter.
type heldJSON struct {
	HeldMs        *int64 `json:"held_ms,omitempty"`
	HeldExact     *bool  `json:"held_exact,omitempty"`
	HeldAtLeastMs *int64 `json:"held_at_least_ms,omitempty"`
	HeldHow       string `json:"held_how,omitempty"`
}

// dataJSON is a node's data: as text when it reads as text, else in
// base64; why it could not be read.
type dataJSON struct {
	Data           *string `json:"data,omitempty"`
	DataB64        *string `json:"data_b64,omitempty"`
	DataTruncated  bool    `json:"data_truncated,omitempty"`
	DataUnreadable string  `json:"data_unreadable,omitempty"`
}

// lastSeenJSON is where and when a server last listed the session's
// client, once none lists it (lockcore.Link).
type lastSeenJSON struct {
	LastClient string `json:"last_client,omitempty"`
	LastServer string `json:"last_server,omitempty"`
	LastSeen   string `json:"last_seen,omitempty"`
	LastName   string `json:"last_client_name,omitempty"`
}

// livenessJSON is what the servers' traffic counters tell of the client
// (lockcore.Liveness): "talking", "silent", "disconnected" or "unknown";
// null for a node no session owns. A silent session's figures: how long
// its member had heard nothing (a lower bound), as of when it was asked,
// its timeout, and how long it has left if it stays silent.
type livenessJSON struct {
	Liveness          *string `json:"liveness"`
	SilentMs          *int64  `json:"silent_ms,omitempty"`
	SilentAsOf        string  `json:"silent_as_of,omitempty"`
	SessionTimeoutMs  *int64  `json:"session_timeout_ms,omitempty"`
	ExpiresIfSilentMs *int64  `json:"expires_if_silent_within_ms,omitempty"`
}

// participantToJSON is p, whose session's link to the servers is k; its
// client is set apart (Report.clientOf).
func participantToJSON(p lockcore.Participant, k lockcore.Link) participantJSON {
	j := participantJSON{Node: p.Node, Path: p.Path, Recipe: string(p.Recipe), Mode: string(p.Mode),
		Role: string(p.Role), Position: p.Position, Session: session(p.Session), Ephemeral: p.Ephemeral,
		Chain: p.Chain, ChainCut: p.ChainCut, Watchers: sessions(p.Watchers), Pending: p.Pending,
		Note: p.Note, PartOf: p.PartOf, WatchesUnknown: p.WatchesUnknown, Identity: p.Identity,
		heldJSON: heldOf(p), dataJSON: dataOf(p), lastSeenJSON: lastSeenOf(k), livenessJSON: livenessOf(p.Session, k)}
	if !p.Pending {
		token, ctime, age := p.Token, p.Ctime.UTC().Format(time.RFC3339Nano), p.Age.Milliseconds()
		j.Token, j.Ctime, j.AgeMs = &token, &ctime, &age
	}
	if p.HasSeq {
		seq := p.Seq
		j.Seq = &seq
	}
	if k.State != "" {
		state := string(k.State)
		j.Connection = &state
	}
	if k.State == lockcore.LinkDisconnected && k.ExpiryKnown() {
		ms := k.ExpiresWithin.Milliseconds()
		j.ExpiresWithinMs = &ms
	}
	if p.Watches != nil {
		j.Watches, j.WatchesChildren = &p.Watches.Node, p.Watches.Children
	}
	if j.Chain == nil {
		j.Chain = []string{}
	}
	return j
}

// heldOf is p's hold, if p holds: pending when it is not read yet.
func heldOf(p lockcore.Participant) heldJSON {
	var j heldJSON
	switch {
	case p.Role != lockcore.RoleHolder:
	case p.Pending:
		j.HeldHow = string(lockcore.HoldPending)
	default:
		held, exact := p.Hold.Max.Milliseconds(), p.Hold.Exact()
		j.HeldMs, j.HeldExact, j.HeldHow = &held, &exact, string(p.Hold.How)
		if !exact {
			least := p.Hold.Min.Milliseconds()
			j.HeldAtLeastMs = &least
		}
	}
	return j
}

// dataOf is p's data; nothing of it is known of a pending p, not even
// whether there is any.
func dataOf(p lockcore.Participant) dataJSON {
	j := dataJSON{DataTruncated: p.DataTruncated}
	switch {
	case p.Pending:
	case p.DataDenied:
		j.DataUnreadable = "acl"
	default:
		if text, ok := model.DataText(p.Data, p.DataTruncated); ok {
			j.Data = &text
		} else {
			b64 := base64.StdEncoding.EncodeToString(p.Data)
			j.DataB64 = &b64
		}
	}
	return j
}

// lastSeenOf is where k's client was last seen, when no server lists it.
func lastSeenOf(k lockcore.Link) lastSeenJSON {
	if k.LastClient == "" {
		return lastSeenJSON{}
	}
	return lastSeenJSON{LastClient: k.LastClient, LastServer: k.LastServer, LastName: k.LastName,
		LastSeen: k.LastSeen.UTC().Format(time.RFC3339Nano)}
}

// livenessOf is the liveness of session, whose link is k; none for a
// node no session owns.
func livenessOf(session int64, k lockcore.Link) livenessJSON {
	var j livenessJSON
	if session != 0 {
		live := string(k.Liveness())
		j.Liveness = &live
	}
	if sl := k.Silent; sl.For > 0 {
		silent, timeout, left := sl.For.Milliseconds(), sl.Timeout.Milliseconds(), (sl.Timeout - sl.For).Milliseconds()
		j.SilentMs, j.SessionTimeoutMs, j.ExpiresIfSilentMs = &silent, &timeout, &left
		j.SilentAsOf = sl.At.UTC().Format(time.RFC3339Nano)
	}
	return j
}
