package serve

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
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

// castRow matches a frame's move to the start of a row.
var castRow = regexp.MustCompile(`\x1b\[(\d+);1H`)

// castScreenAt is the screen the recording's frames drew up to at
// (inclusive): rows by number, from the frames castScreen writes.
func castScreenAt(evs []castEvent, at float64) map[int]string {
	rows := map[int]string{}
	for _, e := range evs {
		if e.kind != "o" || e.t > at {
			continue
		}
		if strings.Contains(e.data, "\x1b[2J") {
			rows = map[int]string{}
		}
		idx := castRow.FindAllStringSubmatchIndex(e.data, -1)
		for i, m := range idx {
			row, _ := strconv.Atoi(e.data[m[2]:m[3]])
			end := len(e.data)
			if i+1 < len(idx) {
				end = idx[i+1][0]
			}
			text := strings.TrimSuffix(e.data[m[1]:end], "\x1b[0m\x1b[K")
			rows[row] = text
		}
	}
	return rows
}

// Ages ticking are recorded every castRefresh, not each second; a
// change of holder is recorded at once, its line alone, read at the last
// frame's time (not every row whose age moved); after a key, the screen
// is recorded as it was shown then, ages and all.
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
	m.View()
	if n := frames(); n != 2 {
		t.Fatalf("%d frames after 30 s of ageing, want 2", n)
	}
	wall = wall.Add(time.Second)
	holder = "app-7"
	m.View()
	_, evs := readCast(t, path)
	if len(evs) != 3 || !strings.Contains(evs[2].data, "/orders  app-7   30s") || strings.Contains(evs[2].data, "/billing") ||
		strings.Contains(evs[2].data, "status") {
		t.Fatalf("the holder's change: %q", evs[len(evs)-1].data)
	}
	wall = wall.Add(time.Second)
	typed = wall
	wall = wall.Add(10 * time.Millisecond)
	m.View()
	_, evs = readCast(t, path)
	if len(evs) != 4 {
		t.Fatalf("%d frames after a key, want 4", len(evs))
	}
	screen := castScreenAt(evs, evs[3].t)
	if screen[2] != "/orders  app-7   32s" || screen[4] != "status: ok" {
		t.Fatalf("the screen after the key: %v", screen)
	}
	if _, err := c.close(); err != nil {
		t.Fatal(err)
	}
}
