package scale

import (
	"cmp"
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
	"github.com/zklocks/zklocks/internal/testkit/procstat"
	"github.com/zklocks/zklocks/internal/testkit/tmuxscreen"
	"github.com/zklocks/zklocks/internal/testkit/zklocksbin"
	"github.com/zklocks/zklocks/internal/testkit/zktest"
	"github.com/zklocks/zklocks/zkwatch"
	"github.com/zklocks/zklocks/zkwatch/words"
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
	scaleAdmin      = flag.Bool("scale.admin", true, "measure again on the same cluster with the default whitelist (srvr) and the AdminServer on")
	scaleWords      = flag.Bool("scale.words", true, "measure on servers with every four-letter word allowed (false with -scale.admin: the AdminServer half alone)")
	scaleRoundsN    = flag.Int("scale.rounds", 3, "interleaved rounds of the floor and the UI's full picture (floor, UI, floor, UI, …)")
)

// BenchmarkScale measures zklocks on a production-sized cluster: a
// generated tree of plain znodes, lock parents with Curator contenders and
// a million data watches of other sessions, on one throwaway ZooKeeper (or
// -scale.members of them). The UI runs as a user runs it, in tmux; the
// one-shot commands as processes. Every figure is printed beside its
// target and beside a raw go-zookeeper floor measured in the same run:
// the floor and the UI's full picture take turns, -scale.rounds times
// each, and the ratio is of their medians, with the rounds' range.
//
// With -scale.admin (the default), the same cluster is built again on
// servers as production ships them, the default whitelist (srvr) and the
// AdminServer on, and every figure measured there is printed beside the
// four-letter-word run's, with the difference. It fails only on errors.
// Run it with make bench-scale.
func BenchmarkScale(b *testing.B) {
	bin := zklocksbin.Path(b)
	var r scaleReport
	if !*scaleWords && *scaleAdmin {
		admin := scaleMeasure(b, bin, true, &r)
		r.first = "ADMINSERVER (srvr only)"
		admin.report(&r, nil)
		r.print(os.Stdout)
		return
	}
	words := scaleMeasure(b, bin, false, &r)
	var admin *scaleFigures
	if *scaleAdmin {
		// Printed now as well: the second cluster's build, on a loaded
		// machine, can fail, and the first half's figures with it.
		var first scaleReport
		first.notes = r.notes
		words.report(&first, nil)
		first.print(os.Stdout)
		f := scaleMeasure(b, bin, true, &r)
		admin = &f
	}
	words.report(&r, admin)
	r.print(os.Stdout)
}

// scaleFigures is one cluster's figures.
type scaleFigures struct {
	name  string // the cluster's, as the notes name it
	spec  bigtree.Spec
	floor scaleFloorResult // the first round's, for its heap
	// floors, pictures and firstRows are the interleaved rounds' floor,
	// the UI's full picture and its first lock row.
	floors, pictures, firstRows scaleRounds
	// picturesPeakRSS is the highest peak of the rounds after the first,
	// which quit at their full picture.
	picturesPeakRSS       uint64
	table                 scaleTableResult
	ui, idle              scaleUIResult
	cost                  []words.MemberCost
	engine                time.Duration
	show, lsRoot, acquire scaleRun
	// newLock and newLockOld are the times of new locks in new subtrees
	// to their rows on screen, with the persistent watch and without.
	newLock, newLockOld []time.Duration
}

