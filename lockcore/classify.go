package lockcore

import "strings"

// Candidate is what a node's children say about whether it is a lock.
type Candidate int

// Candidates.
const (
	// NotALock: nothing in the children belongs to a lock recipe.
	NotALock Candidate = iota
	// IsALock: a semaphore's shape, or children named by a lock recipe.
	IsALock
	// IfEphemeral: the children only end in sequence numbers, as queues
	// and change logs do too; the node is a lock when Probe, its oldest
	// such child, is ephemeral.
	IfEphemeral
)

// Classify decides from a node and its children's names whether the node is
// a lock parent (or a semaphore's path, or a plain ephemeral lock node),
// for discovery. probe names the child to check for IfEphemeral.
func Classify(self Node, childNames []string) (c Candidate, probe string) {
	switch detectShape(self, childNames) {
	case shapeCuratorSemaphore, shapeKazooSemaphore:
		return IsALock, ""
	case shapeEphemeral:
		return NotALock, ""
	}
	var oldest Name
	for _, c := range childNames {
		n := ParseName(c)
		switch {
		case n.Kind == KindSequential:
			if oldest.Raw == "" || n.Seq < oldest.Seq {
				oldest = n
			}
		case isContender(n.Kind):
			return IsALock, ""
		}
	}
	if oldest.Raw != "" {
		return IfEphemeral, oldest.Raw
	}
	return NotALock, ""
}

// LooksLikeLockNode reports whether a plain ephemeral node's path suggests
// a lock: an element that mentions "lock" or "mutex". Any ephemeral leaf
// could be a textbook lock, but most (service registrations, broker ids)
// are not, so discovery lists only these unless the user names the path.
func LooksLikeLockNode(path string) bool {
	p := strings.ToLower(path)
	return strings.Contains(p, "lock") || strings.Contains(p, "mutex")
}

// SemaphorePart reports whether path is part of a semaphore whose own path
// is returned: a Curator semaphore's leases/ or locks/, or a kazoo
// semaphore's sibling queue. Discovery shows the semaphore, not its parts.
// The caller checks that the returned path is a semaphore.
func SemaphorePart(path string) (semaphore string, ok bool) {
	if s, ok := strings.CutSuffix(path, kazooSemaphoreQueue); ok && s != "" {
		return s, true
	}
	// Asked of every path a transaction changes: the suffixes are
	// constants, not joined again each time.
	for _, suffix := range [...]string{"/" + curatorLeasesDir, "/" + curatorLocksDir} {
		if s, ok := strings.CutSuffix(path, suffix); ok && s != "" {
			return s, true
		}
	}
	return "", false
}
