package txnlog

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/bigtree"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/recording/txnlog"
)

var (
	benchTxns   = flag.Int("txns", 5_000_000, "lock transactions to drive through the server")
	benchZnodes = flag.Int("znodes", 1_000_000, "plain znodes in the snapshot")
	benchLocks  = flag.Int("locks", 10_000, "locks the transactions are spread over")
)

const (
	// sessions and workers drive the lock transactions: each worker
	// creates a contender in a random lock and deletes it, over and over.
	sessions = 32
	workers  = 256
	// contenderData makes each create's record about as large as a
	// Curator contender's with its identity.
	contenderData = 100
)

func BenchmarkTxnLog(b *testing.B) {
	srv := zktest.Start(b, zktest.WithJVMFlags("-Xms2g", "-Xmx3g"),
		zktest.WithConfig("snapCount=100000000"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancel()

	start := time.Now()
	tree, err := bigtree.Build(ctx, []string{srv.Addr()}, bigtree.Spec{Plain: *benchZnodes, Locks: 1, Contenders: 1}, b.Logf)
	if err != nil {
		b.Fatal(err)
	}
	tree.Close()
	b.Logf("built %d znodes in %v", tree.Znodes, time.Since(start).Round(time.Second))
	// A restart snapshots the tree; the one after loads that snapshot,
	// and says how long it took.
	srv.Restart()
	srv.Restart()
	loaded := snapshotLoadedMs(b, srv.LogPath())

	conn := connect(b, srv.Addr())
	locks := makeLocks(b, conn, *benchLocks)
	start = time.Now()
	made := drive(b, srv.Addr(), locks, *benchTxns)
	driven := time.Since(start)
	b.Logf("%d lock transactions over %d locks in %v (%.0f/s)", made, len(locks), driven.Round(time.Second), float64(made)/driven.Seconds())
	conn.Close()
	srv.Stop()

	dir := filepath.Join(srv.DataDir(), "version-2")
	if keep := os.Getenv("ZKLOCKS_BENCH_KEEP"); keep != "" {
		// The generated directory, kept for a look or a profile.
		if out, err := exec.Command("cp", "-a", dir, keep).CombinedOutput(); err != nil {
			b.Fatalf("keep %s: %v: %s", dir, err, out)
		}
	}
	logs, logBytes := logFiles(b, dir)
	snap := newestSnapshot(b, dir)

	// The snapshot read as a read of the directory starts from it.
	t0 := time.Now()
	info, err := txnlog.ReadSnapshot(snap)
	if err != nil {
		b.Fatal(err)
	}
	snapRead := time.Since(t0)

	// ZooKeeper's own dump of the same logs.
	t0 = time.Now()
	var dumpCPU time.Duration
	for _, l := range logs {
		dumpCPU += toolkit(b, l)
	}
	dump := time.Since(t0)

	// zklocks postmortem of one lock, over the whole range.
	bin := zklocksbin.Path(b)
	lock := locks[len(locks)/2]
	t0 = time.Now()
	out, rss, postCPU := runMeasured(b, bin, "postmortem", lock, "--recording", srv.DataDir(), "--json")
	post := time.Since(t0)
	holds := strings.Count(out, `"granted"`)

	// zklocks postmortem of every lock, in one pass over the same range.
	t0 = time.Now()
	out, allRSS, allCPU := runMeasured(b, bin, "postmortem", "/bench/locks", "--all", "--recording", srv.DataDir(), "--json")
	all := time.Since(t0)
	var told struct {
		Locks []struct{ Holds int } `json:"locks"`
	}
	if err := json.Unmarshal([]byte(out), &told); err != nil {
		b.Fatalf("postmortem --all: %v", err)
	}
	allHolds := 0
	for _, l := range told.Locks {
		allHolds += l.Holds
	}

	b.ReportMetric(dump.Seconds(), "toolkit-dump-s")
	b.ReportMetric(post.Seconds(), "postmortem-one-lock-s")
	b.ReportMetric(dump.Seconds()/post.Seconds(), "speedup-x")
	b.ReportMetric(float64(rss)/(1<<20), "postmortem-peak-rss-MB")
	b.ReportMetric(all.Seconds(), "postmortem-all-locks-s")
	b.ReportMetric(dump.Seconds()/all.Seconds(), "all-locks-speedup-x")
	b.ReportMetric(dumpCPU.Seconds()/allCPU.Seconds(), "all-locks-cpu-speedup-x")
	b.ReportMetric(float64(allRSS)/(1<<20), "postmortem-all-peak-rss-MB")
	b.ReportMetric(snapRead.Seconds()*1000, "snapshot-read-ms")
	b.ReportMetric(float64(loaded), "zookeeper-snapshot-loaded-ms")
	b.Logf("logs: %d files, %.0f MB on disk (%d lock transactions); snapshot %s: %d znodes, %d sessions",
		len(logs), float64(logBytes)/(1<<20), made, filepath.Base(snap), info.Nodes, info.Sessions)
	b.Logf("TxnLogToolkit dump of every log: %v, %v CPU", dump.Round(time.Millisecond), dumpCPU.Round(time.Millisecond))
	b.Logf("zklocks postmortem %s (%d holds) over the whole log: %v, %v CPU, peak RSS %.0f MB: %.1f× the toolkit's speed (%.1f× in CPU time)",
		lock, holds, post.Round(time.Millisecond), postCPU.Round(time.Millisecond), float64(rss)/(1<<20),
		dump.Seconds()/post.Seconds(), dumpCPU.Seconds()/postCPU.Seconds())
	b.Logf("zklocks postmortem /bench/locks --all (%d locks, %d holds) over the whole log: %v, %v CPU, peak RSS %.0f MB: %.1f× the toolkit's speed (%.1f× in CPU time); targets ≥ 5×, ≤ 200 MB",
		len(told.Locks), allHolds, all.Round(time.Millisecond), allCPU.Round(time.Millisecond), float64(allRSS)/(1<<20),
		dump.Seconds()/all.Seconds(), dumpCPU.Seconds()/allCPU.Seconds())
	b.Logf("snapshot read: %v; ZooKeeper's own load of it: %d ms", snapRead.Round(time.Millisecond), loaded)
}

// snapshotLoadedMs is the last "Snapshot loaded in N ms" of the server's log.
func snapshotLoadedMs(b *testing.B, logPath string) int {
	raw, err := os.ReadFile(logPath)
	if err != nil {
		b.Fatal(err)
	}
	m := regexp.MustCompile(`Snapshot loaded in (\d+) ms`).FindAllSubmatch(raw, -1)
	if len(m) == 0 {
		b.Fatalf("%s says nothing of loading a snapshot", logPath)
	}
	n, _ := strconv.Atoi(string(m[len(m)-1][1]))
	return n
}

func connect(b *testing.B, addr string) *zk.Conn {
	c, _, err := zk.Connect([]string{addr}, 30*time.Second, zk.WithLogger(quiet{}))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}

// makeLocks creates the lock parents.
func makeLocks(b *testing.B, c *zk.Conn, n int) []string {
	acl := zk.WorldACL(zk.PermAll)
	for _, p := range []string{"/bench", "/bench/locks"} {
		if _, err := c.Create(p, nil, 0, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			b.Fatal(err)
		}
	}
	locks := make([]string, n)
	for i := range locks {
		locks[i] = fmt.Sprintf("/bench/locks/lock-%05d", i)
	}
	for i := 0; i < n; i += 500 {
		var ops []any
		for _, p := range locks[i:min(i+500, n)] {
			ops = append(ops, &zk.CreateRequest{Path: p, Acl: acl})
		}
		if _, err := c.Multi(ops...); err != nil {
			b.Fatal(err)
		}
	}
	return locks
}

// drive makes about n transactions: contenders created in random locks
// and deleted by their own sessions, from many sessions at once. It
// returns how many it made.
func drive(b *testing.B, addr string, locks []string, n int) int64 {
	conns := make([]*zk.Conn, sessions)
	for i := range conns {
		conns[i] = connect(b, addr)
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	data := make([]byte, contenderData)
	acl := zk.WorldACL(zk.PermAll)
	var done atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Pointer[error]
	for w := range workers {
		c := conns[w%sessions]
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for done.Load() < int64(n) && failed.Load() == nil {
				lock := locks[r.IntN(len(locks))]
				// A Curator contender's name: its protection's UUID, then lock-.
				name := fmt.Sprintf("/_c_%08x-%04x-4%03x-8%03x-%012x-lock-", r.Uint32(), r.Uint32()&0xffff,
					r.Uint32()&0xfff, r.Uint32()&0xfff, r.Uint64()&0xffffffffffff)
				p, err := c.Create(lock+name, data, zk.FlagEphemeral|zk.FlagSequence, acl)
				if err == nil {
					err = c.Delete(p, -1)
				}
				if err != nil {
					failed.Store(&err)
					return
				}
				done.Add(2)
			}
		})
	}
	wg.Wait()
	if e := failed.Load(); e != nil {
		b.Fatal(*e)
	}
	return done.Load()
}

// logFiles are a version-2 directory's logs and their size on disk.
func logFiles(b *testing.B, dir string) ([]string, int64) {
	logs, _ := filepath.Glob(filepath.Join(dir, "log.*"))
	sort.Strings(logs)
	var total int64
	for _, l := range logs {
		st, err := os.Stat(l)
		if err != nil {
			b.Fatal(err)
		}
		total += st.Size()
	}
	return logs, total
}

// newestSnapshot is the directory's snapshot of the highest zxid.
func newestSnapshot(b *testing.B, dir string) string {
	snaps, _ := filepath.Glob(filepath.Join(dir, "snapshot.*"))
	best, bestZxid := "", int64(-1)
	for _, s := range snaps {
		z, err := strconv.ParseInt(strings.TrimPrefix(filepath.Base(s), "snapshot."), 16, 64)
		if err == nil && z > bestZxid {
			best, bestZxid = s, z
		}
	}
	if best == "" {
		b.Fatalf("no snapshot in %s", dir)
	}
	return best
}

// toolkit runs ZooKeeper's TxnLogToolkit on one log, its dump discarded,
// and returns the CPU time it took.
func toolkit(b *testing.B, log string) time.Duration {
	cp := strings.Join([]string{"/usr/share/java/zookeeper.jar", "/usr/share/java/zookeeper-jute.jar",
		"/usr/share/java/slf4j-api.jar", "/usr/share/java/commons-cli.jar"}, ":")
	cmd := exec.Command("java", "-cp", cp, "org.apache.zookeeper.server.persistence.TxnLogToolkit", log)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	var errOut strings.Builder
	cmd.Stdout, cmd.Stderr = null, &errOut
	if err := cmd.Run(); err != nil {
		b.Fatalf("TxnLogToolkit %s: %v: %s", log, err, tail([]byte(errOut.String())))
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// runMeasured runs the binary, returning its output, peak RSS and CPU
// time. It runs under /usr/bin/time, whose own child's peak is the
// binary's: a child of this process would count this process's resident
// pages too (Go starts it sharing its memory until the exec, and the
// kernel keeps the larger peak across it).
func runMeasured(b *testing.B, bin string, args ...string) (string, uint64, time.Duration) {
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "zklocks-peak-rss-kb %M", bin}, args...)...)
	var out strings.Builder
	cmd.Stdout = &out
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		b.Fatalf("zklocks %s: %v: %s", strings.Join(args, " "), err, errOut.String())
	}
	m := regexp.MustCompile(`zklocks-peak-rss-kb (\d+)`).FindStringSubmatch(errOut.String())
	if m == nil {
		b.Fatalf("zklocks %s: /usr/bin/time said no peak: %s", strings.Join(args, " "), errOut.String())
	}
	kb, _ := strconv.ParseUint(m[1], 10, 64)
	return out.String(), kb * 1024, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func tail(b []byte) []byte {
	if len(b) > 2000 {
		return b[len(b)-2000:]
	}
	return b
}
