package sasl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jcmturner/gokrb5/v8/config"
)

// DefaultKrb5Conf is where krb5.conf is read from when neither
// [KerberosConfig.Krb5Conf] nor KRB5_CONFIG says.
const DefaultKrb5Conf = "/etc/krb5.conf"

// KerberosConfig says how the GSSAPI mechanism logs in and which service
// it asks a ticket for. The zero values are the Java client's defaults.
type KerberosConfig struct {
	// Principal is the client principal, "name[/instance][@REALM]";
	// without a realm, krb5.conf's default_realm. With a credential
	// cache it may be empty: the cache's own principal.
	Principal string
	// Keytab is the keytab file to log in with; empty: the credential
	// cache.
	Keytab string
	// CCache is the credential cache file (kinit's); empty: KRB5CCNAME,
	// or /tmp/krb5cc_UID.
	CCache string
	// Krb5Conf is krb5.conf's path; empty: KRB5_CONFIG, or /etc/krb5.conf.
	Krb5Conf string
	// ServiceName is the service principal's first component, the Java
	// client's zookeeper.sasl.client.username; empty: "zookeeper".
	ServiceName string
	// KeepHostName turns off the canonical host name, as
	// zookeeper.sasl.client.canonicalize.hostname=false does: the
	// service principal's host is the connect string's host as written.
	KeepHostName bool
	// ServerRealm is the service principal's realm, as
	// zookeeper.server.realm names it; empty: krb5.conf's [domain_realm]
	// mapping of the host, then its default_realm, then the client's
	// realm.
	ServerRealm string
}

// ParseKerberos reads the part after "kerberos:" of an --auth value:
// "PRINCIPAL" (a credential cache holds its tickets) or "PRINCIPAL:@KEYTAB".
// The other fields keep their defaults.
func ParseKerberos(spec string) (KerberosConfig, error) {
	var c KerberosConfig
	principal, keytab, hasKeytab := strings.Cut(spec, ":")
	if hasKeytab {
		path, ok := strings.CutPrefix(keytab, "@")
		if !ok || path == "" {
			return c, fmt.Errorf("%w: kerberos:%s: after the principal comes :@KEYTAB, the keytab file's path", ErrKerberosConfig, principal)
		}
		c.Keytab = path
	}
	if principal == "" && hasKeytab {
		return c, fmt.Errorf("%w: kerberos::@%s: a keytab needs the principal whose key it holds", ErrKerberosConfig, c.Keytab)
	}
	if strings.Count(principal, "@") > 1 || strings.HasSuffix(principal, "@") || strings.HasPrefix(principal, "@") {
		return c, fmt.Errorf("%w: %q is not a principal (name[/instance][@REALM])", ErrKerberosConfig, principal)
	}
	c.Principal = principal
	return c, nil
}

// krb5ConfPath is the krb5.conf to read: the configured one, the first of
// KRB5_CONFIG's colon-separated files that exists, or /etc/krb5.conf.
func (c KerberosConfig) krb5ConfPath() string {
	if c.Krb5Conf != "" {
		return c.Krb5Conf
	}
	if env := os.Getenv("KRB5_CONFIG"); env != "" {
		for _, p := range filepath.SplitList(env) {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
		return filepath.SplitList(env)[0]
	}
	return DefaultKrb5Conf
}

// ccachePath is the credential cache to read: the configured one,
// KRB5CCNAME (a FILE: cache, the only kind read), or /tmp/krb5cc_UID.
func (c KerberosConfig) ccachePath() (string, error) {
	if c.CCache != "" {
		return c.CCache, nil
	}
	env := os.Getenv("KRB5CCNAME")
	if env == "" {
		return fmt.Sprintf("/tmp/krb5cc_%d", os.Getuid()), nil
	}
	kind, rest, typed := strings.Cut(env, ":")
	if !typed {
		return env, nil
	}
	if kind != "FILE" {
		return "", fmt.Errorf("%w: KRB5CCNAME is a %s cache; only FILE caches are read (kinit -c FILE:/path, or log in with a keytab)", ErrCredentialCache, kind)
	}
	return rest, nil
}

// loadKrb5Conf reads krb5.conf and checks that it can reach realm's KDCs.
func loadKrb5Conf(path string) (*config.Config, error) {
	conf, err := config.Load(path)
	if err != nil {
		if _, statErr := os.Stat(path); statErr != nil {
			return nil, fmt.Errorf("%w: read krb5.conf: %v", ErrKerberosConfig, statErr)
		}
		// gokrb5 names the section and line it could not parse, not
		// secrets: krb5.conf holds none.
		return nil, fmt.Errorf("%w: krb5.conf %s: %v", ErrKerberosConfig, path, err)
	}
	return conf, nil
}

// checkRealm reports a krb5.conf that cannot find realm's KDCs: neither a
// kdc line in its [realms] entry nor dns_lookup_kdc.
func checkRealm(conf *config.Config, path, realm string) error {
	for _, r := range conf.Realms {
		if r.Realm == realm && len(r.KDC) > 0 {
			return nil
		}
	}
	if conf.LibDefaults.DNSLookupKDC {
		return nil
	}
	return fmt.Errorf("%w: krb5.conf %s names no kdc for realm %s (add it to [realms] as REALM = { kdc = HOST:PORT }, or set dns_lookup_kdc = true)",
		ErrKerberosConfig, path, realm)
}

// splitPrincipal splits "name[/instance][@REALM]" into its name and
// realm, the realm defaulting to defaultRealm.
func splitPrincipal(p, defaultRealm string) (name, realm string) {
	name, realm, ok := strings.Cut(p, "@")
	if !ok {
		realm = defaultRealm
	}
	return name, realm
}
