package lockcore

import (
	"slices"
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
				if got := SessionLinks(tc.links).Of(p.Session).State; got != tc.states[i] {
					t.Errorf("#%d link %q, want %q", i, got, tc.states[i])
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
			if Relinked(&l, tc.links) != &l {
				t.Error("Relinked with the same links made a new lock")
			}
			again := WithLinks(l, map[int64]Link{1: {State: LinkConnected}})
			if n := len(again.Anomalies) - len(base.Anomalies); n != 0 {
				t.Errorf("reconnected: %d anomalies more than the analysis, want 0", n)
			}
			if len(base.Anomalies) != 1 || &base.Participants[0] != &l.Participants[0] {
				t.Errorf("WithLinks changed its input, or copied its participants: %+v", base)
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

// A waiter whose client is gone lost its watches with its connection: it
// is told as disconnected, never as a waiter nothing will wake, and told
// so again only while its session is disconnected.
func TestWithLinksDisconnectedWaiter(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	b := &builder{}
	tree := queueTree("/l", b.node(c(0), 1), b.node(c(1), 2))
	// The servers' table: session 2 watches nothing, as after its
	// connection closed.
	base := Analyze(tree, judged(NewWatchTable(map[int64][]string{})), Options{})
	if got := kinds(base); len(got) != 1 || got[0] != string(AnomalyUnwatchedWaiter) {
		t.Fatalf("analysis: anomalies %v, want one unwatched-waiter", got)
	}
	at := readAt.Add(time.Second)
	gone := Link{State: LinkDisconnected, At: at, ExpiresWithin: 8 * time.Second, ExpirySource: "cons"}
	steps := []struct {
		name  string
		links map[int64]Link
		want  []string
	}{
		{"its session disconnected", map[int64]Link{1: {State: LinkConnected}, 2: gone}, []string{string(AnomalyDisconnectedWaiter)}},
		{"disconnected at the next answer too", map[int64]Link{1: {State: LinkConnected}, 2: gone}, []string{string(AnomalyDisconnectedWaiter)}},
		{"an answer that is not complete judges nothing", map[int64]Link{1: {State: LinkConnected}, 2: {State: LinkUnknown}}, []string{string(AnomalyUnwatchedWaiter)}},
		{"gone again", map[int64]Link{2: gone}, []string{string(AnomalyDisconnectedWaiter)}},
		{"reconnected, still watching nothing", map[int64]Link{2: {State: LinkConnected}}, []string{string(AnomalyUnwatchedWaiter)}},
	}
	l := base
	for _, s := range steps {
		l = WithLinks(l, s.links)
		got := kinds(l)
		if strings.Join(got, " ") != strings.Join(s.want, " ") {
			t.Fatalf("%s: anomalies %v, want %v", s.name, got, s.want)
		}
		if s.want[0] == string(AnomalyDisconnectedWaiter) {
			a := anomaly(t, l, AnomalyDisconnectedWaiter)
			if a.Node != c(1) || a.Session != 2 || !strings.Contains(a.Detail, "within ~8s") || !strings.Contains(a.Detail, "dropped its watches") {
				t.Errorf("%s: %+v", s.name, a)
			}
		}
	}
	// A disconnected waiter whose watch the table still shows (read
	// before its connection closed) is told as disconnected too.
	watched := Analyze(tree, NewWatchTable(map[int64][]string{2: {"/l/" + c(0)}}), Options{})
	if got := kinds(WithLinks(watched, map[int64]Link{2: gone})); len(got) != 1 || got[0] != string(AnomalyDisconnectedWaiter) {
		t.Errorf("watching, disconnected: anomalies %v, want one disconnected-waiter", got)
	}
}

func TestRelinkedCopiesOnlyWhatAnAnomalyTells(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	b := &builder{}
	base := Analyze(queueTree("/l", b.node(c(0), 1), b.node(c(1), 2)), nil, Options{})
	l := WithLinks(base, SessionLinks{1: {State: LinkConnected}, 2: {State: LinkConnected}})
	if got := Relinked(&l, SessionLinks{1: {State: LinkConnected, Talking: true}, 2: {State: LinkConnected}}); got != &l {
		t.Errorf("a holder that talks now: a new lock %+v, want the same", got)
	}
	gone := SessionLinks{1: {State: LinkDisconnected, At: readAt}, 2: {State: LinkConnected}}
	n := Relinked(&l, gone)
	if n == &l || !slices.ContainsFunc(n.Anomalies, func(a Anomaly) bool { return a.Kind == AnomalyDisconnectedHolder }) {
		t.Fatalf("a holder gone: %+v, want a new lock with a disconnected-holder", n.Anomalies)
	}
	if &n.Participants[0] != &l.Participants[0] {
		t.Error("Relinked copied the participants")
	}
	if slices.ContainsFunc(l.Anomalies, func(a Anomaly) bool { return a.Kind == AnomalyDisconnectedHolder }) {
		t.Error("Relinked changed its input")
	}
}
