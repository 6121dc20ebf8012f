package peers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "embed"
)

//go:embed python/plain_race.py
var plainRaceSource []byte

// PlainRace is a running race of kazoo sessions for a plain ephemeral lock
// node (see StartPlainRace).
type PlainRace struct {
	child *child

	mu       sync.Mutex
	sessions []string
	grants   int
	ready    chan struct{}
	nReady   int
	want     int
}

// StartPlainRace runs sessions kazoo contenders racing for the plain
// ephemeral lock node at path, the textbook way: create it ephemeral; if
// it exists, watch it with exists and race again when it goes. Each holds
// for a time drawn between holdMin and holdMax, deletes the node, and
// races again, until Stop (or t's Cleanup). It returns once every
// contender's session is connected.
func StartPlainRace(t testing.TB, connect, path string, sessions int, holdMin, holdMax time.Duration) *PlainRace {
	t.Helper()
	if err := checkKazoo(python); err != nil {
		t.Fatalf("peers: %v", err)
	}
	script := filepath.Join(t.TempDir(), "plain_race.py")
	if err := os.WriteFile(script, plainRaceSource, 0o644); err != nil {
		t.Fatalf("peers: %v", err)
	}
	r := &PlainRace{ready: make(chan struct{}), want: sessions}
	log := &testLog{t: t, prefix: "plain race: "}
	args := []string{"-u", script, connect, path, fmt.Sprint(sessions),
		fmt.Sprint(holdMin.Seconds()), fmt.Sprint(holdMax.Seconds())}
	c, err := startChild(python, args, nil, r.handle, log.Printf, func(error) {})
	if err != nil {
		t.Fatalf("peers: start plain race: %v", err)
	}
	r.child = c
	t.Cleanup(func() { r.Stop(); log.stop() })
	select {
	case <-r.ready:
	case <-c.done:
		t.Fatalf("peers: plain race exited before its sessions connected")
	case <-time.After(stepTimeout):
		t.Fatalf("peers: plain race: %d of %d sessions connected within %v", len(r.Sessions()), sessions, stepTimeout)
	}
	return r
}

func (r *PlainRace) handle(line string) {
	word, arg, _ := strings.Cut(line, " ")
	r.mu.Lock()
	defer r.mu.Unlock()
	switch word {
	case "session":
		r.sessions = append(r.sessions, arg)
		if r.nReady++; r.nReady == r.want {
			close(r.ready)
		}
	case "held":
		r.grants++
	}
}

// Sessions returns the contenders' sessions, as hex ("0x…").
func (r *PlainRace) Sessions() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.sessions...)
}

// Grants returns how many times a contender got the lock so far.
func (r *PlainRace) Grants() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.grants
}

// Stop ends the race: each contender releases and closes its session. It
// is safe to call more than once.
func (r *PlainRace) Stop() {
	_ = r.child.stop()
}
