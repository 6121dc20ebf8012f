// Package zktest starts throwaway Apache ZooKeeper servers for tests.
//
// [Start] runs one standalone server and [StartEnsemble] runs a quorum of
// them, each a real JVM on loopback with its own free ports and a temporary
// data directory. Every server is stopped, and its files removed, by the
// test's Cleanup; on Linux the JVM is also killed if the test binary dies, so
// no java process outlives the test.
//
// It is a thin testing.TB wrapper over internal/zkserver, which runs the
// JVMs. The servers come from the Debian packages (jars in /usr/share/java). A
// machine without java or the ZooKeeper jars fails the test with the command
// that installs them rather than skipping it: a skipped integration test
// reads as a passing one.
//
// Servers are tuned for tests, not production: tickTime is 500 ms (so session
// timeouts are clamped to 1–10 s), fsync is off, the AdminServer is off and
// every four-letter word is allowed unless [WithFourLetterWords] says
// otherwise.
package zktest
