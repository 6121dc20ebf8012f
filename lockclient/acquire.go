package lockclient

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklocks/zklocks/lockcore"
)

// Spec says what to acquire.
type Spec struct {
	// Path is the lock parent, or a semaphore's path.
	Path string
	Mode lockcore.Mode
	// Recipe to join; empty means the recipe of the contenders already
	// there (Curator's when there are none). See DetectRecipe.
	Recipe lockcore.Recipe
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
// session id, never repeated, and a late twin of it is deleted. When ctx
// ends first, our node is deleted (in the background if the connection is
// down, until it is gone or our session ends) and ctx's error returned; the
// deadline is the acquisition timeout.
//
// Acquire is NewClient(c).Acquire on a Client nobody closes: the work it
// leaves in the background (see Client) ends only by itself. Code that
// closes its connection should use a Client and close it first.
func Acquire(ctx context.Context, c ZK, spec Spec) (*Held, error) {
	return NewClient(c).Acquire(ctx, spec)
}

func acquire(ctx context.Context, c clientConn, spec Spec) (*Held, error) {
	recipe := spec.Recipe
	if recipe == "" {
		self, names, err := readLock(c, spec.Path)
		if err != nil {
			return nil, err
		}
		if recipe, err = lockcore.DetectRecipe(self, names, spec.Mode); err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Path, err)
		}
	}
	data := spec.Data
	if len(data) == 0 {
		host, _ := os.Hostname()
		data = []byte(fmt.Sprintf("zklocks %s pid %d", host, os.Getpid()))
	}
	switch recipe {
	case lockcore.RecipeCuratorSemaphore, lockcore.RecipeKazooSemaphore:
		return acquireLease(ctx, c, spec, recipe, data)
	}
	mode := spec.Mode
	if mode == lockcore.ModeWrite && !hasReadWrite(recipe) {
		mode = lockcore.ModeExclusive
	}
	q, err := enqueue(ctx, c, spec.Path, recipe, mode, data)
	if err != nil {
		return nil, err
	}
	// Watch our own node from the start: the first stat gives the fencing
	// token, and the handoff costs no extra round trip once we hold.
	own, err := watchOwn(ctx, c, q.path)
	if err == nil {
		q.czxid = own.stat.Czxid
		err = waitTurn(ctx, c, q, &own, spec.Progress)
	}
	if err != nil {
		q.abandon(c)
		return nil, err
	}
	return hold(c, q, recipe, mode, own), nil
}

func hasReadWrite(r lockcore.Recipe) bool {
	return r == lockcore.RecipeCuratorRWLock || r == lockcore.RecipeKazooRWLock || r == lockcore.RecipeHostRW
}

// readLock reads a lock path's node and children's names; a path that does
// not exist yet reads as an empty lock.
func readLock(c ZK, p string) (lockcore.Node, []string, error) {
	data, stat, err := c.Get(p)
	if errors.Is(err, zk.ErrNoNode) {
		return lockcore.Node{Name: path.Base(p)}, nil, nil
	}
	if err != nil {
		return lockcore.Node{}, nil, fmt.Errorf("%s: %w", p, err)
	}
	names, _, err := c.Children(p)
	if err != nil {
		return lockcore.Node{}, nil, fmt.Errorf("%s: %w", p, err)
	}
	return lockcore.Node{Name: path.Base(p), Stat: *stat, Data: data}, names, nil
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

// queued is our contender node in a queue.
type queued struct {
	owned
	dir, prefix string
	// unique: the prefix carries a fresh GUID, so every child with it is
	// ours. twins: a create failed with the connection, so a node of ours
	// may land late beside this one.
	unique, twins bool
}

// enqueue creates our ephemeral sequential node in dir. After a
// connection loss it looks for the node by its prefix before creating
// again, so a lost reply never leaves a second node.
func enqueue(ctx context.Context, c clientConn, dir string, recipe lockcore.Recipe, mode lockcore.Mode, data []byte) (queued, error) {
	host, _ := os.Hostname()
	prefix, err := lockcore.NodePrefix(recipe, mode, c.SessionID(), sanitizeHost(host))
	if err != nil {
		return queued{}, err
	}
	q := queued{dir: dir, prefix: prefix, unique: guidPrefixed(recipe)}
	q.path, q.session, q.twins, err = createProtected(ctx, c, dir, prefix, data)
	return q, err
}

// guidPrefixed reports whether recipe's names carry a fresh GUID.
func guidPrefixed(r lockcore.Recipe) bool {
	switch r {
	case lockcore.RecipeZKWriteLock, lockcore.RecipeHostRW, lockcore.RecipeSessionLock:
		return false
	}
	return true
}

// createProtected creates an ephemeral sequential node dir/prefix<seq>,
// Curator's protected mode: after a connection loss it creates again only
// once a look at dir says our node is not there (a failed look says
// nothing, and a second node would be an orphan ahead of everyone, this
// session's own next attempt included). It returns the node, the session
// that owns it, and whether any create failed with the connection.
func createProtected(ctx context.Context, c clientConn, dir, prefix string, data []byte) (node string, session int64, lostReply bool, err error) {
	for {
		session = c.SessionID()
		created, err := c.Create(dir+"/"+prefix, data, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
		if err == nil {
			return created, session, lostReply, nil
		}
		// Parents are created only when missing, as Curator and zk.Lock
		// do: checking first would cost every acquisition a write.
		if errors.Is(err, zk.ErrNoNode) {
			if err := ensurePath(c, dir); err != nil {
				return "", 0, lostReply, err
			}
			continue
		}
		if !retryable(err) {
			return "", 0, lostReply, fmt.Errorf("%s: create: %w", dir, err)
		}
		lostReply = true
		found, err := awaitOwn(ctx, c, dir, prefix, session)
		if err != nil || found != "" {
			return found, session, lostReply, err
		}
		if err := pause(ctx); err != nil {
			return "", 0, lostReply, err
		}
	}
}

// awaitOwn looks for our node until it can tell, returning its path or ""
// when it is not there. If ctx ends first, the look goes on in the
// background and deletes the node if it turns out to exist.
func awaitOwn(ctx context.Context, c clientConn, dir, prefix string, session int64) (string, error) {
	for {
		found, err := findOwn(c, dir, prefix, session)
		switch {
		case err == nil:
			return found, nil
		case !retryable(err):
			return "", fmt.Errorf("%s: looking for our node: %w", dir, err)
		}
		if err := pause(ctx); err != nil {
			c.owner.goBackground(func() {
				for c.SessionID() == session {
					found, err := findOwn(c, dir, prefix, session)
					if found != "" {
						forget(c, owned{path: found, session: session})
					}
					if !retryable(err) || !c.owner.sleep(retryPause) {
						return
					}
				}
			})
			return "", err
		}
	}
}

// findOwn looks for a child created by session with our prefix: its path,
// or "" when there is none. An error means it could not tell.
func findOwn(c ZK, dir, prefix string, session int64) (string, error) {
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
		case stat.EphemeralOwner == session:
			return dir + "/" + n, nil
		}
	}
	return "", nil
}

