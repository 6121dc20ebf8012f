package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/muesli/termenv"
	"github.com/zklocks/zklocks/internal/hub"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/ui"
	gossh "golang.org/x/crypto/ssh"
)

// Frame rate and how long ending a session may take to give back the
// operator's own lock: as the local UI's (internal/cli/uirun.go).
const (
	sessionFPS       = 20
	releaseOwnWithin = 5 * time.Second
)

// Who is who a session is: the SSH user, the key they signed in with, and
// where from. Only the key is authenticated: the user name is the one the
// client gave.
type Who struct {
	User string
	// Key is the key that signed in (a certificate's own key), with the
	// role, comment and line of the authorized-keys line that admitted it.
	Key Key
	// Cert, when the user signed in with a certificate, is who it says
	// they are: its key id, serial and the principal that admitted it.
	Cert *lockcore.Certificate
	From string

	// pub is what was presented (the key, or the certificate), and
	// signedIn when: the keys are checked again, as at that time, when
	// the files that admit them change.
	pub      gossh.PublicKey
	signedIn time.Time
	// raw is the certificate, nil for a plain key.
	raw *gossh.Certificate
}

func (w Who) String() string {
	s := fmt.Sprintf("user %s, ", quote(w.User))
	if c := w.Cert; c != nil {
		s += fmt.Sprintf("certificate %s serial %d principal %s, key %s, authority %s", quote(c.KeyID), c.Serial, quote(c.Principal),
			w.Key.Fingerprint, w.Key.Authority)
	} else {
		s += "key " + w.Key.Fingerprint
	}
	if w.Key.Comment != "" {
		s += " (" + quote(w.Key.Comment) + ")"
	}
	return s + fmt.Sprintf(" line %d, role %s, from %s", w.Key.Line, w.Key.Role, w.From)
}

// host is the address the user connected from, without its port.
func (w Who) host() string { return hostOf(w.From) }

// hostOf is an address without its port.
func hostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// modelMaker makes a session's model from its options: ui.New, or in
// tests a model that misbehaves.
type modelMaker func(ui.Options) tea.Model

// session is one SSH session: its UI, one cluster at a time.
type session struct {
	srv  *Server
	sess ssh.Session
	who  Who
	ctx  context.Context
	end  func(why string) // ends the session, saying why
	in   *input
	win  *windows
	// fromFleet: the fleet screen lies below the next cluster's screens.
	fromFleet bool
	// message is said when the next cluster's UI starts: why the session
	// is back on it.
	message string
	// cast records the session's screen, as frames of its UI's view
	// (screen); nil unless the server records sessions. clock is the
	// UI's clock then, which screen reads views at.
	cast   *castFile
	screen *castScreen
	clock  *castClock
	// stopNotices end the session's subscriptions to its clusters'
	// approval boards, as it leaves each.
	stopNotices []func()
}

// joinError is a cluster the session could not open.
type joinError struct {
	name string
	err  error
}

func (e *joinError) Error() string { return "context " + e.name + ": " + e.err.Error() }
func (e *joinError) Unwrap() error { return e.err }

// handle is the SSH server's only handler (a wish middleware that calls
// nothing after it): a UI per session, and nothing else.
func (s *Server) handle(ssh.Handler) ssh.Handler { return s.serveSession }

