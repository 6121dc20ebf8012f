// Package chaos holds the fault-injection suite of zklocks' lock client and
// watcher: contenders on a three-member ZooKeeper ensemble, behind fault
// proxies, while leaders are killed, connections dropped and sessions
// expired. It is a test package; this file only names it.
package chaos
