package cli

import (
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
)

// TestIntegrationShowOneLevelTooHigh: show on the parent of several locks
// says which of its children look like locks, instead of reporting each
// child as an unparsed contender.
func TestIntegrationShowOneLevelTooHigh(t *testing.T) {
	t.Parallel()
	zks, root := shared.Start(t), shared.Root(t)
	c := zks.Connect(t)
	jobs := root + "/jobs"
	for _, p := range []string{jobs, jobs + "/job-a", jobs + "/job-b", jobs + "/empty"} {
		if _, err := c.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	for _, lock := range []string{jobs + "/job-a", jobs + "/job-b"} {
		if _, err := c.CreateProtectedEphemeralSequential(lock+"/lock-", nil, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatal(err)
		}
	}
	out, stderr, code := run(t, "show", "--config", "", "--log-file", "", "--server", zks.Addr(), jobs)
	if code != exitFailed || !strings.Contains(stderr, jobs+": not a lock, but these look like locks: "+jobs+"/job-a "+jobs+"/job-b") ||
		strings.Contains(out, "unparsed") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	// A lock itself is shown as before.
	out, _, code = run(t, "show", "--config", "", "--log-file", "", "--server", zks.Addr(), jobs+"/job-a")
	if code != 0 || !strings.Contains(out, jobs+"/job-a") {
		t.Fatalf("the lock: exit %d\n%s", code, out)
	}
}
