package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// passEvents is storyEvents with ten more locks under /l churning among
// them, each holder kept for several readings past a 5 s long-held
// threshold, so that findings change between events as well as at them.
func passEvents(t *testing.T) []zkwatch.Event {
	t.Helper()
	evs := storyEvents(t)
	// 1,000 of storyEvents' 4,000 readings of /other: each lock's story
	// is told alone below, a replay each (TestTellStory tells /t past
	// the event log's bound).
	evs = evs[:len(evs)-3000]
	for i := range 10 {
		path := fmt.Sprintf("/l/%d", i)
		for k := range 16 {
			at := t0.Add(-110*time.Second + time.Duration(k)*7*time.Second + time.Duration(i)*300*time.Millisecond)
			l := lockOf(path, k/3+i*100, k/3+i*100+1)
			l.Path, l.ReadAt, l.LongHeldAfter = path, at, 5*time.Second
			l = l.At(at)
			evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: path, Lock: l})
		}
		at := t0.Add(-110*time.Second + 16*7*time.Second + time.Duration(i)*300*time.Millisecond)
		if i%3 == 0 {
			evs = append(evs, zkwatch.Event{Kind: zkwatch.EventLockGone, At: at, Path: path})
		}
	}
	slices.SortStableFunc(evs, func(a, b zkwatch.Event) int { return a.At.Compare(b.At) })
	return evs
}

func storyJSON(t *testing.T, st Story) string {
	t.Helper()
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// renderJSON is a render for TellAll: the story as JSON, and a newline.
func renderJSON(w io.Writer, st Story) error {
	b, err := json.Marshal(st)
	if err == nil {
		_, err = fmt.Fprintf(w, "%s\n", b)
	}
	return err
}

// writeTold writes what p.TellAll tells, as a command would: the lines
// (as JSON), then each story by renderJSON.
func writeTold(w io.Writer, p *StoryPass) error {
	told, err := p.TellAll(renderJSON)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(w).Encode(told.Lines); err != nil {
		return err
	}
	for n := range told.Len() {
		if err := told.WriteStory(w, n); err != nil {
			return err
		}
	}
	return nil
}

// Every lock's story from one pass over all of them is the story told of
// that lock alone, whatever the stretch.
func TestStoryPassAgreesWithTellStory(t *testing.T) {
	evs := passEvents(t)
	for _, r := range [][2]time.Time{{}, {t0.Add(-80 * time.Second), t0.Add(-20 * time.Second)}, {t0.Add(-30 * time.Second), t0.Add(time.Minute)}} {
		p := NewStoryPass(nil, r[0])
		for _, ev := range evs {
			p.Apply(ev)
		}
		p.Finish(r[1])
		locks := p.Locks()
		want := []string{"/l/0", "/l/1", "/l/2", "/l/3", "/l/4", "/l/5", "/l/6", "/l/7", "/l/8", "/l/9", "/other", "/t"}
		if !slices.Equal(locks, want) {
			t.Fatalf("locks %v, want %v", locks, want)
		}
		longHeld := 0
		for i, lock := range locks {
			all := p.Story(lock, true)
			if r != ([2]time.Time{}) && i%4 != 0 && lock != "/t" {
				// Over the shorter stretches, some locks only: each costs
				// a replay of its own.
				continue
			}
			one := TellStory(evs, lock, r[0], r[1])
			if got, want := storyJSON(t, all), storyJSON(t, one); got != want {
				t.Errorf("%s over %v: the pass tells\n%s\nalone it is\n%s", lock, r, got, want)
			}
			for _, a := range all.Anomalies {
				if a.Kind == lockcore.AnomalyLongHeld {
					longHeld++
				}
			}
		}
		if longHeld == 0 {
			t.Errorf("over %v no story tells a long-held holder: the findings between events go untested", r)
		}
	}
}

// A pass following the locks under a parent tells those alone, and a
// lock not followed is not known to it.
func TestStoryPassFollowsWhatItIsGiven(t *testing.T) {
	evs := passEvents(t)
	p := NewStoryPass(func(l string) bool { return strings.HasPrefix(l, "/l/") }, time.Time{})
	for _, ev := range evs {
		p.Apply(ev)
	}
	p.Finish(time.Time{})
	if got := p.Locks(); len(got) != 10 || got[0] != "/l/0" {
		t.Errorf("locks %v, want /l/0 … /l/9", got)
	}
	if st := p.Story("/t", false); st.Known || len(st.Holds) != 0 {
		t.Errorf("/t, not followed: %+v", st)
	}
	if st := p.Story("/l/3", false); !st.Known || len(st.Holds) == 0 {
		t.Errorf("/l/3: %+v", st)
	}
}

// TellAll tells every lock a line and its story, in path order, the
// stretch of the whole pass, and each story as render writes it.
func TestTellAllTellsEveryStory(t *testing.T) {
	evs := passEvents(t)
	p := NewStoryPass(func(l string) bool { return strings.HasPrefix(l, "/l/") }, time.Time{})
	for _, ev := range evs {
		p.Apply(ev)
	}
	p.Finish(time.Time{})
	var lines []StorySummary
	var stories bytes.Buffer
	for _, lock := range p.Locks() {
		st := p.Story(lock, false)
		lines = append(lines, st.Summary())
		if err := renderJSON(&stories, st); err != nil {
			t.Fatal(err)
		}
	}
	told, err := p.TellAll(renderJSON)
	if err != nil {
		t.Fatal(err)
	}
	if told.From != p.from || told.To != p.to || told.WatchingFrom != p.s.FirstSync || told.From.IsZero() || told.WatchingFrom.IsZero() {
		t.Errorf("told from %v to %v, watching from %v; the pass %v, %v, %v", told.From, told.To, told.WatchingFrom, p.from, p.to, p.s.FirstSync)
	}
	if !reflect.DeepEqual(told.Lines, lines) || told.Len() != 10 {
		t.Errorf("%d stories, lines\n%+v\nwant\n%+v", told.Len(), told.Lines, lines)
	}
	var got bytes.Buffer
	for n := range told.Len() {
		if err := told.WriteStory(&got, n); err != nil {
			t.Fatal(err)
		}
	}
	if got.String() != stories.String() {
		t.Errorf("the stories written\n%s\nwant\n%s", got.String(), stories.String())
	}
}
