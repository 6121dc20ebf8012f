package serve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/zklocks/zklocks/internal/testkit/procstat"
	"github.com/zklocks/zklocks/internal/testkit/serverig"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/lockcore"
	gossh "golang.org/x/crypto/ssh"

	"github.com/zklocks/zklocks/lockclient"
)

// BenchmarkServe measures zklocks serve with 1 and with 20 sessions on
// one cluster: 50 locks of a holder and two waiters each (our own lock
// client's, so that the waiters hold real watches), one of them changing
// hands five times a second so that every screen redraws. Beside each
// other: the serve process's memory (RSS) and CPU over a minute, and the
// ZooKeeper server's watches and connections. The target: the same
// watches, and under twice one session's memory with 20. Then the 20
// sessions again, each recorded (--record-sessions): its CPU against the
// unrecorded 20's (target: at most 1.5×), and the recordings' bytes per
// session-hour (target: under 1 MB). Run it with make bench-serve; the
// sessions' SSH clients run in the benchmark's process, not the server's.
func BenchmarkServe(b *testing.B) {
	zks := zktest.Start(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	benchLocks(b, ctx, zks, 50)
	go churn(ctx, b, zks, "/bench/churn")

	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		b.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		b.Fatal(err)
	}
	pub := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))
	type result struct {
		sessions                 int
		rssKB, cpuPct            float64
		watches, conns, baseline int
		castBytes                int64
	}
	var results []result
	for _, run := range []struct {
		n        int
		recorded bool
	}{{1, false}, {20, false}, {20, true}} {
		n := run.n
		extra := []string{"--max-sessions", "25"}
		casts := ""
		if run.recorded {
			casts = b.TempDir()
			extra = append(extra, "--record-sessions", casts)
		}
		r := serverig.Start(b, zks, "/bench", []string{pub}, extra...)
		var sessions []*benchSession
		for i := range n {
			sessions = append(sessions, openBenchSession(b, r, signer, fmt.Sprintf("viewer%d", i)))
		}
		for _, s := range sessions {
			s.waitText(b, "51 locks")
		}
		pid := r.PID()
		cast0 := dirBytes(b, casts)
		cpu0, at0 := procstat.CPU(b, pid), time.Now()
		time.Sleep(time.Minute) // the span CPU is measured over
		cpu := procstat.CPU(b, pid) - cpu0
		castBytes := dirBytes(b, casts) - cast0
		res := result{sessions: n, rssKB: float64(procstat.RSS(b, pid)) / 1024,
			cpuPct:  100 * cpu.Seconds() / time.Since(at0).Seconds(),
			watches: zktest.WatchCount(b, zks.Addr()), conns: zktest.Mntr(b, zks.Addr(), "zk_num_alive_connections"),
			castBytes: castBytes}
		for _, s := range sessions {
			s.close()
		}
		results = append(results, res)
		if !r.Stop() {
			b.Fatalf("zklocks serve did not stop on SIGTERM:\n%s", r.Log())
		}
		b.Logf("%d session(s), recorded %v: %.1f MB RSS, %.2f %% of a core, %d watches and %d connections on the server, %d bytes recorded",
			n, run.recorded, res.rssKB/1024, res.cpuPct, res.watches, res.conns, res.castBytes)
	}
	one, twenty, recorded := results[0], results[1], results[2]
	fmt.Printf("\n%-28s %12s %12s\n", "zklocks serve", "1 session", "20 sessions")
	fmt.Printf("%-28s %12.1f %12.1f   (%.2f×; target under 2×)\n", "memory, RSS (MB)", one.rssKB/1024, twenty.rssKB/1024, twenty.rssKB/one.rssKB)
	fmt.Printf("%-28s %12.2f %12.2f\n", "CPU (% of a core)", one.cpuPct, twenty.cpuPct)
	fmt.Printf("%-28s %12d %12d   (target: equal)\n", "server watches (mntr)", one.watches, twenty.watches)
	fmt.Printf("%-28s %12d %12d\n", "server connections (mntr)", one.conns, twenty.conns)
	perHour := float64(recorded.castBytes) / float64(recorded.sessions) * 60 / (1 << 20)
	fmt.Printf("%-28s %12.2f %12.2f   (%.2f×; target at most 1.5×)\n", "CPU, 20 recorded (%)", twenty.cpuPct, recorded.cpuPct,
		recorded.cpuPct/twenty.cpuPct)
	fmt.Printf("%-28s %25.2f   (target under 1)\n", "recorded, MB/session-hour", perHour)
	b.ReportMetric(twenty.rssKB/one.rssKB, "rss-20/1")
	b.ReportMetric(recorded.cpuPct/twenty.cpuPct, "cpu-recorded/unrecorded")
	b.ReportMetric(perHour, "MB/session-hour")
	b.ReportMetric(float64(twenty.watches-one.watches), "extra-watches")
}

// dirBytes is the size of the files in dir; 0 for "".
func dirBytes(b *testing.B, dir string) int64 {
	if dir == "" {
		return 0
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// benchLocks makes n locks under /bench, each with a holder and two
// waiters of our own lock client, which wait until ctx ends.
func benchLocks(b *testing.B, ctx context.Context, zks *zktest.Server, n int) {
	c := zks.Connect(b)
	client := lockclient.NewClient(c)
	for i := range n {
		p := fmt.Sprintf("/bench/lock-%03d", i)
		if _, err := client.Acquire(ctx, lockclient.Spec{Path: p, Mode: lockcore.ModeExclusive}); err != nil {
			b.Fatal(err)
		}
		for range 2 {
			go func() { _, _ = client.Acquire(ctx, lockclient.Spec{Path: p, Mode: lockcore.ModeExclusive}) }()
		}
	}
}

// churn takes and gives back the lock at p five times a second until ctx
// ends.
func churn(ctx context.Context, b *testing.B, zks *zktest.Server, p string) {
	c := zks.Connect(b)
	for ctx.Err() == nil {
		h, err := lockclient.Acquire(ctx, c, lockclient.Spec{Path: p, Mode: lockcore.ModeExclusive})
		if err != nil {
			return
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
		_ = h.Release(context.Background())
	}
}

// benchSession is one SSH session, its screen read and thrown away but
// for the last few kilobytes.
type benchSession struct {
	conn *gossh.Client
	mu   sync.Mutex
	tail []byte
}

func (s *benchSession) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tail = append(s.tail, p...)
	if len(s.tail) > 64<<10 {
		s.tail = append([]byte(nil), s.tail[len(s.tail)-32<<10:]...)
	}
	return len(p), nil
}

func openBenchSession(b *testing.B, r *serverig.Rig, signer gossh.Signer, user string) *benchSession {
	conn, err := gossh.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", r.Port()), &gossh.ClientConfig{User: user,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		b.Fatal(err)
	}
	sess, err := conn.NewSession()
	if err != nil {
		b.Fatal(err)
	}
	s := &benchSession{conn: conn}
	sess.Stdout, sess.Stderr = s, s
	if err := sess.RequestPty("xterm-256color", 40, 120, gossh.TerminalModes{}); err != nil {
		b.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		b.Fatal(err)
	}
	return s
}

func (s *benchSession) waitText(b *testing.B, text string) {
	zktest.WaitUntil(b, time.Minute, func() string {
		s.mu.Lock()
		defer s.mu.Unlock()
		if bytes.Contains([]byte(ansi.Strip(string(s.tail))), []byte(text)) {
			return ""
		}
		return "a session never showed " + text
	})
}

func (s *benchSession) close() { s.conn.Close() }
