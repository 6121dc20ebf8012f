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
	evs := passEvents(t)
	for _, r := range [][2]time.Time{{}, {t0.Add(-80 * time.Second), t0.Add(-20 * time.Second)}, {t0.Add(-30 * time.Second), t0.Add(time.Minute)}} {
		folding, whole := passOver(evs, 2, false, r[0], r[1]), passOver(evs, 2, true, r[0], r[1])
		folded := 0
		for _, b := range folding.locks {
			folded += len(b.folded)
		}
		if folded == 0 {
			t.Fatalf("over %v nothing was folded: the test tells nothing", r)
		}
		for _, lock := range whole.Locks() {
			if got, want := storyJSON(t, folding.Story(lock, true)), storyJSON(t, whole.Story(lock, true)); got != want {
				t.Errorf("%s over %v: folding, the pass tells\n%s\nkeeping every entry\n%s", lock, r, got, want)
			}
		}
	}
}

// A lock held by one client after another for as long as the recording
// runs keeps a log as long as the holds still open to an update, not as
// long as the recording.
func TestStoryPassLogStaysBounded(t *testing.T) {
	const holds = 3000
	evs := []zkwatch.Event{{Kind: zkwatch.EventSynced, At: t0}}
	for k := range holds {
		at := t0.Add(time.Duration(k+1) * time.Second)
		l := lockOf("/busy", k, k+1)
		l.Path, l.ReadAt = "/busy", at
		evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: "/busy", Lock: l})
	}
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
