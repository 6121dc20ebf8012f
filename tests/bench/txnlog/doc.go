// Package txnlog is the benchmark of reading ZooKeeper's own transaction
// log (make bench-txnlog): a real ZooKeeper holding a generated tree of a
// million znodes, snapshotted, then driven by clients through millions of
// lock transactions over 10,000 locks; zklocks postmortem of one lock, and
// of every lock in one pass, over the whole log, timed beside ZooKeeper's
// TxnLogToolkit dumping the same logs; and the snapshot's read beside the
// server's own load of it.
package txnlog
