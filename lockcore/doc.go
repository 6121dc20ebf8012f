// Package lockcore knows what a ZooKeeper lock is.
//
// It recognises the trees that real lock clients write (Apache Curator,
// kazoo, go-zookeeper, ZooKeeper's own lock recipe and the classic textbook
// shapes), parses contender names, and analyses one lock parent into its
// participants in queue order: who holds, who waits, which node each waiter
// watches, the chain from a waiter to a holder, and what looks wrong.
//
// Analysis is a pure function of what was read ([Tree]) and, when the servers
// gave it, their watch table ([WatchTable]); it performs no I/O. Everything it
// reports is a statement about the moment the tree was read: by the time a
// caller acts on it, contenders may have come or gone.
package lockcore
