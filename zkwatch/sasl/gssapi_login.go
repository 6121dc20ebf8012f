package sasl

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jcmturner/gokrb5/v8/client"
	"github.com/jcmturner/gokrb5/v8/config"
	"github.com/jcmturner/gokrb5/v8/credentials"
	"github.com/jcmturner/gokrb5/v8/keytab"
)

// resolveTimeout bounds the host name lookups of one service principal.
const resolveTimeout = 10 * time.Second

// Kerberos is a client principal's Kerberos login, shared by every
// connection of a process: each [Kerberos.Mechanism] is one exchange's
// GSSAPI mechanism with a service ticket for that connection's server.
//
// A login lasts as long as the process: with a keytab, the ticket-granting
// ticket is renewed in the background before it expires and obtained
// again once it can no longer be renewed, and a keytab that changes on
// disk (a rotated key) is read again before the next exchange; with a
// credential cache, the cache is read again whenever it changes (kinit,
// k5start or sssd renew it). Service tickets are kept while valid and
// obtained again when they expire.
type Kerberos struct {
	cfg      KerberosConfig
	confPath string
	resolver hostResolver

	mu     sync.Mutex
	conf   *config.Config
	cl     *client.Client
	source os.FileInfo // the keytab or credential cache read last
	name   string      // the client principal's name, without realm
	realm  string
}

// NewKerberos logs in as cfg says: it reads krb5.conf, then the keytab
// (and asks the KDC for a ticket-granting ticket) or the credential cache.
// Its errors say which of krb5.conf, the keytab, the principal, the KDC,
// the clock or the cache is at fault, each matching one sentinel of this
// package.
func NewKerberos(cfg KerberosConfig) (*Kerberos, error) {
	k := &Kerberos{cfg: cfg, confPath: cfg.krb5ConfPath(), resolver: net.DefaultResolver}
	if k.cfg.ServiceName == "" {
		k.cfg.ServiceName = DefaultServiceName
	}
	conf, err := loadKrb5Conf(k.confPath)
	if err != nil {
		return nil, err
	}
	k.conf = conf
	if err := k.login(); err != nil {
		return nil, err
	}
	return k, nil
}

// Principal is the client principal, "name@REALM": the identity a
// ZooKeeper server gives the session (sasl:name@REALM in ACLs, unless the
// server strips the host or realm).
func (k *Kerberos) Principal() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.name + "@" + k.realm
}

// Close ends the login: the background renewal stops.
func (k *Kerberos) Close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cl != nil {
		k.cl.Destroy()
		k.cl = nil
	}
}

// Mechanism returns a GSSAPI mechanism for one exchange with the server
// at host (as the connect string names it), with a service ticket for
// ZooKeeper's principal there: from the ones kept while still valid, or
// from the KDC. A keytab or credential cache changed on disk since the
// last call is read first. It is a mechanism factory for the connection.
func (k *Kerberos) Mechanism(host string) (Mechanism, error) {
	ctx, cancel := context.WithTimeout(context.Background(), resolveTimeout)
	defer cancel()
	svcHost := serviceHost(ctx, k.resolver, host, !k.cfg.KeepHostName)
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cl == nil {
		return nil, errors.New("sasl: the kerberos login is closed")
	}
	if k.changed() {
		if err := k.login(); err != nil {
			return nil, err
		}
	}
	spn := k.cfg.ServiceName + "/" + svcHost
	realm := k.serviceRealm(svcHost)
	// gokrb5 finds a service's realm by krb5.conf's [domain_realm]; this
	// host's entry says the realm chosen by ZooKeeper's rule.
	k.conf.DomainRealm[svcHost] = realm
	tkt, key, err := k.cl.GetServiceTicket(spn)
	if err != nil {
		return nil, k.explain(fmt.Sprintf("get a ticket for %s@%s", spn, realm), err)
	}
	return NewGSSAPI(Ticket{Ticket: tkt, SessionKey: key, Client: k.cl.Credentials.CName(), Realm: k.realm}, k.name+"@"+k.realm), nil
}

