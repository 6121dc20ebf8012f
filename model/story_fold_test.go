package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// passOver runs a pass over evs that folds spans once keep later endings
// were logged (none: noFold), told over [from, to].
func passOver(evs []zkwatch.Event, keep int, noFold bool, from, to time.Time) *StoryPass {
	p := NewStoryPass(nil, from)
	p.keep, p.noFold = keep, noFold
	for _, ev := range evs {
		p.Apply(ev)
	}
	p.Finish(to)
	return p
}

// Holds and waits told as they end are told as the whole log tells them,
// whatever the stretch: the stories of a pass that folds early are those
// of one that keeps every entry.
func TestStoryPassFoldsAsItTells(t *testing.T) {
	// A frozen holder's hold, folded once other holds ended after it.
	frozen := append(frozenEvents(), churn("/after", t0.Add(10*time.Second), 10)...)
	for _, r := range [][2]time.Time{{}, {t0.Add(-80 * time.Second), t0.Add(-20 * time.Second)}, {t0.Add(-30 * time.Second), t0.Add(time.Minute)}} {
		folded := 0
		for _, evs := range [][]zkwatch.Event{passEvents(t), frozen} {
			folded += foldsAsItTells(t, evs, r)
		}
		if folded == 0 {
			t.Fatalf("over %v nothing was folded: the test tells nothing", r)
		}
	}
}

// foldsAsItTells compares the stories of a pass over evs that folds
// early with those of one that keeps every entry, and says how many
// spans the first folded.
func foldsAsItTells(t *testing.T, evs []zkwatch.Event, r [2]time.Time) int {
	t.Helper()
	folding, whole := passOver(evs, 2, false, r[0], r[1]), passOver(evs, 2, true, r[0], r[1])
	folded := 0
	for _, b := range folding.locks {
		folded += b.folds.spans
	}
	for _, lock := range whole.Locks() {
		if got, want := storyJSON(t, folding.Story(lock, true)), storyJSON(t, whole.Story(lock, true)); got != want {
			t.Errorf("%s over %v: folding, the pass tells\n%s\nkeeping every entry\n%s", lock, r, got, want)
		}
	}
	return folded
}

// churn is n holds of lock, one after another a second apart from at.
func churn(lock string, at time.Time, n int) []zkwatch.Event {
	var evs []zkwatch.Event
	for k := range n {
		l := lockOf(lock, k, k+1)
		l.Path, l.ReadAt = lock, at.Add(time.Duration(k)*time.Second)
		evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: l.ReadAt, Path: lock, Lock: l})
	}
	return evs
}

// A lock held by one client after another for as long as the recording
// runs keeps a log as long as the holds still open to an update, not as
// long as the recording.
func TestStoryPassLogStaysBounded(t *testing.T) {
	const holds = 3000
	evs := append([]zkwatch.Event{{Kind: zkwatch.EventSynced, At: t0}}, churn("/busy", t0.Add(time.Second), holds)...)
	p := NewStoryPass(nil, time.Time{})
	p.keep = 50
	longest := 0
	for _, ev := range evs {
		p.Apply(ev)
		if b := p.locks["/busy"]; b != nil {
			longest = max(longest, len(b.log))
		}
	}
	p.Finish(time.Time{})
	b := p.locks["/busy"]
	if b.next < 2*holds {
		t.Fatalf("%d entries logged for %d holds: the recording is not what the test means", b.next, holds)
	}
	// Up to 2×keep holds' endings still open to an update, three entries
	// each (joined, granted, released), and as many again folded and not
	// yet let go.
	if bound := 2 * 2 * p.keep * 3; longest > bound {
		t.Errorf("the log held %d entries at its longest of %d logged, want at most %d", longest, b.next, bound)
	}
	st := p.Story("/busy", true)
	if len(st.Holds) != holds || st.HoldTimes.Count != holds-2 {
		t.Errorf("told %d holds (%d timed), want %d (%d): %s", len(st.Holds), st.HoldTimes.Count, holds, holds-2, fmt.Sprint(st.Holds[:2]))
	}
}

// A lock whose entries were folded lets go of the room its log grew to:
// held for each of thousands of quiet locks, that room was most of what
// a pass held.
func TestStoryPassLetsGoOfAFoldedLogsRoom(t *testing.T) {
	evs := append([]zkwatch.Event{{Kind: zkwatch.EventSynced, At: t0}}, churn("/burst", t0.Add(time.Second), 200)...)
	evs = append(evs, churn("/other", t0.Add(time.Hour), 200)...)
	p := NewStoryPass(nil, time.Time{})
	p.keep = 20
	grown := 0
	for _, ev := range evs {
		p.Apply(ev)
		if b := p.locks["/burst"]; b != nil {
			grown = max(grown, cap(b.log))
		}
	}
	b := p.locks["/burst"]
	if grown <= keptLog {
		t.Fatalf("the log's room grew to %d at most: the test tells nothing", grown)
	}
	if room := max(4*len(b.log), keptLog); cap(b.log) > room || cap(b.seqs) > room {
		t.Errorf("after folding, /burst's log keeps room for %d entries (%d seqs) for %d left, want at most %d", cap(b.log), cap(b.seqs), len(b.log), room)
	}
}
