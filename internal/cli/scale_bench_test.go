package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/internal/testkit/bigtree"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
)

// The cluster BenchmarkScale builds, and how long it watches zklocks idle.
var (
	scalePlain      = flag.Int("scale.plain", 1_000_000, "plain znodes of the generated cluster")
	scaleLocks      = flag.Int("scale.locks", 10_000, "lock parents")
	scaleContenders = flag.Int("scale.contenders", 6, "Curator contenders per lock, one session each")
	scaleWatches    = flag.Int("scale.watches", 1_000_000, "data watches held by other sessions")
	scaleMembers    = flag.Int("scale.members", 1, "ensemble members (1: standalone)")
	scaleIdle       = flag.Duration("scale.idle", 30*time.Second, "how long the UI is watched idle, once its walk has ended, for its CPU")
	scaleWalkRate   = flag.Int("scale.walkrate", 20_000, "the UI's --walk-rate, so that its first walk ends before its idle CPU is measured")
)

// BenchmarkScale measures zklocks on a production-sized cluster: a
// generated tree of plain znodes, lock parents with Curator contenders and
// a million data watches of other sessions, on one throwaway ZooKeeper (or
// -scale.members of them). The UI runs as a user runs it, in tmux; the
// one-shot commands as processes. Every figure is printed beside its
// target and beside a raw go-zookeeper floor measured in the same run. It
// fails only on errors. Run it with make bench-scale.
func BenchmarkScale(b *testing.B) {
	bin := zklocksBinary(b)
	addrs, connect := scaleServers(b)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	spec := bigtree.Spec{Plain: *scalePlain, Locks: *scaleLocks, Contenders: *scaleContenders,
		Services: 2000, Stale: 20, ForeignWatches: *scaleWatches}
	built := time.Now()
	tree, err := bigtree.Build(ctx, addrs, spec, b.Logf)
	if err != nil {
		b.Fatal(err)
	}
	defer tree.Close()
	var r scaleReport
	r.note("cluster: %d znodes, %d lock parents × %d contenders, %d watches held by other sessions, %d member(s); built in %v",
		tree.Znodes, spec.Locks, spec.Contenders, tree.Watches, len(addrs), time.Since(built).Round(time.Second))

	floor := scaleFloor(b, addrs, tree.LockPaths)
	table := scaleTableCost(b, addrs)
	ui := scaleUI(b, bin, connect, addrs, 0)
	idle := scaleUI(b, bin, connect, addrs, *scaleWalkRate)
	cost, engine := scaleCost(b, connect)
	lock := tree.LockPaths[len(tree.LockPaths)/2]
	show := scaleCommand(b, bin, "show", "--server", connect, lock)
	lsRoot := scaleCommand(b, bin, "ls", "--server", connect, "--root", lock)
	acquire := scaleCommand(b, bin, "acquire", "--server", connect, "--audit-log", filepath.Join(b.TempDir(), "audit.log"),
		"--hold", "1ms", "--timeout", "10s", "/app/locks/group-000/bench-fresh-lock")

	r.row("full picture (every lock's holders and waiters)", fmtDur(ui.synced), "≤ 5s", fmtDur(floor.took), ui.synced <= 5*time.Second)
	r.row("the same, the watcher alone (in this process)", fmtDur(engine), "", fmtDur(floor.took), true)
	r.row("first lock row on screen", fmtDur(ui.firstRow), "≤ 1s", "", ui.firstRow <= time.Second)
	peak := max(ui.peakRSS, idle.peakRSS)
	r.row("UI peak RSS", fmtMB(peak), "≤ 150 MB", fmtMB(floor.heap)+" heap", peak <= 150<<20)
	// Lock directories: bigtree's groups of 100 locks, and the stale locks' one.
	lockDirs := (spec.Locks+99)/100 + 1
	bound := spec.Locks + lockDirs + spec.Locks*spec.Contenders + 1000
	r.row("watches zklocks holds (mntr zk_watch_count after − before)", strconv.Itoa(ui.watches), "≤ "+strconv.Itoa(bound), "", ui.watches <= bound)
	r.row("idle CPU of the UI (its walk ended)", fmt.Sprintf("%.2f %% of a core", idle.cpu*100), "≤ 2 %", "", idle.cpu <= 0.02)
	r.row("UI's CPU while it walks at 2,000 reads/s (the default)", fmt.Sprintf("%.2f %% of a core", ui.cpu*100), "", "", true)
	for _, m := range cost {
		r.row("four-letter words' share of "+m.Member, fmt.Sprintf("%.3f %% (%s/min in %s/min)", m.Share()*100, fmtMB(m.Bytes), fmtDur(m.Time)),
			"≤ 1 %", "", m.Share() <= 0.01)
	}
	r.row("show of one lock", show.String(), "≤ 300ms", "", show.took <= 300*time.Millisecond)
	r.row("ls --root of one lock", lsRoot.String(), "≤ 300ms", "", lsRoot.took <= 300*time.Millisecond)
	r.row("acquire of one lock", acquire.String(), "≤ 300ms", "", acquire.took <= 300*time.Millisecond)
	r.note("the floor: a raw go-zookeeper client that knows every lock path reads them all (children and each contender) in %v", floor.took.Round(time.Millisecond))
	r.note("what --watches=auto does not ask: wchc of %s, %s in %v (it would be asked no more than once in %v)",
		table.member, fmtMB(table.bytes), table.took.Round(time.Millisecond), (time.Duration(float64(table.took) / zkwatch.MaxWordShare)).Round(time.Second))
	for _, m := range cost {
		for _, w := range m.Words {
			r.note("%s %s: %d asks, %s, %v in the last minute; next no sooner than %v after the last",
				m.Member, w.Word, w.Asks, fmtMB(w.Bytes), w.Time.Round(time.Millisecond), w.Every.Round(time.Millisecond))
		}
	}
	r.print(os.Stdout)
}

