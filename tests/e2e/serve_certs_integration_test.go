package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/serverig"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	gossh "golang.org/x/crypto/ssh"
)

// sshCA is a certificate authority made by ssh-keygen in a test's
// directory, and the certificates it signs there.
type sshCA struct {
	t   *testing.T
	dir string
	pub string // the authority's public key line
}

func newSSHCA(t *testing.T, dir string) sshCA {
	t.Helper()
	pub, _ := serverig.SSHKey(t, dir, "ca")
	return sshCA{t: t, dir: dir, pub: pub}
}

// sign makes the key name and its certificate name-cert.pub, with
// ssh-keygen -s and the arguments given (-n principals, -V, -O, -h).
func (ca sshCA) sign(name string, args ...string) {
	ca.t.Helper()
	serverig.SSHKey(ca.t, ca.dir, name)
	cmd := append([]string{"-q", "-s", filepath.Join(ca.dir, "ca"), "-I", name + "@corp", "-z", "7"}, args...)
	cmd = append(cmd, filepath.Join(ca.dir, name+".pub"))
	if out, err := exec.Command("ssh-keygen", cmd...).CombinedOutput(); err != nil {
		ca.t.Fatalf("ssh-keygen %v: %v\n%s", cmd, err, out)
	}
}

// trySSH signs in to 127.0.0.1:port as user with the key name (and its
// certificate beside it) and asks to run true; it returns ssh's exit
// code and what it said.
func trySSH(t *testing.T, port int, dir, name, user string) (int, string) {
	t.Helper()
	args := []string{"-p", strconv.Itoa(port), "-i", filepath.Join(dir, name),
		"-o", "CertificateFile=" + filepath.Join(dir, name+"-cert.pub"), "-o", "IdentitiesOnly=yes",
		"-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "LogLevel=ERROR", user + "@127.0.0.1", "true"}
	out, err := exec.Command("ssh", args...).CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	case err != nil:
		t.Fatal(err)
	}
	return 0, string(out)
}

// goSSH signs in with the key name and its certificate through Go's SSH
// client, which offers any certificate it is given.
func goSSH(t *testing.T, port int, dir, name, user string) error {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.ParsePrivateKey(b)
	if err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(filepath.Join(dir, name+"-cert.pub"))
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _, _, err := gossh.ParseAuthorizedKey(b)
	if err != nil {
		t.Fatal(err)
	}
	certSigner, err := gossh.NewCertSigner(pub.(*gossh.Certificate), signer)
	if err != nil {
		t.Fatal(err)
	}
	c, err := gossh.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port), &gossh.ClientConfig{User: user,
		Auth: []gossh.AuthMethod{gossh.PublicKeys(certSigner)}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second})
	if err == nil {
		c.Close()
	}
	return err
}