// scaleMeasure builds the cluster (with the AdminServer as the only way to
// ask anything but srvr, if admin) and measures zklocks on it, then stops
// its servers.
func scaleMeasure(b *testing.B, bin string, admin bool, r *scaleReport) scaleFigures {
	c := scaleServers(b, admin)
	defer c.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	f := scaleFigures{name: c.name, spec: bigtree.Spec{Plain: *scalePlain, Locks: *scaleLocks, Contenders: *scaleContenders,
		Services: 2000, Stale: 20, ForeignWatches: *scaleWatches}}
	built := time.Now()
	tree, err := bigtree.Build(ctx, c.addrs, f.spec, b.Logf)
	if err != nil {
		b.Fatal(err)
	}
	defer tree.Close()
	r.note("%s cluster: %d znodes, %d lock parents × %d contenders, %d watches held by other sessions, %d member(s); built in %v",
		c.name, tree.Znodes, f.spec.Locks, f.spec.Contenders, tree.Watches, len(c.addrs), time.Since(built).Round(time.Second))

	f.table = c.tableCost(b)
	for i := range max(1, *scaleRoundsN) {
		floor := scaleFloor(b, c.addrs, tree.LockPaths)
		if i == 0 {
			f.floor = floor
		}
		f.floors = append(f.floors, floor.took)
		// The first round measures everything of the UI at the default
		// walk rate; the others only its full picture.
		ui := scaleUI(b, bin, c, 0, i > 0)
		if i == 0 {
			f.ui = ui
		} else {
			f.picturesPeakRSS = max(f.picturesPeakRSS, ui.peakRSS)
		}
		f.pictures = append(f.pictures, ui.synced)
		f.firstRows = append(f.firstRows, ui.firstRow)
	}
	f.idle = scaleUI(b, bin, c, *scaleWalkRate, false)
	f.newLock = scaleNewLockTimes(b, bin, c, true, *scaleNewLocks)
	f.newLockOld = scaleNewLockTimes(b, bin, c, false, *scaleNewLocksOld)
	f.cost, f.engine = scaleCost(b, c)
	lock := tree.LockPaths[len(tree.LockPaths)/2]
	args := func(a ...string) []string { return append(append(a, "--server", c.connect), c.adminArgs...) }
	f.show = scaleCommand(b, bin, append(args("show"), lock)...)
	f.lsRoot = scaleCommand(b, bin, args("ls", "--root", lock)...)
	f.acquire = scaleCommand(b, bin, append(args("acquire", "--audit-log", filepath.Join(b.TempDir(), "audit.log"),
		"--hold", "1ms", "--timeout", "10s"), "/app/locks/group-000/bench-fresh-lock")...)
	return f
}

