package serve

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// castRefresh is how long a recording may show ages older than the
// screen's: a redraw whose only change is time passing (every row's age
// moves each second) is recorded at most this often, while one that
// changes what the screen says, or follows a key, is recorded at once.
const castRefresh = 30 * time.Second

// castClock is a session's clock as its UI reads it (ui.Options.Now):
// the time now, except while the recorder renders the view as it would
// have looked at an earlier time, to tell what changed from what only
// aged. Only the UI's own goroutine renders its view, and it is the
// only one pinning the clock.
type castClock struct {
	pinned atomic.Pointer[time.Time]
}

// Now is the time the UI draws with.
func (c *castClock) Now() time.Time {
	if t := c.pinned.Load(); t != nil {
		return *t
	}
	return time.Now()
}

// castScreen records a session's screen as frames of its UI's view
// rather than the bytes its terminal was sent: each frame rewrites the
// columns that differ from the last frame recorded (the whole screen
// after a resize), so that the recording shows what the screen said
// whenever it said something new, without a frame a second for ages
// ticking.
type castScreen struct {
	cast  *castFile
	clock *castClock
	typed func() time.Time // when the client last typed
	wall  func() time.Time // the time now: time.Now but in tests

	mu      sync.Mutex
	w, h    int
	lines   []string // the screen as last recorded, as the view drew it
	paint   castPainter
	at      time.Time // the clock the recorded screen reads as of
	written time.Time // when the last frame was written
	full    bool      // the next frame repaints the whole screen
	same    string    // the last view found to say what was recorded
	aged    string    // the last view found to have only aged since it
}

func newCastScreen(c *castFile, clock *castClock, typed func() time.Time, w, h int) *castScreen {
	return &castScreen{cast: c, clock: clock, typed: typed, wall: time.Now, w: w, h: h, full: true}
}

// resize records the terminal's new size; the next frame repaints all.
func (s *castScreen) resize(w, h int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cast.resize(w, h)
	s.w, s.h, s.full = w, h, true
}

// view is m's view now. It is recorded as it is if a key was typed
// since the last frame, or the recorded ages are castRefresh old. Else,
// what it says anew is recorded as it reads at the recorded screen's
// time, so that a change rewrites its own columns and not every row
// whose age moved; a view that says nothing new is not recorded.
func (s *castScreen) view(m tea.Model) string {
	now := s.wall()
	s.clock.pinned.Store(&now)
	v := m.View()
	s.clock.pinned.Store(nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	keyed := s.typed().After(s.written)
	if !s.full && (v == s.same || v == s.aged && !keyed && now.Sub(s.at) < castRefresh) {
		// Drawn again unchanged (most redraws are): it still says what
		// was recorded, or has only aged, without reading it to know.
		return v
	}
	lines := s.screen(v)
	if s.full || (!slices.Equal(lines, s.lines) && (keyed || now.Sub(s.at) >= castRefresh)) {
		s.frame(lines)
		s.lines, s.at, s.written, s.full, s.same, s.aged = lines, now, now, false, v, ""
		return v
	}
	if slices.Equal(lines, s.lines) {
		s.same = v
		return v
	}
	s.clock.pinned.Store(&s.at)
	aged := s.screen(m.View())
	s.clock.pinned.Store(nil)
	if slices.Equal(aged, s.lines) {
		s.aged = v
		return v
	}
	s.frame(aged)
	s.lines, s.written, s.same, s.aged = aged, now, "", ""
	return v
}

// screen is v's lines the terminal shows: the renderer keeps its last h.
// They are compared as drawn, not cut at the terminal's width: a line
// that changed past it makes a frame that writes nothing (castCells
// cuts it).
func (s *castScreen) screen(v string) []string {
	lines := strings.Split(v, "\n")
	if s.h > 0 && len(lines) > s.h {
		lines = lines[len(lines)-s.h:]
	}
	return lines
}

// frame writes what turns the recorded screen into lines: the columns
// that changed in each row whose line changed, as castPainter draws
// them; the whole screen after a resize. The recorded rows are read
// again from their lines rather than kept column by column: a frame
// reads a few of them, and a screen of cells would weigh on every
// session.
func (s *castScreen) frame(lines []string) {
	if s.full {
		s.paint.clear()
	}
	for i := range max(len(lines), len(s.lines)) {
		var old, cur []castCell
		if !s.full && i < len(s.lines) {
			if i < len(lines) && s.lines[i] == lines[i] {
				continue
			}
			old = castCells(s.lines[i], s.w)
		}
		if i < len(lines) {
			cur = castCells(lines[i], s.w)
		}
		s.paint.row(i+1, old, cur)
	}
	if out := s.paint.take(); out != "" {
		s.cast.output([]byte(out))
	}
}

// castModel is a UI whose every view goes through its session's
// recorder.
type castModel struct {
	m tea.Model
	s *castScreen
}

func (c castModel) Init() tea.Cmd { return c.m.Init() }

func (c castModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := c.m.Update(msg)
	return castModel{m: m, s: c.s}, cmd
}

func (c castModel) View() string { return c.s.view(c.m) }
