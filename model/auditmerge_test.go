package model

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// A hold whose node went while its session lived is told as released or
// forced; the CLI's audit line, read after the fact, makes it forced, with
// the line.
func TestTellStoryAuditLogAfterTheFact(t *testing.T) {
	// The story's events, without the churn on another lock that pushes
	// them out of the event log's bound.
	var evs []zkwatch.Event
	for _, ev := range storyEvents(t) {
		if ev.Path != "/other" {
			evs = append(evs, ev)
		}
	}
	holdOf := func(st Story, session string) StoryHold {
		for _, h := range st.Holds {
			if h.Session == session {
				return h
			}
		}
		t.Fatalf("no hold of %s in %+v", session, st.Holds)
		return StoryHold{}
	}
	if h := holdOf(TellStory(evs, "/t", time.Time{}, time.Time{}), "0x65"); h.End != EndReleasedOrForced || h.Audit != "" {
		t.Errorf("without the audit log, 0x65's hold ended %q (audit %q), want %q", h.End, h.Audit, EndReleasedOrForced)
	}
	// The CLI's line, as another zklocks wrote it, a moment after the
	// recording saw the node go.
	cli := lockcore.Action{At: t0.Add(-9500 * time.Millisecond), Kind: lockcore.ActionForceRelease, User: "sre", Host: "ops-1", Via: ViaCLI,
		Node: lockOf("/t", 1).Participants[0].Path, Token: 2, Owner: 0x65, Server: "zk1:2181", Session: 0x99}
	var log bytes.Buffer
	if err := NewAudit(&log).Record(cli); err != nil {
		t.Fatal(err)
	}
	log.WriteString("\n")
	actions, err := ReadAuditLog(&log)
	if err != nil || len(actions) != 1 {
		t.Fatalf("read back: %v, %+v", err, actions)
	}
	merged := WithActions(evs, actions)
	if len(merged) != len(evs)+1 || len(WithActions(merged, actions)) != len(merged) {
		t.Errorf("merged %d events of %d; merging again gives %d", len(merged), len(evs), len(WithActions(merged, actions)))
	}
	h := holdOf(TellStory(merged, "/t", time.Time{}, time.Time{}), "0x65")
	if h.End != EndForced || !strings.Contains(h.Audit, `"user":"sre"`) || !strings.Contains(h.Audit, `"via":"cli"`) {
		t.Errorf("with the audit log, 0x65's hold ended %q, audit %q; want forced with the CLI's line", h.End, h.Audit)
	}
	if _, err := ReadAuditLog(strings.NewReader("{\"time\":\"2026-11-28T01:02:03Z\"}\nnot json\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("a bad line: %v, want an error naming line 2", err)
	}
}
