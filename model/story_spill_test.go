package model

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// memSpill is a Spill in memory; failWrite and failRead make its writes
// or reads fail.
type memSpill struct {
	bytes.Buffer
	failWrite, failRead bool
}

func (m *memSpill) Write(p []byte) (int, error) {
	if m.failWrite {
		return 0, errors.New("disk full")
	}
	return m.Buffer.Write(p)
}

func (m *memSpill) ReadAt(p []byte, off int64) (int, error) {
	if m.failRead {
		return 0, errors.New("read error")
	}
	n := copy(p, m.Bytes()[min(off, int64(m.Len())):])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// spillEvents are recordings whose holds fill chunks: the stories' own,
// and a frozen holder's followed by many holds of another lock.
func spillEvents(t *testing.T) [][]zkwatch.Event {
	return [][]zkwatch.Event{passEvents(t), append(frozenEvents(), churn("/after", t0.Add(10*time.Second), 40)...)}
}

// spillingPass is passOver with small chunks set down in spill.
func spillingPass(evs []zkwatch.Event, spill Spill) *StoryPass {
	p := NewStoryPass(nil, time.Time{})
	p.keep, p.chunk = 2, 64
	p.SpillTo(spill)
	for _, ev := range evs {
		p.Apply(ev)
	}
	p.Finish(time.Time{})
	return p
}

// Holds and waits set down in a spill, or kept encoded when its writes
// fail, are told as a pass that keeps every entry tells them.
func TestStoryPassSpillsAsItTells(t *testing.T) {
	for _, evs := range spillEvents(t) {
		for _, failWrite := range []bool{false, true} {
			spillsAsItTells(t, evs, &memSpill{failWrite: failWrite})
		}
	}
}

// spillsAsItTells compares the stories of a pass over evs that spills
// into spill with those of one that keeps every entry.
func spillsAsItTells(t *testing.T, evs []zkwatch.Event, spill *memSpill) {
	t.Helper()
	p, whole := spillingPass(evs, spill), passOver(evs, 2, true, time.Time{}, time.Time{})
	chunks, inMemory := 0, 0
	for _, b := range p.locks {
		for _, c := range b.folds.chunks {
			chunks++
			if c.data != nil {
				inMemory++
			}
		}
	}
	if chunks == 0 || (spill.failWrite && (spill.Len() > 0 || inMemory != chunks)) || (!spill.failWrite && (spill.Len() == 0 || inMemory > 0)) {
		t.Fatalf("failing writes %v: %d chunks, %d in memory, %d bytes spilt", spill.failWrite, chunks, inMemory, spill.Len())
	}
	for _, lock := range whole.Locks() {
		if got, want := storyJSON(t, p.Story(lock, true)), storyJSON(t, whole.Story(lock, true)); got != want {
			t.Errorf("%s, failing writes %v: spilling, the pass tells\n%s\nkeeping every entry\n%s", lock, spill.failWrite, got, want)
		}
	}
	if err := p.Err(); err != nil {
		t.Errorf("failing writes %v: %v", spill.failWrite, err)
	}
}

// A spill that cannot be read back fails the stories written, rather
// than telling them without their folded holds.
func TestStoryPassSpillReadFails(t *testing.T) {
	spill := &memSpill{}
	p := spillingPass(spillEvents(t)[1], spill)
	spill.failRead = true
	var out bytes.Buffer
	if err := writeTold(&out, p); err == nil {
		t.Errorf("stories written from an unreadable spill: %d bytes", out.Len())
	}
}

// A span whose times the encoding would not give back as they were (a
// zone of its own) is kept whole, in its place among those encoded.
func TestFoldedSpansComeBackAsTheyWere(t *testing.T) {
	zone := time.FixedZone("X", 3600)
	spans := []foldedSpan{
		{seq: 3, span: Span{Session: 7, Node: "/l/n1", From: t0, To: t0.Add(time.Second), EndedBy: EndedByOwner},
			extra: &spanExtra{logEnd: StoryLogEnd{DeletedBy: "0x9", SessionTimeout: time.Second, LastHeard: t0.Local()},
				frozen: []StoryFrozen{{From: t0, Seen: t0.Add(time.Millisecond), Timeout: time.Second}}}},
		{seq: 5, span: Span{Session: 7, Node: "/l/n1", Hold: true, Granted: true, From: t0.Add(time.Second), To: t0.In(zone).Add(2 * time.Second),
			EndedBy: "something new"}},
		{seq: 4, span: Span{Session: -1, Node: "/l/n2", Before: true, Seen: true, From: t0.Local(), Disconnected: t0.Add(time.Hour),
			EndedBy: "something new"}, extra: &spanExtra{audit: "forced by an operator"}},
	}
	p := NewStoryPass(nil, time.Time{})
	b := &storyBuilder{lock: "/l"}
	for _, f := range spans {
		p.foldSpan(b, f)
	}
	p.foldTime(b, recWait, timedSpan{t0.In(zone), time.Second})
	p.foldTime(b, recHold, timedSpan{t0, 2 * time.Second})
	got, waits, holds := p.unfold(b)
	if len(got) != len(spans) || len(b.folds.kept) != 1 {
		t.Fatalf("%d spans back of %d, %d kept whole", len(got), len(spans), len(b.folds.kept))
	}
	for i := range spans {
		if got[i].seq != spans[i].seq || got[i].span != spans[i].span || (got[i].extra == nil) != (spans[i].extra == nil) {
			t.Errorf("span %d: got %+v, want %+v", i, got[i], spans[i])
			continue
		}
		if x, y := got[i].extra, spans[i].extra; x != nil && (x.audit != y.audit || x.logEnd != y.logEnd || len(x.frozen) != len(y.frozen) ||
			(len(x.frozen) > 0 && x.frozen[0] != y.frozen[0])) {
			t.Errorf("span %d's extra: got %+v, want %+v", i, *x, *y)
		}
	}
	if len(waits) != 1 || waits[0] != (timedSpan{t0.In(zone), time.Second}) || len(holds) != 1 || holds[0] != (timedSpan{t0, 2 * time.Second}) {
		t.Errorf("waits %v, holds %v", waits, holds)
	}
}
