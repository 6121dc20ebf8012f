// Package lockclient is zklocks' own lock client: it takes, gives back and
// breaks ZooKeeper locks as their own clients would, by what package
// lockcore says a lock is.
//
// [Acquire] (or a [Locker], or a [Client] that owns the background work)
// joins a lock as a fair participant of its contenders' recipe
// (lockcore.DetectRecipe, lockcore.NodePrefix), watching only its
// predecessor, and returns a [Held] lock, which reports its loss
// ([Held.Lost]) and revocation requests, and gives it back
// ([Held.Release]); semaphores hand out leases the same way.
//
// Acting on other sessions' nodes. [ForceDelete], [Revoke] and [Fence]
// (with lockcore.FenceCandidates) act only on the node exactly as it was
// shown ([Expect]: czxid, owner and version), so that a node that changed
// since is never touched.
//
// The client and the actions talk to ZooKeeper through [ZK], a narrow
// interface that *zk.Conn satisfies. Errors are the sentinels in
// errors.go, wrapped with the path; match them with errors.Is.
package lockclient
