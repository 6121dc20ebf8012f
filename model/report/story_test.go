package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// storyLockAt is a reading of /t, d after t0, holding the contenders of
// seqs.
func storyLockAt(d time.Duration, seqs ...int) zkwatch.Event {
	l := lockOf("/t", seqs...)
	l.ReadAt = t0.Add(d)
	return zkwatch.Event{Kind: zkwatch.EventLock, At: l.ReadAt, Path: "/t", Lock: l}
}

// storyServers is a complete members' answer, d after t0 and asked a
// second before, listing sessions (each with a 30 s timeout).
func storyServers(d time.Duration, sessions ...int64) zkwatch.Event {
	clients := map[int64]zkwatch.ClientInfo{}
	for _, id := range sessions {
		clients[id] = zkwatch.ClientInfo{Session: id, Server: "zk1:2181", Client: fmt.Sprintf("10.0.0.%d:5000", id-99), Timeout: 30 * time.Second}
	}
	return zkwatch.Event{Kind: zkwatch.EventServers, At: t0.Add(d), ClientsAsked: t0.Add(d - time.Second), ClientsComplete: true, Clients: clients}
}

// connected is the recording's connection and first sync, before
// anything of /t.
func connected() []zkwatch.Event {
	return []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: t0.Add(-2 * time.Minute), Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		{Kind: zkwatch.EventSynced, At: t0.Add(-time.Minute)},
	}
}

func storyText(t *testing.T, st model.Story) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteStoryText(&buf, st, time.UTC); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// A story's text tells each hold and wait with how it began and ended,
// the operator's audit line, and the figures; its JSON gives the story
// back.
func TestStoryText(t *testing.T) {
	// /t found with a holder (0) and a waiter (1), 2 joining while
	// watched, 0's client dying and the operator force-releasing it, 1
	// releasing, 2's session expiring, 3 finding the lock free.
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	audit := lockcore.Action{At: at(-20 * time.Second), User: "sre", Kind: lockcore.ActionForceRelease,
		Node: lockOf("/t", 0).Participants[0].Path, Token: 1, Owner: 0x64}
	evs := append(connected(), storyLockAt(-50*time.Second, 0, 1), storyServers(-45*time.Second, 100, 101),
		storyLockAt(-40*time.Second, 0, 1, 2), storyServers(-30*time.Second, 101, 102), storyServers(-27*time.Second, 101, 102),
		storyLockAt(-20*time.Second, 1, 2), model.ActionEvent(audit), storyLockAt(-10*time.Second, 2),
		storyServers(-5*time.Second, 101), storyServers(-2*time.Second, 101), storyLockAt(0, 3),
		zkwatch.Event{Kind: zkwatch.EventConn, At: at(time.Second), Conn: zkwatch.ConnState{Phase: zkwatch.Disconnected, Session: 7}})
	st := model.TellStory(evs, "/t", time.Time{}, time.Time{})
	text := storyText(t, st)
	for _, s := range []string{"holders (4)", "forced at 02:59:40.000", "audit: {", "expired at 03:00:00.000",
		"still holding at the end", "granted (first seen then; began earlier); held ≥30s", "waited ≤10s; granted at 02:59:10.000",
		"waits (join to grant): 2; p50 0s, p90 30s", "connection losses (3)", "  02:59:33.000  0x64: "} {
		if !strings.Contains(text, s) {
			t.Errorf("the text lacks %q:\n%s", s, text)
		}
	}
	var buf bytes.Buffer
	if err := WriteStoryJSON(&buf, st); err != nil {
		t.Fatal(err)
	}
	var back model.Story
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || len(back.Holds) != 4 || back.Holds[2].End != model.EndExpired {
		t.Errorf("JSON: %v %+v", err, back.Holds)
	}
}

// A hold whose session ended with its node, with nothing to tell an
// expiry from a close, reads as ended with its session, never as released.
func TestStoryTextSessionEndIsNotARelease(t *testing.T) {
	evs := append(connected(), storyLockAt(-50*time.Second, 0, 1), storyServers(-45*time.Second, 100, 101),
		storyLockAt(-10*time.Second, 1), storyServers(-5*time.Second, 101))
	text := storyText(t, model.TellStory(evs, "/t", time.Time{}, time.Time{}))
	if !strings.Contains(text, "expired or closed by its client: not known") || strings.Contains(text, "released") {
		t.Errorf("the text:\n%s", text)
	}
}

