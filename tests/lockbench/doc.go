// Package lockbench measures ZooKeeper lock clients against each other on
// one server: our lockcore client, go-zookeeper's zk.Lock, Apache Curator's
// InterProcessMutex and kazoo's Lock.
//
// [Run] starts N contenders of one client, each with its own session, all
// looping acquire → record the time → release on one lock path. After a
// warm-up it measures a window, fixed (the benchmark's) or ending once every
// contender has acquired a given number of times (a test's, which a loaded
// machine only lengthens), and reports, from that window only:
//
//   - acquisitions per second;
//   - handoff latency: from a holder's release call to the next holder's
//     acquire returning. Every loop records epoch microseconds from the
//     machine's wall clock (Go's time.Now, Java's Instant.now, Python's
//     time.time_ns), the one clock all processes on this machine share;
//   - ZooKeeper requests per acquisition: the server's zk_packets_received
//     (mntr) across the window, over the acquisitions in it. That counts
//     pings too; sessions are opened with a long timeout (see
//     SessionTimeout) so that a client pings at most once per session in a
//     window, and usually not at all;
//   - watch notifications per release: the server's own count of watches it
//     triggered (mntr's zk_sum_node_{created,deleted,changed,children}_watch_count,
//     ZooKeeper 3.6+) across the window, over the releases in it. It counts
//     every notification the server sends, whichever client asked for it.
//     The in-process clients also count what their connections receive, split
//     into notifications about the contender's own node and the rest
//     (wake-ups).
//
// The Java and Python clients run as child programs (java/, python/),
// compiled or copied at run time, that speak a short line protocol:
//
//	Go → child:  go | count | stop
//	child → Go:  ready | count N0 N1 … | hold ID ACQUIRED_US RELEASING_US | disconnects N | done | error MESSAGE
//
// "ready" comes once every contender has a session, "go" starts the loops,
// "count" is answered at once, while they loop, with each contender's
// acquisitions so far,
// "stop" makes each contender finish the acquisition it is in, and the child
// then prints every acquisition's times, how many times its contenders'
// connections dropped while looping, and "done". A child exits at EOF on
// its stdin, and on Linux when the thread that started it dies, so it never
// outlives the benchmark.
//
// The figures are for comparing clients in one run on one machine, never
// for asserting speed in a test.
package lockbench