// scaleServers starts the cluster's server or ensemble, sized for it.
func scaleServers(b *testing.B) (addrs []string, connect string) {
	heap := max(1, (*scalePlain+*scaleWatches)/350_000)
	opts := []zktest.Option{zktest.WithJVMFlags(fmt.Sprintf("-Xms%dg", heap), fmt.Sprintf("-Xmx%dg", heap+1)),
		zktest.WithConfig("forceSync=no", "snapCount=5000000", "maxClientCnxns=0")}
	if *scaleMembers <= 1 {
		s := zktest.Start(b, opts...)
		return []string{s.Addr()}, s.Addr()
	}
	e := zktest.StartEnsemble(b, *scaleMembers, opts...)
	for _, m := range e.Members() {
		addrs = append(addrs, m.Addr())
	}
	return addrs, e.ConnectString()
}

// scaleFloorResult is what a raw client needs to read every lock.
type scaleFloorResult struct {
	took time.Duration
	heap uint64
}

// scaleFloor reads every lock with go-zookeeper alone, knowing the paths:
// what no discovery can beat.
func scaleFloor(b *testing.B, addrs, locks []string) scaleFloorResult {
	c, events, err := zk.Connect(addrs, 30*time.Second, zk.WithLogger(quietZK{}))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for ev := range events {
		if ev.State == zk.StateHasSession {
			break
		}
	}
	go func() {
		for range events {
		}
	}()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	held := make([][][]byte, len(locks))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for i, l := range locks {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			names, _, err := c.Children(l)
			if err != nil {
				b.Error(err)
				return
			}
			for _, n := range names {
				if data, _, err := c.Get(l + "/" + n); err == nil {
					held[i] = append(held[i], data)
				}
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(held)
	return scaleFloorResult{took: took, heap: after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)}
}

// scaleTableResult is what one member's whole watch table costs.
type scaleTableResult struct {
	member string
	bytes  int64
	took   time.Duration
}

// scaleTableCost asks one member for its whole watch table once, to show
// what zklocks does not ask.
func scaleTableCost(b *testing.B, addrs []string) scaleTableResult {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	reply, err := zkwatch.FourLetter(ctx, addrs[0], "wchc")
	if err != nil {
		b.Fatal(err)
	}
	return scaleTableResult{member: addrs[0], bytes: int64(len(reply)), took: time.Since(start)}
}

// scaleUIResult is the UI's figures.
type scaleUIResult struct {
	firstRow, synced time.Duration
	peakRSS          uint64
	watches          int
	cpu              float64 // share of a core while measured
}

// The status bar says "updated" once the first sync is done.
var syncedOnScreen = regexp.MustCompile(`updated \d\d:\d\d`)

// scaleUI runs the UI in tmux on the cluster: when the first lock row and
// "updated" (the first sync) appear, its peak memory, the watches it leaves on the servers,
// and its CPU. With walkRate 0 (the default rate) the CPU is measured while
// it walks; otherwise once the walk, at walkRate, has ended: nothing
// changing.
func scaleUI(b *testing.B, bin, connect string, addrs []string, walkRate int) scaleUIResult {
	before := serverWatches(b, addrs)
	start := time.Now()
	command := fmt.Sprintf("%s --server %s --read-only --log-file ''", bin, connect)
	if walkRate > 0 {
		command += fmt.Sprintf(" --walk-rate %d", walkRate)
	}
	s := startTmux(b, 120, 40, command)
	pid := panePID(b, s)
	var res scaleUIResult
	deadline := time.Now().Add(5 * time.Minute)
	for res.synced == 0 && time.Now().Before(deadline) {
		screen := s.capture()
		if res.firstRow == 0 && strings.Contains(screen, "/app/locks/group-") {
			res.firstRow = time.Since(start)
		}
		if syncedOnScreen.MatchString(screen) {
			res.synced = time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if res.synced == 0 {
		b.Fatalf("the UI never said synced; the screen:\n%s", s.last)
	}
	res.watches = serverWatchesSettled(b, addrs) - before
	if walkRate > 0 {
		zktest.WaitUntil(b, 10*time.Minute, func() string {
			if strings.Contains(s.capture(), "partial:") {
				return "the UI's walk did not end; the screen:\n" + s.last
			}
			return ""
		})
	}
	cpu0 := procCPU(b, pid)
	time.Sleep(*scaleIdle)
	res.cpu = (procCPU(b, pid) - cpu0).Seconds() / scaleIdle.Seconds()
	res.peakRSS = procPeakRSS(b, pid)
	s.keys("q")
	return res
}

// scaleCost watches the cluster in this process, with the UI's defaults,
// for a minute, and returns what its four-letter words cost each member,
// and how long the watcher took to its first sync.
func scaleCost(b *testing.B, connect string) ([]zkwatch.MemberCost, time.Duration) {
	target, err := zkwatch.ParseConnectString(connect)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: target})
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	wctx, stop := context.WithCancel(ctx)
	start := time.Now()
	w := zkwatch.Watch(wctx, conn, zkwatch.WatchConfig{})
	done := make(chan struct{})
	synced := make(chan time.Duration, 1)
	go func() {
		defer close(done)
		for ev := range w.Events() {
			if ev.Kind == zkwatch.EventSynced {
				select {
				case synced <- time.Since(start):
				default:
				}
			}
		}
	}()
	time.Sleep(time.Minute)
	cost := w.Costs().Snapshot()
	stop()
	<-done
	select {
	case d := <-synced:
		return cost, d
	default:
		b.Fatal("the watcher did not sync within a minute")
		return nil, 0
	}
}

// scaleRun is a one-shot command's figures: the median of five runs.
type scaleRun struct {
	took   time.Duration
	maxRSS uint64
}

func (r scaleRun) String() string { return fmt.Sprintf("%s, %s RSS", fmtDur(r.took), fmtMB(r.maxRSS)) }

// scaleCommand runs zklocks with args five times, under GNU time for its
// peak memory: a child's own rusage would count this process's memory,
// which it shares until it execs.
func scaleCommand(b *testing.B, bin string, args ...string) scaleRun {
	var runs []scaleRun
	for range 5 {
		cmd := exec.Command("/usr/bin/time", append([]string{"-f", "maxrss %M", bin}, args...)...)
		cmd.Env = append(os.Environ(), "ZKLOCKS_SERVER=")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		start := time.Now()
		out, err := cmd.Output()
		took := time.Since(start)
		if err != nil {
			b.Fatalf("zklocks %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
		}
		var kb uint64
		if i := strings.LastIndex(stderr.String(), "maxrss "); i >= 0 {
			kb, _ = strconv.ParseUint(strings.TrimSpace(stderr.String()[i+len("maxrss "):]), 10, 64)
		}
		runs = append(runs, scaleRun{took: took, maxRSS: kb << 10})
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i].took < runs[j].took })
	return runs[len(runs)/2]
}

