// Package kdc runs a real MIT Kerberos KDC (Debian's krb5-kdc and
// krb5-admin-server) for a test: a realm of its own in a temporary
// directory, its KDC on a free loopback port, principals and keytabs made
// with kadmin.local, and a krb5.conf for clients (Go's gokrb5 and Java's
// Krb5LoginModule alike) that points at it; and, in one call
// (StartZooKeeper), a ZooKeeper that authenticates its clients in it.
package kdc

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// installHint is the command that provides the KDC and its tools.
const installHint = "apt-get install -y krb5-kdc krb5-admin-server"

// The programs of Debian's MIT Kerberos packages.
const (
	kdb5Util    = "/usr/sbin/kdb5_util"
	kadminLocal = "/usr/sbin/kadmin.local"
	krb5kdc     = "/usr/sbin/krb5kdc"
)

// readyBackstop bounds the wait for a started KDC to take connections; it
// is not a timing assertion (a KDC is up in well under a second), only the
// end of a wait for one that never comes up.
const readyBackstop = 2 * time.Minute

// Realm is one Kerberos realm with its KDC, run for a test. t's Cleanup
// stops the KDC; its files go with t's temporary directory.
type Realm struct {
	// Name is the realm's name, such as "ZKLOCKS.TEST".
	Name string
	// Port is the KDC's loopback port, UDP and TCP.
	Port int
	// Krb5Conf is the clients' krb5.conf: the realm's KDC, the realm as
	// default_realm and as localhost's, TCP only.
	Krb5Conf string

	t   testing.TB
	dir string
	env []string

	maxLife time.Duration

	mu      sync.Mutex
	cmd     *exec.Cmd
	exited  chan struct{}
	stopped bool
}

// Option changes how [Start] makes a realm.
type Option func(*Realm)

// MaxLife caps the life of every ticket the KDC issues (10 hours without
// it), for tests of what happens when tickets expire.
func MaxLife(d time.Duration) Option {
	return func(r *Realm) { r.maxLife = d }
}

// Start makes the realm name (its database, stash and configuration in a
// temporary directory of t) and starts its KDC. Every principal of the
// realm requires pre-authentication, as production realms do. A missing
// KDC installation fails the test with the command that installs it.
func Start(t testing.TB, name string, opts ...Option) *Realm {
	t.Helper()
	for _, p := range []string{kdb5Util, kadminLocal, krb5kdc} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("kdc: %s is missing; install it with: %s", p, installHint)
		}
	}
	ports, err := zkserver.FreePorts(1)
	if err != nil {
		t.Fatalf("kdc: %v", err)
	}
	dir := t.TempDir()
	r := &Realm{Name: name, Port: ports[0], Krb5Conf: filepath.Join(dir, "krb5.conf"), t: t, dir: dir, maxLife: 10 * time.Hour}
	for _, opt := range opts {
		opt(r)
	}
	r.env = append(os.Environ(), "KRB5_CONFIG="+r.Krb5Conf, "KRB5_KDC_PROFILE="+filepath.Join(dir, "kdc.conf"))
	r.writeFile("kdc.conf", r.kdcConf())
	r.writeFile("krb5.conf", r.krb5Conf())
	r.writeFile("kadm5.acl", "")
	// The master password only seals the stash, which lives beside it.
	r.run(kdb5Util, "create", "-s", "-r", name, "-P", "zklocks-test-master")
	r.startKDC()
	t.Cleanup(r.Stop)
	return r
}

// kdcConf is the KDC's own configuration: every file in the realm's
// directory, the realm on Port.
func (r *Realm) kdcConf() string {
	return fmt.Sprintf(`[kdcdefaults]
    kdc_ports = %[2]d
    kdc_tcp_ports = %[2]d

[realms]
    %[1]s = {
        database_name = %[3]s/principal
        key_stash_file = %[3]s/stash
        acl_file = %[3]s/kadm5.acl
        admin_keytab = %[3]s/kadm5.keytab
        kdc_ports = %[2]d
        kdc_tcp_ports = %[2]d
        max_life = %[4]ds
        max_renewable_life = 7d 0h 0m 0s
        default_principal_flags = +preauth
    }

[logging]
    kdc = FILE:%[3]s/kdc.log
    admin_server = FILE:%[3]s/kadmin.log
    default = FILE:%[3]s/krb5.log
`, r.Name, r.Port, r.dir, int(r.maxLife.Seconds()))
}

// krb5Conf is the clients' configuration. Java reads a realm's entry only
// in the multi-line form (REALM = {, then kdc = …, then }): the one-line
// form fails inside Krb5LoginModule.
func (r *Realm) krb5Conf() string {
	return fmt.Sprintf(`[libdefaults]
    default_realm = %[1]s
    dns_lookup_kdc = false
    dns_lookup_realm = false
    rdns = false
    udp_preference_limit = 1
    default_ccache_name = FILE:%[3]s/ccache

[realms]
    %[1]s = {
        kdc = 127.0.0.1:%[2]d
    }

[domain_realm]
    localhost = %[1]s
`, r.Name, r.Port, r.dir)
}

