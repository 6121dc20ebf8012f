// Package jute is ZooKeeper's own record encoding (jute), as the server
// speaks it on the wire and writes it to its transaction log and
// snapshots: big-endian integers, length-prefixed buffers and strings,
// vectors with a count. It holds the few requests go-zookeeper does not
// send (SASL, addWatch, whoAmI, removeWatches), their opcodes and error
// codes, and the framing of a client connection.
//
// A leaf: it imports nothing of zklocks, so the lock reader of a
// transaction log and the authenticating connection share one encoding.
package jute
