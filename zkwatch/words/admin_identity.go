package words

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// adminIdentity is what an AdminServer's configuration command says of
// the server it belongs to.
type adminIdentity struct {
	clientPort, secureClientPort int
	serverID                     int
}

// field reads the configuration's keys that name the server.
func (id *adminIdentity) field(key string, dec *json.Decoder) (bool, error) {
	var into *int
	switch key {
	case "client_port":
		into = &id.clientPort
	case "secure_client_port":
		into = &id.secureClientPort
	case "server_id":
		into = &id.serverID
	default:
		return false, nil
	}
	var n *json.Number
	if err := dec.Decode(&n); err != nil {
		return true, err
	}
	if n == nil {
		return true, nil
	}
	v, err := strconv.Atoi(n.String())
	*into = v
	return true, err
}

// ties returns nil when the configuration names member's client port as
// its own, and otherwise why its answers are not member's. Only the port
// can be compared: the member's address may be a name, a balancer's or a
// NAT's, while the configuration gives none.
func (id adminIdentity) ties(url, member string) error {
	_, p, err := net.SplitHostPort(member)
	port, perr := strconv.Atoi(p)
	switch {
	case err != nil || perr != nil:
		return &notMemberError{ErrAdminUntied, fmt.Sprintf("the AdminServer at %s cannot be tied to %s: no client port to compare", url, member)}
	case id.clientPort <= 0 && id.secureClientPort <= 0:
		return &notMemberError{ErrAdminUntied, fmt.Sprintf("the AdminServer at %s cannot be tied to %s: its configuration names no client port", url, member)}
	case port == id.clientPort || port == id.secureClientPort:
		return nil
	}
	return &notMemberError{ErrAdminElsewhere, fmt.Sprintf("the AdminServer at %s is another server's (client port %d, server id %d), not %s's", url, max(id.clientPort, id.secureClientPort), id.serverID, member)}
}

// notMemberError is an AdminServer whose answers are not taken for the
// member's: it is ErrAdminUnavailable and its kind.
type notMemberError struct {
	kind error
	text string
}

// Error says which AdminServer and why.
func (e *notMemberError) Error() string { return "words: " + e.text }

// Unwrap gives the kind and ErrAdminUnavailable.
func (e *notMemberError) Unwrap() []error { return []error{e.kind, ErrAdminUnavailable} }

// proveAdmin asks member's AdminServer for its configuration and returns
// nil only if that names member's client port. The proof is remembered on
// the connection it went over (see identifiedConn), which the next command
// reuses; a command that comes over another connection has its proof
// asked again. also, if not nil, is given the configuration's keys
// first, for a caller that asked for it; it returns the answer's size.
func proveAdmin(ctx context.Context, a *AdminServer, member string, costs *Costs, also AdminField) (int64, error) {
	var id adminIdentity
	var over *identifiedConn
	n, err := adminStream(ctx, a, member, "conf", costs, func(key string, dec *json.Decoder) (bool, error) {
		if also != nil {
			if used, err := also(key, dec); used || err != nil {
				return used, err
			}
		}
		return id.field(key, dec)
	}, false, func(c *identifiedConn) error {
		over = c
		return nil
	})
	if err != nil {
		return n, err
	}
	if over != nil {
		over.id.Store(&id)
	}
	if err := id.ties(strings.TrimSuffix(a.URL(member, ""), "/"), member); err != nil {
		return n, err
	}
	a.proven.used(member)
	return n, nil
}
