package model

import (
	"bytes"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
)

// tellWindow is how many locks tellOnce tells at once, each on a core
// of its own, before it sets their stories down in path order.
const tellWindow = 32

// tellOnce is TellAll telling each lock once: its story is rendered as
// soon as it is told and set down in the pass's spill after the folded
// holds, its line kept, and the stories copied out after the lines.
// Telling a lock (its folded holds read back and decoded, its spans
// ordered) costs more than setting its story down and reading it back,
// and each lock's telling reads only its own: the locks of a window are
// told side by side, and set down in order. A story the spill could not
// take is kept in memory: nothing is lost.
func (p *StoryPass) tellOnce(t *ToldStories) error {
	t.told = make([]spillChunk, 0, len(t.locks))
	type toldOne struct {
		line StorySummary
		out  bytes.Buffer
		err  error
	}
	window := make([]toldOne, tellWindow)
	for start := 0; start < len(t.locks); start += tellWindow {
		locks := t.locks[start:min(start+tellWindow, len(t.locks))]
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(runtime.GOMAXPROCS(0), len(locks)) {
			wg.Go(func() {
				for i := int(next.Add(1) - 1); i < len(locks); i = int(next.Add(1) - 1) {
					st := p.Story(locks[i], true)
					one := &window[i]
					one.out.Reset()
					one.line, one.err = st.Summary(), t.render(&one.out, st)
				}
			})
		}
		wg.Wait()
		if err := p.readErr(); err != nil {
			return err
		}
		for i := range locks {
			if window[i].err != nil {
				return window[i].err
			}
			t.Lines = append(t.Lines, window[i].line)
			t.told = append(t.told, p.setDown(window[i].out.Bytes()))
		}
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
