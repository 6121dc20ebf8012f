package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// storiesPass is a pass over ten locks under /l churning among their
// contenders, and /t beside them, spilling to a file when spill is set.
func storiesPass(t *testing.T, spill bool) *model.StoryPass {
	t.Helper()
	p := model.NewStoryPass(func(l string) bool { return strings.HasPrefix(l, "/l/") }, time.Time{})
	if spill {
		f, err := os.CreateTemp(t.TempDir(), "stories")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		p.SpillTo(f)
	}
	for _, ev := range connected() {
		p.Apply(ev)
	}
	for k := range 16 {
		for i := range 10 {
			path := fmt.Sprintf("/l/%d", i)
			at := t0.Add(-50*time.Second + time.Duration(k)*2*time.Second + time.Duration(i)*100*time.Millisecond)
			l := lockOf(path, k/3+i*100, k/3+i*100+1)
			l.ReadAt = at
			p.Apply(zkwatch.Event{Kind: zkwatch.EventLock, At: at, Path: path, Lock: l})
		}
	}
	p.Apply(storyLockAt(0, 0, 1))
	p.Finish(time.Time{})
	return p
}

// WriteStories' document, written a story at a time, is the document of
// the lines and the stories, whether the pass told each lock once (a
// spill) or twice; its text a line per lock, then each story under a rule.
func TestWriteStoriesWritesEveryStory(t *testing.T) {
	p := storiesPass(t, false)
	told, err := p.TellAll(func(w io.Writer, st model.Story) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	want := stories{Under: "/l", From: told.From, To: told.To, WatchingFrom: told.WatchingFrom, Locks: []model.StorySummary{}, Stories: []model.Story{}}
	for _, lock := range p.Locks() {
		st := p.Story(lock, false)
		want.Locks = append(want.Locks, st.Summary())
		want.Stories = append(want.Stories, st)
	}
	exp, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var e any
	_ = json.Unmarshal(exp, &e)
	for _, spill := range []bool{false, true} {
		var got bytes.Buffer
		if err := WriteStories(&got, storiesPass(t, spill), StoriesOf{Under: "/l"}, true, time.UTC); err != nil {
			t.Fatal(err)
		}
		var g any
		if err := json.Unmarshal(got.Bytes(), &g); err != nil {
			t.Fatalf("spill %v: %v\n%s", spill, err, got.String())
		}
		if !reflect.DeepEqual(g, e) || len(want.Stories) != 10 {
			t.Errorf("spill %v: WriteStories wrote\n%s\nwant\n%s", spill, got.String(), exp)
		}
		var text bytes.Buffer
		if err := WriteStories(&text, storiesPass(t, spill), StoriesOf{Under: "/l"}, false, time.UTC); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(text.String(), "\n"+strings.Repeat("─", 60)+"\nlock /l/"); n != 10 ||
			!strings.HasPrefix(text.String(), "locks at or under /l: 10\n") || !strings.Contains(text.String(), "\n  /l/0 (gozk-lock): holds 6 (1 ongoing, 5 unknown), longest 20s; waits 7") {
			t.Errorf("spill %v: the text tells %d stories:\n%s", spill, n, text.String())
		}
	}
}

// Where the pass saw no lock the document's lists are empty, never null,
// and the text says so.
func TestWriteStoriesOfNoLock(t *testing.T) {
	p := model.NewStoryPass(func(string) bool { return false }, time.Time{})
	for _, ev := range append(connected(), storyLockAt(0, 0)) {
		p.Apply(ev)
	}
	p.Finish(time.Time{})
	var js, text bytes.Buffer
	if err := WriteStories(&js, p, StoriesOf{Under: "/x"}, true, time.UTC); err != nil {
		t.Fatal(err)
	}
	if err := WriteStories(&text, p, StoriesOf{Under: "/x"}, false, time.UTC); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"locks": [],`) || !strings.HasSuffix(js.String(), "\"stories\": []\n}\n") {
		t.Errorf("the JSON:\n%s", js.String())
	}
	if !strings.Contains(text.String(), "the recording saw no lock there in that stretch") {
		t.Errorf("the text:\n%s", text.String())
	}
}
