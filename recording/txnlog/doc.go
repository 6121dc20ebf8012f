// Package txnlog reads a ZooKeeper data directory (its version-2/
// transaction logs and snapshots) as a recording: the newest snapshot
// before the range's start gives the starting picture, the logs from it
// on, in zxid order, every change, at the leader's time of its
// transaction. The tree is rebuilt in memory, each lock analysed by
// lockcore's rule book as the watcher would have read it, and the same
// zkwatch.Events a recording holds come out, with what only the log
// knows of how each node went (who deleted it; whether its session
// expired or was closed, its timeout and when it was last heard from).
//
// It only reads: a live data directory (the newest log preallocated with
// zeros past its end and growing, a snapshot being written) is read up to
// what is complete. Several members' directories are read as one history,
// and where they disagree, or where one has a gap the others fill, is said.
package txnlog
