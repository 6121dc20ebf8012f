package serve

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/hub"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
	gossh "golang.org/x/crypto/ssh"

	"github.com/zklocks/zklocks/lockclient"
)

// rig is a Server in this process on a throwaway ZooKeeper, with keys of
// its own: the race detector sees the server's sessions and watchers.
type rig struct {
	t       *testing.T
	srv     *Server
	addr    string
	zks     *zktest.Server
	keys    map[string]gossh.Signer
	keyFile string
	log     *zktest.SyncBuffer
	dials   *countingDialer
}

// countingDialer counts the connections serve makes to ZooKeeper.
type countingDialer struct {
	mu    sync.Mutex
	n     int
	addr  string
	conns []*zkwatch.Conn
}

func (d *countingDialer) dial(ctx context.Context, name string) (hub.Cluster, error) {
	target, err := zkwatch.ParseConnectString(d.addr)
	if err != nil {
		return hub.Cluster{}, err
	}
	conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: target})
	if err != nil {
		return hub.Cluster{}, err
	}
	d.mu.Lock()
	d.n++
	d.conns = append(d.conns, conn)
	d.mu.Unlock()
	return hub.Cluster{Conn: conn, Watch: zkwatch.WatchConfig{Roots: []string{"/it"}, ReadLater: true}, Timeout: 10 * time.Second}, nil
}

func (d *countingDialer) dialled() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.n
}

// startRig serves with operate key "alice" and view key "bob"; change
// adjusts the configuration.
func startRig(t *testing.T, change func(*Config)) *rig {
	t.Helper()
	dir := t.TempDir()
	r := &rig{t: t, zks: zktest.Start(t), keys: map[string]gossh.Signer{}, log: &zktest.SyncBuffer{},
		keyFile: filepath.Join(dir, "authorized_keys")}
	var lines []string
	for _, name := range []string{"alice", "bob", "eve"} {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		s, err := gossh.NewSignerFromKey(priv)
		if err != nil {
			t.Fatal(err)
		}
		r.keys[name] = s
		line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey()))) + " " + name
		switch name {
		case "alice":
			lines = append(lines, `zklocks-role="operate" `+line)
		case "bob":
			lines = append(lines, line)
		}
	}
	if err := os.WriteFile(r.keyFile, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := OpenKeyFile(r.keyFile)
	if err != nil {
		t.Fatal(err)
	}
	r.dials = &countingDialer{addr: r.zks.Addr()}
	cfg := Config{HostKey: filepath.Join(dir, "host_key"), Keys: keys, MaxSessions: 10, Linger: 200 * time.Millisecond,
		Dial: r.dials.dial, Log: log.New(r.log, "", 0), NoSwitch: "one cluster"}
	if change != nil {
		change(&cfg)
	}
	r.srv, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.addr = l.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- r.srv.Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return r
}

// client is one SSH session on the rig, as OpenSSH opens it: a pty, then
// a shell.
type client struct {
	t     *testing.T
	conn  *gossh.Client
	sess  *gossh.Session
	in    io.WriteCloser
	out   *zktest.SyncBuffer
	ended chan error
}

func (r *rig) connect(user, key string, pty bool, command string) (*client, error) {
	return r.connectTerm(user, key, pty, command, "xterm-256color")
}

func (r *rig) connectTerm(user, key string, pty bool, command, term string) (*client, error) {
	return r.connectVia(r.addr, user, key, pty, command, term)
}

// connectVia connects to the server at addr (the server's, or a proxy's
// to it).
func (r *rig) connectVia(addr, user, key string, pty bool, command, term string) (*client, error) {
	r.t.Helper()
	conn, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: user,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(r.keys[key])}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		return nil, err
	}
	sess, err := conn.NewSession()
	if err != nil {
		conn.Close()
		return nil, err
	}
	c := &client{t: r.t, conn: conn, sess: sess, out: &zktest.SyncBuffer{}, ended: make(chan error, 1)}
	r.t.Cleanup(func() { conn.Close() })
	sess.Stdout, sess.Stderr = c.out, c.out
	if c.in, err = sess.StdinPipe(); err != nil {
		r.t.Fatal(err)
	}
	if pty {
		if err := sess.RequestPty(term, 30, 100, gossh.TerminalModes{}); err != nil {
			r.t.Fatal(err)
		}
	}
	if command != "" {
		err = sess.Start(command)
	} else {
		err = sess.Shell()
	}
	if err != nil {
		r.t.Fatal(err)
	}
	go func() { c.ended <- sess.Wait() }()
	return c, nil
}

func (r *rig) open(user, key string) *client {
	r.t.Helper()
	c, err := r.connect(user, key, true, "")
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

// waitText waits until the session's output, escape sequences removed,
// has said text.
func (c *client) waitText(text string) {
	c.t.Helper()
	zktest.WaitUntil(c.t, 30*time.Second, func() string {
		if strings.Contains(ansi.Strip(c.out.String()), text) {
			return ""
		}
		return "the session never showed " + text + "; it showed:\n" + ansi.Strip(c.out.String())
	})
}

// wait waits for the session to end and returns its exit status.
func (c *client) wait() int {
	c.t.Helper()
	select {
	case err := <-c.ended:
		var ee *gossh.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee):
			return ee.ExitStatus()
		}
		return -1
	case <-time.After(30 * time.Second):
		c.t.Fatalf("the session did not end; it showed:\n%s", ansi.Strip(c.out.String()))
	}
	return -1
}

func takeLock(t *testing.T, c *zk.Conn, path string) *lockclient.Held {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l, err := lockclient.Acquire(ctx, c, lockclient.Spec{Path: path, Mode: lockcore.ModeExclusive})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
