package peers

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
)

// gozk runs go-zookeeper zk.Lock contenders in this process. It speaks the
// same line protocol as the child programs, so a Peer treats it alike: each
// contender is a goroutine with its own *zk.Conn.
type gozk struct {
	connect string
	handle  func(string)
	log     zk.Logger

	mu      sync.Mutex
	release map[string]chan struct{} // closed to release a contender
	wg      sync.WaitGroup
}

func newGozk(connect string, handle func(string), log zk.Logger) *gozk {
	return &gozk{connect: connect, handle: handle, log: log, release: map[string]chan struct{}{}}
}

func (g *gozk) send(line string) error {
	w := strings.Fields(line)
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case len(w) == 4 && w[0] == "acquire":
		if g.release[w[1]] != nil {
			return fmt.Errorf("contender %s already exists", w[1])
		}
		release := make(chan struct{})
		g.release[w[1]] = release
		g.wg.Add(1)
		go func() {
			defer g.wg.Done()
			g.run(w[1], w[2], w[3], release)
		}()
	case len(w) == 2 && w[0] == "release":
		release := g.release[w[1]]
		if release == nil {
			return fmt.Errorf("no contender %s", w[1])
		}
		delete(g.release, w[1])
		close(release)
	default:
		return fmt.Errorf("bad command %q", line)
	}
	return nil
}

// stop releases every contender and waits for their goroutines.
func (g *gozk) stop() error {
	g.mu.Lock()
	for id, release := range g.release {
		close(release)
		delete(g.release, id)
	}
	g.mu.Unlock()
	g.wg.Wait()
	return nil
}

// run is one contender, from connect to close.
func (g *gozk) run(id, variant, path string, release <-chan struct{}) {
	if variant != "lock" {
		g.fail(id, fmt.Errorf("unknown gozk variant %s", variant), release)
		return
	}
	conn, events, err := zk.Connect(strings.Split(g.connect, ","), sessionTimeout, zk.WithLogger(g.log))
	if err != nil {
		g.fail(id, err, release)
		return
	}
	defer func() {
		conn.Close()
		if released(release) {
			g.handle("released " + id)
		}
	}()
	if err := awaitSession(events, release); err != nil {
		g.fail(id, err, release)
		return
	}
	go func() {
		for range events {
		}
	}()
	g.handle(fmt.Sprintf("session %s %x", id, conn.SessionID()))

	lock := zk.NewLock(conn, path, zk.WorldACL(zk.PermAll))
	locked := make(chan error, 1)
	go func() { locked <- lock.Lock() }()
	select {
	case err := <-locked:
		if err != nil {
			g.fail(id, err, release)
			return
		}
		g.handle("acquired " + id)
		<-release
		if err := lock.Unlock(); err != nil {
			g.log.Printf("%s: unlock: %v", id, err)
		}
	case <-release:
		conn.Close() // ends the waiting Lock
		<-locked
	}
}

// fail reports err for contender id, unless it is being released.
func (g *gozk) fail(id string, err error, release <-chan struct{}) {
	if !released(release) {
		g.handle(fmt.Sprintf("error %s %v", id, err))
	}
}

func released(release <-chan struct{}) bool {
	select {
	case <-release:
		return true
	default:
		return false
	}
}

// awaitSession waits for events to report a session, or for release.
func awaitSession(events <-chan zk.Event, release <-chan struct{}) error {
	timeout := time.After(stepTimeout)
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				return nil
			}
		case <-release:
			return errors.New("released before it had a session")
		case <-timeout:
			return fmt.Errorf("no session after %v", stepTimeout)
		}
	}
}
