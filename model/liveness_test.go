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
		{EndedByOwner, Released, "released"},
		{EndedByOwner, Left, "left"},
		{EndedByOther, Released, "force-released by session 0x7"},
		{EndedByOther, Left, "force-released by session 0x7"},
	}
	for _, tc := range tests {
		if got := EndingText(HistoryEntry{EndedBy: tc.by, Change: tc.change, Log: LogEnd{DeletedBy: 7}}); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.by, tc.change, got, tc.want)
		}
	}
	if why := EndingWhy(HistoryEntry{EndedBy: EndedByExpiry, Change: Released, Token: 42}); !strings.Contains(why, "refuse token 0x2a (42)") {
		t.Errorf("an expired holder's why %q does not name the token to refuse", why)
	}
	// What the transaction log told is said as the log's word, not as
	// what a watch would have guessed from.
	logged := HistoryEntry{EndedBy: EndedByExpiry, Change: Released, Token: 42,
		Log: LogEnd{SessionTimeout: 10 * time.Second, LastHeard: time.Date(2026, 11, 28, 22, 11, 40, 500e6, time.UTC), Told: true}}
	if why := EndingWhy(logged); !strings.Contains(why, "transaction log says the server expired its session (timeout 10s, its client last heard at 22:11:40.500)") ||
		!strings.Contains(why, "refuse token 0x2a (42)") {
		t.Errorf("a logged expiry's why: %q", why)
	}
	if why := EndingWhy(HistoryEntry{EndedBy: EndedByOther, Change: Released, Token: 42, Log: LogEnd{DeletedBy: 7, Told: true}}); !strings.Contains(why, "session 0x7 deleted it, not its own") ||
		!strings.Contains(why, "refuse token 0x2a (42)") {
		t.Errorf("a logged force-release's why: %q", why)
	}
	// Released by its own session: as the log says, or as zklocks' own
	// lock client knows, never one said for the other.
	if why := EndingWhy(HistoryEntry{EndedBy: EndedByOwner, Change: Released, Log: LogEnd{Told: true}}); !strings.Contains(why, "transaction log says its own session deleted it") {
		t.Errorf("a logged release's why: %q", why)
	}
	if why := EndingWhy(HistoryEntry{EndedBy: EndedByOwner, Change: Released}); strings.Contains(why, "transaction log") || !strings.Contains(why, "own lock client") {
		t.Errorf("our own client's release's why: %q", why)
	}
}
