package recording

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// A servers' readings' clients come back whole from their differences:
// sessions new, changed (traffic, address), unchanged, gone, asked at
// another time than the reading, never heard from; and a reading with
// none.
func TestClientsDiffRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
	reading := func(r int, clients ...zkwatch.ClientInfo) zkwatch.Event {
		now := at.Add(time.Duration(r) * 5 * time.Second)
		m := map[int64]zkwatch.ClientInfo{}
		for _, c := range clients {
			if c.Asked.IsZero() {
				c.Asked = now
			}
			m[c.Session] = c
		}
		return zkwatch.Event{Kind: zkwatch.EventServers, At: now, Clients: m, ClientsComplete: true, ClientsAsked: now}
	}
	client := func(id int64, silent time.Duration) zkwatch.ClientInfo {
		return zkwatch.ClientInfo{Session: id, Server: "10.0.0.1:2181", Client: fmt.Sprintf("10.1.0.%d:4000", id), Name: "app",
			LastOperation: "PING", Established: at.Add(-time.Hour), Timeout: 10 * time.Second, Silent: silent,
			Heard: at.Add(-silent)}
	}
	moved := client(2, time.Second)
	moved.Server, moved.Client = "10.0.0.2:2181", "10.1.0.2:4999"
	odd := client(4, 0)
	odd.Asked, odd.Heard = at.Add(-3*time.Second), time.Time{}
	evs := []zkwatch.Event{
		reading(0, client(1, 0), client(2, time.Second)),
		reading(1, client(1, 0), client(2, 2*time.Second), client(3, 0)),
		reading(2, client(1, 0), moved, odd),
		reading(3),
		reading(4, client(1, 5*time.Second)),
	}
	rec, err := Load(record(t, evs, Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Events) != len(evs) {
		t.Fatalf("%d events, want %d", len(rec.Events), len(evs))
	}
	for i := range evs {
		a, b := serversOf(evs[i]).Clients, serversOf(rec.Events[i]).Clients
		if !reflect.DeepEqual(a, b) {
			t.Errorf("reading %d:\n got %+v\nwant %+v", i, b, a)
		}
	}
}
