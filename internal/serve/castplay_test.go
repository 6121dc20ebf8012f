package serve

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// termScreen is a minimal terminal for what a recording's frames may
// write: text (a wide character over two columns, overwriting half of
// one erasing the other half), the cursor moved (CUP) and hidden, a
// row's end or the screen cleared (EL, ED 2) in the pen's background,
// SGR read into what each cell looks like, and CR LF. Anything else
// fails the test, as does text written past a row's end: a recording
// holds nothing else.
type termScreen struct {
	t     testing.TB
	w, h  int
	cells [][]termCell
	x, y  int
	pen   termPen
}

// termCell is one column: its grapheme ("" on a wide one's right half)
// and how it looks.
type termCell struct {
	text string
	pen  termPen
}

// termPen is what SGR sets, each attribute by itself, whatever
// sequences set it.
type termPen struct {
	bold, faint, italic, blink, reverse, conceal, strike bool
	underline, fg, bg, ul                                string
}

func newTermScreen(t testing.TB, w, h int) *termScreen {
	s := &termScreen{t: t}
	s.resize(w, h)
	return s
}

// resize keeps what fits, as a player does on a resize event.
func (s *termScreen) resize(w, h int) {
	cells := make([][]termCell, h)
	for y := range cells {
		cells[y] = make([]termCell, w)
		for x := range cells[y] {
			cells[y][x] = termCell{text: " "}
			if y < len(s.cells) && x < len(s.cells[y]) {
				cells[y][x] = s.cells[y][x]
			}
		}
	}
	s.w, s.h, s.cells = w, h, cells
	s.x, s.y = min(s.x, w-1), min(s.y, h-1)
}

// write plays out to the screen.
func (s *termScreen) write(out string) {
	s.t.Helper()
	state := byte(0)
	for len(out) > 0 {
		seq, width, n, next := ansi.DecodeSequence(out, state, nil)
		state, out = next, out[n:]
		switch {
		case width > 0:
			s.print(seq, width)
		case seq == "\r":
			s.x = 0
		case seq == "\n":
			if s.y++; s.y == s.h {
				s.cells = append(s.cells[1:], make([]termCell, s.w))
				s.erase(s.h-1, 0)
				s.y--
			}
		case strings.HasPrefix(seq, "\x1b["):
			s.csi(seq[2:len(seq)-1], seq[len(seq)-1])
		default:
			s.t.Fatalf("the recording writes %q", seq)
		}
	}
}

func (s *termScreen) print(text string, width int) {
	s.t.Helper()
	if s.x+width > s.w {
		s.t.Fatalf("the recording writes %q past the end of row %d (column %d of %d)", text, s.y+1, s.x+1, s.w)
	}
	row := s.cells[s.y]
	for x := s.x; x < s.x+width; x++ {
		s.breakWide(s.y, x)
	}
	row[s.x] = termCell{text: text, pen: s.pen}
	for x := s.x + 1; x < s.x+width; x++ {
		row[x] = termCell{pen: s.pen}
	}
	s.x += width
}

// breakWide blanks the other half of a wide character at (y, x).
func (s *termScreen) breakWide(y, x int) {
	row := s.cells[y]
	if row[x].text == "" && x > 0 {
		row[x-1] = termCell{text: " "}
	}
	if x+1 < s.w && row[x+1].text == "" {
		row[x+1] = termCell{text: " "}
	}
}

// erase blanks row y from column x, in the pen's background.
func (s *termScreen) erase(y, x int) {
	if x < s.w {
		s.breakWide(y, x)
	}
	for ; x < s.w; x++ {
		s.cells[y][x] = termCell{text: " ", pen: termPen{bg: s.pen.bg}}
	}
}

func (s *termScreen) csi(params string, final byte) {
	s.t.Helper()
	num := func(p string) int {
		if p == "" {
			return 1
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			s.t.Fatalf("the recording writes a CSI with parameter %q", p)
		}
		return n
	}
	switch {
	case final == 'H':
		y, x, _ := strings.Cut(params, ";")
		row, col := num(y), num(x)
		if row < 1 || row > s.h || col < 1 || col > s.w {
			s.t.Fatalf("the recording moves the cursor to %d;%d on a %dx%d screen", row, col, s.w, s.h)
		}
		s.y, s.x = row-1, col-1
	case final == 'K' && (params == "" || params == "0"):
		s.erase(s.y, min(s.x, s.w))
	case final == 'J' && params == "2":
		for y := range s.cells {
			s.erase(y, 0)
		}
	case final == 'l' && params == "?25":
	case final == 'm':
		s.sgr(params)
	default:
		s.t.Fatalf("the recording writes CSI %q %c", params, final)
	}
}

