// Package zkserver starts and stops a real Apache ZooKeeper server from the
// Debian packages (java and the jars in /usr/share/java), on loopback: for
// `zklocks demo`, which needs a throwaway server on a machine that has none
// running, and for the tests' helpers in internal/testkit/zktest.
//
// A [Server] is one JVM in its own process group. [Server.Stop] kills the
// group and removes the server's directory when this package made it. On
// Linux the JVM is also killed by the kernel when the process that started
// it dies, however it dies (SIGKILL, a crash): no java process outlives its
// owner. A directory left behind by an owner that died is removed by the
// next [Start] on the machine (see [SweepStale]).
//
// Servers are tuned for demos and tests, not production: tickTime is 500 ms
// (so session timeouts are clamped to 1–10 s), fsync is off, the
// AdminServer is off and every four-letter word is allowed unless
// [Config.FourLetterWords] says otherwise.
package zkserver
