package zkwatch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/zklocks/zklocks/zkwatch/words"
	"net"
	"slices"
	"strconv"
	"strings"
)

// ensembleConfigPath is where every member publishes the ensemble's
// membership, outside any chroot.
const ensembleConfigPath = "/zookeeper/config"

// Member is an ensemble member as /zookeeper/config lists it.
type Member struct {
	ID int
	// Host and QuorumPort are from the member's server.N line.
	Host       string
	QuorumPort int
	// Role is participant or observer.
	Role string
	// Client is the client address after the line's ";", with a wildcard
	// host replaced by Host; "" when the configuration does not say (a
	// static configuration with a clientPort of each member's own).
	Client string
}

// ParseEnsembleConfig parses /zookeeper/config:
//
//	server.1=10.0.0.1:2888:3888:participant;0.0.0.0:2181
//	server.2=10.0.0.2:2888:3888:participant
//	version=100000000
//
// It returns the members in id order; a standalone server's config lists
// none.
func ParseEnsembleConfig(text string) ([]Member, error) {
	var members []Member
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		key, value, ok := strings.Cut(line, "=")
		if !ok || !strings.HasPrefix(key, "server.") {
			continue
		}
		m, err := parseMemberLine(strings.TrimPrefix(key, "server."), value)
		if err != nil {
			return nil, fmt.Errorf("zkwatch: %s line %d: %w", ensembleConfigPath, n+1, err)
		}
		members = append(members, m)
	}
	slices.SortFunc(members, func(a, b Member) int { return a.ID - b.ID })
	return members, nil
}

func parseMemberLine(id, value string) (Member, error) {
	var m Member
	var err error
	if m.ID, err = strconv.Atoi(id); err != nil {
		return m, fmt.Errorf("server id %q: %w", id, err)
	}
	quorum, client, _ := strings.Cut(value, ";")
	parts := strings.Split(quorum, ":")
	if len(parts) < 3 {
		return m, fmt.Errorf("server.%d=%q: want host:quorumPort:electionPort", m.ID, value)
	}
	m.Host = strings.Join(parts[:len(parts)-2], ":")
	if len(parts) >= 4 && (parts[len(parts)-1] == "participant" || parts[len(parts)-1] == "observer") {
		m.Host, m.Role = strings.Join(parts[:len(parts)-3], ":"), parts[len(parts)-1]
		parts = parts[:len(parts)-1]
	}
	if m.QuorumPort, err = strconv.Atoi(parts[len(parts)-2]); err != nil {
		return m, fmt.Errorf("server.%d quorum port: %w", m.ID, err)
	}
	if client = strings.TrimSpace(client); client != "" {
		host, port, err := net.SplitHostPort(client)
		if err != nil {
			// A bare port: the member's own host.
			host, port = "", client
		}
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = m.Host
		}
		m.Client = net.JoinHostPort(strings.Trim(host, "[]"), port)
	}
	return m, nil
}

// Ensemble is who to ask four-letter words of: every member the connection
// can reach, and the members it cannot, each with why.
type Ensemble struct {
	// Servers are the client addresses to ask: the target's servers and
	// every other member found in /zookeeper/config.
	Servers []string
	// Missing says, for each member that cannot be asked, why (its client
	// address is unknown); a table without them is not the ensemble's.
	Missing []string
}

// Members reads /zookeeper/config and returns every member to ask: the
// target's own servers, and the other members at the client address the
// config gives them. A standalone server, or a config that cannot be read
// (ACL, an old server), leaves the target's servers as they are. Where the
// config names no client address, a member is looked for at the target's
// client ports on its host and taken when its conf answers with its
// server id, or when conf is refused there (no other process can serve
// that port on that host); otherwise it is Missing, with why. A target
// server whose id cannot be read (conf refused) stands for a member on
// its host that no other server stands for: it is asked anyway, and what
// it refuses is said of it by its address, not of the member as unknown.
// Four-letter words go over TLS when the connection does.
func (c *Conn) Members(ctx context.Context) Ensemble {
	e := Ensemble{Servers: slices.Clone(c.target.Servers)}
	data, _, err := c.zk.Get(ensembleConfigPath)
	if err != nil {
		return e
	}
	members, err := ParseEnsembleConfig(string(data))
	if err != nil || len(members) == 0 {
		return e
	}
	known := map[int]bool{}
	var unidentified []string
	for _, s := range c.target.Servers {
		if id, err := c.serverID(ctx, s); err == nil {
			known[id] = true
		} else {
			unidentified = append(unidentified, s)
		}
	}
	for _, m := range members {
		if known[m.ID] {
			continue
		}
		if i := slices.IndexFunc(unidentified, func(s string) bool { return sameHost(s, m.Host) }); i >= 0 {
			unidentified = slices.Delete(unidentified, i, i+1)
			continue
		}
		addr, why := m.Client, ""
		if addr == "" {
			addr, why = c.lookFor(ctx, m, e.Servers)
		}
		if addr == "" {
			e.Missing = append(e.Missing, fmt.Sprintf("server.%d (%s): %s", m.ID, m.Host, why))
			continue
		}
		if !slices.Contains(e.Servers, addr) {
			e.Servers = append(e.Servers, addr)
		}
	}
	return e
}

// sameHost reports whether the client address addr is on host.
func sameHost(addr, host string) bool {
	h, _, err := net.SplitHostPort(addr)
	return err == nil && strings.EqualFold(strings.Trim(h, "[]"), strings.Trim(host, "[]"))
}

// lookFor tries m's host at each of the target's client ports, returning
// the address whose conf names m's id, or one that refuses conf: a server
// answers there, and a port serves one process. Addresses already taken
// (taken) are other members. With no address it says why.
func (c *Conn) lookFor(ctx context.Context, m Member, taken []string) (addr, why string) {
	var answered []string
	for _, s := range c.target.Servers {
		_, port, err := net.SplitHostPort(s)
		if err != nil {
			continue
		}
		addr := net.JoinHostPort(m.Host, port)
		if slices.Contains(taken, addr) {
			answered = append(answered, addr+" is another member")
			continue
		}
		id, err := c.serverID(ctx, addr)
		switch {
		case err == nil && id == m.ID:
			return addr, ""
		case err == nil:
			answered = append(answered, fmt.Sprintf("%s is server.%d", addr, id))
		case errors.Is(err, words.ErrFourLetterRefused):
			return addr, ""
		default:
			answered = append(answered, fmt.Sprintf("no answer from %s", addr))
		}
	}
	why = "its client address is not in " + ensembleConfigPath
	if len(answered) > 0 {
		why += ", and it is not at the target's client ports on its host (" + strings.Join(answered, ", ") + ")"
	}
	return "", why
}

// serverID asks addr's conf for its serverId, or its AdminServer's
// configuration (server_id) where conf is refused.
func (c *Conn) serverID(ctx context.Context, addr string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, defaultWordTimeout)
	defer cancel()
	var text string
	id := -1
	via, err := c.ways(nil).AskEither(ctx, addr, "conf", words.Reader{Text: words.TextReader(&text), JSON: func(key string, dec *json.Decoder) (bool, error) {
		if key != "server_id" {
			return false, nil
		}
		return true, dec.Decode(&id)
	}})
	switch {
	case err != nil:
		return 0, err
	case via == words.ViaAdmin && id >= 0:
		return id, nil
	case via == words.ViaAdmin:
		return 0, errors.New("zkwatch: configuration has no server_id")
	}
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "serverId="); ok {
			return strconv.Atoi(v)
		}
	}
	return 0, errors.New("zkwatch: conf has no serverId")
}
