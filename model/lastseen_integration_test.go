package model_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestIntegrationKilledHolderKeepsItsAddress: a kazoo holder's process is
// killed with SIGKILL. Its session lives on, connected nowhere, until it
// expires: the state keeps its client's last address, with when it was
// last seen, for the UI's cells and for show's text and JSON.
func TestIntegrationKilledHolderKeepsItsAddress(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	kazoo := peers.Start(t, peers.Kazoo, zks.Addr())
	lockPath := root + "/ls/jobs"
	holder := kazoo.Acquire(t, "holder", "lock", lockPath)
	kazoo.WaitHeld(t, "holder", 30*time.Second)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	target, err := zkwatch.ParseConnectString(zks.Addr())
	if err != nil {
		t.Fatal(err)
	}
	conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	events := zkwatch.Watch(ctx, conn, zkwatch.WatchConfig{Roots: []string{root + "/ls"}, EnrichEvery: 200 * time.Millisecond}).Events()
	s := model.NewState()
	until := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for !cond() {
			select {
			case ev, ok := <-events:
				if !ok {
					t.Fatal("the watcher ended")
				}
				s.Apply(ev)
			case <-deadline:
				t.Fatalf("never saw %s: link %+v, client %+v", what, s.Link(holder.Session), s.Client(holder.Session))
			}
		}
	}
	until("the holder's address", func() bool { return s.Client(holder.Session).Addr != "" })
	// Its host's name, where reverse DNS answers at once (127.0.0.1 is
	// localhost in /etc/hosts on most machines): wanted, not required.
	named := time.Now().Add(3 * time.Second)
	until("the holder's name, or 3 s", func() bool { return s.Client(holder.Session).Name != "" || time.Now().After(named) })
	addr, name := s.Client(holder.Session).Addr, s.Client(holder.Session).Name
	t.Logf("the holder's client: %s, named %q", addr, name)
	before := time.Now()

	kazoo.Kill(t)
	until("the holder disconnected", func() bool { return s.Link(holder.Session).State == lockcore.LinkDisconnected })
	c := s.Client(holder.Session).In(time.UTC)
	if c.Addr != "" || !c.Gone || c.Last.LastClient != addr || c.Last.LastSeen.After(before) {
		t.Fatalf("client after the kill: %+v, want gone, last seen as %s before %s", c, addr, before)
	}
	shown := addr
	if name != "" {
		shown += " (" + name + ")"
	}
	if short := c.Short(); short != shown+", last seen "+c.Last.LastSeen.Format(time.TimeOnly) {
		t.Fatalf("the client cell reads %q", short)
	}
	r := model.Report{Locks: []lockcore.Lock{*s.Locks[lockPath]}}
	var js, text bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"last_client": "`+addr+`"`) || !strings.Contains(js.String(), `"last_seen": "`) {
		t.Fatalf("show --json does not keep the address:\n%s", js.String())
	}
	if !strings.Contains(text.String(), "last seen as "+addr) {
		t.Fatalf("show's text does not keep the address:\n%s", text.String())
	}
}
