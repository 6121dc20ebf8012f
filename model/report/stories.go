package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/zklocks/zklocks/model"
)

// stories is `zklocks postmortem --all`'s document: the stories of every
// lock at or under a path, from one pass over a recording, each with a
// line of summary for an incident report's table.
type stories struct {
	Under        string               `json:"under"`
	From         time.Time            `json:"from"`
	To           time.Time            `json:"to"`
	WatchingFrom time.Time            `json:"watching_from,omitzero"`
	Locks        []model.StorySummary `json:"locks"`
	Stories      []model.Story        `json:"stories"`
	// Partial and Members: as Story's, of the whole read.
	Partial []string `json:"partial,omitempty"`
	Members []string `json:"members,omitempty"`
}

// StoriesOf is what WriteStories says besides the stories: the path they
// are at or under, and why the source did not hold the whole stretch or
// where members' logs differ (as Story's Partial and Members).
type StoriesOf struct {
	Under            string
	Partial, Members []string
}

// WriteStories writes the story of every lock the pass followed that the
// recording held, in path order: a line each, then each lock's story, as
// text in loc or as one JSON document. The stories are told and written
// one at a time (model.StoryPass.TellAll). Finish must have been called.
func WriteStories(w io.Writer, p *model.StoryPass, of StoriesOf, asJSON bool, loc *time.Location) error {
	render := func(w io.Writer, st model.Story) error { return writeStoryText(w, st, loc) }
	if asJSON {
		render = writeStoryJSONIn
	}
	told, err := p.TellAll(render)
	if err != nil {
		return err
	}
	head := stories{Under: of.Under, From: told.From, To: told.To, WatchingFrom: told.WatchingFrom, Locks: told.Lines,
		Stories: []model.Story{}, Partial: of.Partial, Members: of.Members}
	if asJSON {
		return writeAllJSONOf(w, head, told.Len(), told.WriteStory)
	}
	if err := writeLinesText(w, head, loc); err != nil {
		return err
	}
	for n := range told.Len() {
		if err := told.WriteStory(w, n); err != nil {
			return err
		}
	}
	return nil
}

// writeStoryJSONIn writes st as one story of the document's, indented as
// its place there.
func writeStoryJSONIn(w io.Writer, st model.Story) error {
	// Appended to the writer's own free space where it has some (the
	// pass's buffer for the story being set down).
	var scratch []byte
	if b, ok := w.(interface{ AvailableBuffer() []byte }); ok {
		scratch = b.AvailableBuffer()
	}
	raw, err := marshalStory(scratch, st)
	if err != nil {
		return err
	}
	_, err = w.Write(raw)
	return err
}

// writeAllJSONOf writes head with n stories in it, story writing each,
// indented as the document's.
func writeAllJSONOf(w io.Writer, head stories, n int, story func(w io.Writer, n int) error) error {
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
		if err := story(w, k); err != nil {
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

// WriteStoryJSON writes one lock's story as one JSON document.
func WriteStoryJSON(w io.Writer, st model.Story) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(st)
}

// writeLinesText writes the document's head as text, in loc: what it
// tells of, and a line per lock.
func writeLinesText(w io.Writer, s stories, loc *time.Location) error {
	b := &strings.Builder{}
	fmt.Fprintf(b, "locks at or under %s: %d\n", model.Printable(s.Under), len(s.Locks))
	fmt.Fprintf(b, "from %s to %s %s\n", s.From.In(loc).Format("2006-01-02 15:04:05.000"), storyTime(s.To, loc), s.To.In(loc).Format("MST"))
	writePartial(b, s.Partial, s.Members)
	if len(s.Locks) == 0 {
		fmt.Fprintf(b, "\nthe recording saw no lock there in that stretch\n")
	}
	for _, l := range s.Locks {
		b.WriteString(summaryLine(l))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeStoryText writes one story of several, under a rule.
func writeStoryText(w io.Writer, st model.Story, loc *time.Location) error {
	// The read's partial stretches are said once, above.
	st.Partial, st.Members = nil, nil
	if _, err := io.WriteString(w, "\n"+strings.Repeat("─", 60)+"\n"); err != nil {
		return err
	}
	return WriteStoryText(w, st, loc)
}

// summaryLine is a story's line of text.
func summaryLine(l model.StorySummary) string {
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
	return fmt.Sprintf("  %s%s: holds %s; waits %s; anomalies %d\n", model.Printable(l.Lock), recipe, hold, wait, l.Anomalies)
}
