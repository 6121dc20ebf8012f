package report

import (
	"github.com/zklocks/zklocks/model"

	"fmt"
	"io"
	"strings"

	"github.com/zklocks/zklocks/lockcore"
)

// crossLockJSON is a session holding some locks while waiting in others.
type crossLockJSON struct {
	Session string   `json:"session"`
	Holds   []string `json:"holds"`
	WaitsIn []string `json:"waits_in"`
}

// crossCycleJSON is a loop of such sessions.
type crossCycleJSON struct {
	Sessions []string `json:"sessions"`
	Locks    []string `json:"locks"`
	Detail   string   `json:"detail"`
}

// crossLocks looks across every lock for sessions that hold some while
// waiting in others (lockcore.CrossLocks).
func crossLocks(s *model.State) ([]lockcore.CrossLock, []lockcore.CrossCycle) {
	return lockcore.CrossLocks(s.SortedLocks(model.ByPath))
}

func crossToJSON(cross []lockcore.CrossLock, cycles []lockcore.CrossCycle) ([]crossLockJSON, []crossCycleJSON) {
	var cj []crossLockJSON
	for _, c := range cross {
		cj = append(cj, crossLockJSON{Session: lockcore.SessionHex(c.Session), Holds: c.Holds, WaitsIn: c.WaitsIn})
	}
	var yj []crossCycleJSON
	for _, c := range cycles {
		yj = append(yj, crossCycleJSON{Sessions: sessions(c.Sessions), Locks: c.Locks, Detail: c.Detail()})
	}
	return cj, yj
}

// writeCrossText says which sessions hold locks while waiting in others,
// and the loops among them, escaped.
func writeCrossText(w io.Writer, cross []lockcore.CrossLock, cycles []lockcore.CrossCycle) {
	if len(cross) > 0 {
		fmt.Fprintln(w, "\nsessions holding locks while waiting in others (one client taking several locks in turn, as InterProcessMultiLock does, or threads sharing a session):")
	}
	for _, c := range cross {
		fmt.Fprintf(w, "  %s holds %s, waits in %s\n", model.SessionText(c.Session), model.Printable(strings.Join(c.Holds, ", ")), model.Printable(strings.Join(c.WaitsIn, ", ")))
	}
	for _, c := range cycles {
		fmt.Fprintf(w, "! lock-order cycle: %s\n", model.Printable(c.Detail()))
	}
}
