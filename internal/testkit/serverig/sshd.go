package serverig

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/zktest"
)

// SSHD is OpenSSH's own sshd, started by a test on a high port of
// 127.0.0.1 with an authorized-keys file and a revoked-keys file of the
// test's, so that the test can ask it whether it admits a key or a
// certificate: the reference zklocks serve's sign-in is held to.
type SSHD struct {
	t      testing.TB
	dir    string
	port   int
	log    *zktest.SyncBuffer
	cmd    *exec.Cmd
	exited chan struct{}
}

// StartSSHD runs /usr/sbin/sshd in the foreground (Debian's
// openssh-server) admitting the lines of authorizedKeys (OpenSSH's own
// options only) and refusing those of the file revokedKeys (which must
// exist). sshd signs users in as accounts of this machine, so the test
// connects as the user it runs as; it is skipped, saying why, when sshd
// is not installed or the test does not run as root (sshd then cannot
// switch to the account).
func StartSSHD(t testing.TB, authorizedKeys []string, revokedKeys string) *SSHD {
	t.Helper()
	const sshd = "/usr/sbin/sshd"
	if _, err := os.Stat(sshd); err != nil {
		t.Skip("OpenSSH's sshd is not installed (apt-get install -y openssh-server; scripts/deps.sh does)")
	}
	if os.Geteuid() != 0 {
		t.Skip("sshd signs users in only when it runs as root")
	}
	// sshd's privilege-separated child chroots to this directory.
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatal(err)
	}
	d := &SSHD{t: t, dir: t.TempDir(), port: zktest.FreePort(t), log: &zktest.SyncBuffer{}, exited: make(chan struct{})}
	hostKey := filepath.Join(d.dir, "host_key")
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", hostKey).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	ak := filepath.Join(d.dir, "authorized_keys")
	if err := os.WriteFile(ak, []byte(strings.Join(authorizedKeys, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`ListenAddress 127.0.0.1:%d
HostKey %s
AuthorizedKeysFile %s
RevokedKeys %s
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PermitRootLogin yes
StrictModes no
PidFile none
LogLevel VERBOSE
`, d.port, hostKey, ak, revokedKeys)
	cfg := filepath.Join(d.dir, "sshd_config")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	d.cmd = exec.Command(sshd, "-D", "-e", "-f", cfg)
	d.cmd.Stdout, d.cmd.Stderr = d.log, d.log
	if err := d.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = d.cmd.Wait(); close(d.exited) }()
	t.Cleanup(func() {
		_ = d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.exited:
		case <-time.After(10 * time.Second):
			_ = d.cmd.Process.Kill()
		}
	})
	zktest.WaitUntil(t, 30*time.Second, func() string {
		if strings.Contains(d.log.String(), "Server listening on") {
			return ""
		}
		return "sshd never listened:\n" + d.log.String()
	})
	return d
}

// Port is the port sshd listens on, on 127.0.0.1.
func (d *SSHD) Port() int { return d.port }

// Log is what sshd has logged so far (why it refused whom).
func (d *SSHD) Log() string { return d.log.String() }

// User is the account the test signs in as: sshd runs as root, and so
// does the test.
func (d *SSHD) User() string { return "root" }
