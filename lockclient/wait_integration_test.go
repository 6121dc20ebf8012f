package lockclient_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"

	"github.com/zklocks/zklocks/lockclient"
)

// A waiter whose node an operator deletes (a fence of a waiter) learns it
// at once, while the holder still holds, and the waiter behind it then
// waits on the holder and is granted when the holder releases.
func TestIntegrationWaiterWhoseNodeIsDeletedLearnsAtOnce(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	spec := lockclient.Spec{Path: root + "/struck", Mode: lockcore.ModeExclusive}
	holder, err := lockclient.Acquire(context.Background(), zks.Connect(t), spec)
	if err != nil {
		t.Fatal(err)
	}
	middle := start(t, zks.Connect(t), spec)
	op := zks.Connect(t)
	names, _, err := op.Children(spec.Path)
	if err != nil || len(names) != 2 {
		t.Fatalf("the queue after two contenders: %v, %v", names, err)
	}
	middleNode := spec.Path + "/" + names[0]
	if middleNode == holder.Node {
		middleNode = spec.Path + "/" + names[1]
	}
	last := start(t, zks.Connect(t), spec)
	if !last.waiting() {
		t.Fatal("the third contender did not wait")
	}
	if err := op.Delete(middleNode, -1); err != nil {
		t.Fatal(err)
	}
	select {
	case <-middle.done:
	case <-time.After(wait):
		t.Fatal("the waiter whose node was deleted went on waiting")
	}
	if !errors.Is(middle.err, lockclient.ErrLockLost) {
		t.Fatalf("the waiter whose node was deleted: %v, want ErrLockLost", middle.err)
	}
	if !last.waiting() {
		t.Fatal("the last waiter took the lock while the holder holds")
	}
	if err := holder.Release(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := last.holds(t).Release(context.Background()); err != nil {
		t.Fatal(err)
	}
}
