package zktest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

func TestIntegrationStartCreateRestart(t *testing.T) {
	t.Parallel()
	s := Start(t)
	if want := fmt.Sprintf("127.0.0.1:%d", s.Port()); s.Addr() != want {
		t.Fatalf("Addr() = %q, want %q", s.Addr(), want)
	}
	if m := probe(context.Background(), s.Addr()); m != "standalone" {
		t.Fatalf("mode = %q, want standalone", m)
	}

	conn := s.Connect(t)
	if _, err := conn.Create("/zktest", []byte("kept"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatalf("create: %v", err)
	}

	s.Stop()
	s.Stop() // idempotent
	if m := probe(context.Background(), s.Addr()); m != "" {
		t.Fatalf("stopped server answers srvr with mode %q", m)
	}
	s.Restart()

	data, _, err := s.Connect(t).Get("/zktest")
	if err != nil || string(data) != "kept" {
		t.Fatalf("after restart, get /zktest = %q, %v; want \"kept\"", data, err)
	}
}

func TestIntegrationOptions(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	s := Start(t,
		WithFourLetterWords("conf,envi"),
		WithConfig("maxSessionTimeout=4000"),
		WithJVMFlags("-Djava.io.tmpdir="+tmp),
	)
	ctx := context.Background()

	conf, err := fourLetter(ctx, s.Addr(), "conf")
	if err != nil || !strings.Contains(conf, "maxSessionTimeout=4000") {
		t.Errorf("conf = %q, %v; want maxSessionTimeout=4000 (WithConfig)", conf, err)
	}
	envi, err := fourLetter(ctx, s.Addr(), "envi")
	if err != nil || !strings.Contains(envi, "java.io.tmpdir="+tmp) {
		t.Errorf("envi = %q, %v; want java.io.tmpdir=%s (WithJVMFlags)", envi, err, tmp)
	}
	stat, err := fourLetter(ctx, s.Addr(), "stat")
	if err != nil || !strings.Contains(stat, "not in the whitelist") {
		t.Errorf("stat = %q, %v; want it refused (WithFourLetterWords)", stat, err)
	}
}

func TestWhitelistKeepsSrvr(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"*", "*"},
		{"srvr", "srvr"},
		{"cons, srvr", "cons, srvr"},
		{"wchc", "wchc,srvr"},
		{"", "srvr"},
	} {
		if got := (config{words: tc.in}).whitelist(); got != tc.want {
			t.Errorf("whitelist(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// fatalRecorder is a testing.TB whose Fatal ends the calling goroutine and
// records the message instead of failing the test.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	runtime.Goexit()
}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestStartWithoutJarsFails(t *testing.T) {
	t.Parallel()
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		start(rec, t.TempDir(), nil)
		t.Error("start returned without the jars")
	}()
	<-done
	if !strings.Contains(rec.msg, installHint) {
		t.Fatalf("fatal message %q does not include %q", rec.msg, installHint)
	}
}

func TestIntegrationEnsembleFailover(t *testing.T) {
	t.Parallel()
	e := StartEnsemble(t, 3)
	members := e.Members()
	if len(members) != 3 || strings.Count(e.ConnectString(), ",") != 2 {
		t.Fatalf("members %d, connect string %q", len(members), e.ConnectString())
	}
	leader := e.Leader()
	writer, reader := members[(leader+1)%3], members[(leader+2)%3]

	if _, err := writer.Connect(t).Create("/replicated", []byte("v1"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatalf("create on member %s: %v", writer.Addr(), err)
	}
	rc := reader.Connect(t)
	if _, err := rc.Sync("/replicated"); err != nil {
		t.Fatalf("sync on %s: %v", reader.Addr(), err)
	}
	if data, _, err := rc.Get("/replicated"); err != nil || string(data) != "v1" {
		t.Fatalf("get on %s = %q, %v; want \"v1\"", reader.Addr(), data, err)
	}

	ec := e.Connect(t)
	members[leader].Stop()
	next := e.Leader()
	if next == leader {
		t.Fatalf("stopped member %d is still the leader", leader)
	}
	if err := retry(10*time.Second, func() error {
		_, err := ec.Set("/replicated", []byte("v2"), -1)
		return err
	}); err != nil {
		t.Fatalf("write after failover: %v", err)
	}

	members[leader].Restart()
	if m := probe(context.Background(), members[leader].Addr()); m != "follower" {
		t.Errorf("restarted old leader has mode %q, want follower", m)
	}
}

// retry calls f until it succeeds or d has passed, returning its last error.
func retry(d time.Duration, f func() error) error {
	deadline := time.Now().Add(d)
	for {
		err := f()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		if !errors.Is(err, zk.ErrConnectionClosed) && !errors.Is(err, zk.ErrNoServer) && !errors.Is(err, zk.ErrClosing) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// namedTB is a testing.TB with a given name that records a Fatalf.
type namedTB struct {
	testing.TB
	name   string
	failed string
}

func (n *namedTB) Name() string { return n.name }
func (n *namedTB) Helper()      {}
func (n *namedTB) Fatalf(format string, args ...any) {
	n.failed = fmt.Sprintf(format, args...)
}

// Only integration tests and benchmarks may start a JVM: make unit skips
// them by name.
func TestStartIsForNamedTestsOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"TestIntegrationWatch", true},
		{"TestIntegrationWatch/sub_test", true},
		{"BenchmarkWatch", true},
		{"TestWatch", false},
		{"TestWatch/TestIntegration", false},
	} {
		tb := &namedTB{TB: t, name: tc.name}
		requireIntegration(tb)
		if ok := tb.failed == ""; ok != tc.ok {
			t.Errorf("%s: allowed %v, want %v (%s)", tc.name, ok, tc.ok, tb.failed)
		}
	}
}
