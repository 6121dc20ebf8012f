// Package demo runs `zklocks demo`: contenders, each with its own
// ZooKeeper session, that take one lock under /zklocks-demo over and over
// with lockcore's client (fair exclusive, read/write mix, or semaphore), or
// with the naive lock where every waiter watches one node, so that fairness
// and the herd effect can be watched live.
//
// A [Demo] counts, for each release, the watch notifications it woke in
// the other contenders' sessions (see [Stats]), and whether a grant ever
// overtook a contender that was waiting longer (FIFO). Its controls break
// things on purpose, for the operator to diagnose: kill a contender's
// session, freeze the holder, or lose a create's reply so that an orphan
// node blocks its own session until it is fenced.
//
// The demo never touches anything outside /zklocks-demo, and [Demo.Close]
// removes what it created there.
package demo
