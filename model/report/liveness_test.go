package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// TestReportLiveness: show's text and JSON of a frozen holder, and of the
// endings a recording's log tells (show --recording): an expired holder
// not told, with its token and its successor's.
func TestReportLiveness(t *testing.T) {
	const holder, waiter = int64(100), int64(101)
	s, _, w, _ := frozenHolder()

	live := Report{Locks: []lockcore.Lock{*s.Locks["/l"]}, Links: s.Links, Clients: s.Clients, ClientsComplete: true}
	var text bytes.Buffer
	if err := live.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"session 0x64 (#0 holder): frozen: silent ≥5s · no ping · expires within ~4s", "refuse its token 0x1 (1)", "! silent-holder"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	var got struct {
		Locks []struct {
			Participants []struct {
				Liveness  *string `json:"liveness"`
				SilentMs  *int64  `json:"silent_ms"`
				TimeoutMs *int64  `json:"session_timeout_ms"`
				LeftMs    *int64  `json:"expires_if_silent_within_ms"`
			} `json:"participants"`
		} `json:"locks"`
	}
	var js bytes.Buffer
	if err := live.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	ps := got.Locks[0].Participants
	if *ps[0].Liveness != "silent" || *ps[0].SilentMs != 5000 || *ps[0].TimeoutMs != 9000 || *ps[0].LeftMs != 4000 || *ps[1].Liveness != "unknown" || ps[1].SilentMs != nil {
		t.Errorf("JSON participants %s", js.String())
	}

	// The session expires: the recording's log tells it.
	s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: t0.Add(10 * time.Second), Path: "/l", Lock: lockOf("/l", 1)})
	s.Apply(answer(11*time.Second, true, w))
	past := Report{Locks: []lockcore.Lock{*s.Locks["/l"]}, Ended: s.EndedOf([]string{"/l"})}
	text.Reset()
	if err := past.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"session 0x64  token 0x1: expired", "not told: may believe it holds; holds now: 0x65 token 0x2 (2)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}
