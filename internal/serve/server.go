// Package serve is zklocks serve: an SSH server (charmbracelet/wish) that
// gives each person who connects their own zklocks UI, and nothing else.
// Public-key authentication only, each key with its role (keys.go); each
// session has its own screen, colour profile, cursor and filter, while
// every session on a cluster shares one watcher and one model.State
// through internal/hub: the ensemble pays for one zklocks however many
// people look.
package serve

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	"github.com/zklocks/zklocks/internal/hub"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/ui"
)

// A client is asked for a reply every keepaliveEvery (as sshd's
// ClientAliveInterval does), and its connection closed when none came
// within keepaliveWait: a client gone without a word (a laptop shut, a
// network cut) ends its session within a minute, rather than when TCP
// gives up a quarter of an hour later. A connection that says nothing for
// connectionIdle (a handshake left hanging) is closed.
const (
	keepaliveEvery = 30 * time.Second
	keepaliveWait  = 30 * time.Second
	connectionIdle = 2 * time.Minute
)

// keysEvery is how often the keys file is looked at for changes: a key
// removed stops admitting its holder, and ends their open sessions,
// within it.
const keysEvery = 2 * time.Second

// Config is what a Server serves, and to whom.
type Config struct {
	// Listen is the address to listen on, host:port.
	Listen string
	// HostKey is the server's private key file, made (ed25519, 0600) on
	// the first start and kept.
	HostKey string
	// Keys are the authorized keys and certificate authorities with
	// their roles.
	Keys *KeyFile
	// Revoked, when set, are the keys refused whatever Keys say, and the
	// certificates whose key or authority they list.
	Revoked *RevokedKeys
	// Contexts are the clusters offered, by name; a session starts on
	// Default and may switch among them with :ctx. With NoSwitch, they
	// are only listed.
	Contexts []string
	Default  string
	// NoSwitch, when set, is why :ctx cannot switch (one cluster given
	// by --server).
	NoSwitch string
	// Fleet, when set, is every offered context's last light poll, for
	// the fleet screen (:fleet), one for every session; NoFleet says why
	// there is none.
	Fleet   ui.FleetSource
	NoFleet string
	// ReadOnly makes every session read-only, whatever its key's role.
	ReadOnly bool
	// MaxSessions bounds the sessions open at once; more are refused.
	MaxSessions int
	// IdleTimeout ends a session that had no key press or mouse event for
	// that long.
	IdleTimeout time.Duration
	// Linger is how long a cluster's watcher runs on once its last session
	// left.
	Linger time.Duration
	// Dial connects to a context.
	Dial hub.Dialer
	// Audit is where operate sessions' actions are written; nil under
	// ReadOnly.
	Audit *model.Audit
	// RecordDir, when set, is where every session's screen is recorded
	// as an asciicast v2 file (castfile.go); a session whose recording
	// cannot be started is refused. Each recording stops at RecordMaxSize
	// bytes (0: no cap), and recordings older than RecordMaxAge are
	// deleted (0: kept).
	RecordDir     string
	RecordMaxSize int64
	RecordMaxAge  time.Duration
	// MaxStartups and PerSourceMaxStartups bound the connections not
	// signed in yet (that have not opened their session), in all and from
	// one address; more are closed as they are accepted. LoginGraceTime
	// closes one not signed in within it. Zero values are the defaults
	// (startups.go); a negative one turns its limit off.
	MaxStartups, PerSourceMaxStartups int
	LoginGraceTime                    time.Duration
	// Log gets a line per connection, refusal and end.
	Log *log.Logger
	// Version is zklocks' version, in the SSH banner.
	Version string
	// newModel, in tests, replaces the UI (see session.go).
	newModel modelMaker
	// keepaliveEvery and keepaliveWait, when set (in tests), replace the
	// constants.
	keepaliveEvery, keepaliveWait time.Duration
}

// Server is zklocks serve's SSH server.
type Server struct {
	cfg      Config
	ssh      *ssh.Server
	clusters *hub.Clusters
	startups *startups

	mu       sync.Mutex
	sessions map[*session]struct{}
	wg       sync.WaitGroup
}

// New makes a server; it listens once ListenAndServe or Serve is called.
// The host key is made now if its file does not exist.
func New(cfg Config) (*Server, error) {
	if cfg.Log == nil {
		cfg.Log = log.New(log.Writer(), "", log.LstdFlags)
	}
	if cfg.keepaliveEvery == 0 {
		cfg.keepaliveEvery, cfg.keepaliveWait = keepaliveEvery, keepaliveWait
	}
	s := &Server{cfg: cfg, clusters: hub.NewClusters(cfg.Dial, cfg.Linger, cfg.Log.Printf), sessions: map[*session]struct{}{}}
	s.startups = newStartups(orDefault(cfg.MaxStartups, DefaultMaxStartups), orDefault(cfg.PerSourceMaxStartups, DefaultPerSourceMaxStartups),
		orDefault(cfg.LoginGraceTime, DefaultLoginGraceTime), cfg.Log.Printf)
	// wish makes the key (ed25519, 0600, its public half beside it) when
	// the file is missing, and keeps one that is there: clients remember
	// the host key, and a new one would look like an attack.
	_, statErr := os.Stat(cfg.HostKey)
	dirBefore, dirErr := os.Stat(filepath.Dir(cfg.HostKey))
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Listen),
		wish.WithHostKeyPath(cfg.HostKey),
		wish.WithVersion("zklocks-"+cfg.Version),
		wish.WithIdleTimeout(connectionIdle),
		wish.WithPublicKeyAuth(s.authorize),
		wish.WithMiddleware(s.handle),
	)
	if err != nil {
		return nil, fmt.Errorf("host key %s: %w", cfg.HostKey, err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		cfg.Log.Printf("made a new host key: %s, its public half in %s.pub", cfg.HostKey, cfg.HostKey)
		// An existing directory is set 0700 as the key is made: say so,
		// since its other files lose their access too.
		if dirErr == nil && dirBefore.Mode().Perm() != 0o700 {
			cfg.Log.Printf("the host key's directory %s is now mode 0700 (it was %04o)", filepath.Dir(cfg.HostKey), dirBefore.Mode().Perm())
		}
	}
	s.ssh = srv
	return s, nil
}

