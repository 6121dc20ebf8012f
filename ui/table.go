package ui

import "strings"

// column is one column of a table. Columns narrower terminals cannot hold
// are dropped, highest drop first; drop 0 is never dropped.
type column struct {
	title string
	width int  // cells; for a flex column, its minimum
	flex  bool // takes the room the others leave
	right bool // right-aligned
	tail  bool // a path: cut in the middle, keeping its last elements and its start
	node  bool // a node name: cut as fitNode does
	// whole marks a figure (a duration, a count): never cut, as wide as
	// its widest cell; dropped rather than cut when there is no room.
	whole bool
	// min is the narrowest a text column may be cut to before columns are
	// dropped; 0 keeps it at width.
	min int
	// most is the widest a text column grows to, when its cells want it
	// and the table has room, before the flex column takes the rest; 0
	// keeps it at width.
	most int
	drop int
	// want is the widest cell's width, set by sizeToContent; 0 when not
	// measured.
	want int
}

// sizeToContent measures rows against cols: a figure column is as wide as
// its widest cell; another column shrinks to its widest cell (never below
// its title) and grows to it when the table has room, so a column of short
// words does not take cells a path needs, nor a path the cells a number
// needs.
func sizeToContent(cols []column, rows ...[]cell) []column {
	out := append([]column(nil), cols...)
	for i := range out {
		n := width(out[i].title)
		for _, r := range rows {
			if i < len(r) {
				n = max(n, width(r[i].text))
			}
		}
		out[i].want = n
		switch {
		case out[i].whole:
			out[i].width = n
		case !out[i].flex:
			out[i].width = min(out[i].width, n)
			out[i].min = min(out[i].min, out[i].width)
		}
	}
	return out
}

// layout gives each column its width for a table w cells wide, with one
// space between columns; a dropped column gets 0. When the columns do not
// fit, text columns with a min are cut to it first, then columns are
// dropped; room left over goes to the text columns up to what their cells
// want, then to the flex column (a path), which is cut last.
func layout(cols []column, w int) []int {
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = c.width
	}
	total := func() int {
		n, shown := 0, 0
		for _, x := range widths {
			if x > 0 {
				n += x
				shown++
			}
		}
		return n + max(shown-1, 0)
	}
	if total() > w {
		for i, c := range cols {
			if c.min > 0 && !c.flex && !c.whole {
				widths[i] = min(widths[i], c.min)
			}
		}
	}
	for total() > w {
		worst := -1
		for i, c := range cols {
			if widths[i] > 0 && c.drop > 0 && (worst < 0 || c.drop > cols[worst].drop) {
				worst = i
			}
		}
		if worst < 0 {
			break
		}
		widths[worst] = 0
	}
	spare := w - total()
	for i, c := range cols {
		if grow := min(c.want, c.most) - widths[i]; spare > 0 && widths[i] > 0 && !c.flex && !c.whole && grow > 0 {
			more := min(spare, grow)
			widths[i] += more
			spare -= more
		}
	}
	flex := -1
	for i, c := range cols {
		if c.flex && widths[i] > 0 {
			flex = i
			break
		}
	}
	if flex >= 0 {
		widths[flex] = max(widths[flex]+spare, 1)
	}
	return widths
}

// cell is one table cell: plain text and how to paint it.
type cell struct {
	text string
	p    paint
}

// row lays cells out in the columns' widths. A selected row is painted as
// a whole, so its highlight is unbroken; otherwise each cell is painted.
func row(cols []column, widths []int, cells []cell, selected bool, sel paint) string {
	var b strings.Builder
	first := true
	for i, c := range cols {
		if widths[i] <= 0 || i >= len(cells) {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		var text string
		switch {
		case c.right:
			text = fitRight(cells[i].text, widths[i])
		case c.node:
			text = fitNode(cells[i].text, widths[i])
		case c.tail:
			text = fitPath(cells[i].text, widths[i])
		default:
			text = fit(cells[i].text, widths[i])
		}
		if selected {
			b.WriteString(text)
			continue
		}
		// Paint the text, not the padding.
		trimmed := strings.TrimRight(text, " ")
		b.WriteString(cells[i].p.s(trimmed))
		b.WriteString(text[len(trimmed):])
	}
	if selected {
		return sel.s(b.String())
	}
	return b.String()
}

// headerRow renders the columns' titles.
func headerRow(cols []column, widths []int, hdr paint) string {
	cells := make([]cell, len(cols))
	for i, c := range cols {
		cells[i] = cell{text: c.title, p: hdr}
	}
	return row(cols, widths, cells, false, paint{})
}
