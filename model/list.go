package model

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/zklocks/zklocks/lockcore"
)

// lockSummaryJSON is one row of `ls --json`: a contract with scripts.
type lockSummaryJSON struct {
	Path    string `json:"path"`
	Recipe  string `json:"recipe"`
	Holders int    `json:"holders"`
	Waiters int    `json:"waiters"`
	// OldestHoldMs is null when no holder is read yet; OldestPending
	// says some holder is not, whose hold may be longer.
	OldestHoldMs  *int64   `json:"oldest_hold_ms"`
	OldestExact   bool     `json:"oldest_hold_exact"`
	OldestPending bool     `json:"oldest_hold_pending,omitempty"`
	Anomalies     []string `json:"anomalies"`
	// Pending counts the contenders not read yet.
	Pending int `json:"pending_contenders,omitempty"`
	// HolderClients names each holder's session and client.
	HolderClients []holderClientJSON `json:"holder_clients"`
}

// holderClientJSON is a holder's session and its client, as in show --json:
// client and member null, with client_note saying why, when unknown.
type holderClientJSON struct {
	Session    *string `json:"session"`
	Client     *string `json:"client"`
	Member     *string `json:"member"`
	ClientNote string  `json:"client_note,omitempty"`
}

type listJSON struct {
	Locks  []lockSummaryJSON `json:"locks"`
	Denied []string          `json:"denied,omitempty"`
	// Complete is false when the search stopped short of a whole walk, and
	// Incomplete then says what may be missing.
	Complete   bool   `json:"complete"`
	Incomplete string `json:"incomplete,omitempty"`
	// CrossLocks are sessions holding some locks while waiting in others;
	// CrossCycles the loops among them.
	CrossLocks  []crossLockJSON  `json:"cross_locks,omitempty"`
	CrossCycles []crossCycleJSON `json:"cross_lock_cycles,omitempty"`
	// Servers says how each member answered; Fix what to change on the
	// servers when neither way did.
	Servers []serverWaysJSON `json:"servers,omitempty"`
	Fix     string           `json:"fix,omitempty"`
}

// WriteListJSON writes every lock's summary, most contended first.
func (s *State) WriteListJSON(w io.Writer) error {
	out := listJSON{Locks: []lockSummaryJSON{}, Denied: s.deniedPaths(), Complete: s.Discovery.Complete,
		Servers: serversWays(s.Servers), Fix: s.Fix}
	r := Report{Clients: s.Clients, ClientsComplete: s.ClientsComplete, Fix: s.Fix}
	if !out.Complete {
		out.Incomplete = PartialNote(s.Discovery)
	}
	for _, l := range s.SortedLocks(ByContention) {
		oldest, exact, pending := oldestHoldMs(l)
		row := lockSummaryJSON{Path: l.Path, Recipe: string(l.Recipe), Holders: l.Holders(),
			Waiters: l.Waiters(), OldestHoldMs: oldest, OldestExact: exact, OldestPending: pending,
			Anomalies: AnomalyKinds(l), HolderClients: []holderClientJSON{}, Pending: PendingIn(l)}
		for _, p := range l.Participants {
			if p.Role != lockcore.RoleHolder {
				continue
			}
			h := holderClientJSON{Session: session(p.Session)}
			h.Client, h.Member, h.ClientNote = r.clientJSON(p.Session)
			row.HolderClients = append(row.HolderClients, h)
		}
		out.Locks = append(out.Locks, row)
	}
	out.CrossLocks, out.CrossCycles = crossToJSON(s.crossLocks())
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(escapeJSONBidi(append(b, '\n')))
	return err
}

// WriteListText writes every lock's summary as a table, most contended
// first, then the paths that could not be read.
func (s *State) WriteListText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tRECIPE\tHOLDERS\tWAITERS\tOLDEST HOLD\tANOMALIES")
	for _, l := range s.SortedLocks(ByContention) {
		oldest := OldestHoldShort(l)
		kinds := "-"
		if k := AnomalyKinds(l); len(k) > 0 {
			kinds = strings.Join(k, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", Printable(l.Path), l.Recipe, l.Holders(), l.Waiters(), oldest, kinds)
	}
	for _, p := range s.deniedPaths() {
		fmt.Fprintf(tw, "%s\t(access denied)\t\t\t\t\n", Printable(p))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	ew := &errWriter{w: w}
	if n := s.Pending(); n > 0 {
		fmt.Fprintf(ew, "%s: %d contenders are listed but %s: their holds are unknown until read\n", PendingMark, n, NotRead)
	}
	cross, cycles := s.crossLocks()
	writeCrossText(ew, cross, cycles)
	return ew.err
}

// AnomalyKinds lists a lock's distinct anomaly kinds, in first-seen order.
func AnomalyKinds(l *lockcore.Lock) []string {
	seen := map[lockcore.AnomalyKind]bool{}
	out := []string{}
	for _, a := range l.Anomalies {
		if !seen[a.Kind] {
			seen[a.Kind] = true
			out = append(out, string(a.Kind))
		}
	}
	return out
}

func (s *State) deniedPaths() []string {
	var out []string
	for p := range s.Denied {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
