package model_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/report"
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

	feed := watchtest.Start(t, zks.Addr(), zkwatch.WatchConfig{Roots: []string{root + "/ls"}, EnrichEvery: 200 * time.Millisecond})
	feed.Until(t, "the holder's address", func(s *model.State) bool { return s.Client(holder.Session).Addr != "" })
	// Its host's name, where reverse DNS answers at once (127.0.0.1 is
	// localhost in /etc/hosts on most machines): wanted, not required.
	named := time.Now().Add(3 * time.Second)
	feed.Until(t, "the holder's name, or 3 s", func(s *model.State) bool {
		return s.Client(holder.Session).Name != "" || time.Now().After(named)
	})
	var addr, name string
	feed.Read(func(s *model.State) { addr, name = s.Client(holder.Session).Addr, s.Client(holder.Session).Name })
	t.Logf("the holder's client: %s, named %q", addr, name)

	kazoo.Kill(t)
	feed.Until(t, "the holder disconnected", func(s *model.State) bool {
		return s.Link(holder.Session).State == lockcore.LinkDisconnected
	})
	var c model.Client
	var lock lockcore.Lock
	var links lockcore.SessionLinks
	feed.Read(func(s *model.State) {
		c, lock, links = s.Client(holder.Session).In(time.UTC), *s.Locks[lockPath], s.Links
	})
	// A member may list a connection for a moment after its client's
	// process died, until it reads the closed socket: the last answer
	// that listed it may come after the kill, never after the answers
	// that found it connected nowhere.
	if k := links.Of(holder.Session); c.Addr != "" || !c.Gone || c.Last.LastClient != addr || c.Last.LastSeen.IsZero() || !c.Last.LastSeen.Before(k.At) {
		t.Fatalf("client after the kill: %+v, want gone, last seen as %s before %s, when the members found it connected nowhere", c, addr, k.At)
	}
	shown := addr
	if name != "" {
		shown += " (" + name + ")"
	}
	if short := c.Short(); short != shown+", last seen "+c.Last.LastSeen.Format(time.TimeOnly) {
		t.Fatalf("the client cell reads %q", short)
	}
	r := report.Report{Locks: []lockcore.Lock{lock}, Links: links}
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