// serverWatches sums every member's watch count, of every kind.
func serverWatches(b *testing.B, addrs []string) int {
	total := 0
	for _, a := range addrs {
		total += zktest.WatchCount(b, a)
	}
	return total
}

// serverWatchesSettled is serverWatches once it has stopped changing for
// two seconds: the watches a watcher sets arrive over its first moments.
func serverWatchesSettled(b *testing.B, addrs []string) int {
	last := serverWatches(b, addrs)
	for range 60 {
		time.Sleep(2 * time.Second)
		n := serverWatches(b, addrs)
		if n == last {
			return n
		}
		last = n
	}
	return last
}

// panePID is the process the tmux pane runs.
func panePID(b *testing.B, s *tmuxScreen) int {
	pid, err := strconv.Atoi(strings.TrimSpace(s.tmux("display-message", "-p", "-t", "zklocks", "#{pane_pid}")))
	if err != nil {
		b.Fatal(err)
	}
	return pid
}

// procCPU is the user and system time a process has used.
func procCPU(b *testing.B, pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks
}

// procPeakRSS is a process's peak resident memory (VmHWM).
func procPeakRSS(b *testing.B, pid int) uint64 {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	b.Fatalf("no VmHWM for pid %d", pid)
	return 0
}

type quietZK struct{}

func (quietZK) Printf(string, ...any) {}

// scaleReport prints the figures as a table.
type scaleReport struct {
	rows  [][5]string
	notes []string
}

func (r *scaleReport) row(what, measured, target, floor string, ok bool) {
	verdict := "met"
	if !ok {
		verdict = "MISSED"
	}
	r.rows = append(r.rows, [5]string{what, measured, target, floor, verdict})
}

func (r *scaleReport) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func (r *scaleReport) print(w *os.File) {
	head := [5]string{"FIGURE", "MEASURED", "TARGET", "FLOOR", "VERDICT"}
	widths := [5]int{}
	for _, row := range append([][5]string{head}, r.rows...) {
		for i, c := range row {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, row := range append([][5]string{head}, r.rows...) {
		for i, c := range row {
			fmt.Fprintf(w, "%-*s  ", widths[i], c)
		}
		fmt.Fprintln(w)
	}
	for _, n := range r.notes {
		fmt.Fprintln(w, n)
	}
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	default:
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
}

func fmtMB[T ~int64 | ~uint64](n T) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
