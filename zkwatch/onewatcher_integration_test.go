package zkwatch_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// shared is the package's ZooKeeper for the tests that never stop,
// restart or proxy theirs, nor ask four-letter words about the whole
// server; each works under a root of its own.
var shared zktest.Shared

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Stop()
	os.Exit(code)
}

// A second Watcher on a Conn whose first still runs is refused with
// ErrWatched, and the first keeps its notifications: a lock made after the
// refusal still reaches it. Once the first has ended, the Conn can be
// watched again.
func TestIntegrationOneWatcherPerConn(t *testing.T) {
	zks, root := shared.Start(t), shared.Root(t)
	zc := zks.Connect(t)
	mkdirs(t, zc, root+"/one")
	conn := watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second})
	cfg := zkwatch.WatchConfig{Roots: []string{root + "/one"}, EnrichEvery: -1}
	synced := func(s *model.State) bool { return !s.LastSync.IsZero() }

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := watchtest.Drain(zkwatch.Watch(ctx, conn, cfg).Events())
	first.Until(t, "the first sync", synced)

	// Bounded, so that a second watcher that runs ends and is reported.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	var evs []zkwatch.Event
	for ev := range zkwatch.Watch(ctx2, conn, cfg).Events() {
		evs = append(evs, ev)
	}
	if len(evs) != 1 || evs[0].Kind != zkwatch.EventError || !errors.Is(evs[0].Err, zkwatch.ErrWatched) {
		t.Fatalf("a second watcher on the conn got %+v, want one EventError with ErrWatched", evs)
	}

	mkdirs(t, zc, root+"/one/lock")
	contender(t, zc, root+"/one/lock")
	first.Until(t, "the lock made after the refusal", participants(root+"/one/lock", 1))

	cancel()
	<-first.Done()
	again := watchtest.Watch(t, conn, cfg)
	again.Until(t, "a sync of a watcher after the first ended", synced)
	if errs := again.Errors(); len(errs) > 0 {
		t.Fatalf("watching again after the first watcher ended: %v", errs)
	}
}