// sgr sets the pen as a terminal reads params.
func (s *termScreen) sgr(params string) {
	s.t.Helper()
	ps := strings.Split(params, ";")
	colour := func(i int) (string, int) {
		// 38;5;n and 38;2;r;g;b take the parameters after them.
		if i+1 < len(ps) && ps[i+1] == "5" && i+2 < len(ps) {
			return "5;" + ps[i+2], i + 2
		}
		if i+1 < len(ps) && ps[i+1] == "2" && i+4 < len(ps) {
			return "2;" + strings.Join(ps[i+2:i+5], ";"), i + 4
		}
		s.t.Fatalf("the recording writes SGR %q", params)
		return "", i
	}
	for i := 0; i < len(ps); i++ {
		p := ps[i]
		if style, ok := strings.CutPrefix(p, "4:"); ok {
			s.pen.underline = style
			continue
		}
		n, err := strconv.Atoi(p)
		if p == "" {
			n, err = 0, nil
		}
		if err != nil {
			s.t.Fatalf("the recording writes SGR %q", params)
		}
		switch {
		case n == 0:
			s.pen = termPen{}
		case n == 1:
			s.pen.bold = true
		case n == 2:
			s.pen.faint = true
		case n == 3:
			s.pen.italic = true
		case n == 4:
			s.pen.underline = "1"
		case n == 5 || n == 6:
			s.pen.blink = true
		case n == 7:
			s.pen.reverse = true
		case n == 8:
			s.pen.conceal = true
		case n == 9:
			s.pen.strike = true
		case n == 21:
			s.pen.underline = "2"
		case n == 22:
			s.pen.bold, s.pen.faint = false, false
		case n == 23:
			s.pen.italic = false
		case n == 24:
			s.pen.underline = ""
		case n == 25:
			s.pen.blink = false
		case n == 27:
			s.pen.reverse = false
		case n == 28:
			s.pen.conceal = false
		case n == 29:
			s.pen.strike = false
		case n >= 30 && n <= 37, n >= 90 && n <= 97:
			s.pen.fg = p
		case n == 38:
			s.pen.fg, i = colour(i)
		case n == 39:
			s.pen.fg = ""
		case n >= 40 && n <= 47, n >= 100 && n <= 107:
			s.pen.bg = p
		case n == 48:
			s.pen.bg, i = colour(i)
		case n == 49:
			s.pen.bg = ""
		case n == 58:
			s.pen.ul, i = colour(i)
		case n == 59:
			s.pen.ul = ""
		default:
			s.t.Fatalf("the recording writes SGR %q", params)
		}
	}
}

// text is the screen's rows without their looks, trailing blanks cut.
func (s *termScreen) text() []string {
	rows := make([]string, s.h)
	for y, row := range s.cells {
		var b strings.Builder
		for _, c := range row {
			b.WriteString(c.text)
		}
		rows[y] = strings.TrimRight(b.String(), " ")
	}
	return rows
}

// diff says where s and o differ, "" if nowhere.
func (s *termScreen) diff(o *termScreen) string {
	if s.w != o.w || s.h != o.h {
		return "sizes " + strconv.Itoa(s.w) + "x" + strconv.Itoa(s.h) + " and " + strconv.Itoa(o.w) + "x" + strconv.Itoa(o.h)
	}
	for y := range s.cells {
		for x := range s.cells[y] {
			if a, b := s.cells[y][x], o.cells[y][x]; a != b {
				return "row " + strconv.Itoa(y+1) + " column " + strconv.Itoa(x+1) + ": " + strconv.Quote(a.text) + " " +
					strconv.Quote(fmtPen(a.pen)) + " against " + strconv.Quote(b.text) + " " + strconv.Quote(fmtPen(b.pen)) +
					"\n" + strings.Join(s.text(), "\n") + "\n--- against ---\n" + strings.Join(o.text(), "\n")
			}
		}
	}
	return ""
}

func fmtPen(p termPen) string {
	return strings.TrimSpace(strings.Join([]string{flag(p.bold, "bold"), flag(p.faint, "faint"), flag(p.italic, "italic"),
		flag(p.blink, "blink"), flag(p.reverse, "reverse"), flag(p.conceal, "conceal"), flag(p.strike, "strike"),
		"u=" + p.underline, "fg=" + p.fg, "bg=" + p.bg, "ul=" + p.ul}, " "))
}

func flag(on bool, name string) string {
	if on {
		return name
	}
	return ""
}

// shownScreen is the screen a terminal shows for a view's lines, drawn
// whole as Bubble Tea's renderer draws them: its last h lines, each cut
// at the width.
func shownScreen(t testing.TB, w, h int, view string) *termScreen {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		lines = lines[len(lines)-h:]
	}
	s := newTermScreen(t, w, h)
	for i, l := range lines {
		s.write("\x1b[" + strconv.Itoa(i+1) + ";1H" + ansi.Truncate(l, w, "") + "\x1b[0m")
	}
	return s
}

// playCast is the screen a player shows after the events up to at
// (inclusive), on a terminal of the header's size.
func playCast(t testing.TB, h castHeader, evs []castEvent, at float64) *termScreen {
	t.Helper()
	s := newTermScreen(t, h.Width, h.Height)
	for _, e := range evs {
		if e.t > at {
			break
		}
		s.play(e)
	}
	return s
}

// play plays one event.
func (s *termScreen) play(e castEvent) {
	s.t.Helper()
	switch e.kind {
	case "o":
		s.write(e.data)
	case "r":
		ws, hs, _ := strings.Cut(e.data, "x")
		w, err1 := strconv.Atoi(ws)
		h, err2 := strconv.Atoi(hs)
		if err1 != nil || err2 != nil {
			s.t.Fatalf("resize event %q", e.data)
		}
		s.resize(w, h)
	}
}
