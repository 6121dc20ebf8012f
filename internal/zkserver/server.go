package zkserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// Errors of starting a server.
var (
	// ErrNotInstalled: java or the ZooKeeper jars are missing; the error
	// that wraps it names what and the command that installs them.
	ErrNotInstalled = errors.New("zkserver: zookeeper is not installed")
	// ErrExited: the JVM ended before it served; the error that wraps it
	// ends with the tail of the server's log.
	ErrExited = errors.New("zkserver: java exited")
	// ErrStopped: the server was stopped and its directory removed, so it
	// cannot be restarted.
	ErrStopped = errors.New("zkserver: server was stopped")
	// ErrStalled: a start stopped getting on: its JVMs used no CPU time
	// of their own for a while (see WaitAll).
	ErrStalled = errors.New("zkserver: start stalled")
)

// startAttempts bounds how often Start tries another free port when the one
// it picked was taken before the server could bind it.
const startAttempts = 3

// Config says how to run a server. The zero value is a standalone server on
// a free loopback port in a new temporary directory.
type Config struct {
	// JarDir is where java's class path is found; "" means DefaultJarDir.
	JarDir string
	// Dir holds zoo.cfg, data/ and zookeeper.log. "" means a new temporary
	// directory (named zklocks-zk-PID-*) that Stop removes; a given Dir
	// belongs to the caller and is left in place.
	Dir string
	// Port is the client port on 127.0.0.1; 0 picks a free one, and Start
	// picks another if that one is taken before the server binds it.
	Port int
	// ID and Peers make the server a quorum member: ID is its myid (1..n),
	// Peers the server.N=host:quorumPort:electionPort lines of every
	// member. Without Peers the server is standalone.
	ID    int
	Peers []string
	// Lines are appended to zoo.cfg after the defaults; ZooKeeper reads it
	// as Java properties, where the last value of a key wins, so a line can
	// also override a default ("tickTime=2000").
	Lines []string
	// JVMFlags are added to the java command line before the main class.
	JVMFlags []string
	// FourLetterWords is 4lw.commands.whitelist; "" means "*" (all), and
	// srvr is always added (see Whitelist).
	FourLetterWords string
	// Admin turns the AdminServer on, on 127.0.0.1:AdminPort (0 picks a
	// free port). Debian's package starts it only with the servlet API on
	// the class path, which Admin adds (/usr/share/java/servlet-api.jar,
	// package libservlet-api-java). Off, the server has none, as
	// admin.enableServer=false says.
	Admin     bool
	AdminPort int
	// ClassArchiveDir keeps the server JVM's class archive (see
	// ClassArchive), which cuts the CPU time of each start; "" means none.
	// The first start that finds none there makes it, from a server of
	// its own beside the one it was asked for (see trainArchive).
	ClassArchiveDir string
}

// Server is one ZooKeeper server run by this package. Its address and
// directory stay the same across Kill and Restart. Methods are safe for
// concurrent use.
type Server struct {
	cfg   Config
	jvm   jvm
	dir   string
	owned bool // dir was made by this package: Stop removes it
	port  int
	// adminPort is the AdminServer's port, 0 when it is off.
	adminPort int
	// archive is the JVM's class archive, "" without one.
	archive ClassArchive

	mu      sync.Mutex
	proc    *process // nil while not running
	removed bool
}

// Start starts a server and returns once it serves clients (its srvr reply
// has a "Mode:" line; for a quorum member, leader, follower or observer).
// When ctx ends first, or the server fails, the JVM is killed, a temporary
// directory is removed, and the error ends with the server log's tail. A
// missing installation fails with an error wrapping ErrNotInstalled.
func Start(ctx context.Context, cfg Config) (*Server, error) {
	for attempt := 1; ; attempt++ {
		s, err := Launch(cfg)
		if err != nil {
			return nil, err
		}
		if err = s.Wait(ctx); err == nil {
			return s, nil
		}
		taken := s.PortTaken()
		s.Stop()
		if cfg.Port == 0 && taken && attempt < startAttempts && ctx.Err() == nil {
			continue
		}
		return nil, fmt.Errorf("zkserver: start on %s: %w", s.Addr(), err)
	}
}

