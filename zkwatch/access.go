package zkwatch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path"
	"strings"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/lockcore"
)

// ErrDenied: the ACL of the node an action needs a permission on does not
// grant it to any identity of the session; nothing was tried.
var ErrDenied = errors.New("not permitted by the acl")

// Access is whether the session may do what an action needs on one node,
// as far as its ACL and the session's identities tell: Allowed when an
// entry grants it, denied when Known and none does, and unknown (Known
// false, Why says why) when an entry depends on what the server alone
// knows (the client address it sees, an auth or unknown scheme) or the ACL
// could not be read. The server has the last word: this is read before
// the action, and may be stale by the time it is done.
type Access struct {
	// Path is the node whose ACL was read; Perm the permission needed.
	Path string
	Perm int32
	ACL  []zk.ACL
	Who  Identities
	// Allowed and Known are the verdict; By names what grants it.
	Allowed, Known bool
	By             string
	Why            string
}

// PermName names one permission bit as ZooKeeper does (DELETE).
func PermName(perm int32) string {
	switch perm {
	case zk.PermRead:
		return "READ"
	case zk.PermWrite:
		return "WRITE"
	case zk.PermCreate:
		return "CREATE"
	case zk.PermDelete:
		return "DELETE"
	case zk.PermAdmin:
		return "ADMIN"
	}
	return fmt.Sprintf("permission %d", perm)
}

// CheckAccess reads the ACL of p and the session's identities (see WhoAmI)
// and says whether the session has perm on p. An error is an identity the
// server did not give; an ACL that cannot be read gives an unknown Access.
func (c *Conn) CheckAccess(ctx context.Context, p string, perm int32) (Access, error) {
	who, err := c.WhoAmI(ctx)
	if err != nil {
		return Access{}, err
	}
	a := Access{Path: p, Perm: perm, Who: who}
	acl, err := call(ctx, func() ([]zk.ACL, error) {
		acl, _, err := c.zk.GetACL(c.abs(p))
		return acl, err
	})
	if err != nil {
		a.Why = fmt.Sprintf("the ACL of %s cannot be read (%v)", p, err)
		return a, nil
	}
	a.ACL = acl
	a.judge()
	return a, nil
}

// ParentOf is the node whose children an action on node creates or
// deletes: ZooKeeper checks CREATE and DELETE on the parent.
func ParentOf(node string) string { return path.Dir(node) }

// judge sets the verdict from the ACL and the identities.
func (a *Access) judge() {
	if a.Who.Super() {
		a.Allowed, a.Known, a.By = true, true, "the super user"
		return
	}
	var unknown []string
	for _, e := range a.ACL {
		if e.Perms&a.Perm == 0 {
			continue
		}
		grants, known := a.Who.match(e)
		switch {
		case grants:
			a.Allowed, a.Known, a.By = true, true, e.Scheme+":"+e.ID
			return
		case !known:
			unknown = append(unknown, e.Scheme+":"+e.ID)
		}
	}
	if len(unknown) > 0 {
		a.Why = fmt.Sprintf("whether %s grants it to this session only the server knows (%s)", strings.Join(unknown, ", "), a.Who.Note)
		if a.Who.FromServer {
			a.Why = fmt.Sprintf("whether %s grants it to this session only the server knows", strings.Join(unknown, ", "))
		}
		return
	}
	a.Known = true
}

// match says whether ACL entry e names one of the identities; known is
// false when only the server can tell.
func (ids Identities) match(e zk.ACL) (grants, known bool) {
	switch e.Scheme {
	case "world":
		return e.ID == "anyone", true
	case "digest", "sasl", "x509":
		unsure := false
		for _, i := range ids.List {
			if i.Scheme == e.Scheme && (i.ID == e.ID || (e.Scheme == "sasl" && i.ID == "super")) {
				return true, true
			}
			// A digest user without its hash (whoAmI's word, no password
			// given here) may or may not be the ACL's.
			user, _, _ := strings.Cut(e.ID, ":")
			if e.Scheme == "digest" && i.Scheme == "digest" && !strings.Contains(i.ID, ":") && i.ID == user {
				unsure = true
			}
		}
		if unsure {
			return false, false
		}
		// Without whoAmI an x509 identity (the certificate's subject) is
		// the server's to say.
		return false, ids.FromServer || e.Scheme != "x509"
	case "ip":
		seen := false
		for _, i := range ids.List {
			if i.Scheme == "ip" {
				seen = true
				if ipMatches(i.ID, e.ID) {
					return true, true
				}
			}
		}
		return false, seen
	}
	return false, false
}

