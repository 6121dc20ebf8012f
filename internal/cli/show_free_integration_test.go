package cli

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/apptree"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// A free plain lock is a path with no node, its waiters' exists watches
// on it: show reads it as free, with its waiters, and exits 0, as the UI
// lists it; a path nobody watches for, or whose parent has no node
// either, is still an error.
func TestIntegrationShowFreePlainLock(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	server := zks.Addr()
	apptree.MkdirAll(t, zks.Connect(t), root+"/locks/plain")
	lock := root + "/locks/plain/lock"
	for range 2 {
		if _, _, _, err := zks.Connect(t).ExistsW(lock); err != nil {
			t.Fatal(err)
		}
	}
	zktest.WaitUntil(t, 30*time.Second, func() string {
		s := show(t, server, lock)
		if len(s.Locks) != 1 || s.Locks[0].Holders != 0 || s.Locks[0].Waiters != 2 {
			return fmt.Sprintf("show --json: %+v", s.Locks)
		}
		return ""
	})
	out, errOut, code := run(t, "show", "--server", server, lock)
	if code != exitOK || !strings.Contains(out, "free: no node at this path now") || errOut != "" {
		t.Errorf("show of a free plain lock exited %d:\n%s%s", code, out, errOut)
	}
	for _, missing := range []string{root + "/locks/plain/nobody", root + "/nowhere/lock"} {
		if _, errOut, code := run(t, "show", "--server", server, missing); code != exitFailed || !strings.Contains(errOut, "node does not exist") {
			t.Errorf("show of %s exited %d: %s", missing, code, errOut)
		}
	}
}
