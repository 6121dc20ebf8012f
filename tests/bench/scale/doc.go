// Package scale holds BenchmarkScale (make bench-scale): zklocks on a
// generated production-sized cluster, every figure beside its target and a
// raw go-zookeeper floor (see docs/performance.md, Large clusters). It has
// no code of its own outside its tests.
package scale
