package model

import (
	"bytes"
	"io"
)

// tellOnce is TellAll telling each lock once: its story is rendered as
// soon as it is told and set down in the pass's spill after the folded
// holds, its line kept, and the stories copied out after the lines.
// Telling a lock (its folded holds read back and decoded, its spans
// ordered) costs more than setting its story down and reading it back.
// A story the spill could not take is kept in memory: nothing is lost.
func (p *StoryPass) tellOnce(t *ToldStories) error {
	t.told = make([]spillChunk, 0, len(t.locks))
	var buf bytes.Buffer
	for _, lock := range t.locks {
		st := p.Story(lock, true)
		if p.spillErr != nil {
			return p.spillErr
		}
		t.Lines = append(t.Lines, st.Summary())
		buf.Reset()
		if err := t.render(&buf, st); err != nil {
			return err
		}
		t.told = append(t.told, p.setDown(buf.Bytes()))
	}
	return nil
}

// copyOut writes a story set down by tellOnce.
func (p *StoryPass) copyOut(w io.Writer, c spillChunk) error {
	if c.data != nil {
		_, err := w.Write(c.data)
		return err
	}
	_, err := io.Copy(w, io.NewSectionReader(p.spill, c.off, int64(c.n)))
	return err
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