// Launch starts the server's JVM without waiting for it to serve; Wait
// does. An ensemble launches every member before waiting for any, as a
// member cannot serve before a quorum has formed.
func Launch(cfg Config) (*Server, error) {
	s, err := prepare(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.launch(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// prepare finds java, makes the directory, picks the port and writes the
// configuration.
func prepare(cfg Config) (*Server, error) {
	if cfg.JarDir == "" {
		cfg.JarDir = DefaultJarDir
	}
	j, err := findJVM(cfg.JarDir)
	if err != nil {
		return nil, err
	}
	if cfg.Admin {
		if j, err = j.withServletAPI(cfg.JarDir); err != nil {
			return nil, err
		}
	}
	s := &Server{cfg: cfg, jvm: j, dir: cfg.Dir, port: cfg.Port, adminPort: cfg.AdminPort}
	if cfg.ClassArchiveDir != "" {
		s.archive = serverArchive(cfg)
	}
	if s.dir == "" {
		SweepStale(os.TempDir())
		if s.dir, err = os.MkdirTemp("", fmt.Sprintf("%s%d-*", tempPrefix, os.Getpid())); err != nil {
			return nil, fmt.Errorf("zkserver: %w", err)
		}
		s.owned = true
	}
	if s.port == 0 {
		ports, err := FreePorts(1)
		if err != nil {
			s.Stop()
			return nil, err
		}
		s.port = ports[0]
	}
	if cfg.Admin && s.adminPort == 0 {
		ports, err := FreePorts(1)
		if err != nil {
			s.Stop()
			return nil, err
		}
		s.adminPort = ports[0]
	}
	if err := s.writeFiles(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) writeFiles() error {
	if err := os.MkdirAll(s.dataDir(), 0o755); err != nil {
		return fmt.Errorf("zkserver: %w", err)
	}
	if s.cfg.ID > 0 {
		if err := os.WriteFile(filepath.Join(s.dataDir(), "myid"), fmt.Appendf(nil, "%d\n", s.cfg.ID), 0o644); err != nil {
			return fmt.Errorf("zkserver: write myid: %w", err)
		}
	}
	if err := os.WriteFile(s.cfgPath(), []byte(zooCfg(s.cfg, s.dataDir(), s.port, s.adminPort)), 0o644); err != nil {
		return fmt.Errorf("zkserver: write zoo.cfg: %w", err)
	}
	return nil
}

// Addr returns the client address, "127.0.0.1:PORT".
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// Port returns the client port.
func (s *Server) Port() int { return s.port }

// AdminPort returns the AdminServer's port on 127.0.0.1, or 0 when the
// server has no AdminServer.
func (s *Server) AdminPort() int { return s.adminPort }

// Dir returns the directory with zoo.cfg, data/ and zookeeper.log.
func (s *Server) Dir() string { return s.dir }

// LogPath returns the server's log file.
func (s *Server) LogPath() string { return filepath.Join(s.dir, "zookeeper.log") }

// PID returns the JVM's process id, or 0 while it is not running.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.proc == nil || s.proc.exited() {
		return 0
	}
	return s.proc.cmd.Process.Pid
}

// Wait blocks until the launched JVM serves, or fails, as WaitAll does
// for one server.
func (s *Server) Wait(ctx context.Context) error { return WaitAll(ctx, s) }

// Kill kills the server's JVM (its whole process group) and waits for it
// to exit. The directory stays, so Restart brings back the same tree.
// Killing a server that is not running does nothing.
func (s *Server) Kill() error {
	s.mu.Lock()
	p := s.proc
	s.proc = nil
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.kill()
}

// Restart kills the server if it runs, starts it again on the same port
// and data, and waits until it serves: for a quorum member, until it has
// rejoined a quorum, which needs a majority of members running.
func (s *Server) Restart(ctx context.Context) error {
	if err := s.Kill(); err != nil {
		return err
	}
	if err := s.launch(); err != nil {
		return err
	}
	return s.Wait(ctx)
}

// Stop kills the server and, when this package made its directory,
// removes it. It is idempotent; the server cannot be restarted after it.
func (s *Server) Stop() error {
	err := s.Kill()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.owned && !s.removed {
		s.removed = true
		if rerr := os.RemoveAll(s.dir); rerr != nil && err == nil {
			err = fmt.Errorf("zkserver: remove %s: %w", s.dir, rerr)
		}
	}
	return err
}

// launch starts the JVM.
func (s *Server) launch() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.removed {
		return ErrStopped
	}
	if s.proc != nil {
		return errors.New("zkserver: server is already running")
	}
	flags := s.cfg.JVMFlags
	if s.archive.Ready() {
		flags = append(s.archive.UseFlags(), flags...)
	}
	p, err := launch(s.jvm.java, s.jvm.args(flags, s.cfgPath()), s.dir, s.LogPath())
	if err != nil {
		return err
	}
	s.proc = p
	return nil
}

// PortTaken reports whether the server's log says a port it was to bind
// (client, quorum, election, AdminServer) was in use. A standalone server
// exits on it; a quorum member whose AdminServer's port was taken only
// logs it, and runs without one.
func (s *Server) PortTaken() bool {
	b, err := os.ReadFile(s.LogPath())
	return err == nil && strings.Contains(string(b), "Address already in use")
}

// LogTail returns the last lines of the server's log, for a failure's
// message.
func (s *Server) LogTail() string { return logTail(s.LogPath(), 40) }

func (s *Server) dataDir() string { return filepath.Join(s.dir, "data") }

// DataDir is the server's data directory (zoo.cfg's dataDir), which holds
// its transaction logs and snapshots under version-2/.
func (s *Server) DataDir() string { return s.dataDir() }
func (s *Server) cfgPath() string { return filepath.Join(s.dir, "zoo.cfg") }
