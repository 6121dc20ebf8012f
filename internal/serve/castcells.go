package serve

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// castGap is the most unchanged columns a frame rewrites rather than
// move the cursor past them: a move costs about as many bytes in the
// file (its escape written \u001b) as a few columns of text.
const castGap = 4

// castCell is one column of a recorded screen: the grapheme drawn there
// ("" on the right half of a wide one) and its pen, the SGR sequences
// in force since the last reset ("" for none).
type castCell struct {
	text, pen string
}

// castBlank is a column nothing was drawn in.
var castBlank = castCell{text: " "}

// castCells is line as w columns of a terminal (its own width if w is
// 0): its graphemes with their pens, a wide one over two columns,
// blanks after its end. Only SGR sequences are kept: any other sequence
// or control character in line is dropped, so that a frame moves the
// cursor and clears only where the recorder says.
func castCells(line string, w int) []castCell {
	n := w
	if n == 0 {
		n = len(line) // at least its width
	}
	row := make([]castCell, 0, n)
	pen := ""
	state := byte(0)
	for len(line) > 0 {
		seq, width, n, next := ansi.DecodeSequence(line, state, nil)
		state, line = next, line[n:]
		switch {
		case width == 0:
			if p, ok := sgrParams(seq); ok {
				if p == "" || p == "0" {
					pen = ""
				} else {
					pen += seq
				}
			}
		case w > 0 && len(row)+width > w:
			line = "" // the terminal shows no more of it
		default:
			row = append(row, castCell{text: seq, pen: pen})
			for range width - 1 {
				row = append(row, castCell{pen: pen})
			}
		}
	}
	for len(row) < w {
		row = append(row, castBlank)
	}
	return row
}

// sgrParams is the parameters of seq if it is an SGR sequence (CSI,
// digits and separators, m).
func sgrParams(seq string) (string, bool) {
	p, ok := strings.CutPrefix(seq, "\x1b[")
	if !ok {
		return "", false
	}
	p, ok = strings.CutSuffix(p, "m")
	if !ok {
		return "", false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return "", false
		}
	}
	return p, true
}

// castPainter writes what turns one recorded screen into the next, as
// a terminal renderer does: the changed columns of each changed row,
// the cursor moved to them. pen is the terminal's as the recording
// leaves it, carried from frame to frame.
type castPainter struct {
	b   strings.Builder
	pen string
}

// row writes what turns old into cur on screen row y (from 1). A row
// that is shorter reads as blanks.
func (p *castPainter) row(y int, old, cur []castCell) {
	at := func(r []castCell, i int) castCell {
		if i < len(r) {
			return r[i]
		}
		return castBlank
	}
	n := max(len(old), len(cur))
	ink := len(cur) // after the last column that is not blank
	for ink > 0 && cur[ink-1] == castBlank {
		ink--
	}
	for i := 0; i < n; {
		if at(old, i) == at(cur, i) {
			i++
			continue
		}
		// A span never starts on a wide character's right half: that
		// column is the same as before only if its left half is.
		start, end := i, i+1
		for {
			for end < n && at(old, end) != at(cur, end) {
				end++
			}
			gap := end
			for gap < n && gap-end <= castGap && at(old, gap) == at(cur, gap) {
				gap++
			}
			if gap == n || gap-end > castGap {
				break
			}
			end = gap
		}
		p.move(y, start+1)
		for j := start; j < min(end, ink); j++ {
			p.cell(cur[j])
		}
		if end > ink {
			// The rest of the row is blank: clear it, in no colour.
			p.setPen("")
			p.b.WriteString("\x1b[K")
			break
		}
		i = end
	}
}

// clear writes the whole screen blank.
func (p *castPainter) clear() {
	p.b.WriteString("\x1b[0m\x1b[?25l\x1b[H\x1b[2J")
	p.pen = ""
}

func (p *castPainter) move(y, x int) {
	p.b.WriteString("\x1b[" + strconv.Itoa(y))
	if x > 1 {
		p.b.WriteString(";" + strconv.Itoa(x))
	}
	p.b.WriteByte('H')
}

func (p *castPainter) cell(c castCell) {
	if c.text == "" {
		return // drawn with the wide character on its left
	}
	p.setPen(c.pen)
	p.b.WriteString(c.text)
}

// setPen makes pen the terminal's: the SGR sequences it adds to the one
// in force, or a reset and all of them.
func (p *castPainter) setPen(pen string) {
	switch {
	case pen == p.pen:
		return
	case strings.HasPrefix(pen, p.pen):
		p.b.WriteString(pen[len(p.pen):])
	default:
		p.b.WriteString("\x1b[0m" + pen)
	}
	p.pen = pen
}

// take returns what was written since the last take.
func (p *castPainter) take() string {
	s := p.b.String()
	p.b.Reset()
	return s
}
