package lockcore

import (
	"strings"
	"testing"
	"time"
)

// TestHolderAnomaliesSayTheFix holds the holder anomalies' details, which
// check prints and a pager shows first, to the fix the UI and
// docs/alerting.md give for each.
func TestHolderAnomaliesSayTheFix(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	at := readAt.Add(time.Second)
	tests := []struct {
		name string
		kind AnomalyKind
		opt  Options
		link Link
		fix  string
	}{
		{name: "crashed", kind: AnomalyDisconnectedHolder,
			link: Link{State: LinkDisconnected, At: at, ExpiresWithin: 8 * time.Second, ExpirySource: "cons"},
			fix:  "unless the client reconnects first; force-release passes the lock now"},
		{name: "frozen", kind: AnomalySilentHolder,
			link: Link{State: LinkConnected, Silent: Silent{For: 12 * time.Second, At: at, Timeout: 30 * time.Second}},
			fix:  "; to pass the lock sooner, force-release it"},
		{name: "held long", kind: AnomalyLongHeld, opt: Options{LongHeld: 10 * time.Minute},
			fix: "look at the process' threads (jstack, py-spy), then revoke or force-release"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &builder{}
			l := Analyze(settled(queueTree("/l", b.node(c(0), 1), b.node(c(1), 2))), nil, tc.opt)
			if tc.link.State != "" {
				l = WithLinks(l, map[int64]Link{1: tc.link, 2: {State: LinkConnected}})
			}
			if a := anomaly(t, l, tc.kind); !strings.HasSuffix(a.Detail, tc.fix) {
				t.Errorf("%s: %q does not end with the fix %q", tc.kind, a.Detail, tc.fix)
			}
		})
	}
}
