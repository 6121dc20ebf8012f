package lockcore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
)

// Spec says what to acquire.
type Spec struct {
	// Path is the lock parent, or a semaphore's path.
	Path string
	Mode Mode
	// Recipe to join; empty means the recipe of the contenders already
	// there (Curator's when there are none). See DetectRecipe.
	Recipe Recipe
	// MaxLeases is a semaphore's limit. kazoo keeps it in the tree and it
	// must agree; Curator does not, so it must be given.
	MaxLeases int
	// Data goes into our node, for people reading the tree; empty means
	// "zklocks <host> pid <pid>".
	Data []byte
	// Progress, when set, is told where we stand each time we wake.
	Progress func(Progress)
}

// Progress is where a waiting acquisition stands.
type Progress struct {
	// Node is our contender's absolute path.
	Node string
	// Position is our index in queue order (0 at the head).
	Position int
	// Watching is the one node we wait on (a semaphore's head watches the
	// lease children: then it is that directory).
	Watching string
	Since    time.Time
}

// retryPause is how long to wait before retrying a request that failed
// because the connection dropped; go-zookeeper reconnects meanwhile.
const retryPause = 100 * time.Millisecond

// Acquire joins the lock at spec.Path as a fair participant of its recipe
// and returns once it holds. It watches exactly the node its recipe says
// (no herd). A create whose reply is lost is found again by its GUID or
// session id, never repeated. When ctx ends first, our node is deleted and
// ctx's error returned; the deadline is the acquisition timeout.
func Acquire(ctx context.Context, c ZK, spec Spec) (*Held, error) {
	recipe := spec.Recipe
	if recipe == "" {
		self, names, err := readLock(c, spec.Path)
		if err != nil {
			return nil, err
		}
		if recipe, err = DetectRecipe(self, names, spec.Mode); err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Path, err)
		}
	}
	data := spec.Data
	if len(data) == 0 {
		host, _ := os.Hostname()
		data = []byte(fmt.Sprintf("zklocks %s pid %d", host, os.Getpid()))
	}
	switch recipe {
	case RecipeCuratorSemaphore, RecipeKazooSemaphore:
		return acquireLease(ctx, c, spec, recipe, data)
	}
	mode := spec.Mode
	if mode == ModeWrite && !hasReadWrite(recipe) {
		mode = ModeExclusive
	}
	node, err := enqueue(ctx, c, spec.Path, recipe, mode, data)
	if err != nil {
		return nil, err
	}
	// Watch our own node from the start: the first stat gives the fencing
	// token, and the handoff costs no extra round trip once we hold.
	own, err := watchOwn(c, node)
	if err != nil {
		abandon(c, node)
		return nil, err
	}
	if err := waitTurn(ctx, c, spec.Path, node, spec.Progress); err != nil {
		abandon(c, node)
		return nil, err
	}
	return hold(c, node, recipe, mode, own), nil
}

func hasReadWrite(r Recipe) bool {
	return r == RecipeCuratorRWLock || r == RecipeKazooRWLock || r == RecipeHostRW
}

// readLock reads a lock path's node and children's names; a path that does
// not exist yet reads as an empty lock.
func readLock(c ZK, p string) (Node, []string, error) {
	data, stat, err := c.Get(p)
	if errors.Is(err, zk.ErrNoNode) {
		return Node{Name: path.Base(p)}, nil, nil
	}
	if err != nil {
		return Node{}, nil, fmt.Errorf("%s: %w", p, err)
	}
	names, _, err := c.Children(p)
	if err != nil {
		return Node{}, nil, fmt.Errorf("%s: %w", p, err)
	}
	return Node{Name: path.Base(p), Stat: *stat, Data: data}, names, nil
}

// ensurePath creates p and its missing ancestors as persistent nodes,
// trying p first: usually only the last element is missing.
func ensurePath(c ZK, p string) error {
	if p == "/" {
		return nil
	}
	_, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll))
	if errors.Is(err, zk.ErrNoNode) {
		if err := ensurePath(c, path.Dir(p)); err != nil {
			return err
		}
		_, err = c.Create(p, nil, 0, zk.WorldACL(zk.PermAll))
	}
	if err != nil && !errors.Is(err, zk.ErrNodeExists) {
		return fmt.Errorf("%s: %w", p, err)
	}
	return nil
}

