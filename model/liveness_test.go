package model

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

func TestLivenessText(t *testing.T) {
	holder := lockcore.Participant{Node: "n", Role: lockcore.RoleHolder, Session: 1, Token: 42}
	long := &lockcore.Lock{Anomalies: []lockcore.Anomaly{{Kind: lockcore.AnomalyLongHeld, Node: "n"}}}
	short := &lockcore.Lock{}
	silent := lockcore.Link{State: lockcore.LinkConnected, Silent: lockcore.Silent{For: 15 * time.Second, At: t0, Timeout: 40 * time.Second}}
	tests := []struct {
		name string
		l    *lockcore.Lock
		k    lockcore.Link
		want []string
	}{
		{"frozen", short, silent, []string{"frozen: silent ≥15s", "expires within ~25s", "refuse its token 0x2a (42)", "force-release"}},
		{"frozen and long-held is frozen, not hung", long, silent, []string{"frozen:"}},
		{"hung", long, lockcore.Link{State: lockcore.LinkConnected, Talking: true}, []string{"hung:", "threads"}},
		{"alive", short, lockcore.Link{State: lockcore.LinkConnected, Talking: true}, []string{"alive:"}},
		{"crashed", short, lockcore.Link{State: lockcore.LinkDisconnected, At: t0, ExpiresWithin: 10 * time.Second, ExpirySource: "cons"},
			[]string{"crashed or cut off", "expires within ~10s", "force-release"}},
		{"one answer", long, lockcore.Link{State: lockcore.LinkConnected}, []string{"whether it still pings is not known yet"}},
		{"no answer", short, lockcore.Link{State: lockcore.LinkUnknown}, []string{"not known"}},
	}
	for _, tc := range tests {
		got := LivenessText(tc.l, holder, tc.k, t0)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, got, w)
			}
		}
		if tc.name != "hung" && strings.HasPrefix(got, "hung") {
			t.Errorf("%s: %q reads as hung", tc.name, got)
		}
	}
}

func TestEndingText(t *testing.T) {
	tests := []struct {
		by     Ender
		change Change
		want   string
	}{
		{EndedByRelease, Released, "released, or force-released by another client"},
		{EndedByRelease, Left, "left, or force-released by another client"},
		{EndedByExpiry, Released, "expired"},
		{EndedByClose, Released, "closed its session"},
		{EndedBySessionEnd, Released, "ended with its session (expired or closed: not known)"},
		{EndedByUnknown, Released, "ended (released or expired: not known)"},
		{EndedByOperator, Released, "force-released"},
	}
	for _, tc := range tests {
		if got := EndingText(HistoryEntry{EndedBy: tc.by, Change: tc.change}); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.by, tc.change, got, tc.want)
		}
	}
	if why := EndingWhy(HistoryEntry{EndedBy: EndedByExpiry, Change: Released, Token: 42}); !strings.Contains(why, "refuse token 0x2a (42)") {
		t.Errorf("an expired holder's why %q does not name the token to refuse", why)
	}
}
