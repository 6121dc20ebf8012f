package serve

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// setView is a UI whose view is whatever the test set last.
type setView struct{ v *string }

func (s setView) Init() tea.Cmd                       { return nil }
func (s setView) Update(tea.Msg) (tea.Model, tea.Cmd) { return s, nil }
func (s setView) View() string                        { return *s.v }

// castReplayer records views typed one after another (each after a key,
// so each is recorded as shown) and replays the recording after each.
type castReplayer struct {
	t    *testing.T
	path string
	s    *castScreen
	m    castModel
	view *string
	wall time.Time
	w, h int
	// screen is the recording's first played bytes played.
	screen *termScreen
	played int
}

func newCastReplayer(t *testing.T, w, h int) *castReplayer {
	r := &castReplayer{t: t, path: filepath.Join(t.TempDir(), "a.cast"), view: new(string), wall: time.Now(), w: w, h: h}
	c, err := createCast(r.path, castHeader{Width: w, Height: h}, r.wall, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.close() })
	r.s = newCastScreen(c, &castClock{}, func() time.Time { return r.wall }, w, h)
	r.s.wall = func() time.Time { return r.wall }
	r.m = castModel{m: setView{v: r.view}, s: r.s}
	r.screen = newTermScreen(t, w, h)
	return r
}

// show has the UI draw view, and checks that the recording, played to
// its end, shows what the terminal was shown, that is shown (the view
// itself, but for a view holding what a recording never writes).
// It returns the events this view added.
func (r *castReplayer) show(step int, view, shown string) []castEvent {
	r.t.Helper()
	*r.view = view
	r.wall = r.wall.Add(time.Millisecond)
	if v := r.m.View(); v != view {
		r.t.Fatalf("the recorder changed the view: %q", v)
	}
	b, err := os.ReadFile(r.path)
	if err != nil {
		r.t.Fatal(err)
	}
	var evs []castEvent
	for _, line := range strings.SplitAfter(string(b[r.played:]), "\n") {
		var ev [3]any
		if line == "" || r.played == 0 && strings.HasPrefix(line, "{") {
			r.played += len(line)
			continue
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			r.t.Fatalf("event %q: %v", line, err)
		}
		e := castEvent{t: ev[0].(float64), kind: ev[1].(string), data: ev[2].(string)}
		r.screen.play(e)
		evs = append(evs, e)
		r.played += len(line)
	}
	if d := r.screen.diff(shownScreen(r.t, r.w, r.h, shown)); d != "" {
		r.t.Fatalf("step %d: the recording does not replay the screen shown: %s", step, d)
	}
	return evs
}

func (r *castReplayer) resize(w, h int) {
	r.s.resize(w, h)
	r.w, r.h = w, h
}

// A recording of a screen whose columns change here and there, in
// styles as Lip Gloss writes them, with wide characters, lines past the
// width, rows coming and going and resizes, plays back, frame after
// frame, as exactly the screen the terminal was shown.
func TestCastFramesReplayTheScreenShown(t *testing.T) {
	r := newCastReplayer(t, 40, 12)
	lg := lipgloss.NewRenderer(io.Discard)
	lg.SetColorProfile(termenv.TrueColor)
	styles := []lipgloss.Style{lg.NewStyle(), lg.NewStyle().Bold(true).Foreground(lipgloss.Color("203")),
		lg.NewStyle().Reverse(true), lg.NewStyle().Background(lipgloss.Color("#203040")),
		lg.NewStyle().Foreground(lipgloss.Color("8")).Underline(true), lg.NewStyle().Faint(true).Italic(true)}
	glyphs := []string{"a", "b", "x", "1", " ", " ", "│", "●", "漢", "字", "❄"}
	type cell struct{ glyph, style int }
	rng := rand.New(rand.NewPCG(7, 11))
	var grid [][]cell
	render := func() string {
		lines := make([]string, len(grid))
		for y, row := range grid {
			var b strings.Builder
			for x := 0; x < len(row); {
				run := x
				var text strings.Builder
				for ; run < len(row) && row[run].style == row[x].style; run++ {
					text.WriteString(glyphs[row[run].glyph])
				}
				b.WriteString(styles[row[x].style].Render(text.String()))
				x = run
			}
			lines[y] = b.String()
		}
		return strings.Join(lines, "\n")
	}
	for step := range 600 {
		switch {
		case step%150 == 149:
			sizes := [][2]int{{30, 8}, {50, 14}, {40, 12}}
			sz := sizes[(step/150)%len(sizes)]
			r.resize(sz[0], sz[1])
		case step%20 == 0 || len(grid) == 0:
			grid = make([][]cell, rng.IntN(r.h+3))
			for y := range grid {
				grid[y] = make([]cell, rng.IntN(r.w+6))
				for x := range grid[y] {
					grid[y][x] = cell{rng.IntN(len(glyphs)), rng.IntN(len(styles))}
				}
			}
		default:
			for range 1 + rng.IntN(4) {
				y := rng.IntN(len(grid))
				switch k := rng.IntN(10); {
				case k == 0:
					grid[y] = grid[y][:rng.IntN(len(grid[y])+1)]
				case k == 1:
					grid[y] = append(grid[y], cell{rng.IntN(len(glyphs)), rng.IntN(len(styles))})
				case len(grid[y]) > 0:
					x := rng.IntN(len(grid[y]))
					grid[y][x] = cell{rng.IntN(len(glyphs)), rng.IntN(len(styles))}
				}
			}
		}
		v := render()
		r.show(step, v, v)
	}
}

// Escape sequences and control characters in a view (node data the UI
// let through) never reach the recording: it shows the text without
// them.
func TestCastFramesWriteNoEscapesFromTheView(t *testing.T) {
	r := newCastReplayer(t, 40, 6)
	r.show(0, "LOCK\n/orders  held", "LOCK\n/orders  held")
	evs := r.show(1, "LOCK\n/orders \x1b]0;evil\x07held\x1b[2J by \x1b[5;5Hx\x07\x1b[?1049l\x1b[>4;1m\x1bc\x08\x7f",
		"LOCK\n/orders held by x")
	for _, e := range evs {
		for _, bad := range []string{"evil", "\x07", "\x1b]", "1049", "\x1b[>", "\x1bc", "\x08", "\x7f", "\x1b[5;5H"} {
			if strings.Contains(e.data, bad) {
				t.Fatalf("the recording writes %q: %q", bad, e.data)
			}
		}
	}
}
