package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"

	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// saslConfig is which service principal a Kerberos login asks a ticket
// for, as flags or a context's sasl block give it. The names are the Java
// client's properties', so that an operator finds the value a cluster's
// other clients use: zookeeper.sasl.client.username (service),
// zookeeper.sasl.client.canonicalize.hostname (canonicalize-host) and
// zookeeper.server.realm (server-realm).
type saslConfig struct {
	Service          string `yaml:"service"`
	CanonicalizeHost *bool  `yaml:"canonicalize-host"`
	ServerRealm      string `yaml:"server-realm"`
}

// register adds the --sasl-* flags.
func (c *saslConfig) register(pf *pflag.FlagSet) {
	pf.StringVar(&c.Service, "sasl-service", "", "first component of the servers' Kerberos principal, SERVICE/host@REALM\n(zookeeper.sasl.client.username; default "+sasl.DefaultServiceName+")")
	c.CanonicalizeHost = new(bool)
	pf.BoolVar(c.CanonicalizeHost, "sasl-canonicalize-host", true, "the servers' Kerberos principal names each server's canonical host name, as a\nreverse lookup of its address gives it; false: the host as the connect string writes it\n(zookeeper.sasl.client.canonicalize.hostname)")
	pf.StringVar(&c.ServerRealm, "sasl-server-realm", "", "realm of the servers' Kerberos principal (zookeeper.server.realm; default krb5.conf's\n[domain_realm] mapping of the host, else its default_realm, else the client's realm)")
}

// saslFlagNames are the flags of saslConfig, each with its setting's key.
var saslFlagNames = []struct{ key, flag string }{
	{"sasl.service", "sasl-service"},
	{"sasl.canonicalize-host", "sasl-canonicalize-host"},
	{"sasl.server-realm", "sasl-server-realm"},
}

// mergeSASL sets s.sasl from the flags given, else the context, else the
// Java client's defaults, recording each value's source, and applies it to
// the session's Kerberos credentials. A --sasl-* flag on a session without
// one is refused: it would change nothing, and say nothing of it.
func (s *settings) mergeSASL(flags, ctx saslConfig) error {
	s.sasl = saslConfig{Service: flags.Service, ServerRealm: flags.ServerRealm, CanonicalizeHost: new(bool)}
	*s.sasl.CanonicalizeHost = flags.CanonicalizeHost == nil || *flags.CanonicalizeHost
	if s.fromContext("sasl.service", "sasl-service", ctx.Service != "") {
		s.sasl.Service = ctx.Service
	}
	if s.fromContext("sasl.canonicalize-host", "sasl-canonicalize-host", ctx.CanonicalizeHost != nil) {
		*s.sasl.CanonicalizeHost = *ctx.CanonicalizeHost
	}
	if s.fromContext("sasl.server-realm", "sasl-server-realm", ctx.ServerRealm != "") {
		s.sasl.ServerRealm = ctx.ServerRealm
	}
	if err := s.sasl.validate(); err != nil {
		return err
	}
	kerberos := false
	for i, c := range s.auth {
		if c.kerberos == nil {
			continue
		}
		kerberos = true
		k := *c.kerberos
		k.ServiceName, k.ServerRealm, k.KeepHostName = s.sasl.Service, s.sasl.ServerRealm, !*s.sasl.CanonicalizeHost
		s.auth[i].kerberos = &k
	}
	if kerberos {
		return nil
	}
	for _, f := range saslFlagNames {
		if s.given(f.flag) {
			return fmt.Errorf("--%s names the servers' Kerberos principal, and the session has no kerberos credential (--auth kerberos:PRINCIPAL[:@KEYTAB])", f.flag)
		}
	}
	return nil
}

// servicePrincipalHint says, for a KDC that does not know the principal
// asked for, which service zklocks asked for and what changes it.
func (s settings) servicePrincipalHint() string {
	service := s.sasl.Service
	if service == "" {
		service = sasl.DefaultServiceName
	}
	return fmt.Sprintf("the service asked for is %s (%s); --sasl-service, --sasl-server-realm and --sasl-canonicalize-host, or a context's sasl block, name the principal the servers log in as",
		service, s.source["sasl.service"])
}

// validate refuses a service or realm that cannot be a principal's part.
func (c saslConfig) validate() error {
	if strings.ContainsAny(c.Service, "/@ ") {
		return fmt.Errorf("sasl service %q: the first component of the servers' principal (SERVICE/host@REALM) has no /, @ or space", c.Service)
	}
	if strings.ContainsAny(c.ServerRealm, "/@ ") {
		return fmt.Errorf("sasl server-realm %q: a realm (EXAMPLE.COM) has no /, @ or space", c.ServerRealm)
	}
	return nil
}

// validateSASL checks a context's sasl block: it needs a kerberos entry
// to apply to.
func (c contextConfig) validateSASL() error {
	if c.SASL == (saslConfig{}) {
		return nil
	}
	if err := c.SASL.validate(); err != nil {
		return err
	}
	for _, a := range c.Auth {
		if a.Scheme == kerberosScheme {
			return nil
		}
	}
	return errors.New("sasl names the servers' Kerberos principal, and auth has no entry of scheme kerberos")
}

// viewSASL adds the service principal's settings to config view's
// document, when a Kerberos credential uses them.
func (s settings) viewSASL(doc *yaml.Node) {
	kerberos := false
	for _, c := range s.auth {
		kerberos = kerberos || c.kerberos != nil
	}
	if !kerberos {
		return
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	service := s.sasl.Service
	if service == "" {
		service = sasl.DefaultServiceName
	}
	put(m, "service", str(service), s.source["sasl.service"])
	canon := s.sasl.CanonicalizeHost == nil || *s.sasl.CanonicalizeHost
	put(m, "canonicalize-host", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(canon)}, s.source["sasl.canonicalize-host"])
	realm, note := s.sasl.ServerRealm, s.source["sasl.server-realm"]
	if realm == "" {
		note = "default: krb5.conf's mapping of the host, its default_realm, or the client's realm"
	}
	put(m, "server-realm", str(realm), note)
	put(doc, "sasl", m, "")
}