func (s *Server) serveSession(sess ssh.Session) {
	from := sess.RemoteAddr().String()
	// Signed in, with a session: no longer a startup.
	s.startups.signedIn(from)
	pk := sess.PublicKey()
	if pk == nil {
		refuse(sess, "zklocks serve admits public keys only")
		return
	}
	now := time.Now()
	in, err := s.admitKey(sess.User(), pk, from, now)
	if err != nil {
		// Admitted at sign-in a moment ago: the files changed since.
		s.cfg.Log.Printf("refused %s from %s: %s", quote(sess.User()), from, model.Printable(err.Error()))
		refuse(sess, "your key is not admitted: "+model.Printable(err.Error()))
		return
	}
	who := Who{User: sess.User(), Key: in.key, Cert: in.cert, From: from, pub: pk, signedIn: now, raw: in.raw}
	if cmd := sess.RawCommand(); cmd != "" {
		s.cfg.Log.Printf("refused a command from %s: %s", who, quote(cmd))
		refuse(sess, "zklocks serve runs its UI and nothing else: no commands (connect with ssh -t and no command)")
		return
	}
	if !permitsPTY(who.raw) {
		s.cfg.Log.Printf("refused %s: the certificate does not permit a terminal (permit-pty)", who)
		refuse(sess, "your certificate does not permit a terminal (permit-pty), and zklocks serve is a terminal UI")
		return
	}
	pty, winch, ok := sess.Pty()
	if !ok {
		s.cfg.Log.Printf("refused a session without a terminal from %s", who)
		refuse(sess, "zklocks serve needs a terminal, and your client asked for none: connect with ssh -t")
		return
	}
	ctx, cancel := context.WithCancelCause(sess.Context())
	defer cancel(nil)
	ss := &session{srv: s, sess: sess, who: who, ctx: ctx,
		end: func(why string) { cancel(errors.New(why)) }}
	if !s.admit(ss) {
		s.cfg.Log.Printf("refused %s: %d sessions are open, the most allowed", who, s.cfg.MaxSessions)
		refuse(sess, fmt.Sprintf("%d sessions are open, the most this server allows: try again later", s.cfg.MaxSessions))
		return
	}
	defer s.leave(ss)
	recorded := ""
	if dir := s.cfg.RecordDir; dir != "" {
		c, err := startCast(dir, who, pty.Term, pty.Window.Width, pty.Window.Height, s.cfg.RecordMaxSize)
		if err != nil {
			s.cfg.Log.Printf("refused %s: its session cannot be recorded: %v", who, err)
			refuse(sess, "this server records every session, and could not record yours: try again later")
			return
		}
		ss.clock = &castClock{}
		ss.cast, ss.screen = c, newCastScreen(c, ss.clock, func() time.Time { return ss.in.lastTyped() }, pty.Window.Width, pty.Window.Height)
		recorded = ", recorded in " + c.name
		defer func() {
			if stopped, err := c.close(); stopped != "" || err != nil {
				s.cfg.Log.Printf("the recording of %s, %s: stopped early (%s) %v", who, c.name, stopped, err)
			}
		}()
	}
	start := time.Now()
	s.cfg.Log.Printf("session of %s opened, terminal %s %dx%d%s", who, quote(pty.Term), pty.Window.Width, pty.Window.Height, recorded)
	why := ss.run(winch, cancel)
	s.cfg.Log.Printf("session of %s ended after %s: %s", who, time.Since(start).Round(time.Second), why)
}

// refuse tells the client why, on its stderr, and ends the session.
func refuse(sess ssh.Session, why string) {
	wish.Errorf(sess, "zklocks: %s\r\n", why)
	_ = sess.Exit(1)
}

