package serve

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// agingView is a screen of locks whose ages tick with its clock, and
// whose holder can change.
type agingView struct {
	clock  *castClock
	since  time.Time
	holder *string
}

func (v agingView) Init() tea.Cmd                       { return nil }
func (v agingView) Update(tea.Msg) (tea.Model, tea.Cmd) { return v, nil }
func (v agingView) View() string {
	age := v.clock.Now().Sub(v.since).Truncate(time.Second)
	return fmt.Sprintf("LOCK     HOLDER  FOR\n/orders  %-6s  %s\n/billing  app-2   %s\nstatus: ok", *v.holder, age, age+time.Hour)
}

// Ages ticking are recorded every castRefresh, not each second; a
// change of holder is recorded at once, its changed column alone, read
// at the last frame's time (not every row whose age moved); after a key,
// the screen is recorded as it was shown then, ages and all.
func TestCastScreenRecordsChangesNotAgeing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.cast")
	t0 := time.Now()
	c, err := createCast(path, castHeader{Width: 40, Height: 10}, t0, 0)
	if err != nil {
		t.Fatal(err)
	}
	clock := &castClock{}
	wall := t0
	typed := t0.Add(-time.Minute)
	s := newCastScreen(c, clock, func() time.Time { return typed }, 40, 10)
	s.wall = func() time.Time { return wall }
	holder := "app-1"
	m := castModel{m: agingView{clock: clock, since: t0, holder: &holder}, s: s}
	frames := func() int {
		_, evs := readCast(t, path)
		return len(evs)
	}

	m.View() // the first frame: the whole screen
	for range 29 {
		wall = wall.Add(time.Second)
		if v := m.View(); !strings.Contains(v, "/orders  app-1") {
			t.Fatalf("view %q", v)
		}
	}
	if n := frames(); n != 1 {
		t.Fatalf("%d frames in 29 s of ageing alone, want 1", n)
	}
	wall = wall.Add(time.Second)
	aged := m.View()
	if n := frames(); n != 2 {
		t.Fatalf("%d frames after 30 s of ageing, want 2", n)
	}
	if h, evs := readCast(t, path); playCast(t, h, evs, evs[1].t).diff(shownScreen(t, 40, 10, aged)) != "" {
		t.Fatalf("the screen after 30 s of ageing is not the one shown: %s", playCast(t, h, evs, evs[1].t).diff(shownScreen(t, 40, 10, aged)))
	}
	wall = wall.Add(time.Second)
	holder = "app-7"
	m.View()
	h, evs := readCast(t, path)
	if len(evs) != 3 || ansi.Strip(evs[2].data) != "7" {
		t.Fatalf("the holder's change writes %q, not its one changed column", evs[len(evs)-1].data)
	}
	if row := playCast(t, h, evs, evs[2].t).text()[1]; row != "/orders  app-7   30s" {
		t.Fatalf("the holder's change shows %q", row)
	}
	wall = wall.Add(time.Second)
	typed = wall
	wall = wall.Add(10 * time.Millisecond)
	v := m.View()
	_, evs = readCast(t, path)
	if len(evs) != 4 {
		t.Fatalf("%d frames after a key, want 4", len(evs))
	}
	if d := playCast(t, h, evs, evs[3].t).diff(shownScreen(t, 40, 10, v)); d != "" {
		t.Fatalf("the screen after the key is not the one shown: %s", d)
	}
	if !strings.Contains(v, "/orders  app-7   32s") {
		t.Fatalf("the view after the key: %q", v)
	}
	if _, err := c.close(); err != nil {
		t.Fatal(err)
	}
}