// authorize admits a key or certificate that the keys file admits and
// the revoked keys do not list, each read again first if it changed.
func (s *Server) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	s.refreshKeys()
	_, err := s.admitKey(ctx.User(), key, ctx.RemoteAddr().String(), time.Now())
	if err != nil {
		s.cfg.Log.Printf("refused %s from %s: %s", quote(ctx.User()), ctx.RemoteAddr(), model.Printable(strings.TrimPrefix(err.Error(), errNotAdmitted.Error()+": ")))
		return false
	}
	return true
}

// refreshKeys reads the keys file and the revoked keys again if they
// changed, logs their errors, and ends the sessions they no longer admit
// as they are.
func (s *Server) refreshKeys() {
	reloaded, errs := s.cfg.Keys.Refresh()
	revoked, rerr := s.cfg.Revoked.Refresh()
	if rerr != nil {
		errs = append(errs, rerr)
	}
	if reloaded || revoked {
		s.keysReloaded(errs)
	}
}

// ReloadKeys reads the keys file and the revoked keys again (SIGHUP),
// whether or not they changed.
func (s *Server) ReloadKeys() {
	errs := s.cfg.Keys.Reload()
	if err := s.cfg.Revoked.Reload(); err != nil {
		errs = append(errs, err)
	}
	s.keysReloaded(errs)
}

func (s *Server) keysReloaded(errs []error) {
	s.cfg.Log.Printf("authorized keys read again: %d admitted, %d revoked", s.cfg.Keys.Len(), s.cfg.Revoked.Len())
	for _, err := range errs {
		s.cfg.Log.Printf("authorized keys: %v (admits nobody)", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss := range s.sessions {
		// Validity is as at sign-in: a certificate that expires during a
		// session does not end it, as in sshd; revoking it does.
		in, err := s.admitKey(ss.who.User, ss.who.pub, ss.who.From, ss.who.signedIn)
		switch {
		case err != nil:
			ss.end(noLongerWhy(ss.who, err))
		case in.key.Role != ss.who.Key.Role:
			ss.end("your key's role is now " + string(in.key.Role) + ": connect again")
		}
	}
}

// ListenAndServe listens on Config.Listen and serves until ctx ends, then
// ends every session and stops every watcher.
func (s *Server) ListenAndServe(ctx context.Context) error {
	l, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return err
	}
	return s.Serve(ctx, l)
}

// Serve serves on l until ctx ends (see ListenAndServe).
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	stopKeys := make(chan struct{})
	s.sweepRecordings()
	go func() {
		t := time.NewTicker(keysEvery)
		defer t.Stop()
		sweep := time.NewTicker(sweepEvery)
		defer sweep.Stop()
		for {
			select {
			case <-t.C:
				s.refreshKeys()
			case <-sweep.C:
				s.sweepRecordings()
			case <-stopKeys:
				return
			}
		}
	}()
	defer close(stopKeys)
	served := make(chan error, 1)
	go func() { served <- s.ssh.Serve(startupListener{Listener: l, s: s.startups}) }()
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	s.shutdown()
	if errors.Is(err, ssh.ErrServerClosed) {
		err = nil
	}
	return err
}

// shutdown ends every session (each gives back its own lock and closes
// its actions), then stops the watchers.
func (s *Server) shutdown() {
	_ = s.ssh.Close()
	s.mu.Lock()
	for ss := range s.sessions {
		ss.end("the server is stopping")
	}
	s.mu.Unlock()
	s.wg.Wait()
	s.clusters.Close()
}

// sweepRecordings deletes the session recordings past their age limit.
func (s *Server) sweepRecordings() {
	if s.cfg.RecordDir == "" {
		return
	}
	n, err := sweepCasts(s.cfg.RecordDir, s.cfg.RecordMaxAge, time.Now())
	switch {
	case err != nil:
		s.cfg.Log.Printf("session recordings: %v", err)
	case n > 0:
		s.cfg.Log.Printf("session recordings: deleted %d older than %s", n, s.cfg.RecordMaxAge)
	}
}

// Clusters are the server's shared watchers.
func (s *Server) Clusters() *hub.Clusters { return s.clusters }

// Sessions is how many sessions are open.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// admit counts a session in, unless MaxSessions are open.
func (s *Server) admit(ss *session) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cfg.MaxSessions > 0 && len(s.sessions) >= s.cfg.MaxSessions {
		return false
	}
	s.sessions[ss] = struct{}{}
	s.wg.Add(1)
	return true
}

func (s *Server) leave(ss *session) {
	s.mu.Lock()
	delete(s.sessions, ss)
	s.mu.Unlock()
	s.wg.Done()
}

// orDefault is v, or def when v is zero; a negative v is 0 (no limit).
func orDefault[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// quote is a name from the network, escaped for the log.
func quote(s string) string { return fmt.Sprintf("%q", model.Printable(s)) }
