package zktest

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// WatchCount returns the watches of every kind the server at addr holds
// for the sessions connected to it (mntr's zk_watch_count; wchs counts
// data watches only). It fails t when the server does not say.
func WatchCount(t testing.TB, addr string) int {
	t.Helper()
	return Mntr(t, addr, "zk_watch_count")
}

// Mntr returns one of mntr's integer figures (key, such as
// zk_num_alive_connections) from the server at addr. It fails t when the
// server does not say.
func Mntr(t testing.TB, addr, key string) int {
	t.Helper()
	reply := ask(t, addr, "mntr")
	for _, l := range strings.Split(reply, "\n") {
		if v, ok := strings.CutPrefix(l, key+"\t"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("zktest: mntr of %s: %s is %q", addr, key, v)
			}
			return n
		}
	}
	t.Fatalf("zktest: %s's mntr says no %s:\n%s", addr, key, reply)
	return 0
}

// SessionConnections returns how many of the server at addr's connections
// carry a session (cons lines with a sid): the clients' connections, not a
// four-letter word's own short one, which mntr's zk_num_alive_connections
// counts too while it is open. It fails t when the server does not answer.
func SessionConnections(t testing.TB, addr string) int {
	t.Helper()
	return strings.Count(ask(t, addr, "cons"), ",sid=0x")
}

// ask returns the server at addr's answer to a four-letter word, failing
// t when it gives none within 30 s.
func ask(t testing.TB, addr, word string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reply, err := fourLetter(ctx, addr, word)
	if err != nil {
		t.Fatalf("zktest: %s of %s: %v", word, addr, err)
	}
	return reply
}

// Ask returns the server at addr's answer to a four-letter word (wchp,
// say), failing t when it gives none within 30 s.
func Ask(t testing.TB, addr, word string) string {
	t.Helper()
	return ask(t, addr, word)
}