// run is the session's life: the UI on its first cluster, then on each
// one the user switches to, until they quit, go idle, drop, or are ended.
// It returns why the session ended. A panic anywhere in it ends this
// session only.
func (ss *session) run(winch <-chan ssh.Window, cancel context.CancelCauseFunc) (why string) {
	defer func() {
		if r := recover(); r != nil {
			why = fmt.Sprintf("panic: %v", r)
			ss.srv.cfg.Log.Printf("panic in the session of %s: %v\n%s", ss.who, r, debug.Stack())
			wish.Errorf(ss.sess, "\r\nzklocks: an internal error ended this session (logged on the server)\r\n")
			_ = ss.sess.Exit(2)
		}
	}()
	r := newRenderer(ss.sess)
	var resized func(w, h int)
	if ss.screen != nil {
		resized = ss.screen.resize
	}
	ss.win = watchWindows(winch, resized)
	ss.in = pumpInput(ss.ctx, ss.sess)
	go ss.keepalive(ss.srv.cfg.keepaliveEvery, ss.srv.cfg.keepaliveWait)
	if d := ss.srv.cfg.IdleTimeout; d > 0 {
		go ss.in.idle(ss.ctx, d, func() { cancel(fmt.Errorf("idle for %s", d)) })
	}
	name, prev := ss.srv.cfg.Default, ""
	history := ""
	for {
		var next string
		var err error
		var join *joinError
		replayed := false
		if history != "" {
			// The replay's end goes back to the live UI, on the same
			// cluster.
			err = ss.runReplay(history, r)
			next, history, replayed = name, "", true
		} else {
			next, history, err = ss.runOn(name, r)
		}
		switch {
		case err != nil && errors.Is(err, tea.ErrProgramPanic):
			wish.Errorf(ss.sess, "\r\nzklocks: an internal error ended this session (logged on the server)\r\n")
			_ = ss.sess.Exit(2)
			return "panic in the UI"
		case ss.ctx.Err() != nil:
			cause := context.Cause(ss.ctx)
			if errors.Is(cause, context.Canceled) {
				return "the client went away"
			}
			wish.Errorf(ss.sess, "\r\nzklocks: session ended: %s\r\n", cause)
			_ = ss.sess.Exit(1)
			return cause.Error()
		case errors.As(err, &join) && prev != "":
			// Switched to a cluster that cannot be opened (from the fleet
			// screen, or :ctx): back to the one the user was on, saying why.
			ss.srv.cfg.Log.Printf("%s could not open %s; back on context %s", ss.who, model.Printable(err.Error()), quote(prev))
			ss.message = err.Error()
			name, prev = prev, ""
			continue
		case err != nil:
			wish.Errorf(ss.sess, "zklocks: %s\r\n", model.Printable(err.Error()))
			_ = ss.sess.Exit(1)
			return err.Error()
		case next == "" && history == "" && !replayed:
			_ = ss.sess.Exit(0)
			return "quit"
		case history != "":
			ss.srv.cfg.Log.Printf("%s opened the history of context %s", ss.who, quote(name))
			continue
		}
		if next == name {
			continue
		}
		ss.srv.cfg.Log.Printf("%s switched from context %s to %s", ss.who, quote(name), quote(next))
		name, prev = next, name
	}
}

// runOn runs the UI on one cluster until it quits, returning the context
// the user switched to, if any, or the directory of the cluster's history
// when they asked to replay it (R).
func (ss *session) runOn(name string, r *lipgloss.Renderer) (next, history string, err error) {
	if !ss.srv.clusters.IsRunning(name) {
		wish.Printf(ss.sess, "zklocks: connecting to %s…\r\n", model.Printable(hub.Label(name)))
	}
	feed, err := ss.srv.clusters.Join(ss.ctx, name)
	if err != nil {
		return "", "", &joinError{name: name, err: err}
	}
	defer feed.Close()
	opt, actions := ss.options(feed, r)
	opt.SwitchContext = func(n string) { next = n }
	if hist := feed.Cluster().History; hist != nil {
		opt.OpenHistory = func() {
			// What the watcher saw up to now is on disk before the
			// replay reads it.
			hist.Flush()
			history = hist.Dir()
		}
	}
	if ss.srv.cfg.NoSwitch != "" {
		opt.SwitchContext, opt.NoSwitch = nil, ss.srv.cfg.NoSwitch
	}
	opt.Fleet, opt.NoFleet, opt.FromFleet = ss.srv.cfg.Fleet, ss.srv.cfg.NoFleet, ss.fromFleet
	opt.Message, ss.message = ss.message, ""
	newModel := ss.srv.cfg.newModel
	if newModel == nil {
		newModel = func(o ui.Options) tea.Model { return ui.New(o) }
	}
	m := newModel(opt)
	err = ss.program(m)
	if app, ok := m.(*ui.App); ok {
		ss.fromFleet = app.FleetBelow()
		rctx, rcancel := context.WithTimeout(context.Background(), releaseOwnWithin)
		did, rerr := app.ReleaseOwn(rctx)
		rcancel()
		switch {
		case rerr != nil:
			ss.srv.cfg.Log.Printf("%s: giving back their lock: %v", ss.who, model.Printable(rerr.Error()))
		case did != "":
			ss.srv.cfg.Log.Printf("%s: %s", ss.who, did)
		}
	}
	actions.Close()
	for _, stop := range ss.stopNotices {
		stop()
	}
	ss.stopNotices = nil
	return next, history, err
}

