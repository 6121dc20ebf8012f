package ui

import (
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/lockcore"
)

// This file is the only one that creates styles or names colours. Colours
// are the terminal's own 16, so they follow its theme, and they are named
// by meaning. Nothing depends on colour alone: roles, states and badges are
// also spelled out, and the selected row carries a ">" marker, so the
// screen reads the same under NO_COLOR (the Ascii profile drops every
// attribute).

// paint applies one style to single-line text cheaply: the style's escape
// sequences are worked out once, so painting a cell is two concatenations
// rather than a lipgloss render.
type paint struct{ pre, post string }

func (p paint) s(text string) string {
	if p.pre == "" || text == "" {
		return text
	}
	return p.pre + text + p.post
}

func paintOf(st lipgloss.Style) paint {
	const marker = "\x00"
	out := st.Render(marker)
	i := strings.Index(out, marker)
	if i < 0 {
		return paint{}
	}
	return paint{pre: out[:i], post: out[i+len(marker):]}
}

// styles are the paints of every meaning the UI shows.
type styles struct {
	title, tab, tabActive     paint
	header, selected, cursor  paint
	holder, waiter            paint
	danger, warning, ok, info paint
	muted, accent, strong     paint
	badgeStale, badgeRO       paint
	badgeWrite                paint
	dialog                    lipgloss.Style
	help                      help.Styles
}

// newStyles makes the styles for a terminal, r, or when r is nil for a
// colour profile: termenv.Ascii (for NO_COLOR, or a terminal without
// colours) gives plain text.
func newStyles(r *lipgloss.Renderer, profile termenv.Profile) styles {
	if r == nil {
		r = lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(profile)
	}
	// Never ask the terminal for its background: no adaptive colours.
	r.SetHasDarkBackground(true)
	fg := func(c string) lipgloss.Style { return r.NewStyle().Foreground(lipgloss.Color(c)) }
	var (
		red, green, yellow, blue = fg("1"), fg("2"), fg("3"), fg("4")
		magenta, cyan, grey      = fg("5"), fg("6"), fg("8")
	)
	mutedKey := r.NewStyle().Bold(true)
	return styles{
		title:      paintOf(r.NewStyle().Bold(true).Foreground(lipgloss.Color("6"))),
		tab:        paintOf(grey),
		tabActive:  paintOf(r.NewStyle().Bold(true).Reverse(true)),
		header:     paintOf(r.NewStyle().Bold(true).Underline(true)),
		selected:   paintOf(r.NewStyle().Reverse(true)),
		cursor:     paintOf(cyan.Bold(true)),
		holder:     paintOf(green),
		waiter:     paintOf(yellow),
		danger:     paintOf(red.Bold(true)),
		warning:    paintOf(magenta),
		ok:         paintOf(green),
		info:       paintOf(blue),
		muted:      paintOf(grey),
		accent:     paintOf(cyan),
		strong:     paintOf(r.NewStyle().Bold(true)),
		badgeStale: paintOf(r.NewStyle().Bold(true).Reverse(true).Foreground(lipgloss.Color("1"))),
		badgeRO:    paintOf(r.NewStyle().Bold(true).Reverse(true).Foreground(lipgloss.Color("4"))),
		badgeWrite: paintOf(r.NewStyle().Bold(true).Reverse(true).Foreground(lipgloss.Color("3"))),
		dialog:     r.NewStyle().Border(lipgloss.NormalBorder()).BorderForeground(lipgloss.Color("1")).Padding(0, 1),
		help: help.Styles{
			Ellipsis:       grey,
			ShortKey:       mutedKey,
			ShortDesc:      grey,
			ShortSeparator: grey,
			FullKey:        cyan.Bold(true),
			FullDesc:       r.NewStyle(),
			FullSeparator:  grey,
		},
	}
}

// role paints a participant's role.
func (s *styles) role(r lockcore.Role) paint {
	if r == lockcore.RoleHolder {
		return s.holder
	}
	return s.waiter
}

// anomaly paints an anomaly kind by how bad it is.
func (s *styles) anomaly(k lockcore.AnomalyKind) paint {
	switch k.Severity() {
	case 2:
		return s.danger
	case 0:
		return s.muted
	}
	return s.warning
}