// report adds the figures' rows, each beside admin's (the same cluster
// through the AdminServer) when it is not nil.
func (f scaleFigures) report(r *scaleReport, admin *scaleFigures) {
	r.admin = admin != nil
	// A verdict is met only where both runs meet the target: a figure
	// the AdminServer run misses is missed.
	row := func(what, target, floor string, get func(scaleFigures) scaleValue, ok func(scaleFigures) bool) {
		var a *scaleValue
		met := ok(f)
		if admin != nil {
			v := get(*admin)
			a = &v
			met = met && ok(*admin)
		}
		r.row(what, get(f), a, target, floor, met)
	}
	always := func(scaleFigures) bool { return true }
	// The target: half the floor's time, measured in the same run,
	// as the ratio of the interleaved rounds' medians.
	half := func(x scaleFigures) bool { return x.pictures.median() <= x.floors.median()/2 }
	rounds := fmt.Sprintf(", median of %d rounds", len(f.pictures))
	row("full picture (every lock's holders and waiters)"+rounds, "≤ 0.5× floor", f.floors.String(),
		func(x scaleFigures) scaleValue { return ratioOfMedians(x.pictures, x.floors) }, half)
	row("the same, the watcher alone (in this process)", "", fmtDur(f.floors.median()),
		func(x scaleFigures) scaleValue { return ratioValue(x.engine, x.floors.median()) }, always)
	row("every contender's stat and data read (UI, first round)", "", fmtDur(f.floors.median()),
		func(x scaleFigures) scaleValue { return ratioValue(x.ui.allRead, x.floors.median()) }, always)
	row("first lock row on screen"+rounds, "≤ 1s", "",
		func(x scaleFigures) scaleValue {
			return scaleValue{x.firstRows.String(), x.firstRows.median().Seconds()}
		},
		func(x scaleFigures) bool { return x.firstRows.median() <= time.Second })
	peak := func(x scaleFigures) uint64 { return max(x.ui.peakRSS, x.idle.peakRSS, x.picturesPeakRSS) }
	row("UI peak RSS", "≤ 150 MB", fmtMB(f.floor.heap)+" heap",
		func(x scaleFigures) scaleValue { return mbValue(peak(x)) }, func(x scaleFigures) bool { return peak(x) <= 150<<20 })
	// Lock directories: bigtree's groups of 100 locks, and the stale locks' one.
	lockDirs := (f.spec.Locks+99)/100 + 1
	bound := f.spec.Locks + lockDirs + f.spec.Locks*f.spec.Contenders + 1000
	row("watches zklocks holds (watch_count after − before)", "≤ "+strconv.Itoa(bound), "",
		func(x scaleFigures) scaleValue { return scaleValue{strconv.Itoa(x.ui.watches), float64(x.ui.watches)} },
		func(x scaleFigures) bool { return x.ui.watches <= bound })
	row("idle CPU of the UI (its walk ended)", "≤ 1 %", "",
		func(x scaleFigures) scaleValue {
			return scaleValue{fmt.Sprintf("%.2f %% of a core", x.idle.cpu*100), x.idle.cpu}
		},
		func(x scaleFigures) bool { return x.idle.cpu <= 0.01 })
	row("new lock in a new subtree on screen, UI idle (floor: --persistent-watch=off)", "p99 ≤ 1s", newLockValue(f.newLockOld).text,
		func(x scaleFigures) scaleValue { return newLockValue(x.newLock) },
		func(x scaleFigures) bool { return len(x.newLock) > 0 && newLockValue(x.newLock).v <= 1 })
	row("UI's CPU while it walks at 2,000 reads/s (the default)", "", "",
		func(x scaleFigures) scaleValue {
			return scaleValue{fmt.Sprintf("%.2f %% of a core", x.ui.cpu*100), x.ui.cpu}
		}, always)
	for i := range f.cost {
		row("asks' share of member "+strconv.Itoa(i), "≤ 1 %", "", func(x scaleFigures) scaleValue {
			if i >= len(x.cost) {
				return scaleValue{text: "-"}
			}
			m := x.cost[i]
			return scaleValue{fmt.Sprintf("%.3f %% (%s/min in %s/min)", m.Share()*100, fmtMB(m.Bytes), fmtDur(m.Time)), m.Share()}
		}, func(x scaleFigures) bool { return i >= len(x.cost) || x.cost[i].Share() <= 0.01 })
	}
	row("show of one lock", "≤ 300ms", "", func(x scaleFigures) scaleValue { return runValue(x.show) },
		func(x scaleFigures) bool { return x.show.took <= 300*time.Millisecond })
	row("ls --root of one lock", "≤ 300ms", "", func(x scaleFigures) scaleValue { return runValue(x.lsRoot) },
		func(x scaleFigures) bool { return x.lsRoot.took <= 300*time.Millisecond })
	row("acquire of one lock", "≤ 300ms", "", func(x scaleFigures) scaleValue { return runValue(x.acquire) },
		func(x scaleFigures) bool { return x.acquire.took <= 300*time.Millisecond })
	all := []scaleFigures{f}
	if admin != nil {
		all = append(all, *admin)
	}
	for _, x := range all {
		r.note("%s the floor (a raw go-zookeeper client that knows every lock path reads them all: children and each contender) %s; the UI's full picture %s",
			x.name, x.floors, x.pictures)
		for i := range x.floors {
			r.note("  round %d: floor %s, full picture %s (%.2f×)", i+1, fmtDur(x.floors[i]), fmtDur(x.pictures[i]), x.pictures[i].Seconds()/x.floors[i].Seconds())
		}
		r.note("%s idle UI after its window: %s", x.name, x.idle.idleSaid)
		r.note("%s new locks in new subtrees to their rows on screen: persistent watch %s; --persistent-watch=off %s",
			x.name, newLockValue(x.newLock).text, newLockValue(x.newLockOld).text)
		r.note("what --watches=auto does not ask: the watch table of %s (%s), %s in %v (it would be asked no more than once in %v)",
			x.table.member, x.table.via, fmtMB(x.table.bytes), x.table.took.Round(time.Millisecond), (time.Duration(float64(x.table.took) / words.MaxWordShare)).Round(time.Second))
		for _, m := range x.cost {
			for _, w := range m.Words {
				r.note("%s %s (%s): %d asks, %s, %v in the last minute; next no sooner than %v after the last",
					m.Member, w.Word, w.Via, w.Asks, fmtMB(w.Bytes), w.Time.Round(time.Millisecond), w.Every.Round(time.Millisecond))
			}
		}
	}
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
	member, via string
	bytes       int64
	took        time.Duration
}

