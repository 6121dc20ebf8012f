package kdc

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// JAAS writes a JAAS configuration file whose one section (ZooKeeper's
// server reads "Server", its Java client "Client") logs principal
// ("name", of this realm) in from keytab with Krb5LoginModule, and returns
// its path.
func (r *Realm) JAAS(section, principal, keytab string) string {
	r.t.Helper()
	path := filepath.Join(r.dir, "jaas-"+section+"-"+strings.ReplaceAll(principal, "/", "_")+".conf")
	text := fmt.Sprintf(`%s {
    com.sun.security.auth.module.Krb5LoginModule required
    useKeyTab=true
    keyTab="%s"
    storeKey=true
    useTicketCache=false
    doNotPrompt=true
    principal="%s";
};
`, section, keytab, r.Principal(principal))
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		r.t.Fatalf("kdc: %v", err)
	}
	return path
}

// JavaFlags are a JVM's flags for logging in by jaas (a file of
// [Realm.JAAS]) with this realm's krb5.conf.
func (r *Realm) JavaFlags(jaas string) []string {
	return []string{"-Djava.security.auth.login.config=" + jaas, "-Djava.security.krb5.conf=" + r.Krb5Conf}
}
