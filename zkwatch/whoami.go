package zkwatch

import (
	"context"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/zkwatch/jute"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// Identity is one identity of a session as ACLs name them: a scheme
// ("sasl", "digest", "ip", "x509", "super") and an id.
type Identity struct {
	Scheme, ID string
}

// String is scheme:id ("sasl:ops"; "super" alone for the super user).
func (i Identity) String() string {
	if i.Scheme == "super" && i.ID == "" {
		return "super"
	}
	return i.Scheme + ":" + i.ID
}

// Identities are who a session is to the server's ACL checks.
type Identities struct {
	List []Identity
	// FromServer says the server gave them (whoAmI, ZooKeeper 3.7+).
	// Otherwise they are what the credentials given make, which the
	// server may not have taken, and the ip and x509 identities the
	// server adds of its own are unknown; Note says why.
	FromServer bool
	Note       string
}

// Super reports whether the server recognised the session as its super
// user (superDigest, or a SASL super user): only the server's own answer
// says so.
func (ids Identities) Super() bool {
	for _, i := range ids.List {
		if i.Scheme == "super" {
			return true
		}
	}
	return false
}

// String lists the identities, "none" for none.
func (ids Identities) String() string {
	if len(ids.List) == 0 {
		return "no identity"
	}
	parts := make([]string, len(ids.List))
	for i, id := range ids.List {
		parts[i] = id.String()
	}
	return strings.Join(parts, ", ")
}

// Source says where the identities come from, for people.
func (ids Identities) Source() string {
	if ids.FromServer {
		return "as whoAmI says"
	}
	return "from the credentials given: " + ids.Note
}

// whoAmIVersion is the first release that answers whoAmI; an older server
// closes the connection on the unknown opcode.
const whoAmIMajor, whoAmIMinor = 3, 7

// WhoAmI returns the session's identities: the server's answer to whoAmI
// when the member the session is connected to is ZooKeeper 3.7 or later
// (asked first with srvr, as an older one closes the connection on the
// unknown request), else what the credentials given make. An error means
// the server was asked and did not answer.
func (c *Conn) WhoAmI(ctx context.Context) (Identities, error) {
	member := c.zk.Server()
	version, err := c.memberVersion(ctx, member)
	switch {
	case err != nil:
		return c.fromCredentials(fmt.Sprintf("the version of %s is unknown (%v), and whoAmI closes the connection of a server before 3.7", member, err)), nil
	case !atLeast(version, whoAmIMajor, whoAmIMinor):
		return c.fromCredentials(fmt.Sprintf("%s runs ZooKeeper %s, which has no whoAmI (3.7+)", member, version)), nil
	}
	body, err := c.auth.request(ctx, jute.OpWhoAmI, nil)
	if err != nil {
		return Identities{}, fmt.Errorf("whoami: %w", err)
	}
	r := jute.NewReader(body)
	infos := jute.ReadClientInfos(r)
	if r.Err() != nil {
		return Identities{}, fmt.Errorf("whoami: the answer is not a list of identities: %w", r.Err())
	}
	ids := Identities{FromServer: true}
	given := c.fromCredentials("")
	for _, in := range infos {
		id := Identity{Scheme: in.AuthScheme, ID: in.User}
		if id.Scheme == "digest" {
			// whoAmI names a digest identity by its user alone, and the
			// server takes any password: the ACL's user:hash is known
			// only from the password given.
			for _, g := range given.List {
				if g.Scheme == "digest" && strings.HasPrefix(g.ID, id.ID+":") {
					id = g
				}
			}
		}
		ids.List = append(ids.List, id)
	}
	return ids, nil
}

// fromCredentials is what the credentials given make of the session.
func (c *Conn) fromCredentials(note string) Identities {
	ids := Identities{Note: note}
	for _, a := range c.opt.Auth {
		switch {
		case a.IsSASL():
			ids.List = append(ids.List, Identity{Scheme: "sasl", ID: a.User})
		case a.Scheme == "digest":
			user, _, _ := strings.Cut(string(a.Secret), ":")
			sum := sha1.Sum(a.Secret)
			ids.List = append(ids.List, Identity{Scheme: "digest", ID: user + ":" + base64.StdEncoding.EncodeToString(sum[:])})
		default:
			ids.List = append(ids.List, Identity{Scheme: a.Scheme, ID: a.User})
		}
	}
	return ids
}

// memberVersion asks member its release with srvr (or the AdminServer).
func (c *Conn) memberVersion(ctx context.Context, member string) (string, error) {
	return c.askVersion(ctx, member, nil, 3*time.Second)
}

// askVersion asks member its release with srvr (or the AdminServer's
// server_stats where the word is refused), within timeout, the ask's cost
// counted in costs when not nil.
func (c *Conn) askVersion(ctx context.Context, member string, costs *words.Costs, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var answer words.StatusAnswer
	via, err := c.ways(costs).AskEither(ctx, member, "srvr", answer.Reader())
	if err != nil {
		return "", err
	}
	st, err := answer.Status(via)
	if err != nil {
		return "", err
	}
	if st.Version == "" {
		return "", fmt.Errorf("zkwatch: %s did not say its version", member)
	}
	return st.Version, nil
}

// atLeast reports whether version ("3.8.0", "3.9.2-SNAPSHOT") is at least
// major.minor.
func atLeast(version string, major, minor int) bool {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

// AuthRequired says whether the cluster requires authentication of every
// session (enforce.auth.enabled, or sessionRequireClientSASLAuth): it
// opens a session without credentials and reads the root's stat, which
// such a server answers with SESSIONCLOSEDREQUIRESASLAUTH before closing
// the session. Which schemes meet the requirement (enforce.auth.schemes)
// the server does not say. An error means the probe could not tell.
func (c *Conn) AuthRequired(ctx context.Context) (bool, error) {
	opt := c.opt
	opt.Auth = nil
	probe, err := Dial(ctx, opt)
	if err != nil {
		return false, fmt.Errorf("a session without credentials: %w", err)
	}
	defer probe.Close()
	_, err = call(ctx, func() (bool, error) {
		ok, _, err := probe.zk.Exists(probe.abs("/"))
		return ok, err
	})
	switch {
	case errors.Is(err, ErrSASLRequired):
		return true, nil
	case err == nil, errors.Is(err, zk.ErrNoAuth):
		return false, nil
	}
	return false, fmt.Errorf("a session without credentials: %w", err)
}

// Accepted reads the root's stat, so that a session without SASL on a
// server that requires it hears so (ErrSASLRequired) before it starts
// watching, rather than from every read that follows. A session with a
// SASL credential has been accepted by Dial already: it reads nothing.
func (c *Conn) Accepted(ctx context.Context) error {
	if c.auth != nil && c.auth.mechanism != nil {
		return nil
	}
	_, err := call(ctx, func() (bool, error) {
		ok, _, err := c.zk.Exists(c.abs("/"))
		return ok, err
	})
	if errors.Is(err, ErrSASLRequired) {
		return err
	}
	return nil
}
