package lockcore

import (
	"strings"
	"testing"
	"time"
)

func TestWithLinks(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	at := readAt.Add(time.Second)
	gone := Link{State: LinkDisconnected, At: at, ExpiresWithin: 8 * time.Second, ExpirySource: "cons"}
	tests := []struct {
		name      string
		links     map[int64]Link
		states    []LinkState // by participant: holder, waiter, persistent waiter
		anomalies int
		detail    string
	}{
		{name: "nobody asked", states: []LinkState{LinkUnknown, LinkUnknown, ""}},
		{name: "all connected", links: map[int64]Link{1: {State: LinkConnected}, 2: {State: LinkConnected}},
			states: []LinkState{LinkConnected, LinkConnected, ""}},
		{name: "holder disconnected, expiry from cons", links: map[int64]Link{1: gone, 2: {State: LinkConnected}},
			states: []LinkState{LinkDisconnected, LinkConnected, ""}, anomalies: 1, detail: "expires (within ~8s of that answer, by the timeout it negotiated)"},
		{name: "holder disconnected, expiry unknown", links: map[int64]Link{1: {State: LinkDisconnected, At: at}},
			states: []LinkState{LinkDisconnected, LinkUnknown, ""}, anomalies: 1, detail: "expires (within its session timeout, which no member told)"},
		{name: "waiter disconnected is no anomaly", links: map[int64]Link{1: {State: LinkConnected}, 2: gone},
			states: []LinkState{LinkConnected, LinkDisconnected, ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := &builder{}
			base := Analyze(queueTree("/l", b.node(c(0), 1), b.node(c(1), 2), b.node(c(2), 0)), nil, Options{})
			l := WithLinks(base, tc.links)
			for i, p := range l.Participants {
				if p.Link.State != tc.states[i] {
					t.Errorf("#%d link %q, want %q", i, p.Link.State, tc.states[i])
				}
			}
			var got []Anomaly
			for _, a := range l.Anomalies {
				if a.Kind == AnomalyDisconnectedHolder {
					got = append(got, a)
				}
			}
			if len(got) != tc.anomalies {
				t.Fatalf("%d disconnected-holder anomalies, want %d: %v", len(got), tc.anomalies, got)
			}
			if tc.anomalies > 0 && (got[0].Node != c(0) || got[0].Session != 1 || !strings.Contains(got[0].Detail, tc.detail)) {
				t.Errorf("anomaly %+v, want on %s with %q", got[0], c(0), tc.detail)
			}
			if LinksChanged(&l, tc.links) {
				t.Error("LinksChanged after WithLinks with the same links")
			}
			again := WithLinks(l, map[int64]Link{1: {State: LinkConnected}})
			if n := len(again.Anomalies) - len(base.Anomalies); n != 0 {
				t.Errorf("reconnected: %d anomalies more than the analysis, want 0", n)
			}
			if len(base.Anomalies) != 1 || base.Participants[0].Link != (Link{}) {
				t.Errorf("WithLinks changed its input: %+v", base)
			}
		})
	}
}

func TestLinkExpiresText(t *testing.T) {
	for _, tc := range []struct {
		k    Link
		left time.Duration
		want string
	}{
		{Link{State: LinkDisconnected}, 0, "expires within its session timeout"},
		{Link{State: LinkDisconnected, ExpiresWithin: 10 * time.Second, ExpirySource: "cons"}, 9200 * time.Millisecond, "expires within ~10s"},
		{Link{State: LinkDisconnected, ExpiresWithin: 10 * time.Second, ExpirySource: "leader"}, -time.Second, "expires within ~0s"},
	} {
		if got := tc.k.ExpiresText(tc.left); got != tc.want {
			t.Errorf("%+v.ExpiresText(%v) = %q, want %q", tc.k, tc.left, got, tc.want)
		}
	}
}
