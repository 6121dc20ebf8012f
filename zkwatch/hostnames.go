package zkwatch

import (
	"context"
	"maps"
	"net"
	"strings"
	"sync"
	"time"
)

// Reverse DNS for clients' addresses: a name helps an operator find a
// dead client's host, but a resolver that hangs must never hold up what
// the watcher reports. So a name is looked up in the background, each
// lookup bounded, and used from the next report on, once it is known.
const (
	// nameTimeout bounds one reverse lookup: a name that takes longer is
	// taken as none.
	nameTimeout = 300 * time.Millisecond
	// nameLookups bounds the lookups under way; an address that finds no
	// slot is looked up at a later report.
	nameLookups = 4
	// nameKeep is how long an answer, a name or none, is kept.
	nameKeep = 10 * time.Minute
)

// names caches reverse lookups of client hosts.
type names struct {
	lookup func(ctx context.Context, addr string) ([]string, error)
	now    func() time.Time
	slots  chan struct{}
	mu     sync.Mutex
	known  map[string]nameAnswer
}

type nameAnswer struct {
	name    string
	pending bool
	at      time.Time
}

func newNames() *names {
	return &names{lookup: net.DefaultResolver.LookupAddr, now: time.Now, slots: make(chan struct{}, nameLookups),
		known: map[string]nameAnswer{}}
}

// named returns clients with each Name set from the answers known (a
// copy, when any is: clients may be a reading shared with earlier
// events), and starts lookups for the hosts not known yet, or no longer.
// It never waits for one.
func (n *names) named(clients map[int64]ClientInfo) map[int64]ClientInfo {
	out, copied := clients, false
	for s, c := range clients {
		if c.Name = n.name(c.Client); c.Name != "" {
			if !copied {
				out, copied = maps.Clone(clients), true
			}
			out[s] = c
		}
	}
	return out
}

// name is the name known for addr's host ("" for none or not yet).
func (n *names) name(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || net.ParseIP(host) == nil {
		return ""
	}
	n.mu.Lock()
	a, ok := n.known[host]
	stale := !ok || !a.pending && n.now().Sub(a.at) > nameKeep
	if stale {
		select {
		case n.slots <- struct{}{}:
			n.known[host] = nameAnswer{name: a.name, pending: true, at: a.at}
			go n.resolve(host)
		default:
		}
	}
	n.mu.Unlock()
	return a.name
}

func (n *names) resolve(host string) {
	defer func() { <-n.slots }()
	ctx, cancel := context.WithTimeout(context.Background(), nameTimeout)
	defer cancel()
	found, err := n.lookup(ctx, host)
	name := ""
	if err == nil && len(found) > 0 {
		name = strings.TrimSuffix(found[0], ".")
	}
	n.mu.Lock()
	n.known[host] = nameAnswer{name: name, at: n.now()}
	n.mu.Unlock()
}
