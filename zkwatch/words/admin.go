package words

import (
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultAdminPort is the port ZooKeeper's AdminServer listens on unless
// admin.serverPort says otherwise.
const DefaultAdminPort = 8080

// Via says which way a member answered a question: by four-letter word on
// its client port, or by command on its AdminServer.
type Via string

// The ways a member can be asked.
const (
	ViaWord  Via = "4lw"
	ViaAdmin Via = "admin"
)

// adminCommands maps each four-letter word zklocks asks to the AdminServer
// command that answers the same question (the word is also the command's
// alias, but the primary name is what every release accepts).
var adminCommands = map[string]string{
	"srvr": "server_stats",
	"cons": "connections",
	"dump": "dump",
	"wchc": "watches",
	"wchp": "watches_by_path",
	"wchs": "watch_summary",
	"mntr": "monitor",
	"conf": "configuration",
}

// AdminCommand returns the AdminServer command that answers word, and
// whether there is one.
func AdminCommand(word string) (string, bool) {
	c, ok := adminCommands[word]
	return c, ok
}

// AdminServer says where the members' AdminServers listen and how to talk
// to them. The zero value asks http://HOST:8080/commands/ of each member's
// host. Use it through a pointer and do not change it after its first use.
type AdminServer struct {
	// Off never asks the AdminServer: members answer by four-letter word
	// or not at all.
	Off bool
	// Port is the AdminServer's port on each member's host; 0 means
	// DefaultAdminPort.
	Port int
	// Ports gives members (by their client address, host:port) an admin
	// port of their own, for ensembles whose members share a host.
	Ports map[string]int
	// HTTPS asks over HTTPS (admin.forceHttps, or admin.portUnification);
	// TLS is its configuration: nil means the system's roots.
	HTTPS bool
	TLS   *tls.Config

	once   sync.Once
	hc     *http.Client
	proven provenMembers
}

// adminTimeout bounds an AdminServer exchange when the context has no
// deadline of its own.
const adminTimeout = 5 * time.Second

// Enabled reports whether the AdminServer is to be asked at all.
func (a *AdminServer) Enabled() bool { return a != nil && !a.Off }

// scheme is "https" or "http".
func (a *AdminServer) scheme() string {
	if a != nil && a.HTTPS {
		return "https"
	}
	return "http"
}

// portOf returns the admin port asked of member (host:port).
func (a *AdminServer) portOf(member string) int {
	if a == nil {
		return DefaultAdminPort
	}
	if p, ok := a.Ports[member]; ok {
		return p
	}
	if a.Port > 0 {
		return a.Port
	}
	return DefaultAdminPort
}

// URL returns the address of command on member's AdminServer.
func (a *AdminServer) URL(member, command string) string {
	host, _, err := net.SplitHostPort(member)
	if err != nil {
		host = member
	}
	return fmt.Sprintf("%s://%s/commands/%s", a.scheme(), net.JoinHostPort(host, strconv.Itoa(a.portOf(member))), command)
}

// client returns the HTTP client every ask shares, so that connections to
// a member are reused.
func (a *AdminServer) client() *http.Client {
	a.once.Do(func() {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 4
		tr.DialContext = wrapDial(tr.DialContext)
		if a.TLS != nil {
			tr.TLSClientConfig = a.TLS.Clone()
		}
		// An AdminServer never redirects; following one would ask
		// something else.
		a.hc = &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	})
	return a.hc
}

// ParseAdminPorts reads the --admin-port setting: a port for every member
// ("8080"), optionally followed by ports of single members
// ("8080,zk1:2181=8081,zk2:2181=8082"), or only those. It returns the
// common port (0 when not given) and the overrides.
func ParseAdminPorts(s string) (int, map[string]int, error) {
	var common int
	var each map[string]int
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		member, port, ok := strings.Cut(part, "=")
		if !ok {
			port, member = member, ""
		}
		n, err := strconv.Atoi(strings.TrimSpace(port))
		if err != nil || n < 1 || n > 65535 {
			return 0, nil, fmt.Errorf("admin port %q: want a port from 1 to 65535, or member=port", part)
		}
		if member == "" {
			common = n
			continue
		}
		if _, _, err := net.SplitHostPort(strings.TrimSpace(member)); err != nil {
			return 0, nil, fmt.Errorf("admin port %q: the member must be host:port as in the connect string", part)
		}
		if each == nil {
			each = map[string]int{}
		}
		each[strings.TrimSpace(member)] = n
	}
	return common, each, nil
}

// Describe says where the AdminServer is asked, for notes: "http port
// 8080", "https port 8443", or "off".
func (a *AdminServer) Describe(member string) string {
	if !a.Enabled() {
		return "off (--admin-port=off)"
	}
	return fmt.Sprintf("%s port %d", a.scheme(), a.portOf(member))
}
