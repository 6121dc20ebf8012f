package model

import (
	"bytes"
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

// StoriesOf is what Stories says besides the stories, for WriteAll.
type StoriesOf struct {
	Under            string
	Partial, Members []string
}

// WriteAll writes the story of every lock the pass followed that the
// recording held, in path order: a line each, then each lock's story, as
// text in loc or as one JSON document (Stories'). With a spill, each
// lock is told once, its story set down there until the lines are
// written; without one, it is told twice, for its line and then for its
// story. Its log is let go once told, so that no more than one story is
// held at a time. Finish must have been called.
func (p *StoryPass) WriteAll(w io.Writer, of StoriesOf, asJSON bool, loc *time.Location) error {
	head := Stories{Under: of.Under, From: p.from, To: p.to, WatchingFrom: p.s.FirstSync, Locks: []StorySummary{},
		Stories: []Story{}, Partial: of.Partial, Members: of.Members}
	locks := p.Locks()
	if p.spill != nil && p.spillWriteErr == nil {
		return p.writeAllOnce(w, head, locks, asJSON, loc)
	}
	for _, lock := range locks {
		head.Locks = append(head.Locks, p.Story(lock, false).Summary())
	}
	if p.spillErr != nil {
		return p.spillErr
	}
	if asJSON {
		return p.writeAllJSON(w, head, locks)
	}
	if err := head.WriteText(w, loc); err != nil {
		return err
	}
	for _, lock := range locks {
		st := p.Story(lock, true)
		if p.spillErr != nil {
			return p.spillErr
		}
		if err := writeStoryText(w, st, loc); err != nil {
			return err
		}
	}
	return nil
}

// writeAllJSON writes head with the stories of locks in it, one at a time.
func (p *StoryPass) writeAllJSON(w io.Writer, head Stories, locks []string) error {
	return writeAllJSONOf(w, head, len(locks), func(n int, w io.Writer) error {
		st, err := json.MarshalIndent(p.Story(locks[n], true), "    ", "  ")
		if err == nil {
			err = p.spillErr
		}
		if err == nil {
			_, err = w.Write(st)
		}
		return err
	})
}

// writeAllJSONOf writes head with n stories in it, story writing each,
// indented as the document's.
func writeAllJSONOf(w io.Writer, head Stories, n int, story func(n int, w io.Writer) error) error {
	raw, err := json.MarshalIndent(head, "", "  ")
	if err != nil {
		return err
	}
	// head's stories are empty: the document's last lines are
	// `  "stories": []` and `}`, and the stories go between the brackets.
	end := []byte("\"stories\": []")
	i := bytes.LastIndex(raw, end)
	if i < 0 {
		return fmt.Errorf("stories: no place for the stories in %q", raw)
	}
	if _, err := w.Write(raw[:i+len(end)-1]); err != nil {
		return err
	}
	for k := range n {
		sep := ",\n    "
		if k == 0 {
			sep = "\n    "
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if err := story(k, w); err != nil {
			return err
		}
	}
	if n > 0 {
		if _, err := io.WriteString(w, "\n  "); err != nil {
			return err
		}
	}
	_, err = w.Write(raw[i+len(end)-1:])
	if err == nil {
		_, err = io.WriteString(w, "\n")
	}
	return err
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
		if err := writeStoryText(w, st, loc); err != nil {
			return err
		}
	}
	return nil
}

// writeStoryText writes one story of several, under a rule.
func writeStoryText(w io.Writer, st Story, loc *time.Location) error {
	// The read's partial stretches are said once, above.
	st.Partial, st.Members = nil, nil
	if _, err := io.WriteString(w, "\n"+strings.Repeat("─", 60)+"\n"); err != nil {
		return err
	}
	return st.WriteText(w, loc)
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
