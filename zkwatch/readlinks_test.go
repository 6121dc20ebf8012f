package zkwatch

import (
	"context"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// TestJudgeLinksLooksTwice: a session one complete answer misses is
// judged only by a second; listed by either, it is connected.
func TestJudgeLinksLooksTwice(t *testing.T) {
	const holder, other = int64(0x100), int64(0x200)
	at := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
	listed := func(complete bool, sessions ...int64) Enrichment {
		en := Enrichment{At: at, Complete: complete, Clients: map[int64]ClientInfo{}}
		for _, s := range sessions {
			en.Clients[s] = ClientInfo{Client: "127.0.0.1:5000", Server: "127.0.0.1:2181"}
		}
		at = at.Add(SecondLook)
		return en
	}
	tests := []struct {
		name    string
		answers []Enrichment
		want    lockcore.LinkState
		polls   int
	}{
		{name: "listed at once", answers: []Enrichment{listed(true, holder, other)}, want: lockcore.LinkConnected, polls: 1},
		{name: "back at the second look", answers: []Enrichment{listed(true, other), listed(true, holder, other)}, want: lockcore.LinkConnected, polls: 2},
		{name: "missing twice", answers: []Enrichment{listed(true, other), listed(true, other)}, want: lockcore.LinkDisconnected, polls: 2},
		{name: "second answer incomplete", answers: []Enrichment{listed(true, other), listed(false, other)}, want: lockcore.LinkUnknown, polls: 2},
		{name: "first answer incomplete", answers: []Enrichment{listed(false, other)}, want: lockcore.LinkUnknown, polls: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			polls := 0
			poll := func(context.Context) Enrichment { polls++; return tc.answers[polls-1] }
			out, gone, _ := judgeLinks(context.Background(), []int64{holder, other}, poll, time.Millisecond)
			if got := out.Links[holder].State; got != tc.want || polls != tc.polls {
				t.Fatalf("holder %s after %d polls, want %s after %d", got, polls, tc.want, tc.polls)
			}
			if out.Links[other].State != lockcore.LinkConnected {
				t.Errorf("a session every answer listed is %s", out.Links[other].State)
			}
			if (tc.want == lockcore.LinkDisconnected) != (len(gone) == 1) {
				t.Errorf("gone %v", gone)
			}
			if tc.want == lockcore.LinkDisconnected && !out.Links[holder].At.Equal(tc.answers[0].At) {
				t.Errorf("disconnected at %v, want the first answer that missed it (%v)", out.Links[holder].At, tc.answers[0].At)
			}
		})
	}
}