// abandon deletes our node after a failed or cancelled acquisition, with
// any late twin of it: at once, and in the background until it is gone or
// our session ends if the connection is down.
func (q queued) abandon(c clientConn) {
	if q.unique {
		if err := c.Delete(q.path, -1); err == nil || errors.Is(err, zk.ErrNoNode) {
			q.sweepTwins(c)
			return
		}
	}
	forget(c, q.owned)
	q.sweepTwins(c)
}

// sweepTwins deletes late twins of our node, when a create of ours lost
// its reply: the create may have been applied after we looked for it.
func (q queued) sweepTwins(c clientConn) {
	if !q.twins || !q.unique {
		return
	}
	c.owner.goBackground(func() {
		for c.SessionID() == q.session {
			names, _, err := c.Children(q.dir)
			if err == nil {
				sweepOrphans(c, q.dir, q.prefix, path.Base(q.path), q.session, names)
			}
			if !retryable(err) || !c.owner.sleep(retryPause) {
				return
			}
		}
	})
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
// the node the rule names. A twin of our node (a create of ours applied
// after we looked for it) is deleted as soon as it is seen.
//
// With own, the watch on our node, the wake after the head of the queue
// leaves costs no request: nodes are only ever added behind ours (sequence
// numbers grow), so a listing holds every node that can stand ahead of us,
// and with the head struck from it the rule can be judged again; our own
// node's deletion is heard on own before any later event. Any other wake,
// a wait without own, or a create of ours that lost its reply (a twin may
// land ahead of us) lists the queue again.
func waitTurn(ctx context.Context, c clientConn, q queued, own *ownWatch, progress func(Progress)) error {
	since := time.Now()
	name := path.Base(q.path)
	shortcut := own != nil && !q.twins
	var names []string // the queue as last listed, less the nodes seen gone
	for {
		if names == nil {
			listed, err := listQueue(ctx, c, q)
			if err != nil {
				return err
			}
			names = listed
		}
		me, ok := lockcore.StandingOf(q.dir, names, name)
		if !ok {
			return fmt.Errorf("%w: our node %s vanished while waiting (session expired or deleted)", ErrLockLost, q.path)
		}
		if me.Holder {
			return nil
		}
		exists, _, ch, err := c.ExistsW(me.Watch)
		if err != nil {
			if retryable(err) {
				if err := pause(ctx); err != nil {
					return err
				}
				names = nil
				continue
			}
			return fmt.Errorf("%s: %w", me.Watch, err)
		}
		if !exists {
			names = nil
			continue
		}
		if progress != nil {
			progress(Progress{Node: q.path, Position: me.Position, Watching: me.Watch, Since: since})
		}
		var ownCh <-chan zk.Event
		if own != nil {
			ownCh = own.ch
		}
		select {
		case ev := <-ch:
			if ev.Type == zk.EventNotWatching && errors.Is(ev.Err, zk.ErrSessionExpired) {
				return fmt.Errorf("%w: session expired while waiting", ErrLockLost)
			}
			if ev.Type != zk.EventNodeDeleted {
				names = nil
				continue
			}
			// Our own node's deletion, had it come first, waits on own.
			if own != nil {
				select {
				case ev := <-own.ch:
					if err := own.rearm(ctx, c, q.path, ev); err != nil {
						return err
					}
				default:
				}
			}
			if shortcut && me.WatchHeads {
				gone := path.Base(me.Watch)
				names = slices.DeleteFunc(names, func(n string) bool { return n == gone })
			} else {
				names = nil // listed again
			}
		case ev := <-ownCh:
			if err := own.rearm(ctx, c, q.path, ev); err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// listQueue lists our queue, retrying while the connection is down, and
// deletes any late twin of our node it shows.
func listQueue(ctx context.Context, c clientConn, q queued) ([]string, error) {
	for {
		names, _, err := c.Children(q.dir)
		switch {
		case err == nil:
			if q.unique {
				sweepOrphans(c, q.dir, q.prefix, path.Base(q.path), q.session, names)
			}
			return names, nil
		case !retryable(err):
			return nil, fmt.Errorf("%s: %w", q.dir, err)
		}
		if err := pause(ctx); err != nil {
			return nil, err
		}
	}
}
