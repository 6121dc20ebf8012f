package cli

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/pflag"
	"github.com/zklocks/zklocks/zkwatch/words"
	"gopkg.in/yaml.v3"
)

// The AdminServer settings' environment variables.
const (
	adminPortEnv   = "ZKLOCKS_ADMIN_PORT"
	adminSchemeEnv = "ZKLOCKS_ADMIN_SCHEME"
	adminCAEnv     = "ZKLOCKS_ADMIN_CA"
	adminSkipEnv   = "ZKLOCKS_ADMIN_INSECURE_SKIP_VERIFY"
)

// adminFlags are the AdminServer settings as given: flags, or a context's
// admin block.
type adminFlags struct {
	Port       string `yaml:"port"`
	Scheme     string `yaml:"scheme"`
	CA         string `yaml:"ca"`
	SkipVerify *bool  `yaml:"insecure-skip-verify"`
}

// register adds the AdminServer flags.
func (a *adminFlags) register(pf *pflag.FlagSet) {
	pf.StringVar(&a.Port, "admin-port", "", "port of the members' AdminServer (admin.serverPort; default 8080), asked where\nfour-letter words are refused: PORT, PORT,HOST:PORT=PORT... for members of their own,\nor off ($"+adminPortEnv+")")
	pf.StringVar(&a.Scheme, "admin-scheme", "", "http or https (admin.forceHttps or admin.portUnification; default http) ($"+adminSchemeEnv+")")
	pf.StringVar(&a.CA, "admin-ca", "", "PEM file of the CA that signs the AdminServers' certificates for https\n(default the system's) ($"+adminCAEnv+")")
	a.SkipVerify = new(bool)
	pf.BoolVar(a.SkipVerify, "admin-insecure-skip-verify", false, "https to the AdminServer without checking its certificate: anyone on the path\ncan read and change the answers ($"+adminSkipEnv+")")
}

// mergeAdmin sets s.admin from flags, else the context, else the
// environment, else the defaults, recording each value's source.
func (s *settings) mergeAdmin(flags adminFlags, ctx adminFlags) {
	pick := func(key, flag, fromFlag, fromCtx, env string) string {
		switch {
		case s.given(flag):
			s.source[key] = "--" + flag
			return fromFlag
		case fromCtx != "" && s.context != "":
			s.source[key] = s.inContext()
			return fromCtx
		case os.Getenv(env) != "":
			s.source[key] = "$" + env
			return os.Getenv(env)
		}
		s.source[key] = "default"
		return ""
	}
	s.admin.Port = pick("admin.port", "admin-port", flags.Port, ctx.Port, adminPortEnv)
	s.admin.Scheme = pick("admin.scheme", "admin-scheme", flags.Scheme, ctx.Scheme, adminSchemeEnv)
	s.admin.CA = pick("admin.ca", "admin-ca", flags.CA, ctx.CA, adminCAEnv)
	skip := ""
	if flags.SkipVerify != nil && *flags.SkipVerify {
		skip = "true"
	}
	ctxSkip := ""
	if ctx.SkipVerify != nil {
		ctxSkip = strconv.FormatBool(*ctx.SkipVerify)
	}
	v := pick("admin.insecure-skip-verify", "admin-insecure-skip-verify", skip, ctxSkip, adminSkipEnv)
	b, _ := strconv.ParseBool(v)
	s.admin.SkipVerify = &b
}

// checkAdmin validates the AdminServer settings that need no I/O.
func (s settings) checkAdmin() error {
	if s.admin.Port != "off" {
		if _, _, err := words.ParseAdminPorts(s.admin.Port); err != nil {
			return fmt.Errorf("%s: %w", s.source["admin.port"], err)
		}
	}
	switch s.admin.Scheme {
	case "", "http", "https":
	default:
		return fmt.Errorf("%s: admin scheme %q: want http or https", s.source["admin.scheme"], s.admin.Scheme)
	}
	if v := os.Getenv(adminSkipEnv); v != "" && s.source["admin.insecure-skip-verify"] == "$"+adminSkipEnv {
		if _, err := strconv.ParseBool(v); err != nil {
			return fmt.Errorf("$%s: %q is not true or false", adminSkipEnv, v)
		}
	}
	return nil
}

// adminServer turns the settings into zkwatch's, reading the CA file.
func (s settings) adminServer() (*words.AdminServer, error) {
	if s.admin.Port == "off" {
		return &words.AdminServer{Off: true}, nil
	}
	port, each, err := words.ParseAdminPorts(s.admin.Port)
	if err != nil {
		return nil, err
	}
	a := &words.AdminServer{Port: port, Ports: each, HTTPS: s.admin.Scheme == "https"}
	if !a.HTTPS {
		return a, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.admin.SkipVerify != nil && *s.admin.SkipVerify {
		cfg.InsecureSkipVerify = true
	}
	if s.admin.CA != "" {
		pem, err := os.ReadFile(s.admin.CA)
		if err != nil {
			return nil, fmt.Errorf("admin ca: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("admin ca %s: no PEM certificate found", s.admin.CA)
		}
		cfg.RootCAs = pool
	}
	a.TLS = cfg
	return a, nil
}

// viewAdmin adds the AdminServer settings to config view's document.
func (s settings) viewAdmin(doc *yaml.Node) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	port, scheme := s.admin.Port, s.admin.Scheme
	if port == "" {
		port = strconv.Itoa(words.DefaultAdminPort)
	}
	if scheme == "" {
		scheme = "http"
	}
	put(m, "port", str(port), s.source["admin.port"])
	put(m, "scheme", str(scheme), s.source["admin.scheme"])
	if s.admin.CA != "" {
		put(m, "ca", str(s.admin.CA), s.source["admin.ca"])
	}
	if s.admin.SkipVerify != nil && *s.admin.SkipVerify {
		put(m, "insecure-skip-verify", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}, s.source["admin.insecure-skip-verify"])
	}
	put(doc, "admin", m, "")
}
