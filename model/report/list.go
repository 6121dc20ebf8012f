package report

import (
	"github.com/zklocks/zklocks/model"

	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/zklocks/zklocks/lockcore"
)

// lockSummaryJSON is one row of `ls --json`: a contract with scripts.
type lockSummaryJSON struct {
	Path   string `json:"path"`
	Recipe string `json:"recipe"`
	queueJSON
	Anomalies []string `json:"anomalies"`
	// Pending counts the contenders not read yet.
	Pending int `json:"pending_contenders,omitempty"`
	// HolderClients names each holder's session and client.
	HolderClients []holderClientJSON `json:"holder_clients"`
}

// holderClientJSON is a holder's session and its client, as in show --json:
// client and member null, with client_note saying why, when unknown.
type holderClientJSON struct {
	Session *string `json:"session"`
	clientJSON
}

type listJSON struct {
	Locks  []lockSummaryJSON `json:"locks"`
	Denied []string          `json:"denied,omitempty"`
	// Complete is false when the search stopped short of a whole walk or
	// paths were denied to the session, and Incomplete then says what may
	// be missing.
	Complete   bool   `json:"complete"`
	Incomplete string `json:"incomplete,omitempty"`
	// CrossLocks are sessions holding some locks while waiting in others;
	// CrossCycles the loops among them.
	CrossLocks  []crossLockJSON  `json:"cross_locks,omitempty"`
	CrossCycles []crossCycleJSON `json:"cross_lock_cycles,omitempty"`
	serversJSON
}

// WriteListJSON writes every lock's summary, most contended first.
func WriteListJSON(w io.Writer, s *model.State) error {
	out := listJSON{Locks: []lockSummaryJSON{}, Denied: deniedPaths(s), Complete: s.Discovery.Complete && len(s.Denied) == 0,
		serversJSON: serversOf(s.Servers, s.Fix)}
	r := Report{Clients: s.Clients, ClientsComplete: s.ClientsComplete, Fix: s.Fix}
	var missing []string
	if !s.Discovery.Complete {
		missing = append(missing, model.PartialNote(s.Discovery))
	}
	if len(s.Denied) > 0 {
		missing = append(missing, model.DeniedNote(len(s.Denied)))
	}
	out.Incomplete = strings.Join(missing, "; ")
	for _, l := range s.SortedLocks(model.ByContention) {
		row := lockSummaryJSON{Path: l.Path, Recipe: string(l.Recipe), queueJSON: queueOf(l),
			Anomalies: model.AnomalyKinds(l), HolderClients: []holderClientJSON{}, Pending: model.PendingIn(l)}
		for _, p := range l.Participants {
			if p.Role != lockcore.RoleHolder {
				continue
			}
			row.HolderClients = append(row.HolderClients, holderClientJSON{Session: session(p.Session), clientJSON: r.clientOf(p.Session)})
		}
		out.Locks = append(out.Locks, row)
	}
	out.CrossLocks, out.CrossCycles = crossToJSON(crossLocks(s))
	return model.WriteJSON(w, out)
}

// WriteListText writes every lock's summary as a table, most contended
// first, then the paths that could not be read.
func WriteListText(w io.Writer, s *model.State) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tRECIPE\tHOLDERS\tWAITERS\tOLDEST HOLD\tANOMALIES")
	for _, l := range s.SortedLocks(model.ByContention) {
		oldest := model.OldestHoldShort(l)
		kinds := "-"
		if k := model.AnomalyKinds(l); len(k) > 0 {
			kinds = strings.Join(k, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", model.Printable(l.Path), l.Recipe, l.Holders(), l.Waiters(), oldest, kinds)
	}
	for _, p := range deniedPaths(s) {
		fmt.Fprintf(tw, "%s\t(access denied)\t\t\t\t\n", model.Printable(p))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	ew := &errWriter{w: w}
	if n := s.Pending(); n > 0 {
		fmt.Fprintf(ew, "%s: %d contenders are listed but %s: their holds are unknown until read\n", model.PendingMark, n, model.NotRead)
	}
	cross, cycles := crossLocks(s)
	writeCrossText(ew, cross, cycles)
	return ew.err
}

func deniedPaths(s *model.State) []string {
	var out []string
	for p := range s.Denied {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}
