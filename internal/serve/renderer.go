package serve

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/muesli/termenv"
)

// newRenderer is the session's own Lip Gloss renderer: its colour profile
// from the TERM its client sent with the pty request and the variables it
// passed (COLORTERM, NO_COLOR, CLICOLOR_FORCE), never the server's
// terminal. It is wish's bubbletea.MakeRenderer without the question
// about the terminal's background, which zklocks does not use (no
// adaptive colours): MakeRenderer waits for the answer on the session's
// input, which it cannot stop reading when a terminal does not answer,
// leaving the session blank until a key is pressed, and that key lost.
func newRenderer(sess ssh.Session) *lipgloss.Renderer {
	pty, _, ok := sess.Pty()
	if !ok || pty.Term == "" || pty.Term == "dumb" {
		return lipgloss.NewRenderer(sess, termenv.WithProfile(termenv.Ascii))
	}
	env := sessionEnv(append(sess.Environ(), "TERM="+pty.Term))
	r := lipgloss.NewRenderer(sess, termenv.WithEnvironment(env), termenv.WithUnsafe(), termenv.WithColorCache(true))
	r.SetHasDarkBackground(true)
	return r
}

// sessionEnv is the session's environment, as termenv reads one.
type sessionEnv []string

func (e sessionEnv) Environ() []string { return e }

func (e sessionEnv) Getenv(k string) string {
	// The last value given wins, as for TERM after the client's own.
	for i := len(e) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(e[i], k+"="); ok {
			return v
		}
	}
	return ""
}
