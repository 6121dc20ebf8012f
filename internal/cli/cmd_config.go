package cli

import (
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/model"
	"gopkg.in/yaml.v3"
)

// configHelp explains the config file and where each setting comes from.
const configHelp = `zklocks reads named clusters, "contexts", from a YAML file: by default
$XDG_CONFIG_HOME/zklocks/config.yaml, or ~/.config/zklocks/config.yaml; --config
names another. Relative file names in it are relative to its directory.

  current-context: prod
  contexts:
    prod:
      server: zk1:2181,zk2:2181/app
      roots: [/locks]
      read-only: true
      timeout: 10s
      session-timeout: 10s
      auth:
        - {scheme: digest, user: ops, password-env: ZK_PASS}
        # or password-file: /path (mode 0600 or stricter; a final newline
        # is dropped), or password: plain text (config view warns about it);
        # scheme sasl authenticates every connection by SASL DIGEST-MD5
        # scheme kerberos takes a keytab, or none (the credential cache):
        # {scheme: kerberos, user: ops@EXAMPLE.COM, keytab: /etc/zklocks/ops.keytab}
      # sasl: {service: zk, canonicalize-host: false, server-realm: EXAMPLE.COM}
      # names the servers' Kerberos principal when it is not zookeeper/HOST
      tls: {ca: ca.pem, cert: client.pem, key: client-key.pem}
      # tls also takes server-name, when certificates do not name the hosts dialled
      admin: {port: "8080", scheme: https, ca: admin-ca.pem}
      # the members' AdminServer, asked where four-letter words are refused;
      # port also takes "off" or "8080,zk1:2181=8081"; insecure-skip-verify: true

Each setting comes from the first of:
  1. its flag, when given on the command line (--auth and --root replace the
     context's lists; --tls-* flags replace single files);
  2. $ZKLOCKS_SERVER, for the server only;
  3. the context: the one --context names, else the file's current-context;
  4. the default: server 127.0.0.1:2181, timeouts 10s, root /, not read-only,
     the AdminServer at http port 8080.
The AdminServer's settings come from their flags, else the context, else
$ZKLOCKS_ADMIN_PORT, _SCHEME, _CA and _INSECURE_SKIP_VERIFY.
The file's current-context is left out when --server or $ZKLOCKS_SERVER names
the server, so that a context's credentials only ever go to the servers it
names. --context NAME applies NAME even then (its server wins over
$ZKLOCKS_SERVER); --context "" applies none.

Passwords are never printed: config view masks them, and they stay out of error
messages and the log (--log-file). A password written on the command line
(--auth digest:USER:PASSWORD) can be seen by other users in the process list;
prefer digest:USER:@FILE or digest:USER:env:VAR (likewise sasl:). A password file
every user may read is refused. A password starting with @ or env: has to come
from a file or a variable.`

func newConfigCommand(g *globalFlags) *cobra.Command {
	view := func(cmd *cobra.Command, _ []string) error {
		s, err := g.load()
		if err != nil {
			return err
		}
		for _, w := range s.warnings() {
			fmt.Fprintln(cmd.ErrOrStderr(), "zklocks: warning:", model.Printable(w))
		}
		if err := writeView(cmd.OutOrStdout(), s); err != nil {
			return &exitError{code: exitFailed, err: err}
		}
		return nil
	}
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Show the configuration: named clusters and where each setting comes from",
		Long: configHelp + `

zklocks config alone prints the effective configuration, as config view does.`,
		Args: cobra.NoArgs,
		RunE: view,
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "view",
		Short: "Print the effective configuration as YAML, passwords masked",
		Long: `view prints the configuration a command would use, merged from flags,
$ZKLOCKS_SERVER, the context and the defaults, as YAML; a comment says where each
value comes from. Passwords are shown as ****; a password written in plain text in
the config file gets a warning. Its check section is the thresholds zklocks check
uses when given no flags: the context's check section, else the defaults.`,
		Example: `  zklocks config view
  zklocks --context prod --read-only=false config view`,
		Args: cobra.NoArgs,
		RunE: view,
	})
	cmd.AddCommand(&cobra.Command{
		Use:   "contexts",
		Short: "List the named clusters, marking the one in use with *",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := g.load()
			if err != nil {
				return err
			}
			return writeContexts(cmd.OutOrStdout(), cmd.ErrOrStderr(), s)
		},
	})
	return cmd
}