// ipMatches reports whether address addr is within an ip ACL's id: an
// address, or an address/bits range.
func ipMatches(addr, id string) bool {
	ip := net.ParseIP(addr)
	if ip == nil {
		return false
	}
	if _, n, err := net.ParseCIDR(id); err == nil {
		return n.Contains(ip)
	}
	other := net.ParseIP(id)
	return other != nil && other.Equal(ip)
}

// grantedTo lists the ACL's entries that have the permission.
func (a Access) grantedTo() string {
	var to []string
	for _, e := range a.ACL {
		if e.Perms&a.Perm != 0 {
			to = append(to, e.Scheme+":"+e.ID)
		}
	}
	switch len(to) {
	case 0:
		return "to nobody"
	case 1:
		return "to " + to[0] + " only"
	}
	return "only to " + strings.Join(to, ", ")
}

// Denial is the refusal of an action the ACL does not allow ("cannot
// delete NODE: the ACL of P grants DELETE to sasl:kafka only; this
// session is sasl:ops"), matching ErrDenied; nil unless Known and not
// Allowed.
func (a Access) Denial(verb, node string) error {
	if !a.Known || a.Allowed {
		return nil
	}
	return fmt.Errorf("cannot %s %s: the ACL of %s grants %s %s; this session is %s (%s): %w",
		verb, node, a.Path, PermName(a.Perm), a.grantedTo(), a.Who, a.Who.Source(), ErrDenied)
}

// Summary says in one line who may do it, for a confirmation.
func (a Access) Summary() string {
	switch {
	case a.Allowed:
		return fmt.Sprintf("this session (%s, %s) has %s on %s: granted to %s", a.Who, a.Who.Source(), PermName(a.Perm), a.Path, a.By)
	case a.Known:
		return fmt.Sprintf("this session (%s) lacks %s on %s: the ACL grants it %s", a.Who, PermName(a.Perm), a.Path, a.grantedTo())
	}
	return fmt.Sprintf("whether this session (%s) has %s on %s is not known: %s", a.Who, PermName(a.Perm), a.Path, a.Why)
}

// Need is what an action needs to be allowed on node: DELETE on its
// parent to delete it (force-release, fence), WRITE on the node itself to
// write it (revoke), CREATE on the lock's node to join it (acquire). Verb
// says it for a refusal ("delete"); On is the node whose ACL decides.
type Need struct {
	Verb string
	On   string
	Perm int32
}

// NeedFor is what action (a lockcore.ActionKind, or "acquire") needs on
// node.
func NeedFor(action, node string) Need {
	switch action {
	case string(lockcore.ActionRevoke):
		return Need{Verb: "write", On: node, Perm: zk.PermWrite}
	case "acquire":
		return Need{Verb: "create under", On: node, Perm: zk.PermCreate}
	}
	return Need{Verb: "delete", On: ParentOf(node), Perm: zk.PermDelete}
}

// ActionAccess reads whether the session may do kind on node, for
// model.Actions.Access: a summary of who may, or the refusal when the ACL
// grants it to no identity of the session. When it cannot be known the
// summary says why, and there is no refusal: the server decides.
func (c *Conn) ActionAccess(ctx context.Context, kind lockcore.ActionKind, node string) (summary string, refusal error) {
	n := NeedFor(string(kind), node)
	a, err := c.CheckAccess(ctx, n.On, n.Perm)
	if err != nil {
		return fmt.Sprintf("whether this session may %s it is not known: %v", n.Verb, err), nil
	}
	if denial := a.Denial(n.Verb, node); denial != nil {
		return "", denial
	}
	return a.Summary(), nil
}
