package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
)

// Layout works on plain, already escaped text (model.Printable) and paints
// it last, so widths are measured on what the terminal will show.

const ellipsis = "…"

// width returns the cells s takes on screen.
func width(s string) int { return ansi.StringWidth(s) }

// fit pads or cuts plain text s to exactly w cells, marking a cut with an
// ellipsis at the end.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := width(s)
	switch {
	case n == w:
		return s
	case n < w:
		return s + strings.Repeat(" ", w-n)
	}
	return pad(ansi.Truncate(s, w, ellipsis), w)
}

// fitRight is fit with the text aligned right.
func fitRight(s string, w int) string {
	if n := width(s); n < w {
		return strings.Repeat(" ", w-n) + s
	}
	return fit(s, w)
}

// fitTail pads or cuts s to w cells, keeping its end: for paths, whose last
// elements tell them apart.
func fitTail(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := width(s)
	if n <= w {
		return fit(s, w)
	}
	if w == 1 {
		return ellipsis
	}
	return pad(ansi.TruncateLeft(s, n-w+1, ellipsis), w)
}

// fitPath pads or cuts an escaped path to w cells, cutting in the middle:
// as many whole last elements as fit (at least the tail of the last), and
// the path's start in what is left, "/services/sc…/leader-lock".
func fitPath(s string, w int) string {
	n := width(s)
	if n <= w || w < 8 {
		return fitTail(s, w)
	}
	keep := 0 // bytes at the end kept whole: "/a/b"
	for i := len(s) - 1; i > 0; i-- {
		if s[i] == '/' {
			if width(s[i:]) > w-2 {
				break
			}
			keep = len(s) - i
		}
	}
	if keep == 0 {
		return fitTail(s, w)
	}
	head := w - 1 - width(s[len(s)-keep:])
	return pad(ansi.Truncate(s[:len(s)-keep], head, "")+ellipsis+s[len(s)-keep:], w)
}

// fitNode pads or cuts a shortened node name (model.ShortNode) to w cells.
// What tells contenders apart is at the end, kind and sequence, so the
// client's identifier goes first, then the start.
func fitNode(s string, w int) string {
	if width(s) <= w {
		return fit(s, w)
	}
	if i := strings.Index(s, ellipsis); i >= 0 && width(s[i:]) <= w {
		// Keep the identifier's start only when enough of it is left to
		// tell clients apart (past Curator's "_c_").
		if keep := ansi.Truncate(s[:i], w-width(s[i:]), ""); width(keep) >= 7 {
			return fit(keep+s[i:], w)
		}
		return fit(s[i:], w)
	}
	return fitTail(s, w)
}

// pad fills s with spaces to w cells; it never cuts.
func pad(s string, w int) string {
	if n := width(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s
}

// clip cuts painted text s to at most w cells; escape sequences are kept.
func clip(s string, w int) string {
	if width(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, ellipsis)
}

// wrap breaks plain text into lines of at most w cells, at spaces where it
// can and anywhere when a word is longer than a line. Lines after the first
// start with indent.
func wrap(s string, w int, indent string) []string {
	if w <= len(indent)+1 {
		return []string{fit(s, max(w, 0))}
	}
	var out []string
	first := true
	for s != "" {
		limit := w
		if !first {
			limit = w - width(indent)
		}
		if width(s) <= limit {
			out = append(out, lineWithIndent(s, indent, first))
			break
		}
		cut := ansi.Truncate(s, limit, "")
		if i := strings.LastIndexByte(cut, ' '); i > 0 && s[len(cut)] != ' ' {
			cut = cut[:i]
		}
		out = append(out, lineWithIndent(cut, indent, first))
		s = strings.TrimLeft(s[len(cut):], " ")
		first = false
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}

func lineWithIndent(s, indent string, first bool) string {
	if first {
		return s
	}
	return indent + s
}

// window returns the first index of a view of h rows over n that keeps
// cursor visible, moving the previous first index as little as it can.
func window(first, cursor, h, n int) int {
	if h <= 0 || n <= h {
		return 0
	}
	if cursor < first {
		first = cursor
	}
	if cursor >= first+h {
		first = cursor - h + 1
	}
	return max(0, min(first, n-h))
}

// clamp keeps i within [0, n).
func clamp(i, n int) int {
	if n <= 0 || i < 0 {
		return 0
	}
	if i >= n {
		return n - 1
	}
	return i
}

// hardWrap cuts plain text into lines of at most w cells wherever it must,
// in one pass: node data can be a single line of 64 KiB.
func hardWrap(s string, w int) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	start, n := 0, 0
	for i, r := range s {
		rw := runewidth.RuneWidth(r)
		if n+rw > w && i > start {
			out = append(out, s[start:i])
			start, n = i, 0
		}
		n += rw
	}
	return append(out, s[start:])
}
