// Package watch holds the watcher's benchmarks against ZooKeeper itself:
// BenchmarkWatch (make bench-watch: discovery, memory, latency, churn and
// the rule book on 10,000 locks, printed as one table; see
// docs/performance.md) and BenchmarkNewLockFound. It has no code of its own
// outside its tests.
package watch
