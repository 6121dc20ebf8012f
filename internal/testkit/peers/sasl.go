package peers

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
)

// Option changes how [Start] runs a peer.
type Option func(*options)

// options are what the options collect.
type options struct {
	saslUser, saslPassword string
	acl                    string
	observerDialer         zk.Dialer
	extraJVMFlags          []string // WithJVMFlags
}

// WithSASL makes every contender's client authenticate by SASL
// DIGEST-MD5 as user (kazoo's sasl_options; for Curator a JAAS file whose
// Client section has ZooKeeper's DigestLoginModule), and create its nodes
// with acl: scheme:id:perms entries separated by commas, perms of "crwda"
// ("sasl:app:crwda,sasl:reader:r"); an empty acl keeps the client's
// default. The peer's own observer session dials through observer, which
// must authenticate too on a server that requires it
// (zkwatch.AuthDialer). Curator and kazoo only.
func WithSASL(user, password, acl string, observer zk.Dialer) Option {
	return func(o *options) {
		o.saslUser, o.saslPassword, o.acl, o.observerDialer = user, password, acl, observer
	}
}

// env is what the child's environment adds.
func (o options) env() []string {
	var env []string
	if o.saslUser != "" {
		env = append(env, "ZKLOCKS_PEER_SASL_USER="+o.saslUser, "ZKLOCKS_PEER_SASL_PASSWORD="+o.saslPassword)
	}
	if o.acl != "" {
		env = append(env, "ZKLOCKS_PEER_ACL="+o.acl)
	}
	return env
}

// jvmFlags writes the JAAS file of a Java peer that authenticates and
// returns the flags that name it.
func (o options) jvmFlags(t testing.TB) ([]string, error) {
	if o.saslUser == "" {
		return nil, nil
	}
	q := func(s string) string { return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"` }
	jaas := fmt.Sprintf("Client {\n  org.apache.zookeeper.server.auth.DigestLoginModule required\n  username=%s\n  password=%s;\n};\n",
		q(o.saslUser), q(o.saslPassword))
	path := filepath.Join(t.TempDir(), "client-jaas.conf")
	if err := os.WriteFile(path, []byte(jaas), 0o600); err != nil {
		return nil, err
	}
	return []string{"-Djava.security.auth.login.config=" + path}, nil
}
