package model

import (
	"io"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// StorySummary is one lock's story in a line: its holds and waits, how
// the holds ended (by Story's End words), the longest of each, and the
// anomalies that arose.
type StorySummary struct {
	Lock      string          `json:"lock"`
	Recipe    lockcore.Recipe `json:"recipe,omitempty"`
	Holds     int             `json:"holds"`
	Waits     int             `json:"waits"`
	HoldEnds  map[string]int  `json:"hold_ends"`
	LongHold  time.Duration   `json:"longest_hold_ns"`
	LongWait  time.Duration   `json:"longest_wait_ns"`
	Anomalies int             `json:"anomalies"`
	// AtLeast: a hold or wait of the longest began before it was seen.
	HoldAtLeast bool `json:"longest_hold_at_least,omitempty"`
	WaitAtLeast bool `json:"longest_wait_at_least,omitempty"`
}

// Summary is st in a line's figures.
func (st Story) Summary() StorySummary {
	s := StorySummary{Lock: st.Lock, Recipe: st.Recipe, Holds: len(st.Holds), Waits: len(st.Waits),
		HoldEnds: map[string]int{}, Anomalies: len(st.Anomalies)}
	for _, h := range st.Holds {
		s.HoldEnds[h.End]++
		if h.Held > s.LongHold {
			s.LongHold, s.HoldAtLeast = h.Held, h.AtLeast
		}
	}
	for _, w := range st.Waits {
		if w.Waited > s.LongWait {
			s.LongWait, s.WaitAtLeast = w.Waited, w.AtLeast
		}
	}
	return s
}

// ToldStories are the stories of every lock a pass followed that the
// recording held, in path order, ready to be written one at a time: each
// lock's line, and its story as the pass's render writes it.
type ToldStories struct {
	// From, To and WatchingFrom: as Story's, of the whole pass.
	From, To, WatchingFrom time.Time
	// Lines are each lock's story in a line, in path order.
	Lines  []StorySummary
	p      *StoryPass
	locks  []string
	render func(w io.Writer, st Story) error
	// told, when the pass told each lock once: each story as rendered,
	// set down in the spill (or kept).
	told []spillChunk
}

// TellAll tells the story of every lock the pass followed that the
// recording held, for render to write one at a time
// (ToldStories.WriteStory) after the lines. With a spill, each lock is
// told once, its story rendered at once and set down there until the
// lines are written; without one, it is told twice, for its line and then
// for its story as it is written. Its log is let go once told, so that no
// more than one story is held at a time. Finish must have been called.
func (p *StoryPass) TellAll(render func(w io.Writer, st Story) error) (*ToldStories, error) {
	locks := p.Locks()
	t := &ToldStories{From: p.from, To: p.to, WatchingFrom: p.s.FirstSync, Lines: make([]StorySummary, 0, len(locks)),
		p: p, locks: locks, render: render}
	if p.spill != nil && p.spillWriteErr == nil {
		return t, p.tellOnce(t)
	}
	for _, lock := range locks {
		t.Lines = append(t.Lines, p.Story(lock, false).Summary())
	}
	return t, p.spillErr
}

// Len is how many stories there are to write.
func (t *ToldStories) Len() int { return len(t.locks) }

// WriteStory writes the nth story, in path order, as render writes it.
func (t *ToldStories) WriteStory(w io.Writer, n int) error {
	if t.told != nil {
		return t.p.copyOut(w, t.told[n])
	}
	st := t.p.Story(t.locks[n], true)
	if t.p.spillErr != nil {
		return t.p.spillErr
	}
	return t.render(w, st)
}
