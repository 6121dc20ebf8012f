package ui

import (
	"strings"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// Another operator's action replaces what the status line said with a
// sentence naming them, the lock, the contender's place and its token;
// the operator's own action is not told again; and the event log shows
// the sentence before the audit line, wrapped at 80 columns, not cut.
func TestOtherOperatorsActionIsTold(t *testing.T) {
	a, _, _ := newOperateApp(t)
	holder := participant(t, a, "/locks/billing", 0)
	a.say("read-only: force-release is disabled (your SSH key's role is view)", true)
	prev := a.env.state
	next := prev.Clone()
	act := lockcore.Action{At: t0, Kind: lockcore.ActionForceRelease, Node: holder.Path, Token: holder.Token,
		Owner: holder.Session, User: "alice", Key: "SHA256:zfxQWERTYUIOP", Host: "10.2.0.14", Via: model.ViaSSH, Server: "zk1:2181"}
	next.Apply(zkwatch.Event{Kind: zkwatch.EventAction, Path: holder.Path, Action: &act, At: t0})
	a.env.state = next
	a.tellOperated(prev, next)
	want := "alice (SHA256:zfx…) force-released /locks/billing #0 · token " + model.TokenHex(holder.Token)
	if l := statusLine(a); l != want || a.flash.isErr {
		t.Fatalf("status line %q, want %q", l, want)
	}
	// Its own, made through this UI's actions' user and key: not again.
	a.say("force-released it", false)
	own := act
	own.User, own.Key, own.Host = a.opt.Actions.User, a.opt.Actions.Key, a.opt.Actions.Host
	after := next.Clone()
	after.Apply(zkwatch.Event{Kind: zkwatch.EventAction, Path: holder.Path, Action: &own, At: t0})
	a.tellOperated(next, after)
	if l := statusLine(a); l != "force-released it" {
		t.Fatalf("its own action told again: %q", l)
	}

	note := eventsPaneSized(a, 80, 20).noteLines(entryNote(&model.HistoryEntry{Action: &act}))
	joined := strings.Join(note, "\n")
	squeeze := strings.NewReplacer(" ", "", "\n", "")
	if len(note) < 4 || !strings.HasPrefix(note[0], "alice (SHA256:zfx…) force-released") ||
		!strings.HasSuffix(squeeze.Replace(joined), squeeze.Replace("audit: "+model.AuditLine(act))) {
		t.Fatalf("the event log's note does not hold the whole audit line:\n%s", joined)
	}
	for _, l := range note {
		if width(l) > 78 || strings.Contains(l, "…\"") {
			t.Fatalf("a note line wider than the pane, or cut: %q", l)
		}
	}
}

// eventsPaneSized is an events pane w×h on a's state.
func eventsPaneSized(a *App, w, h int) eventsPane {
	p := newEventsPane(a.env)
	p.setSize(w, h)
	return p
}