// writeFile writes a file of the realm's directory.
func (r *Realm) writeFile(name, text string) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, name), []byte(text), 0o600); err != nil {
		r.t.Fatalf("kdc: %v", err)
	}
}

// run runs one of the realm's tools to completion, failing the test with
// its output when it fails.
func (r *Realm) run(tool string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Env = r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("kdc: %s %s: %v\n%s", filepath.Base(tool), strings.Join(args, " "), err, out)
	}
	return string(out)
}

// Kadmin runs one kadmin.local query on the realm's database ("modprinc
// -maxrenewlife 0 alice", say) and returns its output.
func (r *Realm) Kadmin(query string) string {
	r.t.Helper()
	return r.run(kadminLocal, "-r", r.Name, "-q", query)
}

// AddPrincipal adds principals (such as "zookeeper/localhost" or "alice")
// to the realm, each with a random key.
func (r *Realm) AddPrincipal(principals ...string) {
	r.t.Helper()
	for _, p := range principals {
		r.Kadmin("addprinc -randkey " + p)
	}
}

// Keytab writes the keys of principals to a new keytab file in the realm's
// directory and returns its path. ktadd gives each principal a new key
// (its version goes up): a keytab written before for the same principal
// then holds an old key, which the KDC refuses.
func (r *Realm) Keytab(name string, principals ...string) string {
	r.t.Helper()
	path := filepath.Join(r.dir, name)
	for _, p := range principals {
		r.Kadmin("ktadd -k " + path + " " + p)
	}
	return path
}

// Principal returns "name@REALM".
func (r *Realm) Principal(name string) string { return name + "@" + r.Name }

// startKDC starts krb5kdc in the foreground and waits until it takes TCP
// connections.
func (r *Realm) startKDC() {
	r.t.Helper()
	cmd := exec.Command(krb5kdc, "-n", "-r", r.Name, "-P", filepath.Join(r.dir, "kdc.pid"))
	cmd.Env = r.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	exited := make(chan struct{})
	if err := zkserver.StartChild(cmd, nil, func(error) { close(exited) }); err != nil {
		r.t.Fatalf("kdc: start krb5kdc: %v", err)
	}
	r.mu.Lock()
	r.cmd, r.exited, r.stopped = cmd, exited, false
	r.mu.Unlock()
	deadline := time.Now().Add(readyBackstop)
	for {
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(r.Port)), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-exited:
			r.t.Fatalf("kdc: krb5kdc exited before taking connections:\n%s\n%s", out.String(), r.Log())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("kdc: krb5kdc takes no connections on port %d after %v:\n%s", r.Port, readyBackstop, r.Log())
		}
	}
}

// Stop stops the KDC and waits for it to exit; the realm's database stays,
// so Restart brings the same principals back. Stopping a stopped KDC does
// nothing.
func (r *Realm) Stop() {
	r.mu.Lock()
	cmd, exited, stopped := r.cmd, r.exited, r.stopped
	r.stopped = true
	r.mu.Unlock()
	if cmd == nil || stopped {
		return
	}
	zkserver.KillGroup(cmd.Process)
	<-exited
}

// Restart starts the stopped KDC again on the same port.
func (r *Realm) Restart() {
	r.t.Helper()
	r.Stop()
	r.startKDC()
}

// Log returns the KDC's log, for a failure's message: which requests it
// answered and with what.
func (r *Realm) Log() string {
	b, err := os.ReadFile(filepath.Join(r.dir, "kdc.log"))
	if err != nil {
		return fmt.Sprintf("(no kdc log: %v)", err)
	}
	var lines []string
	s := bufio.NewScanner(bytes.NewReader(b))
	for s.Scan() {
		lines = append(lines, s.Text())
	}
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}

// kinitPath is MIT's kinit (krb5-user).
const kinitPath = "/usr/bin/kinit"

// Kinit logs principal ("name", of this realm) in from keytab with MIT's
// kinit, into a new credential cache file, and returns the file's path:
// the cache an operator's kinit leaves for a client.
func (r *Realm) Kinit(principal, keytab string) string {
	r.t.Helper()
	if _, err := os.Stat(kinitPath); err != nil {
		r.t.Fatalf("kdc: %s is missing; install it with: apt-get install -y krb5-user", kinitPath)
	}
	cache := filepath.Join(r.t.TempDir(), "ccache")
	r.run(kinitPath, "-k", "-t", keytab, "-c", "FILE:"+cache, r.Principal(principal))
	return cache
}