// A transaction log's word on how a node went is said: the session that
// deleted another's node, an expiry's session timeout and last
// transaction, a client's close.
func TestStoryTextSaysTheLogsEnds(t *testing.T) {
	node := lockOf("/t", 0).Participants[0].Path
	for _, c := range []struct {
		how   zkwatch.EndHow
		by    int64
		words string
	}{
		{zkwatch.EndDeletedByOwner, 0x64, "released"},
		{zkwatch.EndDeletedByOther, 0x99, "deleted by session 0x99, not its own"},
		{zkwatch.EndExpired, 0x64, "session timeout 10s; its session's last transaction at 02:59:35.000"},
		{zkwatch.EndClosed, 0x64, "closed by its client"},
	} {
		gone := storyLockAt(-10*time.Second, 1)
		gone.Ends = []zkwatch.NodeEnd{{Path: node, Czxid: 1, How: c.how, At: gone.At, By: c.by, Session: 0x64,
			Timeout: 10 * time.Second, LastHeard: t0.Add(-25 * time.Second)}}
		evs := append(connected(), storyLockAt(-50*time.Second, 0, 1), gone)
		if text := storyText(t, model.TellStory(evs, "/t", time.Time{}, time.Time{})); !strings.Contains(text, c.words) {
			t.Errorf("%s: the text lacks %q:\n%s", c.how, c.words, text)
		}
	}
}

// A partial source is said before anything else.
func TestStoryTextSaysPartial(t *testing.T) {
	st := model.Story{Lock: "/t", Known: true, Partial: []string{"log.20: ends in the middle of a record at offset 4096"},
		Members: []string{"zk2 lacks zxids 0x10 to 0x20"}}
	text := storyText(t, st)
	if !strings.HasPrefix(strings.SplitN(text, "\n", 3)[2], "PARTIAL: log.20: ends in the middle") || !strings.Contains(text, "members: zk2 lacks") {
		t.Errorf("the text:\n%s", text)
	}
}

// A frozen holder's stretch is told in its hold, with the silent-holder
// anomaly from when it was told to when its node went.
func TestStoryTextFrozenHolder(t *testing.T) {
	answer := func(d, silent time.Duration) zkwatch.Event {
		ev := storyServers(d, 100, 101)
		ci := ev.Clients[100]
		ci.Asked, ci.Silent = t0.Add(d-time.Second), silent
		ev.Clients[100] = ci
		return ev
	}
	evs := append(connected(), storyLockAt(-50*time.Second, 0, 1), storyServers(-45*time.Second, 100, 101),
		answer(-30*time.Second, 12*time.Second), answer(-20*time.Second, 22*time.Second),
		storyLockAt(0, 1), storyServers(5*time.Second, 101))
	text := storyText(t, model.TellStory(evs, "/t", time.Time{}, time.Time{}))
	for _, s := range []string{"anomalies (1)", "silent-holder, cleared 03:00:00.000",
		"frozen from 02:59:17.000 at the latest", "still frozen as its hold ended at 03:00:00.000: ≥43s"} {
		if !strings.Contains(text, s) {
			t.Errorf("the text lacks %q:\n%s", s, text)
		}
	}
}

// A story with no anomaly says so with an empty list, never null.
func TestStoryJSONListsNoAnomalyAsEmpty(t *testing.T) {
	evs := []zkwatch.Event{
		{Kind: zkwatch.EventConn, At: t0, Conn: zkwatch.ConnState{Phase: zkwatch.Connected}},
		storyLockAt(0, 0), {Kind: zkwatch.EventSynced, At: t0},
	}
	var buf bytes.Buffer
	if err := WriteStoryJSON(&buf, model.TellStory(evs, "/t", time.Time{}, time.Time{})); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"anomalies": []`, `"connection": []`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the JSON lacks %s:\n%s", want, buf.String())
		}
	}
}