// warnings are what config view says on stderr: plain-text passwords in
// the config file of the context in use.
func (s settings) warnings() []string {
	var out []string
	for _, c := range s.auth {
		if c.password != "" && c.origin != "--auth" {
			out = append(out, fmt.Sprintf("%s in %s has a plain-text password for %s; prefer password-env or password-file",
				c.origin, s.file.path, c.user))
		}
	}
	return out
}

// writeContexts prints the context names, the one in use marked with *.
func writeContexts(out, errOut io.Writer, s settings) error {
	cf := s.file
	switch {
	case !cf.found:
		fmt.Fprintf(errOut, "zklocks: no config file at %s (see zklocks config --help)\n", model.Printable(cf.path))
		return nil
	case len(cf.Contexts) == 0:
		fmt.Fprintf(errOut, "zklocks: %s defines no contexts (see zklocks config --help)\n", model.Printable(cf.path))
		return nil
	}
	if s.skipped != "" {
		fmt.Fprintf(errOut, "zklocks: current-context %s is not in use: %s\n", model.Printable(cf.CurrentContext), s.skipped)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CURRENT\tNAME\tSERVER")
	for _, name := range cf.names() {
		mark := ""
		if name == s.context {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", mark, model.Printable(name), model.Printable(cf.Contexts[name].Server))
	}
	return tw.Flush()
}

// writeView prints the effective settings as YAML with the source of each
// value as a comment. Passwords are never read, only described.
func writeView(w io.Writer, s settings) error {
	doc := &yaml.Node{Kind: yaml.MappingNode}
	fileNote := ""
	if !s.file.found {
		fileNote = "not found"
	}
	put(doc, "config-file", str(s.file.path), fileNote)
	ctxNote := s.source["context"]
	switch {
	case s.skipped != "":
		ctxNote = "current-context " + s.file.CurrentContext + " not used: " + s.skipped
	case s.context == "":
		ctxNote = "none"
	}
	put(doc, "context", str(s.context), ctxNote)
	put(doc, "server", str(s.server), s.source["server"])
	roots := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, r := range s.roots {
		roots.Content = append(roots.Content, str(r))
	}
	put(doc, "roots", roots, s.source["roots"])
	put(doc, "read-only", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(s.readOnly)}, s.source["read-only"])
	put(doc, "timeout", str(s.timeout.String()), s.source["timeout"])
	put(doc, "session-timeout", str(s.sessionTimeout.String()), s.source["session-timeout"])
	put(doc, "log-file", str(s.logFile), s.source["log-file"])
	if len(s.auth) > 0 {
		auth := &yaml.Node{Kind: yaml.SequenceNode}
		for _, c := range s.auth {
			auth.Content = append(auth.Content, c.view())
		}
		put(doc, "auth", auth, s.source["auth"])
	}
	if s.tls.Enabled() {
		t := &yaml.Node{Kind: yaml.MappingNode}
		for _, f := range []struct{ key, val string }{
			{"ca", s.tls.CA}, {"cert", s.tls.Cert}, {"key", s.tls.Key}, {"server-name", s.tls.ServerName},
		} {
			if f.val != "" {
				put(t, f.key, str(f.val), s.source["tls."+f.key])
			}
		}
		put(doc, "tls", t, "")
	}
	s.viewSASL(doc)
	s.viewAdmin(doc)
	s.viewCheck(doc)
	s.viewRecipes(doc)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return enc.Close()
}

// view describes a credential without its password.
func (c credential) view() *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	put(m, "scheme", str(c.scheme), "")
	if c.kerberos != nil {
		c.kerberosView(m)
		return m
	}
	put(m, "user", str(c.user), "")
	switch {
	case c.env != "":
		note := "set"
		if v, ok := os.LookupEnv(c.env); !ok || v == "" {
			note = "not set"
		}
		put(m, "password-env", str(c.env), note)
	case c.file != "":
		put(m, "password-file", str(c.file), "")
	case c.origin == "--auth":
		put(m, "password", str("****"), "")
	default:
		put(m, "password", str("****"), "plain text in the config file")
	}
	return m
}

// put appends key: value to the mapping m, with comment after the value (or
// after the key, for a block sequence or mapping).
func put(m *yaml.Node, key string, value *yaml.Node, comment string) {
	k := str(key)
	if value.Kind == yaml.ScalarNode || value.Style == yaml.FlowStyle {
		value.LineComment = comment
	} else {
		k.LineComment = comment
	}
	m.Content = append(m.Content, k, value)
}

// str is a YAML string scalar.
func str(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v} }
