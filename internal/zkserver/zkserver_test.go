package zkserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

const startTimeout = 60 * time.Second

// helperEnv makes the test binary act as an owner that starts a server,
// prints its pid and directory, and waits to be killed.
const helperEnv = "ZKSERVER_TEST_OWNER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
		s, err := Start(ctx, Config{})
		cancel()
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		fmt.Println(s.PID(), s.Dir())
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func start(t *testing.T, cfg Config) *Server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	s, err := Start(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	return s
}

// gone waits up to 10 s for pid to exit and reports whether it did.
func gone(pid int) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		// A zombie ("Z") has exited; only its parent's wait is missing.
		if err != nil || strings.Contains(string(b), ") Z ") {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func TestIntegrationStartStopRemovesEverything(t *testing.T) {
	t.Parallel()
	s := start(t, Config{})
	pid, dir := s.PID(), s.Dir()
	if pid == 0 {
		t.Fatal("PID() = 0 for a running server")
	}
	if !strings.HasPrefix(filepath.Base(dir), tempPrefix+strconv.Itoa(os.Getpid())+"-") {
		t.Errorf("Dir() = %s, want a %s<pid>-* temporary directory", dir, tempPrefix)
	}
	if m := Mode(context.Background(), s.Addr()); m != "standalone" {
		t.Fatalf("mode = %q, want standalone", m)
	}
	conn, _, err := zk.Connect([]string{s.Addr()}, 5*time.Second, zk.WithLogInfo(false), zk.WithLogger(discard{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Create("/z", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatalf("create: %v", err)
	}
	conn.Close()

	if err := s.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if !gone(pid) {
		t.Errorf("java %d still runs after Stop", pid)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s still exists after Stop: %v", dir, err)
	}
	if err := s.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if err := s.Restart(context.Background()); !errors.Is(err, ErrStopped) {
		t.Errorf("Restart after Stop = %v, want ErrStopped", err)
	}
}

func TestIntegrationKillRestartKeepsData(t *testing.T) {
	t.Parallel()
	s := start(t, Config{Dir: t.TempDir(), FourLetterWords: "conf", Lines: []string{"maxSessionTimeout=4000"}})
	conf, err := FourLetter(context.Background(), s.Addr(), "conf")
	if err != nil || !strings.Contains(conf, "maxSessionTimeout=4000") {
		t.Errorf("conf = %q, %v; want maxSessionTimeout=4000", conf, err)
	}
	if stat, _ := FourLetter(context.Background(), s.Addr(), "stat"); !strings.Contains(stat, "not in the whitelist") {
		t.Errorf("stat = %q; want it refused", stat)
	}
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	if m := Mode(context.Background(), s.Addr()); m != "" {
		t.Fatalf("killed server answers with mode %q", m)
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := s.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), "data", "version-2")); err != nil {
		t.Errorf("data directory lost across restart: %v", err)
	}
}

func TestNotInstalled(t *testing.T) {
	t.Parallel()
	_, err := Start(context.Background(), Config{JarDir: t.TempDir()})
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), InstallHint) {
		t.Fatalf("Start without jars = %v, want ErrNotInstalled with %q", err, InstallHint)
	}
}

func TestWhitelist(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "*"}, {"*", "*"}, {"srvr", "srvr"}, {"cons, srvr", "cons, srvr"}, {"wchc", "wchc,srvr"},
	} {
		if got := Whitelist(tc.in); got != tc.want {
			t.Errorf("Whitelist(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSweepStale(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadDir := filepath.Join(base, fmt.Sprintf("%s%d-1", tempPrefix, dead.Process.Pid))
	liveDir := filepath.Join(base, fmt.Sprintf("%s%d-1", tempPrefix, os.Getppid()))
	otherDir := filepath.Join(base, "zklocks-other")
	for _, d := range []string{deadDir, liveDir, otherDir} {
		if err := os.MkdirAll(filepath.Join(d, "data"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	removed := SweepStale(base)
	if len(removed) != 1 || removed[0] != deadDir {
		t.Errorf("SweepStale removed %v, want only %s", removed, deadDir)
	}
	for _, d := range []string{liveDir, otherDir} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was swept: %v", d, err)
		}
	}
}

// TestIntegrationOwnerKilledTakesJVM kills a process that started a server with
// SIGKILL, as a crash would, and checks that the JVM dies with it and that
// the next Start sweeps its directory.
func TestIntegrationOwnerKilledTakesJVM(t *testing.T) {
	t.Parallel()
	owner := exec.Command(os.Args[0], "-test.run=^$")
	owner.Env = append(os.Environ(), helperEnv+"=1")
	out, err := owner.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = owner.Process.Kill(); _ = owner.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("owner said nothing: %v", err)
	}
	var pid int
	var dir string
	if _, err := fmt.Sscan(line, &pid, &dir); err != nil {
		t.Fatalf("owner said %q", line)
	}
	if err := owner.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = owner.Wait()
	if !gone(pid) {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		t.Fatalf("java %d outlived its owner", pid)
	}
	if removed := SweepStale(filepath.Dir(dir)); !contains(removed, dir) {
		t.Errorf("SweepStale removed %v, want %s among them", removed, dir)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

type discard struct{}

func (discard) Printf(string, ...any) {}

// TestZooCfgAdminServer: the AdminServer is off unless asked for, and on
// its own loopback port when it is; the servlet API it needs on Debian is
// then on the class path, or its absence named with the package.
func TestZooCfgAdminServer(t *testing.T) {
	off := zooCfg(Config{}, "/data", 2181, 0)
	if !strings.Contains(off, "admin.enableServer=false\n") || strings.Contains(off, "admin.serverPort") {
		t.Errorf("without Admin:\n%s", off)
	}
	on := zooCfg(Config{Admin: true}, "/data", 2181, 18080)
	for _, want := range []string{"admin.enableServer=true\n", "admin.serverAddress=127.0.0.1\n", "admin.serverPort=18080\n"} {
		if !strings.Contains(on, want) {
			t.Errorf("with Admin, %q missing:\n%s", want, on)
		}
	}
	j, err := jvm{classpath: "a.jar"}.withServletAPI(t.TempDir())
	if !errors.Is(err, ErrNotInstalled) || !strings.Contains(err.Error(), ServletHint) {
		t.Errorf("no servlet-api.jar: %v (class path %q)", err, j.classpath)
	}
}
