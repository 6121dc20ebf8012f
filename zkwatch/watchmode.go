package zkwatch

import (
	"fmt"
)

// WatchMode says where waiters' watch targets come from.
type WatchMode int

// Watch modes.
const (
	// WatchesAuto reads the servers' watch table when the watches they
	// hold (wchs) are within a budget, and uses recipe rules otherwise.
	WatchesAuto WatchMode = iota
	// WatchesServer always reads the table, paced by its cost.
	WatchesServer
	// WatchesRecipe never reads it: every waiter's target is its recipe's
	// rule.
	WatchesRecipe
)

// DefaultWatchBudget is the most watches the servers may hold for
// WatchesAuto to read their table: about 4 MB of wchc a member.
const DefaultWatchBudget = 100_000

func (m WatchMode) String() string {
	switch m {
	case WatchesServer:
		return "server"
	case WatchesRecipe:
		return "recipe"
	}
	return "auto"
}

// ParseWatchMode parses "auto", "server" or "recipe".
func ParseWatchMode(s string) (WatchMode, error) {
	for _, m := range []WatchMode{WatchesAuto, WatchesServer, WatchesRecipe} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("--watches %q: want auto, server or recipe", s)
}

// Interest says which part of a watch table to keep: the watches on the
// nodes of the locks shown, whoever holds them (waiters, and the hidden
// waiters of a plain lock node), so that the table's memory grows with
// those locks and not with the cluster's watches. A nil field keeps all.
type Interest struct {
	// Within reports whether a server path is inside a lock shown.
	Within func(path string) bool
	// Covers reports whether a lock (by its chroot-relative path, as
	// analysed) was shown when the table was read: a lock found later has
	// none of its watches in the table.
	Covers func(lockPath string) bool
	// Lock, when set, is the one lock this interest is kept to.
	Lock string
	// Gen numbers the set of locks Covers accepts: it grows whenever a
	// lock is found.
	Gen uint64
}
