package serve

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/zklocks/zklocks/zkwatch/tick"
	gossh "golang.org/x/crypto/ssh"
)

// input reads the client's keys for the whole session and hands them to
// one program at a time: a program's reader ends (io.EOF) when the
// program does, so that switching clusters loses no key to a read still
// waiting for the last one. It also knows when the client last typed.
type input struct {
	chunks chan []byte // closed when the client's input ends
	last   atomic.Int64

	mu   sync.Mutex
	rest []byte // read from the client, not yet by a program
}

// pumpInput reads r until it ends or ctx does (what the client types
// once no program reads it is dropped with the session).
func pumpInput(ctx context.Context, r io.Reader) *input {
	in := &input{chunks: make(chan []byte)}
	in.last.Store(time.Now().UnixNano())
	go func() {
		defer close(in.chunks)
		for {
			buf := make([]byte, 1024)
			n, err := r.Read(buf)
			if n > 0 {
				in.last.Store(time.Now().UnixNano())
				select {
				case in.chunks <- buf[:n]:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return in
}

// lastTyped is when the client last typed.
func (in *input) lastTyped() time.Time { return time.Unix(0, in.last.Load()) }

// idle calls stop once the client has typed nothing for d, unless ctx
// ends first.
func (in *input) idle(ctx context.Context, d time.Duration, stop func()) {
	t := time.NewTimer(d)
	defer t.Stop()
	for tick.Wait(ctx, t.C) {
		quiet := time.Since(in.lastTyped())
		if quiet >= d {
			stop()
			return
		}
		t.Reset(d - quiet)
	}
}

// reader is one program's input.
func (in *input) reader() *programInput {
	return &programInput{in: in, done: make(chan struct{})}
}

// programInput is a program's view of the session's input.
type programInput struct {
	in   *input
	done chan struct{}
	once sync.Once
}

// Read returns what the client typed, or io.EOF once closed or once the
// client's input ended.
func (p *programInput) Read(b []byte) (int, error) {
	in := p.in
	in.mu.Lock()
	if len(in.rest) > 0 {
		n := copy(b, in.rest)
		in.rest = in.rest[n:]
		in.mu.Unlock()
		return n, nil
	}
	in.mu.Unlock()
	select {
	case <-p.done:
		return 0, io.EOF
	case c, ok := <-in.chunks:
		if !ok {
			return 0, io.EOF
		}
		n := copy(b, c)
		if n < len(c) {
			in.mu.Lock()
			in.rest = append(in.rest, c[n:]...)
			in.mu.Unlock()
		}
		return n, nil
	}
}

func (p *programInput) close() { p.once.Do(func() { close(p.done) }) }

// keepalive asks the client for a reply every `every`, and ends the
// session and closes its connection when none comes within wait.
func (ss *session) keepalive(every, wait time.Duration) {
	conn, ok := ss.sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn)
	if !ok {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for tick.Wait(ss.ctx, t.C) {
		replied := make(chan error, 1)
		go func() {
			// Any reply will do: OpenSSH answers an unknown request
			// with a failure. It returns once the connection closes.
			_, _, err := conn.SendRequest("keepalive@openssh.com", true, nil)
			replied <- err
		}()
		select {
		case err := <-replied:
			if err != nil {
				return
			}
		case <-time.After(wait):
			ss.end(fmt.Sprintf("the client did not answer for %s", wait))
			_ = conn.Close()
			return
		case <-ss.ctx.Done():
			return
		}
	}
}

// windows follows the client's window size for the whole session, and
// passes each change to the program running.
type windows struct {
	mu   sync.Mutex
	last ssh.Window
	p    *tea.Program
}

// watchWindows follows winch; each change is also told to resized, when
// not nil (a recording's resize).
func watchWindows(winch <-chan ssh.Window, resized func(w, h int)) *windows {
	w := &windows{}
	go func() {
		// The channel closes with the session; reading it to the end
		// keeps the server's request loop from blocking on it.
		first := true
		for win := range winch {
			if resized != nil && !first {
				resized(win.Width, win.Height)
			}
			first = false
			w.mu.Lock()
			w.last = win
			p := w.p
			w.mu.Unlock()
			if p != nil {
				p.Send(tea.WindowSizeMsg{Width: win.Width, Height: win.Height})
			}
		}
	}()
	return w
}

// follow sends p the window's size now and at each change, until stop.
func (w *windows) follow(p *tea.Program) (stop func()) {
	w.mu.Lock()
	w.p = p
	last := w.last
	w.mu.Unlock()
	go func() {
		if last.Width > 0 {
			p.Send(tea.WindowSizeMsg{Width: last.Width, Height: last.Height})
		}
	}()
	return func() {
		w.mu.Lock()
		w.p = nil
		w.mu.Unlock()
	}
}