// serviceRealm is the service principal's realm for host: the configured
// one, krb5.conf's mapping of the host, its default realm, or the
// client's (ZooKeeper assumes server and client share a realm).
func (k *Kerberos) serviceRealm(host string) string {
	if k.cfg.ServerRealm != "" {
		return k.cfg.ServerRealm
	}
	delete(k.conf.DomainRealm, host) // the entry an earlier call made
	if r := k.conf.ResolveRealm(host); r != "" {
		return r
	}
	if k.conf.LibDefaults.DefaultRealm != "" {
		return k.conf.LibDefaults.DefaultRealm
	}
	return k.realm
}

// changed reports whether the keytab or credential cache read last has
// changed on disk (rewritten, or replaced by another file).
func (k *Kerberos) changed() bool {
	path, err := k.sourcePath()
	if err != nil {
		return false
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	return !os.SameFile(fi, k.source) || !fi.ModTime().Equal(k.source.ModTime()) || fi.Size() != k.source.Size()
}

// sourcePath is the keytab's or the credential cache's path.
func (k *Kerberos) sourcePath() (string, error) {
	if k.cfg.Keytab != "" {
		return k.cfg.Keytab, nil
	}
	return k.cfg.ccachePath()
}

// login reads the keytab or the credential cache and makes a new client,
// replacing the current one (whose renewal stops).
func (k *Kerberos) login() error {
	path, err := k.sourcePath()
	if err != nil {
		return err
	}
	fi, err := os.Stat(path)
	var cl *client.Client
	switch {
	case k.cfg.Keytab != "" && err != nil:
		return fmt.Errorf("%w: read keytab: %v", ErrKeytab, err)
	case err != nil:
		return fmt.Errorf("%w: read the credential cache: %v (log in with kinit, or give a keytab)", ErrCredentialCache, err)
	case k.cfg.Keytab != "":
		cl, err = k.keytabClient(path)
	default:
		cl, err = k.ccacheClient(path)
	}
	if err != nil {
		return err
	}
	if k.cl != nil {
		k.cl.Destroy()
	}
	k.cl, k.source = cl, fi
	return nil
}

// keytabClient logs in with the keytab at path: a ticket-granting ticket
// from the KDC, renewed in the background.
func (k *Kerberos) keytabClient(path string) (*client.Client, error) {
	name, realm := splitPrincipal(k.cfg.Principal, k.conf.LibDefaults.DefaultRealm)
	if realm == "" {
		return nil, fmt.Errorf("%w: principal %s names no realm and krb5.conf %s has no default_realm", ErrKerberosConfig, name, k.confPath)
	}
	k.name, k.realm = name, realm
	if err := checkRealm(k.conf, k.confPath, realm); err != nil {
		return nil, err
	}
	kt, err := keytab.Load(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not a keytab: %v", ErrKeytab, path, err)
	}
	if err := keytabHolds(kt, path, name, realm); err != nil {
		return nil, err
	}
	// FAST is off, as MIT's and Active Directory's KDCs expect of a
	// client without an armour ticket.
	cl := client.NewWithKeytab(name, realm, kt, k.conf, client.DisablePAFXFAST(true))
	if err := cl.Login(); err != nil {
		return nil, k.explain("kerberos login", err)
	}
	return cl, nil
}

// keytabHolds reports a keytab without a key of name@realm, naming the
// principals it does hold (never their keys).
func keytabHolds(kt *keytab.Keytab, path, name, realm string) error {
	var held []string
	for _, e := range kt.Entries {
		p := strings.Join(e.Principal.Components, "/")
		if p == name && e.Principal.Realm == realm {
			return nil
		}
		if s := p + "@" + e.Principal.Realm; !slices.Contains(held, s) {
			held = append(held, s)
		}
	}
	if len(held) == 0 {
		return fmt.Errorf("%w: keytab %s is empty", ErrKeytab, path)
	}
	return fmt.Errorf("%w: keytab %s holds no key of %s@%s, only of %s", ErrKeytab, path, name, realm, strings.Join(held, ", "))
}

// ccacheClient reads the credential cache at path, whose ticket-granting
// ticket must still be valid.
func (k *Kerberos) ccacheClient(path string) (*client.Client, error) {
	cc, err := credentials.LoadCCache(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not a credential cache: %v", ErrCredentialCache, path, err)
	}
	cname := cc.GetClientPrincipalName().PrincipalNameString()
	crealm := cc.GetClientRealm()
	if k.cfg.Principal != "" {
		name, realm := splitPrincipal(k.cfg.Principal, crealm)
		if name != cname || realm != crealm {
			return nil, fmt.Errorf("%w: %s holds the tickets of %s@%s, not of %s@%s (kinit %s@%s, or give a keytab)",
				ErrCredentialCache, path, cname, crealm, name, realm, name, realm)
		}
	}
	k.name, k.realm = cname, crealm
	if err := checkRealm(k.conf, k.confPath, crealm); err != nil {
		return nil, err
	}
	cl, err := client.NewFromCCache(cc, k.conf, client.DisablePAFXFAST(true))
	if err != nil {
		return nil, fmt.Errorf("%w: %s has no ticket-granting ticket for %s (kinit again)", ErrCredentialCache, path, crealm)
	}
	if err := cl.AffirmLogin(); err != nil {
		return nil, fmt.Errorf("%w: the ticket-granting ticket in %s has expired (kinit again, or give a keytab)", ErrCredentialCache, path)
	}
	return cl, nil
}

// explain turns a gokrb5 error met while doing what into a sentence an
// operator can act on, wrapping the sentinel it stands for. gokrb5's own
// text follows the sentence for what is not classified; it names
// messages and hosts, never keys.
func (k *Kerberos) explain(what string, err error) error {
	who := k.name + "@" + k.realm
	if k.cfg.Keytab == "" && strings.Contains(err.Error(), "no user credentials") {
		// gokrb5's words when a cache's ticket-granting ticket has
		// expired and there is no key to log in again with.
		return fmt.Errorf("%s: %w: the ticket-granting ticket of %s in the credential cache has expired (kinit again, or give a keytab)", what, ErrCredentialCache, who)
	}
	switch c := classifyKerberos(err); {
	case errors.Is(c, ErrUnknownPrincipal):
		return fmt.Errorf("%s: %w: the KDC of %s has no principal %s", what, c, k.realm, who)
	case errors.Is(c, ErrUnknownService):
		return fmt.Errorf("%s: %w: the KDC has no such service principal (check the server's principal, zookeeper.sasl.client.username and the host name)", what, c)
	case errors.Is(c, ErrWrongKey):
		return fmt.Errorf("%s: %w: the KDC refused the key of %s in keytab %s (the keytab is out of date, or was made for another KDC's %s)", what, c, who, k.cfg.Keytab, who)
	case errors.Is(c, ErrClockSkew):
		return fmt.Errorf("%s: %w: this host's clock and the KDC's differ by more than the allowed skew (set the clock, with NTP)", what, c)
	case errors.Is(c, ErrKDCUnreachable):
		return fmt.Errorf("%s: %w: no KDC of %s answered at %s (is the KDC running, and krb5.conf %s right?)", what, c, k.realm, k.kdcs(), k.confPath)
	}
	return fmt.Errorf("%s as %s: %w", what, who, err)
}

// kdcs lists the realm's KDCs krb5.conf names.
func (k *Kerberos) kdcs() string {
	for _, r := range k.conf.Realms {
		if r.Realm == k.realm && len(r.KDC) > 0 {
			return strings.Join(r.KDC, ", ")
		}
	}
	return "the KDCs DNS names"
}
