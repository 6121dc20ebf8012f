package scale

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// How many new locks BenchmarkScale makes in new subtrees while the UI
// idles: with the persistent recursive watch, and on the old path (dump
// and walk alone, --persistent-watch=off), fewer since each waits for a
// dump.
var (
	scaleNewLocks    = flag.Int("scale.newlocks", 200, "locks made in new subtrees while the UI idles, each timed until its row is on screen")
	scaleNewLocksOld = flag.Int("scale.newlocksold", 5, "the same with --persistent-watch=off, the old path's baseline")
)

// newLockFilter is the text the UI's list is filtered to, so that the new
// lock's row is on screen however many locks the tree holds.
const newLockFilter = "bench-new"

// scaleNewLockTimes runs the UI on the cluster (its walk at
// -scale.walkrate, so that it ends), waits for its walk to end, filters
// its list to the new locks, and makes n locks one after the other, each
// in a new subtree under /app, returning each one's time from the request
// that made its subtree to its row on screen, sorted. Each lock is
// deleted once seen, so that the filtered list stays short.
func scaleNewLockTimes(b *testing.B, bin string, c scaleCluster, persistent bool, n int) []time.Duration {
	if n <= 0 {
		return nil
	}
	command := fmt.Sprintf("%s --server %s --read-only --log-file '' --walk-rate %d %s", bin, c.connect, *scaleWalkRate, strings.Join(c.adminArgs, " "))
	if !persistent {
		command += " --persistent-watch off"
	}
	s := tmuxscreen.Start(b, 120, 40, command)
	defer s.Keys("q")
	zktest.WaitUntil(b, 10*time.Minute, func() string {
		screen := s.Capture()
		if !syncedOnScreen.MatchString(screen) || strings.Contains(screen, "partial:") || strings.Contains(screen, notReadOnScreen) {
			return "the UI's first picture and walk did not end; the screen:\n" + s.Last()
		}
		return ""
	})
	s.Keys("/")
	s.Keys("-l", newLockFilter)
	s.Keys("Enter")
	actor, events, err := zk.Connect(c.addrs, 30*time.Second, zk.WithLogger(quietZK{}))
	if err != nil {
		b.Fatal(err)
	}
	defer actor.Close()
	go func() {
		for range events {
		}
	}()
	tag := "on"
	if !persistent {
		tag = "off"
	}
	acl := zk.WorldACL(zk.PermAll)
	var out []time.Duration
	for i := range n {
		sub := fmt.Sprintf("/app/%s-%s-%d-%03d", newLockFilter, tag, time.Now().Unix(), i)
		lock := sub + "/svc/lock"
		start := time.Now()
		for _, p := range []string{sub, sub + "/svc", lock} {
			if _, err := actor.Create(p, nil, 0, acl); err != nil {
				b.Fatal(err)
			}
		}
		node, err := actor.CreateProtectedEphemeralSequential(lock+"/lock-", nil, acl)
		if err != nil {
			b.Fatal(err)
		}
		seen := false
		for deadline := time.Now().Add(5 * time.Minute); !seen && time.Now().Before(deadline); {
			seen = strings.Contains(s.Capture(), sub)
			if !seen {
				time.Sleep(10 * time.Millisecond)
			}
		}
		if !seen {
			b.Fatalf("%s never on screen; the screen:\n%s", lock, s.Last())
		}
		out = append(out, time.Since(start))
		for _, p := range []string{node, lock, sub + "/svc", sub} {
			if err := actor.Delete(p, -1); err != nil {
				b.Fatal(err)
			}
		}
	}
	slices.Sort(out)
	return out
}

// newLockValue is a p99 (or the highest, for fewer than 100) of times,
// with the median.
func newLockValue(times []time.Duration) scaleValue {
	if len(times) == 0 {
		return scaleValue{text: "-"}
	}
	p99 := times[min(len(times)-1, (len(times)*99+99)/100-1)]
	return scaleValue{fmt.Sprintf("p99 %s, p50 %s of %d", fmtDur(p99), fmtDur(times[len(times)/2]), len(times)), p99.Seconds()}
}
