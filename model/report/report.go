package report

import (
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// Report is what one read of some lock paths found: the answer of `show`.
type Report struct {
	// Server is the connect string that was read.
	Server string
	// WatchesSource says whether watch targets are the servers' own table
	// or each recipe's rule.
	WatchesSource lockcore.WatchSource
	// WatchesNote says why the servers' table was not used, when it was not.
	WatchesNote string
	// WatchesErr is the error WatchesNote says, for what the text tells
	// once: a member that refuses the table's words (see Fix).
	WatchesErr error
	// LinksNote says why whether sessions are connected is not known
	// (not every member answered cons), or why when a disconnected one
	// expires is not.
	LinksNote string
	// Locks, with the anomalies their sessions' links call for
	// (lockcore.WithLinks), and Links those links, by session.
	Locks []lockcore.Lock
	Links lockcore.SessionLinks
	// Clients are the sessions' clients as the members listed them, and
	// ClientsComplete whether every member answered (see
	// zkwatch.Enrichment).
	Clients         map[int64]zkwatch.ClientInfo
	ClientsComplete bool
	// Servers are the members as they answered: which way each word came,
	// which were refused, and why the AdminServer was not used.
	Servers []zkwatch.ServerInfo
	// Fix says what to change on the servers when neither way answers.
	Fix string
	// Errors are the paths that could not be read, in the order asked.
	Errors []PathError
	// Ended are the holds and waits of these locks that ended, oldest
	// first, as an event log tells them (see EndedOf); empty for a live
	// read, which sees no endings.
	Ended []model.Ended
	// Partial says why the source (a transaction log cut short, zxids no
	// log holds) did not hold all it was asked for; empty when it did.
	Partial []string
}

// PathError is a path that could not be read, and why.
type PathError struct {
	Path string
	Err  error
}