// scaleUIResult is the UI's figures.
type scaleUIResult struct {
	firstRow, synced time.Duration
	// allRead is when the status bar stopped saying that contenders are
	// not read yet (ReadLater), after synced.
	allRead time.Duration
	peakRSS uint64
	watches int
	cpu     float64 // share of a core while measured
	// idleSaid is, once the idle CPU is measured, what the cost screen
	// says of the persistent watch and how often the UI's session lost
	// its connection in its life: either brings a re-read of the tree
	// into the window.
	idleSaid string
}

// The status bar says "updated" once the first sync is done, and
// notReadOnScreen while contenders listed are not read yet.
var syncedOnScreen = regexp.MustCompile(`updated \d\d:\d\d`)

const notReadOnScreen = "not read yet"

// scaleUI runs the UI in tmux on the cluster: when the first lock row and
// "updated" (the first sync) appear, its peak memory, the watches it leaves on the servers,
// and its CPU. With walkRate 0 (the default rate) the CPU is measured while
// it walks; otherwise once the walk, at walkRate, has ended: nothing
// changing. With pictureOnly, it quits at the first sync, its peak memory
// then taken.
func scaleUI(b *testing.B, bin string, c scaleCluster, walkRate int, pictureOnly bool) scaleUIResult {
	before := c.watchCount(b)
	start := time.Now()
	logFile := filepath.Join(b.TempDir(), "zklocks.log")
	command := fmt.Sprintf("%s --server %s --read-only --log-file %s %s", bin, c.connect, logFile, strings.Join(c.adminArgs, " "))
	if walkRate > 0 {
		command += fmt.Sprintf(" --walk-rate %d", walkRate)
	}
	s := tmuxscreen.Start(b, 120, 40, command)
	pid := s.PID()
	var res scaleUIResult
	deadline := time.Now().Add(5 * time.Minute)
	for res.synced == 0 && time.Now().Before(deadline) {
		screen := s.Capture()
		if res.firstRow == 0 && strings.Contains(screen, "/app/locks/group-") {
			res.firstRow = time.Since(start)
		}
		if syncedOnScreen.MatchString(screen) {
			res.synced = time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if res.synced == 0 {
		b.Fatalf("the UI never said synced; the screen:\n%s", s.Last())
	}
	if pictureOnly {
		res.peakRSS = procstat.PeakRSS(b, pid)
		s.Keys("q")
		// The next round's floor has the machine to itself.
		s.WaitExit(time.Minute)
		return res
	}
	for res.allRead == 0 && time.Now().Before(deadline) {
		if !strings.Contains(s.Capture(), notReadOnScreen) {
			res.allRead = time.Since(start)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if res.allRead == 0 {
		b.Fatalf("the UI never read every contender; the screen:\n%s", s.Last())
	}
	res.watches = c.watchCountSettled(b) - before
	if walkRate > 0 {
		zktest.WaitUntil(b, 10*time.Minute, func() string {
			if strings.Contains(s.Capture(), "partial:") {
				return "the UI's walk did not end; the screen:\n" + s.Last()
			}
			return ""
		})
	}
	cpu0 := procstat.CPU(b, pid)
	time.Sleep(*scaleIdle)
	res.cpu = (procstat.CPU(b, pid) - cpu0).Seconds() / scaleIdle.Seconds()
	res.peakRSS = procstat.PeakRSS(b, pid)
	if walkRate > 0 {
		res.idleSaid = scaleIdleSaid(s, logFile)
	}
	s.Keys("q")
	return res
}

// scaleIdleSaid opens the cost screen and returns its line on the
// persistent watch (set again after a dropped connection, re-reading the
// roots), with the lines of the UI's log that say its main session's
// connection was lost: each brings a re-read into an idle window.
func scaleIdleSaid(s *tmuxscreen.Screen, logFile string) string {
	s.Keys("c")
	var said []string
	screen := s.WaitFor("the cost screen", func(screen string) bool { return strings.Contains(screen, "finding locks") })
	// The field runs on, wrapped, to the next one.
	in := false
	for _, line := range strings.Split(screen, "\n") {
		switch {
		case strings.Contains(line, "finding locks"):
			in = false
		case strings.Contains(line, " persistent     "):
			in = true
		}
		if in {
			said = append(said, strings.Join(strings.Fields(line), " "))
		}
	}
	log, _ := os.ReadFile(logFile)
	lost := 0
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, "recv loop terminated") {
			lost++
		}
	}
	return fmt.Sprintf("%s; main session's connection lost %d× (its log)", strings.Join(said, " "), lost)
}

// scaleCost watches the cluster in this process, with the UI's defaults,
// for a minute, and returns what its four-letter words cost each member,
// and how long the watcher took to its first sync.
func scaleCost(b *testing.B, c scaleCluster) ([]words.MemberCost, time.Duration) {
	target, err := zkwatch.ParseConnectString(c.connect)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	conn, err := zkwatch.Dial(ctx, zkwatch.Options{Target: target, Admin: c.admin})
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	wctx, stop := context.WithCancel(ctx)
	start := time.Now()
	w := zkwatch.Watch(wctx, conn, zkwatch.WatchConfig{ReadLater: true})
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

type quietZK struct{}

func (quietZK) Printf(string, ...any) {}

// scaleReport prints the figures as a table.
type scaleReport struct {
	admin bool // rows carry the AdminServer run's figure
	// first names the first column's run when it is not the
	// four-letter words'.
	first string
	rows  [][6]string
	notes []string
}

// scaleValue is a figure as printed, and as a number to compare runs by.
type scaleValue struct {
	text string
	v    float64
}

func durValue(d time.Duration) scaleValue { return scaleValue{fmtDur(d), d.Seconds()} }

// ratioValue is d with its ratio to the floor's time.
func ratioValue(d, floor time.Duration) scaleValue {
	if floor <= 0 {
		return durValue(d)
	}
	return scaleValue{fmt.Sprintf("%s (%.2f×)", fmtDur(d), d.Seconds()/floor.Seconds()), d.Seconds()}
}
func mbValue(n uint64) scaleValue    { return scaleValue{fmtMB(n), float64(n)} }
func runValue(r scaleRun) scaleValue { return scaleValue{r.String(), r.took.Seconds()} }

// row adds a figure: the four-letter-word run's, and admin's (the
// AdminServer run's) beside it with the difference, when there is one.
func (r *scaleReport) row(what string, measured scaleValue, admin *scaleValue, target, floor string, ok bool) {
	verdict := "met"
	if !ok {
		verdict = "MISSED"
	}
	beside := ""
	if admin != nil {
		beside = admin.text
		if measured.v > 0 && admin.text != "-" {
			beside += fmt.Sprintf(" (%+.0f %%)", (admin.v/measured.v-1)*100)
		}
	}
	r.rows = append(r.rows, [6]string{what, measured.text, beside, target, floor, verdict})
}

func (r *scaleReport) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func (r *scaleReport) print(w *os.File) {
	head := [6]string{"FIGURE", cmp.Or(r.first, "FOUR-LETTER WORDS"), "ADMINSERVER (srvr only)", "TARGET", "FLOOR", "VERDICT"}
	widths := [6]int{}
	for _, row := range append([][6]string{head}, r.rows...) {
		for i, c := range row {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, row := range append([][6]string{head}, r.rows...) {
		for i, c := range row {
			if i == 2 && !r.admin {
				continue
			}
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
