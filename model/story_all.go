package model

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// Stories are the stories of every lock at or under a path, from one
// pass over a recording, each with a line of summary for an incident
// report's table.
type Stories struct {
	Under        string         `json:"under"`
	From         time.Time      `json:"from"`
	To           time.Time      `json:"to"`
	WatchingFrom time.Time      `json:"watching_from,omitzero"`
	Locks        []StorySummary `json:"locks"`
	Stories      []Story        `json:"stories"`
	// Partial and Members: as Story's, of the whole read.
	Partial []string `json:"partial,omitempty"`
	Members []string `json:"members,omitempty"`
}

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

// All tells the story of every lock the pass followed that the recording
// held, in path order, under the name under; each lock's log is let go
// once told. Finish must have been called.
func (p *StoryPass) All(under string) Stories {
	out := Stories{Under: under, From: p.from, To: p.to, WatchingFrom: p.s.FirstSync, Locks: []StorySummary{}, Stories: []Story{}}
	for _, lock := range p.Locks() {
		st := p.Story(lock, true)
		out.Locks = append(out.Locks, st.Summary())
		out.Stories = append(out.Stories, st)
	}
	return out
}

// WriteJSON writes the stories as one JSON document.
func (s Stories) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// WriteText writes a line per lock, then each lock's story, in loc.
func (s Stories) WriteText(w io.Writer, loc *time.Location) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "locks at or under %s: %d\n", Printable(s.Under), len(s.Locks))
	fmt.Fprintf(b, "from %s to %s %s\n", s.From.In(loc).Format("2006-01-02 15:04:05.000"), storyTime(s.To, loc), s.To.In(loc).Format("MST"))
	writePartial(b, s.Partial, s.Members)
	if len(s.Locks) == 0 {
		fmt.Fprintf(b, "\nthe recording saw no lock there in that stretch\n")
	}
	for _, l := range s.Locks {
		b.WriteString(l.line())
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	for _, st := range s.Stories {
		// The read's partial stretches are said once, above.
		st.Partial, st.Members = nil, nil
		if _, err := io.WriteString(w, "\n"+strings.Repeat("─", 60)+"\n"); err != nil {
			return err
		}
		if err := st.WriteText(w, loc); err != nil {
			return err
		}
	}
	return nil
}

// line is the summary's line of text.
func (l StorySummary) line() string {
	recipe := ""
	if l.Recipe != "" {
		recipe = " (" + string(l.Recipe) + ")"
	}
	var ends []string
	for end, n := range l.HoldEnds {
		ends = append(ends, fmt.Sprintf("%d %s", n, end))
	}
	sort.Strings(ends)
	hold := "none"
	if l.Holds > 0 {
		hold = fmt.Sprintf("%d (%s), longest %s", l.Holds, strings.Join(ends, ", "), storyDur(l.LongHold, l.HoldAtLeast))
	}
	wait := "none"
	if l.Waits > 0 {
		wait = fmt.Sprintf("%d, longest %s", l.Waits, storyDur(l.LongWait, l.WaitAtLeast))
	}
	return fmt.Sprintf("  %s%s: holds %s; waits %s; anomalies %d\n", Printable(l.Lock), recipe, hold, wait, l.Anomalies)
}
