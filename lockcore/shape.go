package lockcore

import (
	"path"
	"strconv"
	"strings"
)

// Curator's InterProcessSemaphoreV2 keeps its acquirers' mutex and its lease
// nodes in these two children of the semaphore path.
const (
	curatorLeasesDir = "leases"
	curatorLocksDir  = "locks"
	// kazooSemaphoreQueue is appended to a kazoo semaphore's path to name
	// the sibling kazoo Lock its acquirers queue in.
	kazooSemaphoreQueue = "-__lock__"
)

type shape int

const (
	shapeQueue shape = iota
	shapeEphemeral
	shapeCuratorSemaphore
	shapeKazooSemaphore
)

// ExtraPaths names the paths whose children a reader must also fetch to
// analyse the lock at lockPath, given its own node and its children's names:
// a Curator semaphore's leases/ and locks/, a kazoo semaphore's sibling
// queue, a ClickHouse task's active/ and finished/, Kafka's broker
// registrations, HBase's backup masters, by each built-in entry's extra
// hook. It returns nil for every other shape.
func ExtraPaths(lockPath string, self Node, childNames []string) []string {
	for _, c := range builtinBook().extra {
		if p := c.hooks.extra(lockPath, self, childNames); p != nil {
			return p
		}
	}
	return nil
}

// curatorSemaphoreDirs is Curator's semaphore's extra hook: its leases/
// and locks/.
func curatorSemaphoreDirs(lockPath string, self Node, childNames []string) []string {
	if !curatorSemaphoreNames(childNames) {
		return nil
	}
	return []string{JoinPath(lockPath, curatorLeasesDir), JoinPath(lockPath, curatorLocksDir)}
}

// kazooSemaphoreQueuePath is kazoo's semaphore's extra hook: the sibling
// queue its acquirers wait in.
func kazooSemaphoreQueuePath(lockPath string, self Node, childNames []string) []string {
	if !maybeKazooLeases(childNames) || detectShape(self, childNames) != shapeKazooSemaphore {
		return nil
	}
	return []string{kazooQueuePath(lockPath)}
}

func kazooQueuePath(lockPath string) string { return lockPath + kazooSemaphoreQueue }

// curatorSemaphoreNames is whether a node of these children is of
// Curator's semaphore's shape: as scanTree says, read without parsing
// every name, as the extra paths are asked of every lock at every read.
func curatorSemaphoreNames(childNames []string) bool {
	leases := false
	for _, c := range childNames {
		if c != curatorLeasesDir && c != curatorLocksDir {
			return false
		}
		leases = leases || c == curatorLeasesDir
	}
	return leases
}

// maybeKazooLeases is false when a node of these children cannot be of
// kazoo's semaphore's shape: a child whose name is not 32 characters long
// is no kazoo lease ({id:hex32}). It parses no name.
func maybeKazooLeases(childNames []string) bool {
	for _, c := range childNames {
		if len(c) != 32 {
			return false
		}
	}
	return true
}

func detectShape(self Node, childNames []string) shape {
	s, _ := scanTree(self, childNames, nil)
	return s
}

// scanTree reads the children's names once for what the built-in shapes
// ask of them: the tree's shape, and the one family every contender the
// parser reads shares ("" when none is a contender, or families mix).
// parsed, when not nil, is ParseName of each of childNames.
func scanTree(self Node, childNames []string, parsed []Name) (shape, string) {
	if len(childNames) == 0 {
		switch {
		case self.Ephemeral():
			return shapeEphemeral, ""
		case maxLeasesOf(self) != nil:
			return shapeKazooSemaphore, ""
		}
		return shapeQueue, ""
	}
	curatorDirs, kazooLeases, leases := 0, 0, false
	fam, mixed := "", false
	for i, c := range childNames {
		if c == curatorLeasesDir || c == curatorLocksDir {
			curatorDirs++
			leases = leases || c == curatorLeasesDir
			continue
		}
		var k NameKind
		if parsed != nil {
			k = parsed[i].Kind
		} else {
			k = ParseName(c).Kind
		}
		if k == KindKazooLease {
			kazooLeases++
		}
		if f := family(k); isContender(k) && fam == "" {
			fam = f
		} else if isContender(k) && f != fam {
			mixed = true
		}
	}
	if mixed {
		fam = ""
	}
	switch {
	// A Curator semaphore that has granted a lease has leases/. A node
	// whose one child is locks/ is far more often a directory of locks
	// (or a mutex named locks) than a semaphore whose first acquirer has
	// not yet moved from its queue to a lease.
	case curatorDirs == len(childNames) && leases:
		return shapeCuratorSemaphore, fam
	case kazooLeases == len(childNames):
		return shapeKazooSemaphore, fam
	}
	return shapeQueue, fam
}

// maxLeasesOf reads a kazoo semaphore's lease limit from its node's data,
// which kazoo writes as decimal text.
func maxLeasesOf(self Node) *int {
	text := strings.TrimSpace(string(self.Data))
	if text == "" {
		// Most nodes asked have no data: strconv's error for it was most
		// of what reading an empty lock allocated.
		return nil
	}
	v, err := strconv.Atoi(text)
	if err != nil || v <= 0 || self.Truncated() {
		return nil
	}
	return &v
}

// relativeTo names absPath relative to lockPath as Participant.Node does.
func relativeTo(lockPath, absPath string) string {
	if rest, ok := strings.CutPrefix(absPath, lockPath+"/"); ok {
		return rest
	}
	if absPath == lockPath {
		return path.Base(absPath)
	}
	return "../" + strings.TrimPrefix(absPath, path.Dir(lockPath)+"/")
}
