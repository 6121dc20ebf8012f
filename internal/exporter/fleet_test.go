package exporter

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/zklocks/zklocks/zkwatch"
)

// A Fleet's series each carry their cluster, histograms too; the
// process's own once, without; /healthz says each cluster's state.
func TestFleetLabelsEveryClusterSeries(t *testing.T) {
	f := NewFleet([]string{"east", "west"}, Options{Now: func() time.Time { return t0 }})
	for name, lock := range map[string]string{"east": "/locks/orders", "west": "/locks/billing"} {
		e := f.Exporter(name)
		e.Apply(zkwatch.Event{Kind: zkwatch.EventConn, At: t0, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Since: t0}})
		e.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0, Path: lock, Lock: mutex(lock, 0, 1, 2)})
		e.Apply(zkwatch.Event{Kind: zkwatch.EventSynced, At: t0, Discovery: zkwatch.Discovery{Complete: true}})
	}
	reg := f.Registry()
	want := `
# HELP zklocks_lock_waiters Participants waiting for the lock, counting the hidden waiters of a plain lock node.
# TYPE zklocks_lock_waiters gauge
zklocks_lock_waiters{cluster="east",path="/locks/orders",recipe="curator-mutex"} 1
zklocks_lock_waiters{cluster="west",path="/locks/billing",recipe="curator-mutex"} 1
# HELP zklocks_up 1 while the exporter's ZooKeeper session is connected and its picture confirmed by a sync; 0 while it connects, reconnects or re-syncs.
# TYPE zklocks_up gauge
zklocks_up{cluster="east"} 1
zklocks_up{cluster="west"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "zklocks_lock_waiters", "zklocks_up"); err != nil {
		t.Error(err)
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		ours := strings.HasPrefix(mf.GetName(), "zklocks_")
		for _, m := range mf.GetMetric() {
			labelled := false
			for _, l := range m.GetLabel() {
				labelled = labelled || l.GetName() == ClusterLabel
			}
			if labelled != ours {
				t.Errorf("%s: cluster label %v", mf.GetName(), labelled)
			}
		}
	}
	srv := httptest.NewServer(f.Handler(reg))
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if got := string(body); !strings.HasPrefix(got, "east: ok: connected, 1 locks") || !strings.Contains(got, "\nwest: ok: connected, 1 locks") {
		t.Errorf("/healthz: %q", got)
	}
}
