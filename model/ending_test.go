package model

import (
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

func TestPlain(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"lockcore: node is gone: /l/n", "node is gone: /l/n"},
		{"/l/n: zk: node does not exist", "/l/n: node does not exist"},
		{"release failed (zk: connection closed)", "release failed (connection closed)"},
		{"acquire: lockcore: recipe cannot be used: zkwatch: x", "acquire: recipe cannot be used: x"},
		{"/zk: odd/path is kept", "/zk: odd/path is kept"},
		{"no prefix here", "no prefix here"},
	} {
		if got := Plain(c.in); got != c.want {
			t.Errorf("Plain(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEndingWords(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func(t time.Time) string { return t.Format("15:04:05") }
	audit := &lockcore.Action{User: "sre", Host: "jump-1", Via: ViaCLI, Kind: lockcore.ActionForceRelease}
	for _, c := range []struct {
		name string
		e    Ending
		want []string
	}{
		{"operator", Ending{At: at, EndedBy: EndedByOperator, Action: audit},
			[]string{"was force-released by sre from the command line on jump-1 at 03:04:05"}},
		{"fence", Ending{At: at, EndedBy: EndedByOperator, Action: &lockcore.Action{User: "sre", Via: ViaUI, Kind: lockcore.ActionFence}},
			[]string{"was fenced by sre from the UI at 03:04:05"}},
		{"expiry", Ending{At: at, EndedBy: EndedByExpiry}, []string{"went at 03:04:05 with its session, which expired"}},
		{"close", Ending{At: at, EndedBy: EndedByClose}, []string{"went at 03:04:05: its client closed its session"}},
		{"unknown", Ending{At: at, EndedBy: EndedByUnknown}, []string{"went at 03:04:05; whether its session outlived it"}},
		{"release", Ending{At: at, EndedBy: EndedByRelease}, []string{"went at 03:04:05, its session still connected: its client or another operator"}},
		{"seen", Ending{At: at, Seen: true, EndedBy: EndedByRelease}, []string{"went by 03:04:05,"}},
	} {
		got := c.e.Words(clock)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", c.name, got, w)
			}
		}
	}
}
