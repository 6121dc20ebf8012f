package zkwatch_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// TestIntegrationOneMemberSeesTheEnsemble connects to one member of three,
// as an SRE who knows one host does, while the lock's holder and waiter are
// kazoo clients connected to the other two: the waiter's watch is known
// only to its own member, and must still be found there rather than the
// waiter reported as watching nothing.
func TestIntegrationOneMemberSeesTheEnsemble(t *testing.T) {
	t.Parallel()
	e := zktest.StartEnsemble(t, 3)
	m := e.Members()
	holder := peers.Start(t, peers.Kazoo, m[1].Addr())
	waiter := peers.Start(t, peers.Kazoo, m[2].Addr())
	a := holder.Acquire(t, "a", "lock", "/m")
	holder.WaitHeld(t, "a", 30*time.Second)
	b := waiter.Acquire(t, "b", "lock", "/m")

	conn := watchtest.Dial(t, m[0].Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if got := conn.Members(ctx); len(got.Servers) != 3 || len(got.Missing) != 0 {
		t.Fatalf("members from one: %+v", got)
	}
	table, err := conn.ReadWatches(ctx, zkwatch.WatchQuery{Mode: zkwatch.WatchesServer, Locks: []string{"/m"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := table.Paths(b.Session); len(got) != 1 || got[0] != a.Node {
		t.Fatalf("the waiter's session watches %v in the table read through one member, want %s", got, a.Node)
	}

	c := watchtest.Watch(t, conn, zkwatch.WatchConfig{Roots: []string{"/m"}, EnrichEvery: 200 * time.Millisecond})
	// A table this small is read again every period, however long a
	// loaded machine made its last read take (only an answer of 64 KiB or
	// more is paced by its cost).
	c.Until(t, "the lock analysed against every member's table", func(s *model.State) bool {
		l := s.Locks["/m"]
		return l != nil && len(l.Participants) == 2 && l.WatchesSource == lockcore.WatchesFromServer
	})
	l := c.State().Locks["/m"]
	if w := l.Participants[1].Watches; w == nil || w.Path != a.Node {
		t.Errorf("the waiter on another member watches %+v, want %s", w, a.Node)
	}
	for _, an := range l.Anomalies {
		t.Errorf("a healthy lock seen through one member has an anomaly: %+v", an)
	}

	// A member that cannot be asked leaves the table unknown, said so,
	// rather than a table without its sessions.
	m[2].Stop()
	c.Until(t, "the recipe's rule once a member is gone", func(s *model.State) bool {
		l := s.Locks["/m"]
		return l != nil && l.WatchesSource == lockcore.WatchesFromRecipe && strings.Contains(s.WatchesNote, m[2].Addr())
	})
}

// TestIntegrationMemberRefusingWchc runs ensembles of three whose third
// member's whitelist lacks wchc and wchp (and conf): the note on the
// watch table names that member by its address and says what it
// refused, not that its client address is missing from /zookeeper/config.
func TestIntegrationMemberRefusingWchc(t *testing.T) {
	t.Parallel()
	const allowed = "srvr,cons,wchs,dump,mntr"
	for _, tc := range []struct {
		name   string
		static bool
		all    bool // connect to every member, not the first alone
	}{
		// A static zoo.cfg: /zookeeper/config names no client address,
		// and the refusing member's conf cannot say which server it is.
		{"static configuration, every member named", true, true},
		// A dynamic configuration reached through one member.
		{"dynamic configuration, one member named", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := []zktest.Option{zktest.WithMemberFourLetterWords(3, allowed)}
			if tc.static {
				opts = append(opts, zktest.WithoutClientAddresses())
			}
			e := zktest.StartEnsemble(t, 3, opts...)
			refuser := e.Members()[2].Addr()
			target := e.Members()[0].Addr()
			if tc.all {
				target = e.ConnectString()
			}
			conn := watchtest.Dial(t, target, zkwatch.Options{SessionTimeout: 10 * time.Second})
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			if got := conn.Members(ctx); len(got.Servers) != 3 || len(got.Missing) != 0 {
				t.Fatalf("members: %+v, want all three to ask and none missing", got)
			}
			_, err := conn.ReadWatches(ctx, zkwatch.WatchQuery{Mode: zkwatch.WatchesServer})
			if !errors.Is(err, words.ErrFourLetterRefused) || !strings.Contains(err.Error(), refuser) {
				t.Fatalf("reading the table: %v, want wchc refused by %s", err, refuser)
			}
			c := watchtest.Watch(t, conn, zkwatch.WatchConfig{Roots: []string{"/"}, EnrichEvery: 200 * time.Millisecond})
			// On a loaded machine a member may also stop serving for a
			// while (its follower lost the leader), and the note says so
			// too, truly: what must come is the note that names the
			// refusing member alone, once every member serves.
			want := "wchc and wchp refused, and no AdminServer answered, by " + refuser
			var notes []string
			defer func() {
				if t.Failed() {
					t.Logf("notes seen, in order: %q", notes)
				}
			}()
			c.UntilWithin(t, time.Minute, "the note naming the refusing member", func(s *model.State) bool {
				if n := s.WatchesNote; n != "" && (len(notes) == 0 || notes[len(notes)-1] != n) {
					notes = append(notes, n)
				}
				return s.WatchesNote == want
			})
		})
	}
}
