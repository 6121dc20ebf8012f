package zkwatch_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/watchtest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"

	"github.com/zklocks/zklocks/lockclient"
)

// TestIntegrationSemaphorePartIsNoLockOfItsOwn names a semaphore and its
// queue part both as locks, as a walk finds a part when its semaphore
// cannot be read: the part is never shown as a lock of its own, and once
// every contender has gone no lock shows one. A part tracked on its own
// was read again only at reconnects (a watched path reads one lock again,
// the semaphore), so it kept the contenders of its last read.
func TestIntegrationSemaphorePartIsNoLockOfItsOwn(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	for _, tc := range []struct {
		recipe lockcore.Recipe
		part   string
	}{
		{lockcore.RecipeCuratorSemaphore, "/locks"},
		{lockcore.RecipeKazooSemaphore, "-__lock__"},
	} {
		t.Run(string(tc.recipe), func(t *testing.T) {
			sem := fmt.Sprintf("%s/%s", root, tc.recipe)
			part := sem + tc.part
			spec := lockclient.Spec{Path: sem, Recipe: tc.recipe, Mode: lockcore.ModeLease, MaxLeases: 2}
			var held []*lockclient.Held
			for range 2 {
				h, err := lockclient.Acquire(t.Context(), zks.Connect(t), spec)
				if err != nil {
					t.Fatal(err)
				}
				held = append(held, h)
			}
			// A third waits in the queue: the part has a node.
			queued, progress := queuedOnce()
			spec.Progress = progress
			third := make(chan *lockclient.Held, 1)
			go func() {
				h, err := lockclient.Acquire(context.Background(), zks.Connect(t), spec)
				if err != nil {
					t.Error(err)
				}
				third <- h
			}()
			waitQueued(t, queued, "the third contender")

			// Found by name alone: no walk reaches them.
			elsewhere := sem + "-elsewhere"
			mkdirs(t, zks.Connect(t), elsewhere)
			c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}),
				zkwatch.WatchConfig{Roots: []string{elsewhere}, Locks: []string{sem, part}, EnrichEvery: -1})
			c.Until(t, "the first sync, the semaphore with its two holders and its waiter", func(s *model.State) bool {
				// A Curator waiter has its lease node already.
				l := s.Locks[sem]
				return !s.LastSync.IsZero() && l != nil && len(l.Participants) >= 3
			})
			c.Read(func(s *model.State) {
				if s.Locks[part] != nil {
					t.Errorf("the semaphore's part %s is shown as a lock of its own", part)
				}
			})

			for _, h := range held {
				if err := h.Release(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
			if h := <-third; h != nil {
				if err := h.Release(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
			c.Until(t, "no lock showing a contender, every one gone", func(s *model.State) bool {
				for _, l := range s.Locks {
					if len(l.Participants) > 0 {
						return false
					}
				}
				return s.Locks[sem] != nil
			})
		})
	}
}

// TestIntegrationSemaphoreQueueNodeIsNoLock: a walk reaches a
// semaphore's queue (kazoo's sibling, through their common parent;
// Curator's locks/ inside it), where a waiter holds a node named like a
// lock: that node is the semaphore's waiter, never a lock of its own.
func TestIntegrationSemaphoreQueueNodeIsNoLock(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	for _, recipe := range []lockcore.Recipe{lockcore.RecipeKazooSemaphore, lockcore.RecipeCuratorSemaphore} {
		t.Run(string(recipe), func(t *testing.T) {
			walked := root + "/walked-" + string(recipe)
			sem := walked + "/sem"
			spec := lockclient.Spec{Path: sem, Recipe: recipe, Mode: lockcore.ModeLease, MaxLeases: 1}
			h, err := lockclient.Acquire(t.Context(), zks.Connect(t), spec)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = h.Release(context.Background()) })
			queued, progress := queuedOnce()
			spec.Progress = progress
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			go func() { _, _ = lockclient.Acquire(ctx, zks.Connect(t), spec) }()
			waitQueued(t, queued, "the waiter")
			c := watchtest.Watch(t, watchtest.Dial(t, zks.Addr(), zkwatch.Options{SessionTimeout: 10 * time.Second}),
				zkwatch.WatchConfig{Roots: []string{walked}, EnrichEvery: -1})
			c.Until(t, "the first sync, the semaphore with its holder and its waiter", func(s *model.State) bool {
				l := s.Locks[sem]
				return !s.LastSync.IsZero() && l != nil && len(l.Participants) >= 2
			})
			c.Read(func(s *model.State) {
				for p := range s.Locks {
					if p != sem {
						t.Errorf("%s is shown as a lock beside the semaphore %s", p, sem)
					}
				}
			})
		})
	}
}

// queuedOnce returns a channel closed at the first progress an acquirer
// reports (it has queued), and the Progress callback that closes it.
func queuedOnce() (<-chan struct{}, func(lockclient.Progress)) {
	queued := make(chan struct{})
	var once sync.Once
	return queued, func(lockclient.Progress) { once.Do(func() { close(queued) }) }
}

// waitQueued waits until who has queued.
func waitQueued(t *testing.T, queued <-chan struct{}, who string) {
	t.Helper()
	select {
	case <-queued:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s never queued", who)
	}
}
