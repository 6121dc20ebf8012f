package lockbench_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/tests/lockbench"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// Each configuration runs once per round: it loops for warmup, then is
// measured for window. Rounds interleave the clients, so that load from
// elsewhere on the machine falls on all of them alike.
var (
	benchRounds = flag.Int("lockbench.rounds", 3, "how many times each configuration runs, interleaved with the others")
	benchWarmup = flag.Duration("lockbench.warmup", 2*time.Second, "how long each configuration loops before it is measured")
	benchWindow = flag.Duration("lockbench.window", 3*time.Second, "how long each configuration is measured, per round")
)

// benchContenders are the queue sizes.
var benchContenders = []int{8, 32}

// BenchmarkLock measures our lock client against go-zookeeper's zk.Lock,
// Curator's InterProcessMutex and kazoo's Lock, in one run, on one
// ZooKeeper server, with 8 and 32 contenders each, and prints the figures
// as a table with the targets, each row merging its rounds. Run it
// with `make bench-lock`; it takes about three minutes. Each sub-benchmark
// measures once, whatever b.N is: its ns/op is the time per acquisition.
func BenchmarkLock(b *testing.B) {
	// Sessions ask for lockbench.SessionTimeout; the server must allow it
	// (its default cap is 20 ticks, 10 s here) for pings to stay rare.
	maxSession := fmt.Sprintf("maxSessionTimeout=%d", lockbench.SessionTimeout.Milliseconds())
	// The server also takes SASL DIGEST-MD5 (not required), for our
	// client on authenticated connections beside the same client without.
	zks := zktest.Start(b, zktest.WithConfig(maxSession), zktest.SASLDigest(b, map[string]string{benchUser: benchPassword}, false))
	rep := lockbench.Report{Header: benchHeader(b, zks.Addr())}
	for round := 1; round <= *benchRounds; round++ {
		for _, n := range benchContenders {
			for _, client := range append(lockbench.Clients, lockbench.OursSASL) {
				b.Run(fmt.Sprintf("round%d/%s/%d", round, client, n), func(b *testing.B) {
					cfg := lockbench.Config{
						Client: client, Contenders: n, Addr: zks.Addr(),
						Path:   fmt.Sprintf("/lockbench/%s-%d-%d", client, n, round),
						Warmup: *benchWarmup, Window: *benchWindow, Logf: b.Logf,
					}
					if client == lockbench.OursSASL {
						cfg.Dial = saslDial(b)
					}
					rep.Add(benchOne(b, cfg))
				})
			}
		}
	}
	rep.Print(os.Stdout)
}

// The SASL user of our client's authenticated runs.
const benchUser, benchPassword = "bench", "bench-S4sl-pw"

// saslDial wraps a contender's dialer to authenticate as benchUser.
func saslDial(b *testing.B) func(zk.Dialer) zk.Dialer {
	return func(base zk.Dialer) zk.Dialer {
		d, err := zkwatch.AuthDialer(base, []zkwatch.Auth{zkwatch.SASLDigestAuth(benchUser, benchPassword)}, lockbench.SessionTimeout)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
}

// benchOne runs cfg once and reports its figures as the benchmark's metrics.
func benchOne(b *testing.B, cfg lockbench.Config) lockbench.Result {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Warmup+cfg.Window+5*time.Minute)
	defer cancel()
	r, err := lockbench.Run(ctx, cfg)
	if err != nil {
		b.Fatal(err)
	}
	if r.Acquisitions == 0 {
		b.Fatalf("%s with %d contenders acquired nothing in %v", cfg.Client, cfg.Contenders, r.Elapsed)
	}
	if r.Overlaps > 0 {
		b.Errorf("%s with %d contenders: %d acquisitions returned before the previous holder released", cfg.Client, cfg.Contenders, r.Overlaps)
	}
	b.ReportMetric(float64(r.Elapsed.Nanoseconds())/float64(r.Acquisitions), "ns/op")
	b.ReportMetric(r.Rate(), "acq/s")
	b.ReportMetric(float64(r.Handoff(0.50).Microseconds()), "p50-µs")
	b.ReportMetric(float64(r.Handoff(0.99).Microseconds()), "p99-µs")
	b.ReportMetric(r.RequestsPerAcquisition(), "req/acq")
	b.ReportMetric(r.NotificationsPerRelease(), "notif/rel")
	return r
}

// benchHeader names the server and the machine.
func benchHeader(b *testing.B, addr string) string {
	version := "?"
	if reply, err := words.FourLetter(context.Background(), addr, "srvr"); err == nil {
		line, _, _ := strings.Cut(reply, "\n")
		version = strings.TrimPrefix(line, "Zookeeper version: ")
		version, _, _ = strings.Cut(version, "-")
	} else {
		b.Logf("srvr: %v", err)
	}
	return fmt.Sprintf("Lock clients on one lock, ZooKeeper %s standalone at %s, %d CPUs;\n"+
		"each configuration %d rounds, interleaved, of %v warm-up then %v measured",
		version, addr, runtime.NumCPU(), *benchRounds, *benchWarmup, *benchWindow)
}
