package zktest

import (
	"context"
	"regexp"
	"strconv"
	"testing"
	"time"
)

var mntrWatchCount = regexp.MustCompile(`(?m)^zk_watch_count\s+(\d+)`)

// WatchCount returns the watches of every kind the server at addr holds
// for the sessions connected to it (mntr's zk_watch_count; wchs counts
// data watches only). It fails t when the server does not say.
func WatchCount(t testing.TB, addr string) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reply, err := fourLetter(ctx, addr, "mntr")
	if err != nil {
		t.Fatalf("zktest: mntr of %s: %v", addr, err)
	}
	m := mntrWatchCount.FindStringSubmatch(reply)
	if m == nil {
		t.Fatalf("zktest: no zk_watch_count in %s's mntr", addr)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
