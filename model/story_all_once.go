package model

import (
	"bytes"
	"encoding/json"
	"io"
	"time"
)

// writeAllOnce is WriteAll telling each lock once: its story is rendered
// as soon as it is told and set down in the pass's spill after the
// folded holds, its line kept, and the stories copied out after the
// lines. Telling a lock (its folded holds read back and decoded, its
// spans ordered) costs more than setting its story down and reading it
// back. A story the spill could not take is kept in memory: nothing is
// lost.
func (p *StoryPass) writeAllOnce(w io.Writer, head Stories, locks []string, asJSON bool, loc *time.Location) error {
	told := make([]spillChunk, 0, len(locks))
	var buf bytes.Buffer
	for _, lock := range locks {
		st := p.Story(lock, true)
		if p.spillErr != nil {
			return p.spillErr
		}
		head.Locks = append(head.Locks, st.Summary())
		buf.Reset()
		if asJSON {
			raw, err := json.MarshalIndent(st, "    ", "  ")
			if err != nil {
				return err
			}
			buf.Write(raw)
		} else if err := writeStoryText(&buf, st, loc); err != nil {
			return err
		}
		told = append(told, p.setDown(buf.Bytes()))
	}
	story := func(n int, w io.Writer) error {
		c := told[n]
		if c.data != nil {
			_, err := w.Write(c.data)
			return err
		}
		_, err := io.Copy(w, io.NewSectionReader(p.spill, c.off, int64(c.n)))
		return err
	}
	if asJSON {
		return writeAllJSONOf(w, head, len(locks), story)
	}
	if err := head.WriteText(w, loc); err != nil {
		return err
	}
	for n := range locks {
		if err := story(n, w); err != nil {
			return err
		}
	}
	return nil
}

// setDown appends data to the pass's spill, or keeps a copy of it when
// the spill has failed a write.
func (p *StoryPass) setDown(data []byte) spillChunk {
	c := spillChunk{off: p.spillAt, n: len(data)}
	if p.spillWriteErr == nil {
		if _, err := p.spill.Write(data); err != nil {
			p.spillWriteErr = err
		}
	}
	if p.spillWriteErr != nil {
		c.data = bytes.Clone(data)
		return c
	}
	p.spillAt += int64(c.n)
	return c
}
