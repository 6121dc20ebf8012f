package cli

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/peers"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/internal/zkserver"
)

// The three server configurations production runs: every four-letter word
// allowed; the default whitelist (srvr) with the AdminServer on, as the
// official image ships; the default whitelist with no AdminServer, as
// Debian's package ships.
type serverConfig struct {
	name  string
	opts  []zktest.Option
	admin bool // the AdminServer is on
}

var serverConfigs = []serverConfig{
	{name: "all words", opts: nil},
	{name: "srvr and AdminServer", opts: []zktest.Option{zktest.WithFourLetterWords("srvr"), zktest.WithAdminServer()}, admin: true},
	{name: "srvr only", opts: []zktest.Option{zktest.WithFourLetterWords("srvr")}},
}

// cluster is a running standalone server or ensemble and how to ask it.
type cluster struct {
	members []*zktest.Server
	// adminPort is the --admin-port value naming each member's AdminServer
	// port (a closed port where it has none).
	adminPort string
}

func (c cluster) addr(i int) string { return c.members[i%len(c.members)].Addr() }

func (c cluster) connect() string {
	var addrs []string
	for _, m := range c.members {
		addrs = append(addrs, m.Addr())
	}
	return strings.Join(addrs, ",")
}

func startCluster(t *testing.T, n int, cfg serverConfig) cluster {
	t.Helper()
	opts := append([]zktest.Option{zktest.WithConfig("minSessionTimeout=30000", "maxSessionTimeout=30000")}, cfg.opts...)
	var c cluster
	if n == 1 {
		c.members = []*zktest.Server{zktest.Start(t, opts...)}
	} else {
		c.members = zktest.StartEnsemble(t, n, opts...).Members()
	}
	closed, err := zkserver.FreePorts(len(c.members))
	if err != nil {
		t.Fatal(err)
	}
	var ports []string
	for i, m := range c.members {
		port := closed[i] // nothing listens there: no AdminServer
		if m.AdminPort() != 0 {
			port = m.AdminPort()
		}
		ports = append(ports, fmt.Sprintf("%s=%d", m.Addr(), port))
	}
	c.adminPort = strings.Join(ports, ",")
	return c
}

// observation is what zklocks showed of one cluster, with what differs
// between clusters (session ids, client ports, addresses) left out.
type observation struct {
	// Participants by lock and position: "holder client@member0 connected
	// watches=-" and the like.
	Participants  []string
	WatchesSource string
	Locks         []string // ls --json's paths
	HolderClients []string // ls --json's holder clients, "member0" and the like
	Fix           bool     // a fix was said
	Killed        string   // the killed holder as show then says it
	// Watcher is what the live watcher (the UI's) found: how it found the
	// locks (dump, or a walk), whether it named the holders' clients and
	// read the servers' watch table.
	Watcher string
	// Via is how show's cons and watch table came from each member ("4lw" or
	// "admin"): it differs between configurations by design.
	Via string
	// Check is check --json's findings once the holder was killed: kind,
	// lock, and whether a client is named.
	Check []string
	// Doctor is doctor --json's ways, member by member: "4lw", "admin"
	// or "-" for each capability, in zkwatch.Capabilities' order.
	Doctor []string
}

// observe runs a Curator mutex (holder and waiter on member 0) and a kazoo
// lock (a holder on member 2, killed at the end, and a waiter on member
// 1) and reads them with show and ls, through the settings given.
func observe(t *testing.T, c cluster, extra ...string) observation {
	t.Helper()
	memberName := map[string]string{}
	for i, m := range c.members {
		memberName[m.Addr()] = fmt.Sprintf("member%d", i)
	}
	curator := peers.Start(t, peers.Curator, c.addr(0))
	kazoo := peers.Start(t, peers.Kazoo, c.addr(1))
	gone := peers.Start(t, peers.Kazoo, c.addr(2))
	const mutex, klock = "/app/orders", "/app/billing"
	curator.Acquire(t, "c1", "mutex", mutex)
	curator.WaitHeld(t, "c1", 30*time.Second)
	curator.Acquire(t, "c2", "mutex", mutex)
	gone.Acquire(t, "k1", "lock", klock)
	gone.WaitHeld(t, "k1", 30*time.Second)
	kazoo.Acquire(t, "k2", "lock", klock)

	args := append([]string{"--server", c.connect(), "--admin-port", c.adminPort, "--watches", "server"}, extra...)
	var o observation
	var s showFull
	// A waiter's watch is set just after its node: wait for the table to
	// hold both, where the servers give it. A client that lost its member
	// on a loaded machine is between connections for a while, its client
	// truly unknown: where a way answers, wait for every one to be named.
	zktest.WaitUntil(t, 30*time.Second, func() string {
		s = showAll(t, args, mutex, klock)
		if s.Fix == "" {
			for _, l := range s.Locks {
				for _, p := range l.Participants {
					if p.Client == nil || p.Member == nil {
						return fmt.Sprintf("%s's client is not named yet", p.Node)
					}
				}
			}
		}
		if s.WatchesSource == "server" {
			for _, l := range s.Locks {
				for _, p := range l.Participants {
					if p.Role == "waiter" && p.Watches == nil {
						return fmt.Sprintf("waiter %s watches nothing yet", p.Node)
					}
				}
			}
		}
		return ""
	})
	o.WatchesSource, o.Fix = s.WatchesSource, s.Fix != ""
	var vias []string
	for _, sv := range s.Servers {
		vias = append(vias, "cons="+sv.Answered["cons"], "wchc="+sv.Answered["wchc"])
	}
	slices.Sort(vias)
	o.Via = strings.Join(slices.Compact(vias), " ")
	for _, l := range s.Locks {
		for _, p := range l.Participants {
			o.Participants = append(o.Participants, describeParticipant(l.Path, p, memberName))
		}
	}

	out, errOut, code := run(t, append([]string{"ls", "--json", "--root", "/app"}, args...)...)
	if code != exitOK {
		t.Fatalf("ls exited %d: %s", code, errOut)
	}
	var ls struct {
		Locks []struct {
			Path          string `json:"path"`
			HolderClients []struct {
				Client *string `json:"client"`
				Member *string `json:"member"`
			} `json:"holder_clients"`
		} `json:"locks"`
	}
	t.Logf("ls: %s\n%s", errOut, out)
	if err := json.Unmarshal([]byte(out), &ls); err != nil {
		t.Fatalf("ls --json: %v\n%s", err, out)
	}
	for _, l := range ls.Locks {
		o.Locks = append(o.Locks, l.Path)
		for _, h := range l.HolderClients {
			name := "unknown"
			if h.Client != nil && h.Member != nil {
				name = memberName[*h.Member]
			}
			o.HolderClients = append(o.HolderClients, l.Path+" "+name)
		}
	}
	slices.Sort(o.Locks)
	slices.Sort(o.HolderClients)

	o.Watcher = watchLive(t, c, mutex, klock)
	o.Doctor = doctorWays(t, args, memberName)

	// The kazoo holder's process dies; its session lives on, connected
	// to no member, until its 30 s run out.
	gone.Kill(t)
	zktest.WaitUntil(t, 20*time.Second, func() string {
		s = showAll(t, args, klock)
		p := s.Locks[0].Participants[0]
		o.Killed = describeParticipant(klock, p, memberName)
		if s.Fix == "" && (p.Conn == nil || *p.Conn != "disconnected") {
			return "the killed holder is not shown disconnected yet: " + o.Killed
		}
		return ""
	})
	o.Check = checkFindings(t, args)
	return o
}

