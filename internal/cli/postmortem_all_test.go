package cli

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// postmortem --all over a data directory tells each lock under the path
// as postmortem tells it alone, with a line each first.
func TestPostmortemAllAgreesWithEachLock(t *testing.T) {
	dir := dataDirFixture(t)
	// The stretch is given: without it, a story of one lock ends at its
	// own last event, the whole read's at the log's.
	to := "2026-11-28T22:11:51.962Z"
	out, errOut, code := run(t, "postmortem", "/locks", "--all", "--json", "--to", to, "--recording", dir)
	if code != exitOK {
		t.Fatalf("postmortem --all exited %d: %s", code, errOut)
	}
	var all struct {
		Locks []struct {
			Lock     string         `json:"lock"`
			Holds    int            `json:"holds"`
			HoldEnds map[string]int `json:"hold_ends"`
		} `json:"locks"`
		Stories []map[string]any `json:"stories"`
	}
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ends := map[string]string{}
	for _, l := range all.Locks {
		for end := range l.HoldEnds {
			ends[l.Lock] += end
		}
	}
	for lock, end := range map[string]string{"/locks/killed": "expired", "/locks/forced": "forced", "/locks/closed": "session-closed", "/locks/released": "released"} {
		if ends[lock] != end {
			t.Errorf("%s's line: hold ends %q, want %q", lock, ends[lock], end)
		}
	}
	if len(all.Stories) != len(all.Locks) || len(all.Stories) < 7 {
		t.Fatalf("%d stories, %d lines:\n%s", len(all.Stories), len(all.Locks), out)
	}
	for _, st := range all.Stories {
		lock := st["lock"].(string)
		one, errOut, code := run(t, "postmortem", lock, "--json", "--to", to, "--recording", dir)
		var alone map[string]any
		if err := json.Unmarshal([]byte(one), &alone); err != nil || code != exitOK {
			t.Fatalf("postmortem %s exited %d: %v %s", lock, code, err, errOut)
		}
		if !reflect.DeepEqual(st, alone) {
			t.Errorf("%s: --all tells\n%v\nalone\n%v", lock, st, alone)
		}
	}
	text, _, code := run(t, "postmortem", "/locks", "--all", "--recording", dir)
	for _, want := range []string{"locks at or under /locks: ", "  /locks/forced (kazoo-lock): holds 1 (1 forced)", "lock /locks/killed (curator-mutex)\n"} {
		if code != exitOK || !strings.Contains(text, want) {
			t.Errorf("the text lacks %q (exit %d):\n%s", want, code, text)
		}
	}
	if _, _, code := run(t, "postmortem", "/nothing", "--all", "--recording", dir); code != exitFailed {
		t.Errorf("postmortem --all of a path with no lock exited %d, want %d", code, exitFailed)
	}
}
