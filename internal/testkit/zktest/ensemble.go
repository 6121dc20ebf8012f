package zktest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// Ensemble is a ZooKeeper quorum of servers on loopback, each with its own
// client, quorum and election ports and its own data directory.
type Ensemble struct {
	t       testing.TB
	members []*Server
}

// ensembleAttempts bounds how often StartEnsemble starts an ensemble
// again, on fresh ports, when a member found one of its ports taken.
const ensembleAttempts = 3

// StartEnsemble starts n servers (myid 1..n) as one quorum and returns once
// every member serves as leader or follower. Each member's line in the
// configuration names its client address, in the dynamic-configuration
// form ZooKeeper 3.5+ writes, so that /zookeeper/config lists them. t's Cleanup stops them and
// removes their files. Options apply to every member. A member that finds
// a port of its taken by another process before it binds it (which a
// member logs and, for its AdminServer, outlives) has the whole ensemble
// started again on fresh ports, up to three times. Failures are reported
// like [Start]'s, with the log of the member that did not come up.
func StartEnsemble(t testing.TB, n int, opts ...Option) *Ensemble {
	t.Helper()
	requireIntegration(t)
	if n < 1 {
		t.Fatalf("zktest: an ensemble needs at least one member, not %d", n)
	}
	cfg := newConfig(opts)
	for attempt := 1; ; attempt++ {
		e, err := startEnsemble(t, n, cfg)
		if err == nil {
			return e
		}
		if taken := e.portTaken(); taken != nil && attempt < ensembleAttempts {
			t.Logf("zktest: ensemble member %s found a port of its taken; starting the ensemble again on fresh ports", taken.Addr())
			for _, s := range e.members {
				_ = s.srv.Stop()
			}
			continue
		}
		t.Fatalf("zktest: the ensemble did not form a quorum: %v", err)
	}
}

// startEnsemble launches the members of one attempt and waits for them.
// The error is not nil when a member did not serve, or one serves but
// found a port of its taken (its AdminServer's).
func startEnsemble(t testing.TB, n int, cfg config) (*Ensemble, error) {
	t.Helper()
	ports := freePorts(t, 3*n)
	peers := make([]string, n)
	for i := range n {
		peers[i] = fmt.Sprintf("server.%d=127.0.0.1:%d:%d:participant;127.0.0.1:%d", i+1, ports[3*i+1], ports[3*i+2], ports[3*i])
		if cfg.noClientAddrs {
			peers[i] = fmt.Sprintf("server.%d=127.0.0.1:%d:%d:participant", i+1, ports[3*i+1], ports[3*i+2])
		}
	}
	e := &Ensemble{t: t}
	var launched []*zkserver.Server
	for i := range n {
		c := cfg.member(i+1).server(zkserver.DefaultJarDir, t.TempDir())
		c.Port, c.ID, c.Peers = ports[3*i], i+1, peers
		srv, err := zkserver.Launch(c)
		if err != nil {
			failStart(t, fmt.Sprintf("start ensemble member %d", i+1), err)
		}
		e.members = append(e.members, track(t, srv))
		launched = append(launched, srv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), startBackstop)
	defer cancel()
	if err := zkserver.WaitAll(ctx, launched...); err != nil {
		return e, err
	}
	if taken := e.portTaken(); taken != nil {
		return e, fmt.Errorf("member %s serves, but found a port of its taken:\n%s", taken.Addr(), taken.srv.LogTail())
	}
	return e, nil
}

// portTaken returns the first member whose log says a port of its was in
// use, or nil.
func (e *Ensemble) portTaken() *Server {
	for _, s := range e.members {
		if s.srv.PortTaken() {
			return s
		}
	}
	return nil
}

// Members returns the servers in myid order: Members()[i] has myid i+1.
func (e *Ensemble) Members() []*Server { return append([]*Server(nil), e.members...) }

// ConnectString returns every member's client address, comma-separated in
// myid order, as ZooKeeper clients take it.
func (e *Ensemble) ConnectString() string { return strings.Join(e.addrs(), ",") }

func (e *Ensemble) addrs() []string {
	addrs := make([]string, len(e.members))
	for i, s := range e.members {
		addrs[i] = s.Addr()
	}
	return addrs
}

// Leader returns the index in [Ensemble.Members] of the member whose srvr
// says "Mode: leader", polling while an election is under way, however
// long a loaded machine makes it take; stopped members are skipped. It
// fails the test if no single leader emerges before the members' JVMs
// stall (use no CPU time for zkserver.StallTimeout, but in the threads
// that answer clients, which its own polls keep busy), or within
// 10 minutes. The answer is a snapshot: a later stop or partition can
// make another member leader.
func (e *Ensemble) Leader() int {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startBackstop)
	defer cancel()
	var modes []string
	used, _ := e.cpuTime()
	progressAt := time.Now()
	for {
		leader, n := -1, 0
		modes = modes[:0]
		for i, s := range e.members {
			m := probe(ctx, s.Addr())
			modes = append(modes, fmt.Sprintf("%d=%q", i, m))
			if m == "leader" {
				leader, n = i, n+1
			}
		}
		if n == 1 {
			return leader
		}
		if sofar, ok := e.cpuTime(); ok && sofar > used {
			used, progressAt = sofar, time.Now()
		} else if ok && time.Since(progressAt) >= zkserver.StallTimeout {
			e.t.Fatalf("zktest: no single leader, and no member's JVM has used CPU time for %v; modes %s", zkserver.StallTimeout, strings.Join(modes, " "))
		}
		select {
		case <-ctx.Done():
			e.t.Fatalf("zktest: no single leader after %v; modes %s", startBackstop, strings.Join(modes, " "))
			return -1
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// cpuTime is the CPU time the running members' JVMs have used, but in
// the threads that answer clients; ok is false when none can be read.
func (e *Ensemble) cpuTime() (used time.Duration, ok bool) {
	for _, s := range e.members {
		if d, read := s.srv.CPUTime(); read {
			used, ok = used+d, true
		}
	}
	return used, ok
}