// enqueue creates our ephemeral sequential node in dir. After a
// connection loss it looks for the node by its prefix before creating
// again, so a lost reply never leaves a second node.
func enqueue(ctx context.Context, c ZK, dir string, recipe Recipe, mode Mode, data []byte) (string, error) {
	host, _ := os.Hostname()
	prefix, err := prefixFor(recipe, mode, c.SessionID(), sanitizeHost(host))
	if err != nil {
		return "", err
	}
	for {
		created, err := c.Create(dir+"/"+prefix, data, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
		if err == nil {
			return created, nil
		}
		// Parents are created only when missing, as Curator and zk.Lock
		// do: checking first would cost every acquisition a write.
		if errors.Is(err, zk.ErrNoNode) {
			if err := ensurePath(c, dir); err != nil {
				return "", err
			}
			continue
		}
		if !retryable(err) {
			return "", fmt.Errorf("%s: create: %w", dir, err)
		}
		// The create may have succeeded with its reply lost. Create again
		// only once a look at the parent says our node is not there: a
		// failed look says nothing, and a second node would be an orphan
		// ahead of everyone, this session's own next attempt included.
		found, err := awaitOwn(ctx, c, dir, prefix)
		if err != nil || found != "" {
			return found, err
		}
		if err := pause(ctx); err != nil {
			return "", err
		}
	}
}

// awaitOwn looks for our node until it can tell, returning its path or ""
// when it is not there. If ctx ends first, the look goes on in the
// background and deletes the node if it turns out to exist.
func awaitOwn(ctx context.Context, c ZK, dir, prefix string) (string, error) {
	for {
		found, err := findOwn(c, dir, prefix)
		switch {
		case err == nil:
			return found, nil
		case !retryable(err):
			return "", fmt.Errorf("%s: looking for our node: %w", dir, err)
		}
		if err := pause(ctx); err != nil {
			go func() {
				for {
					found, err := findOwn(c, dir, prefix)
					if err == nil && found != "" {
						abandon(c, found)
					}
					if !retryable(err) {
						return
					}
					time.Sleep(retryPause)
				}
			}()
			return "", err
		}
	}
}

// findOwn looks for a child created by this session with our prefix: its
// path, or "" when there is none. An error means it could not tell.
func findOwn(c ZK, dir, prefix string) (string, error) {
	names, _, err := c.Children(dir)
	if errors.Is(err, zk.ErrNoNode) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	for _, n := range names {
		if !strings.HasPrefix(n, prefix) {
			continue
		}
		_, stat, err := c.Get(dir + "/" + n)
		switch {
		case errors.Is(err, zk.ErrNoNode):
		case err != nil:
			return "", err
		case stat.EphemeralOwner == c.SessionID():
			return dir + "/" + n, nil
		}
	}
	return "", nil
}

func retryable(err error) bool {
	return errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrNoServer) || errors.Is(err, zk.ErrSessionMoved)
}

func pause(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(retryPause):
		return nil
	}
}

func sanitizeHost(h string) string {
	if h == "" {
		return "localhost"
	}
	return strings.NewReplacer("/", "_", "-", "_").Replace(h)
}

// waitTurn waits until our node holds by its recipe's rule, watching only
// the node the rule names.
func waitTurn(ctx context.Context, c ZK, dir, node string, progress func(Progress)) error {
	since := time.Now()
	name := path.Base(node)
	for {
		names, _, err := c.Children(dir)
		if err != nil {
			if retryable(err) {
				if err := pause(ctx); err != nil {
					return err
				}
				continue
			}
			return fmt.Errorf("%s: %w", dir, err)
		}
		me, ok := standingOf(dir, names, name)
		if !ok {
			return fmt.Errorf("%w: our node %s vanished while waiting (session expired or deleted)", ErrLockLost, node)
		}
		if me.holder {
			return nil
		}
		exists, _, ch, err := c.ExistsW(me.watch)
		if err != nil {
			if retryable(err) {
				continue
			}
			return fmt.Errorf("%s: %w", me.watch, err)
		}
		if !exists {
			continue
		}
		if progress != nil {
			progress(Progress{Node: node, Position: me.position, Watching: me.watch, Since: since})
		}
		select {
		case ev := <-ch:
			if ev.Type == zk.EventNotWatching && errors.Is(ev.Err, zk.ErrSessionExpired) {
				return fmt.Errorf("%w: session expired while waiting", ErrLockLost)
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// abandon deletes our node after a failed or cancelled acquisition. If
// that fails too, the node goes when our session ends.
func abandon(c ZK, node string) { _ = c.Delete(node, -1) }
