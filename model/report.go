package model

import (
	"github.com/zklocks/zklocks/lockcore"
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
	// LinksNote says why whether sessions are connected is not known
	// (not every member answered cons), or why when a disconnected one
	// expires is not.
	LinksNote string
	// Locks, with their participants' links (lockcore.WithLinks).
	Locks []lockcore.Lock
	// Errors are the paths that could not be read, in the order asked.
	Errors []PathError
}

// PathError is a path that could not be read, and why.
type PathError struct {
	Path string
	Err  error
}