// program runs m on the session's terminal until it quits.
func (ss *session) program(m tea.Model) error {
	in := ss.in.reader()
	// The server's signals are its own: a program that caught SIGTERM
	// would keep it from the server, and hang on its way out.
	if ss.screen != nil {
		m = castModel{m: m, s: ss.screen}
	}
	p := tea.NewProgram(m, tea.WithInput(in), tea.WithOutput(ss.sess), tea.WithAltScreen(),
		tea.WithContext(ss.ctx), tea.WithFPS(sessionFPS), tea.WithoutSignalHandler())
	stopWin := ss.win.follow(p)
	_, err := p.Run()
	stopWin()
	in.close()
	// p.Kill restores the client's terminal if the program ended badly.
	p.Kill()
	if errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, tea.ErrProgramPanic) {
		err = nil // the session's context ended it: run says why
	}
	return err
}

// replayFor is how far back R replays a cluster's history.
const replayFor = time.Hour

// runReplay replays the last hour of the history in dir, read-only by
// construction, until the user quits it. A history with nothing in that
// hour says so in the live UI's place for a moment, rather than end the
// session.
func (ss *session) runReplay(dir string, r *lipgloss.Renderer) error {
	var warned []string
	rec, err := recording.LoadDir(dir, recording.ReadOptions{Range: recording.Range{From: time.Now().Add(-replayFor)},
		Warn: func(err error) { warned = append(warned, err.Error()) }})
	for _, w := range warned {
		ss.srv.cfg.Log.Printf("%s: replaying the history: %s", ss.who, model.Printable(w))
	}
	if err != nil || len(rec.Events) == 0 {
		if err == nil {
			err = errors.New("nothing recorded in the last hour")
		}
		wish.Printf(ss.sess, "\r\nzklocks: no replay: %s\r\n", model.Printable(err.Error()))
		return nil
	}
	opt := ui.Options{Tape: model.NewTape(rec.Events), Server: rec.Headers[0].Server, Renderer: r,
		Copy: termenv.NewOutput(ss.sess).Copy}
	newModel := ss.srv.cfg.newModel
	if newModel == nil {
		newModel = func(o ui.Options) tea.Model { return ui.New(o) }
	}
	return ss.program(newModel(opt))
}

// options are the UI's for this session on feed's cluster: the shared
// picture, the session's own terminal, and actions that audit this SSH
// user and key, refused unless the key's role is operate.
func (ss *session) options(feed *hub.Feed, r *lipgloss.Renderer) (ui.Options, *model.Actions) {
	cl := feed.Cluster()
	cfg := ss.srv.cfg
	readOnly, why := cfg.ReadOnly || cl.ReadOnly, ""
	if !readOnly && ss.who.Key.Role != RoleOperate {
		readOnly, why = true, "your SSH key's role is view"
	}
	server := cl.Conn.Target().String()
	actions := &model.Actions{ZK: cl.Conn.LockZK(), Audit: cfg.Audit, ReadOnly: readOnly, Server: server,
		User: ss.who.User, Key: ss.who.Key.Fingerprint, Cert: ss.who.Cert, Host: ss.who.host(), Via: model.ViaSSH,
		NewSession: cl.NewSession, Told: feed.Told, Access: cl.Conn.ActionAccess}
	if c := ss.cast; c != nil {
		// The key that confirmed an action is the last one typed before
		// the action began.
		actions.Recording = func() *lockcore.RecordingMark {
			return &lockcore.RecordingMark{File: c.name, Offset: time.Duration(c.offset(ss.in.lastTyped()) * float64(time.Second))}
		}
	}
	var approvals ui.Approvals
	if b := feed.Board(); b != nil {
		actions.Gate = b
		notices, stop := b.Subscribe()
		ss.stopNotices = append(ss.stopNotices, stop)
		approvals = &sessionApprovals{b: b, me: actions.Operator(), readOnly: readOnly, notices: notices}
	}
	out := termenv.NewOutput(ss.sess)
	opt := ui.Options{
		Shared:       feed,
		ReadNode:     cl.Conn.ReadNodeDetail,
		ReadChildren: cl.Conn.ReadChildren,
		Focus:        feed.Focus,
		NodeTimeout:  cl.Timeout,
		Server:       server,
		ReadOnly:     readOnly,
		ReadOnlyWhy:  why,
		Renderer:     r,
		Copy:         out.Copy,
		Bell:         func() { _, _ = ss.sess.Write([]byte("\a")) },
		Actions:      actions,
		Approvals:    approvals,
		Context:      feed.Name(),
		Contexts:     cfg.Contexts,
	}
	if ss.clock != nil {
		opt.Now = ss.clock.Now
	}
	return opt, actions
}
