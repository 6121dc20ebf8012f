package lockcore

import (
	"strings"
	"testing"
	"time"
)

func TestIsSilent(t *testing.T) {
	tests := []struct {
		name           string
		quiet, timeout time.Duration
		want           bool
	}{
		{"no timeout known", time.Hour, 0, false},
		{"within a third", 3 * time.Second, 9 * time.Second, false},
		{"a late ping's slack", 4 * time.Second, 9 * time.Second, false},
		{"past a third and the slack", 4*time.Second + time.Millisecond, 9 * time.Second, true},
		{"Kafka's 18s, 6s quiet", 6 * time.Second, 18 * time.Second, false},
		{"Kafka's 18s, 8s quiet", 8 * time.Second, 18 * time.Second, true},
	}
	for _, tc := range tests {
		if got := IsSilent(tc.quiet, tc.timeout); got != tc.want {
			t.Errorf("%s: IsSilent(%v, %v) = %v, want %v", tc.name, tc.quiet, tc.timeout, got, tc.want)
		}
	}
}

func TestLiveness(t *testing.T) {
	at := readAt
	silent := Silent{For: 15 * time.Second, At: at, Timeout: 40 * time.Second}
	tests := []struct {
		name  string
		link  Link
		want  Liveness
		short string // at one second after the answer
	}{
		{"never asked", Link{}, LiveUnknown, ""},
		{"unknown link", Link{State: LinkUnknown}, LiveUnknown, ""},
		{"connected, one answer", Link{State: LinkConnected}, LiveUnknown, ""},
		{"connected, pinging", Link{State: LinkConnected, Talking: true}, LiveTalking, ""},
		{"connected, silent", Link{State: LinkConnected, Silent: silent}, LiveSilent, "silent ≥15s · no ping · expires within ~24s"},
		{"silent past its timeout", Link{State: LinkConnected, Silent: Silent{For: 39 * time.Second, At: at, Timeout: 40 * time.Second}}, LiveSilent,
			"silent ≥39s · no ping · expiry due"},
		{"disconnected", Link{State: LinkDisconnected, At: at}, LiveGone, ""},
	}
	for _, tc := range tests {
		if got := tc.link.Liveness(); got != tc.want {
			t.Errorf("%s: Liveness %q, want %q", tc.name, got, tc.want)
		}
		if got := tc.link.Silent.Short(at.Add(time.Second)); got != tc.short {
			t.Errorf("%s: Short %q, want %q", tc.name, got, tc.short)
		}
	}
}

func TestWithLinksSilentHolder(t *testing.T) {
	c := func(i int) string { return curatorName("lock-", i) }
	b := &builder{}
	base := Analyze(queueTree("/l", b.node(c(0), 1), b.node(c(1), 2)), nil, Options{})
	frozen := Link{State: LinkConnected, Silent: Silent{For: 5 * time.Second, At: readAt, Timeout: 9 * time.Second}}
	tests := []struct {
		name  string
		links map[int64]Link
		want  int
	}{
		{"holder silent", map[int64]Link{1: frozen, 2: {State: LinkConnected}}, 1},
		{"waiter silent is no anomaly", map[int64]Link{1: {State: LinkConnected}, 2: frozen}, 0},
		{"holder talking", map[int64]Link{1: {State: LinkConnected, Talking: true}}, 0},
	}
	for _, tc := range tests {
		l := WithLinks(base, tc.links)
		var got []Anomaly
		for _, a := range l.Anomalies {
			if a.Kind == AnomalySilentHolder {
				got = append(got, a)
			}
		}
		if len(got) != tc.want {
			t.Fatalf("%s: %d silent-holder anomalies, want %d", tc.name, len(got), tc.want)
		}
		if tc.want > 0 && (got[0].Session != 1 || !strings.Contains(got[0].Detail, "for at least 5s") || !strings.Contains(got[0].Detail, "within ~4s")) {
			t.Errorf("%s: %+v", tc.name, got[0])
		}
		if again := WithLinks(l, map[int64]Link{1: {State: LinkConnected}}); len(again.Anomalies) != len(base.Anomalies) {
			t.Errorf("%s: woken again, %d anomalies, want the analysis' %d", tc.name, len(again.Anomalies), len(base.Anomalies))
		}
	}
	if AnomalySilentHolder.Severity() != SeverityStuck {
		t.Error("a frozen holder holds everyone up until its session expires: it ranks with disconnected-holder")
	}
}
