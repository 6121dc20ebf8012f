package peers

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/go-zookeeper/zk"
)

// variants lists each kind's variants; "semaphore:" takes a lease count.
var variants = map[Kind][]string{
	Curator:  {"mutex", "mutex+revocable", "read", "write", "write+read", "semaphore:", "semaphoremutex", "multilock", "leaderlatch", "leaderselector"},
	Kazoo:    {"lock", "read", "write", "semaphore:", "election"},
	ZkRecipe: {"writelock", "election"},
	GoZk:     {"lock"},
}

// contenderDirs returns the parents under which a contender of kind and
// variant on lockPath creates its nodes, in the order it creates them.
func contenderDirs(kind Kind, variant, lockPath string) ([]string, error) {
	// Only the Java peer reads a path with spaces: the rest of its line.
	spaces := " \n"
	if kind == Curator {
		spaces = "\n"
	}
	if !strings.HasPrefix(lockPath, "/") || lockPath == "/" || strings.ContainsAny(lockPath, spaces) {
		return nil, fmt.Errorf("bad lock path %q", lockPath)
	}
	known, ok := variants[kind]
	if !ok {
		return nil, fmt.Errorf("unknown kind %q", kind)
	}
	if variant == "multilock" && kind == Curator {
		// The locks an InterProcessMultiLock takes, comma-separated.
		return strings.Split(lockPath, ","), nil
	}
	if variant == "semaphoremutex" && kind == Curator {
		// InterProcessSemaphoreMutex is InterProcessSemaphoreV2 with one lease.
		return []string{path.Join(lockPath, "locks"), path.Join(lockPath, "leases")}, nil
	}
	if n, ok := strings.CutPrefix(variant, "semaphore:"); ok {
		if leases, err := strconv.Atoi(n); err != nil || leases < 1 || kind != Curator && kind != Kazoo {
			return nil, fmt.Errorf("bad %s variant %q", kind, variant)
		}
		if kind == Curator {
			return []string{path.Join(lockPath, "locks"), path.Join(lockPath, "leases")}, nil
		}
		return []string{lockPath + "-__lock__", lockPath}, nil
	}
	for _, v := range known {
		if v == variant {
			return []string{lockPath}, nil
		}
	}
	return nil, fmt.Errorf("unknown %s variant %q (have %s)", kind, variant, strings.Join(known, ", "))
}

// findNode polls dirs until one holds a node owned by session, and returns
// the oldest such node. It gives up when the contender reports an error,
// the backend stops, or the step is judged lost (see Peer.stepJudge).
func (p *Peer) findNode(dirs []string, session int64, s *status) (string, error) {
	giveUp := p.stepJudge()
	for {
		node, err := p.oldestNode(dirs, session)
		if node != "" || err != nil {
			return node, err
		}
		if err := giveUp(); err != nil {
			return "", fmt.Errorf("none under %s: %w", strings.Join(dirs, ", "), err)
		}
		err = p.await(pollInterval, func() (bool, error) { return false, s.failure() })
		if err != nil && !errors.Is(err, errTimeout) {
			return "", err
		}
	}
}

// oldestNode returns the node under dirs with the lowest czxid among those
// owned by session, or "" if there is none.
func (p *Peer) oldestNode(dirs []string, session int64) (string, error) {
	var oldest string
	var czxid int64
	for _, dir := range dirs {
		children, _, err := p.observer.Children(dir)
		if errors.Is(err, zk.ErrNoNode) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("children of %s: %w", dir, err)
		}
		for _, child := range children {
			node := path.Join(dir, child)
			ok, stat, err := p.observer.Exists(node)
			if err != nil {
				return "", fmt.Errorf("exists %s: %w", node, err)
			}
			if ok && stat.EphemeralOwner == session && (oldest == "" || stat.Czxid < czxid) {
				oldest, czxid = node, stat.Czxid
			}
		}
	}
	return oldest, nil
}