// three-member ensemble, in each of the three configurations, real Curator
// and kazoo contenders are shown with their clients, watches, a
// disconnected holder and discovery; with the AdminServer, as with every
// word allowed; with neither, what cannot be known is said, with the fix.
//
// It stays out of the package's parallel tests (its ensembles would run
// beside the liveness tests that time a frozen holder against its
// session), but its two sizes, each on servers of its own, run together.
func TestIntegrationServerConfigs(t *testing.T) {
	for _, size := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d members", size), func(t *testing.T) {
			t.Parallel()
			var want observation
			for i, cfg := range serverConfigs {
				t.Run(cfg.name, func(t *testing.T) {
					c := startCluster(t, size, cfg)
					got := observe(t, c)
					t.Logf("%s:\n%s", cfg.name, strings.Join(append(got.Participants, "killed: "+got.Killed), "\n"))
					switch {
					case i == 0:
						want = got
						wantDoctor(t, got.Doctor, "4lw")
						if !slices.Contains(got.Check, "disconnected-holder /app/billing session=true no client") {
							t.Errorf("check: %v, want the killed holder's disconnected-holder finding", got.Check)
						}
						if got.Fix || got.WatchesSource != "server" || !strings.Contains(got.Killed, "disconnected expiry known") ||
							got.Watcher != "locks found by dump, holders' clients named, watch table read" || got.Via != "cons=4lw wchc=4lw" {
							t.Fatalf("with every word allowed: %+v", got)
						}
						for _, p := range got.Participants {
							if !strings.Contains(p, "client@") {
								t.Errorf("with every word allowed, a client is unknown: %s", p)
							}
						}
					case cfg.admin:
						if got.Via != "cons=admin wchc=admin" {
							t.Errorf("through the AdminServer: show asked %s", got.Via)
						}
						wantDoctor(t, got.Doctor, "admin")
						got.Via, got.Doctor = want.Via, want.Doctor
						if !reflect.DeepEqual(got, want) {
							t.Errorf("through the AdminServer:\n%+v\nwant what four-letter words give:\n%+v", got, want)
						}
					default:
						// Neither way answers: no client, no connection
						// state, recipe watches; said once, with the fix.
						// Discovery still finds every lock, by walking.
						if !got.Fix || got.WatchesSource != "recipe" || !reflect.DeepEqual(got.Locks, want.Locks) {
							t.Errorf("with neither way: fix %v, watches %s, locks %v (want %v)", got.Fix, got.WatchesSource, got.Locks, want.Locks)
						}
						wantDoctor(t, got.Doctor, "fix")
						if slices.ContainsFunc(got.Check, func(f string) bool { return strings.HasPrefix(f, "disconnected-holder") }) {
							t.Errorf("with neither way, check claims a disconnected holder: %v", got.Check)
						}
						if !strings.HasPrefix(got.Watcher, "locks found by walk") || !strings.HasSuffix(got.Watcher, "a holder's client unknown, no watch table, fix said") {
							t.Errorf("with neither way, the watcher: %s", got.Watcher)
						}
						for _, p := range append(got.Participants, got.Killed) {
							if !strings.Contains(p, "client unknown connection unknown") {
								t.Errorf("with neither way, something is claimed: %s", p)
							}
						}
					}
				})
			}
		})
	}
}
