package txnlog

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/jute"
)

// A kazoo semaphore's waiter holds a node named like a lock in the
// semaphore's sibling queue: it is the semaphore's waiter, never a lock
// of its own, whether its node was there when the history begins or made
// after.
func TestSemaphoreQueueNodeIsNoLock(t *testing.T) {
	w := newTxnWriter()
	for s := range int64(3) {
		w.session(0x100 + s)
	}
	for _, p := range []string{"/kz", "/kz/sem", "/kz/sem-__lock__"} {
		w.create(0x100, jute.OpCreate, p, false)
	}
	w.create(0x100, jute.OpCreate, "/kz/sem/1bbe7509aaaabbbbccccddddeeeeffff", true)
	w.create(0x101, jute.OpCreate, "/kz/sem-__lock__/0a3bb9eba7bb48afb4e619011cd1f6f7__lock__0000000001", true)
	dir := w.dir(t)
	// From the start, the nodes are made as the events go; from after the
	// last transaction, they are the picture the events begin with.
	for _, from := range []time.Time{{}, time.UnixMilli(1_700_000_000_000 + w.zxid + 1)} {
		res, err := Load(context.Background(), []string{dir}, Options{Under: "/kz", Range: recording.Range{From: from}})
		if err != nil {
			t.Fatal(err)
		}
		locks := map[string]bool{}
		for _, ev := range res.Recording.Events {
			if ev.Kind == zkwatch.EventLock {
				locks[ev.Path] = true
			}
		}
		if !locks["/kz/sem"] {
			t.Errorf("from %v: the semaphore is not among the locks: %v", from, locks)
		}
		for p := range locks {
			if strings.HasPrefix(p, "/kz/sem-__lock__") {
				t.Errorf("from %v: %s is told as a lock of its own (locks %v)", from, p, locks)
			}
		}
	}
}