// TestIntegrationServeCertificates signs certificates with a CA made by
// ssh-keygen and signs in with each through OpenSSH's client, to zklocks
// serve and to OpenSSH's own sshd given the same authorities and revoked
// keys: each is admitted or refused by both alike. A certificate admitted
// opens a session with its line's role, its key id, serial and principal
// in the log; listing its key in the revoked keys ends that session,
// saying why.
func TestIntegrationServeCertificates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca := newSSHCA(t, dir)
	ca.sign("oncall", "-n", "oncall")
	ca.sign("dev", "-n", "dev")
	ca.sign("sales", "-n", "sales")
	ca.sign("expired", "-n", "oncall", "-V", "20200101:20200102")
	ca.sign("future", "-n", "oncall", "-V", "20990101:20991231")
	ca.sign("noprincipals")
	ca.sign("elsewhere", "-n", "oncall", "-O", "source-address=10.0.0.0/8")
	ca.sign("host", "-h", "-n", "oncall")
	ca.sign("revoked", "-n", "oncall")
	ca.sign("later", "-n", "oncall")
	revokedPub, err := os.ReadFile(filepath.Join(dir, "revoked.pub"))
	if err != nil {
		t.Fatal(err)
	}
	revokedFile := filepath.Join(dir, "revoked_keys")
	if err := os.WriteFile(revokedFile, revokedPub, 0o600); err != nil {
		t.Fatal(err)
	}
	// OpenSSH's rules, each checked against sshd below: a user
	// certificate (sshd: "certificate type host"), in its validity window
	// ("expired" / "not yet valid"), with a principal the cert-authority
	// line's principals= allows (a certificate without principals matches
	// none), its source-address critical option enforced, and neither its
	// key nor its authority in RevokedKeys.
	want := map[string]bool{"oncall": true, "dev": true, "later": true, "sales": false, "expired": false, "future": false,
		"noprincipals": false, "elsewhere": false, "revoked": false}

	sshd := serverig.StartSSHD(t, []string{`cert-authority,principals="oncall" ` + ca.pub, `cert-authority,principals="dev" ` + ca.pub}, revokedFile)
	for name, admit := range want {
		code, out := trySSH(t, sshd.Port(), dir, name, sshd.User())
		if got := code == 0; got != admit {
			t.Errorf("sshd: certificate %s admitted %v, want %v (exit %d: %s)", name, got, admit, code, out)
		}
	}
	// OpenSSH's client does not offer a host certificate as a user's:
	// Go's client does, and sshd refuses it ("certificate type host").
	if err := goSSH(t, sshd.Port(), dir, "host", sshd.User()); err == nil {
		t.Error("sshd admitted a host certificate as a user's")
	}
	if t.Failed() {
		t.Fatalf("sshd's log:\n%s", sshd.Log())
	}

	zks := zktest.Start(t)
	r := serverig.Start(t, zks, "/serve", []string{`cert-authority,principals="oncall",zklocks-role="operate" ` + ca.pub,
		`cert-authority,principals="dev" ` + ca.pub}, "--revoked-keys", revokedFile)
	for name, admit := range want {
		// Admitted, the command is refused after sign-in; refused, ssh
		// says permission denied.
		code, out := trySSH(t, r.Port(), dir, name, "alice")
		got := strings.Contains(out, "runs its UI and nothing else")
		if got != admit || (!admit && (code != 255 || !strings.Contains(out, "Permission denied"))) {
			t.Errorf("zklocks serve: certificate %s admitted %v, want %v (exit %d: %s)", name, got, admit, code, out)
		}
	}
	if err := goSSH(t, r.Port(), dir, "host", "alice"); err == nil {
		t.Error("zklocks serve admitted a host certificate as a user's")
	}
	for _, why := range []string{`certificate "host@corp" is a host certificate`, `certificate "expired@corp": cert has expired`,
		`certificate "future@corp": cert is not yet valid`, `certificate "noprincipals@corp" lacks a principal list`,
		`certificate "elsewhere@corp": source-address "10.0.0.0/8" does not allow 127.0.0.1`,
		`none of certificate "sales@corp"'s principals ["sales"] is allowed`, `certificate "revoked@corp"`} {
		// The log comes through a pipe: wait for it.
		r.WaitLog(why)
	}

	// Sessions take their line's role, and name the certificate.
	for _, name := range []string{"later", "dev"} {
		for _, f := range []string{name, name + "-cert.pub"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(r.Path(f), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	later := r.Open("alice", "later", 100, 30)
	dev := r.Open("dan", "dev", 100, 30)
	dev.WaitText("READ-ONLY")
	if strings.Contains(later.Capture(), "READ-ONLY") {
		t.Fatalf("the oncall certificate's session is read-only:\n%s", later.Last())
	}
	r.WaitLog(`user "alice", certificate "later@corp" serial 7 principal "oncall"`)
	r.WaitLog(`user "dan", certificate "dev@corp" serial 7 principal "dev"`)

	// Its key revoked while it is open, the session ends, saying why; the
	// other goes on.
	laterPub, err := os.ReadFile(filepath.Join(dir, "later.pub"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(revokedFile, append(revokedPub, laterPub...), 0o600); err != nil {
		t.Fatal(err)
	}
	later.WaitText("your certificate is no longer admitted", "revoked")
	later.WaitExit(30 * time.Second)
	if dev.PaneDead() {
		t.Fatalf("revoking one certificate ended another's session:\n%s", dev.Capture())
	}
	if code, out := trySSH(t, r.Port(), dir, "later", "alice"); code != 255 {
		t.Fatalf("a revoked certificate signed in again: exit %d: %s", code, out)
	}
}
