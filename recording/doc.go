// Package recording keeps what a zkwatch.Watcher saw, so that it can be
// replayed: a recording is the watcher's events in the order it sent them,
// which is everything model.State.Apply ever consumed. Replaying them into
// a model.State (see model.Tape) rebuilds the operator's picture as it was
// after any of them.
//
// # Format (version 7)
//
// A recording is a gzip stream of JSON lines. The first line is a header:
//
//	{"zklocks_recording":7,"started":"2026-11-22T14:02:11.052731Z","part":1,"server":"zk1:2181","roots":["/"],"by":"zklocks v1.4"}
//
// Every later line is one watcher event, with "t" the microseconds since
// the previous line's time (the header's started, for the first) and "k"
// its kind: conn, gone, denied, synced, disc, servers, error or act (an
// operator's action, format 2: "a" the action, with the audit log's names
// for its fields, from format 7; "n" its audit line as a string before),
// or none for the commonest, lock. Each
// line is written whole, and the gzip stream is flushed every second, so
// a crash loses at most the last second and leaves every earlier line
// readable; a clean close ends the stream.
//
// A lock line carries the lock's analysis as a difference from the last
// line of the same path in the same part, so that a change of one
// contender costs a few bytes however long the queue:
//
//   - "p" names a path the first time the part mentions it and gives it
//     the next number (from 1); later lines name it by number, "l".
//   - "h" carries the lock's own fields (recipe, leases, hidden waiters,
//     anomalies, warnings, watch source and gap) when they changed.
//   - "ps" lists the participants in queue order: a number n is the
//     previous line's participant n unchanged, [a,b] its participants a to
//     b, an object a new participant, or (with "i") a changed one, holding
//     only the fields that differ.
//   - A participant's path, position, age and chain are stored only when
//     they differ from what follows from the rest (the lock path and node
//     name, its place in the queue, the read time minus its ctime, and the
//     watch targets, by lockcore.FillChains). A new participant is taken
//     to be a waiter on the one before it, in the mode of the lock's last
//     one, with the next sequence and token, created at the read, holding
//     its session's last data; only what differs is stored. "pd" (format
//     3) marks a contender listed but not read yet (Pending): its token,
//     times and data are then not the node's.
//   - A new participant's name is stored without its ten-digit sequence
//     suffix ("nq") when the sequence gives it, and with its runs of hex
//     digits (the clients' random ids) as bytes: "nb" holds them, "nl"
//     their lengths when they differ from the last packed name's, and the
//     name a NUL where each was.
//   - Sessions are numbered the same way: a string "0x…" names a new
//     session, a number one already named. Fencing tokens are stored as the
//     difference from the part's largest token so far, ctimes as
//     milliseconds before the read, sequences as the difference from the
//     lock's largest.
//
// Servers, discovery and connection events are stored whole (but a
// servers' reading's clients, format 6, as what changed since the part's
// last reading: clients.go): even a
// servers' reading that says nothing new moves on what the model derives
// from its time (how long a disconnected session has left). Errors keep
// their text only.
// Times are kept to the microsecond; ctimes, which ZooKeeper keeps to the
// millisecond, exactly.
//
// # Parts
//
// With a size limit, the recording rotates like a log: the current part
// is always FILE; a full part is renamed FILE.1, the one before it
// FILE.2, and so on, the oldest beyond the kept count deleted. Each part
// opens with a snapshot (lines marked "s":true) of every lock, the
// connection, the servers and the discovery, so that it replays on its
// own; reading parts in a row skips the later parts' snapshots.
//
// A History (history.go) keeps a rolling recording in a directory instead:
// parts named by their start, never renamed, deleted whole past an age or
// a total size; ReadParts reads parts in a row, telling the gap where one
// run of the writer ended and the next began, and WriteRange streams a
// stretch of them as one recording.
//
// From format 5 a holder's hold is derived rather than stored (hold.go):
// it carries on from the lock's last line, with its bounds as of the read
// worked out again to the microsecond, or "hk" names a usual one.
package recording
