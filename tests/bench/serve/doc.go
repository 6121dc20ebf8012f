// Package serve holds BenchmarkServe (make bench-serve): zklocks serve
// with 1 and with 20 SSH sessions on one cluster, its memory and CPU and
// the server's watches and connections side by side (see
// docs/performance.md, zklocks serve). It has no code of its own outside
// its tests.
package serve
