package report

import (
	"github.com/zklocks/zklocks/model"

	"bytes"
	"encoding/json"
	"io"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// The JSON shapes below are a contract with scripts: field names never
// change; fields may be added.

type reportJSON struct {
	Server        string      `json:"server"`
	WatchesSource string      `json:"watches_source"`
	WatchesNote   string      `json:"watches_note,omitempty"`
	LinksNote     string      `json:"connections_note,omitempty"`
	Locks         []lockJSON  `json:"locks"`
	Errors        []errorJSON `json:"errors,omitempty"`
	serversJSON
	// Ended are the holds and waits of the locks shown that ended, as a
	// recording's event log tells them; a live read cannot see endings.
	Ended []endedJSON `json:"ended,omitempty"`
	// Partial: see Report.Partial.
	Partial []string `json:"partial,omitempty"`
}

// serversJSON says how each member answered (Servers), and Fix what to
// change on the servers when neither way did: the same in show's JSON and
// ls's.
type serversJSON struct {
	Servers []serverWaysJSON `json:"servers,omitempty"`
	Fix     string           `json:"fix,omitempty"`
}

// serverWaysJSON is how one member answered: each word by "4lw" or
// "admin", the words its whitelist refused, and why its AdminServer was
// not used when it was needed.
type serverWaysJSON struct {
	Member   string            `json:"member"`
	Mode     string            `json:"mode,omitempty"`
	Answered map[string]string `json:"answered"`
	Refused  []string          `json:"refused,omitempty"`
	AdminErr string            `json:"admin_error,omitempty"`
	Err      string            `json:"error,omitempty"`
}

type errorJSON struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

type lockJSON struct {
	Path   string `json:"path"`
	Recipe string `json:"recipe"`
	// Entry is the rule book entry that describes the lock, "" for none;
	// Assumed what was assumed rather than known (lockcore.Lock.Assumed).
	Entry         string   `json:"entry,omitempty"`
	Assumed       []string `json:"assumed,omitempty"`
	WatchesSource string   `json:"watches_source"`
	WatchesGap    string   `json:"watches_gap,omitempty"`
	MaxLeases     *int     `json:"max_leases"`
	queueJSON
	Pending       int               `json:"pending_contenders,omitempty"`
	HiddenWaiters []string          `json:"hidden_waiters,omitempty"`
	Observers     int               `json:"observers,omitempty"`
	ObserverList  []observerJSON    `json:"observer_sessions,omitempty"`
	Participants  []participantJSON `json:"participants"`
	Anomalies     []anomalyJSON     `json:"anomalies"`
	Warnings      []string          `json:"warnings,omitempty"`
	MaybeLongHeld []anomalyJSON     `json:"maybe_long_held,omitempty"`
	App           *appJSON          `json:"app,omitempty"`
}

// observerJSON is a session watching a plain lock's node that is not
// counted as its waiter; certain when it carries zklocks' mark.
type observerJSON struct {
	Session  string `json:"session"`
	Certain  bool   `json:"certain"`
	Evidence string `json:"evidence"`
}

// queueJSON is how many hold and wait in a lock and its longest hold, as
// show and ls print them alike.
type queueJSON struct {
	Holders int `json:"holders"`
	Waiters int `json:"waiters"`
	// OldestHoldMs is null when no holder is read yet; OldestPending
	// says some holder is not, whose hold may be longer.
	OldestHoldMs  *int64 `json:"oldest_hold_ms"`
	OldestExact   bool   `json:"oldest_hold_exact"`
	OldestPending bool   `json:"oldest_hold_pending,omitempty"`
}

// queueOf is l's queueJSON.
func queueOf(l *lockcore.Lock) queueJSON {
	oldest, exact, pending := oldestHoldMs(l)
	return queueJSON{Holders: l.Holders(), Waiters: l.Waiters(), OldestHoldMs: oldest, OldestExact: exact, OldestPending: pending}
}

// clientJSON is a session's client address (Client) and the member it is
// connected to (Member), as the members said, as show and ls print them
// alike: both null with ClientNote saying why when no member named the
// session.
type clientJSON struct {
	Client     *string `json:"client"`
	Member     *string `json:"member"`
	ClientNote string  `json:"client_note,omitempty"`
}

// endedJSON is a hold or wait that ended, as the event log tells it:
// how (ended_by: "release", "expiry", "session-close", "operator" or
// "unknown"), and whether its client may still believe it holds.
type endedJSON struct {
	Lock    string  `json:"lock"`
	Node    string  `json:"node"`
	Role    string  `json:"role"`
	Session *string `json:"session"`
	Token   int64   `json:"token"`
	At      string  `json:"at"`
	EndedBy string  `json:"ended_by"`
	Text    string  `json:"text"`
	Why     string  `json:"why,omitempty"`
	// NotTold: an expired holder whose client was not seen to learn it
	// (State.Untold), or a force-released contender whose client is still
	// connected (State.Forced); NewHolders are who holds now, with their
	// tokens.
	NotTold    bool         `json:"not_told,omitempty"`
	NewHolders []holderJSON `json:"new_holders,omitempty"`
}

type holderJSON struct {
	Session *string `json:"session"`
	Token   int64   `json:"token"`
}

type anomalyJSON struct {
	Kind    string   `json:"kind"`
	Node    string   `json:"node"`
	Nodes   []string `json:"nodes"`
	Session *string  `json:"session"`
	Detail  string   `json:"detail"`
}

// WriteJSON writes the report as one indented JSON document. Control and
// bidirectional characters in names and data are escaped as \uXXXX, so the
// output is safe to print on a terminal.
func (r Report) WriteJSON(w io.Writer) error {
	out := reportJSON{Partial: r.Partial, Server: r.Server, WatchesSource: string(r.WatchesSource), WatchesNote: r.WatchesNote,
		LinksNote: r.LinksNote, Locks: make([]lockJSON, 0, len(r.Locks)), serversJSON: serversOf(r.Servers, r.Fix)}
	for _, l := range r.Locks {
		j := lockToJSON(l, r.Links)
		for i, p := range l.Participants {
			j.Participants[i].clientJSON = r.clientOf(p.Session)
		}
		out.Locks = append(out.Locks, j)
	}
	for _, e := range r.Errors {
		out.Errors = append(out.Errors, errorJSON{Path: e.Path, Error: e.Err.Error()})
	}
	for _, e := range r.Ended {
		out.Ended = append(out.Ended, endedToJSON(e))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := w.Write(model.EscapeJSONBidi(buf.Bytes()))
	return err
}

// clientOf is a session's client and member, or why they are unknown.
func (r Report) clientOf(session int64) clientJSON {
	c := model.ClientOf(r.Clients, r.ClientsComplete, session)
	if c.Addr != "" {
		addr, server := c.Addr, c.Server
		return clientJSON{Client: &addr, Member: &server}
	}
	switch {
	case session == 0:
		return clientJSON{ClientNote: "persistent node: no session"}
	case c.Gone:
		return clientJSON{ClientNote: "connected to no member: every member answered and none lists the session"}
	case r.Fix != "":
		return clientJSON{ClientNote: "no member says: neither four-letter words nor an AdminServer answer (see fix)"}
	}
	return clientJSON{ClientNote: "no member named the session (see connections_note)"}
}

// serversOf is how each member answered, and the fix, as the JSON gives
// them.
func serversOf(servers []zkwatch.ServerInfo, fix string) serversJSON {
	out := serversJSON{Fix: fix}
	for _, s := range servers {
		j := serverWaysJSON{Member: s.Addr, Mode: s.Status.Mode, Answered: map[string]string{}, Refused: s.Refused}
		for w, via := range s.Via {
			j.Answered[w] = string(via)
		}
		if s.AdminErr != nil {
			j.AdminErr = s.AdminErr.Error()
		}
		if s.Err != nil {
			j.Err = s.Err.Error()
		}
		out.Servers = append(out.Servers, j)
	}
	return out
}

func lockToJSON(l lockcore.Lock, links lockcore.SessionLinks) lockJSON {
	j := lockJSON{Path: l.Path, Recipe: string(l.Recipe), Entry: l.Entry, Assumed: l.Assumed, WatchesSource: string(l.WatchesSource), WatchesGap: l.WatchesGap, MaxLeases: l.MaxLeases,
		queueJSON:     queueOf(&l),
		Pending:       model.PendingIn(&l),
		HiddenWaiters: sessions(l.HiddenWaiters), Warnings: l.Warnings, App: appToJSON(l.App),
		Participants: make([]participantJSON, 0, len(l.Participants)),
		Anomalies:    make([]anomalyJSON, 0, len(l.Anomalies))}
	for _, p := range l.Participants {
		j.Participants = append(j.Participants, participantToJSON(p, links.Of(p.Session)))
	}
	for _, a := range l.Anomalies {
		j.Anomalies = append(j.Anomalies, anomalyToJSON(a))
	}
	for _, a := range l.MaybeLongHeld {
		j.MaybeLongHeld = append(j.MaybeLongHeld, anomalyToJSON(a))
	}
	j.Observers = len(l.Observers)
	for _, o := range l.Observers {
		j.ObserverList = append(j.ObserverList, observerJSON{Session: lockcore.SessionHex(o.Session), Certain: o.Certain, Evidence: o.Evidence})
	}
	return j
}

func anomalyToJSON(a lockcore.Anomaly) anomalyJSON {
	nodes := a.Nodes
	if nodes == nil {
		nodes = []string{}
	}
	return anomalyJSON{Kind: string(a.Kind), Node: a.Node, Nodes: nodes, Session: session(a.Session), Detail: a.Detail}
}

func endedToJSON(e model.Ended) endedJSON {
	role := lockcore.RoleWaiter
	if e.Entry.Change == model.Released {
		role = lockcore.RoleHolder
	}
	j := endedJSON{Lock: e.Entry.Lock, Node: e.Entry.Node, Role: string(role), Session: session(e.Entry.Session), Token: e.Entry.Token,
		At: e.Entry.At.UTC().Format(time.RFC3339Nano), EndedBy: string(e.Entry.EndedBy), Text: model.EndingText(e.Entry), Why: model.EndingWhy(e.Entry),
		NotTold: e.NotTold}
	for _, h := range e.NewHolders {
		j.NewHolders = append(j.NewHolders, holderJSON{Session: session(h.Session), Token: h.Token})
	}
	return j
}

// session formats a session id, or nil for none (a persistent node).
func session(id int64) *string {
	if id == 0 {
		return nil
	}
	s := lockcore.SessionHex(id)
	return &s
}

func sessions(ids []int64) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		out = append(out, lockcore.SessionHex(id))
	}
	return out
}

// oldestHoldMs is a lock's longest known hold in milliseconds (an upper
// bound unless exact), and whether it is exact; zero and true with no
// holder; nil when no holder is read yet. pending says whether some
// holder is not read yet.
func oldestHoldMs(l *lockcore.Lock) (ms *int64, exact, pending bool) {
	h, known, n := model.OldestHold(l)
	if !known {
		if n > 0 {
			return nil, false, true
		}
		zero := int64(0)
		return &zero, true, false
	}
	v := h.Max.Milliseconds()
	return &v, h.Exact(), n > 0
}
