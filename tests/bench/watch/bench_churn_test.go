package watch

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklocks/zklocks/zkwatch"
)

const (
	// churnParents locks take churnRate changes per second between them,
	// for churnFor: each lock gains a contender, loses it a second later,
	// gains another, and so on, ending as it began.
	churnParents = 1_000
	churnRate    = 1_000
	churnFor     = 30 * time.Second
	// churnBucket is the span of issue times whose lags are compared: the
	// first against the last.
	churnBucket = 5 * time.Second
	// churnSessions and churnWorkers make the changes.
	churnSessions = 4
	churnWorkers  = 64
	// maxChurnGrowth: the median lag over the last bucket may be at most
	// this many times the first's. A growing backlog delays every change,
	// so it shows in the median; a bucket's p99 is its worst stall (1% of
	// 5,000 changes is 50 ms of them), which the latency benchmark and the
	// control speak to.
	maxChurnGrowth = 2.0
	// minChurnRate: the driver must have issued at least this share of
	// churnRate, or the run did not load the watcher as meant.
	minChurnRate = 0.95
	// churnSettle is how long, after the last change, every change may take
	// to show.
	churnSettle = 30 * time.Second
	// churnProbeEvery is how often, during the churn, a raw children watch
	// is timed on a lock outside the tree, as a control: it shows how the
	// server and the machine answered meanwhile, whatever the watcher did.
	churnProbeEvery = 25 * time.Millisecond
)

// churnChange is one change the driver made.
type churnChange struct {
	lock   int // index into the churned parents
	name   string
	create bool
	at     time.Time // when the request was issued
	err    error
}

// churnLog is what the watcher said of one churned lock: its events in
// order, each with its arrival time and contenders.
type churnLog struct {
	at    []time.Time
	names [][]string
}

// benchChurn makes churnRate changes per second across churnParents locks
// for churnFor, while the watcher watches the whole tree, and checks that
// every change is reflected by an event and that the lag does not grow.
func benchChurn(b *testing.B, env *benchEnv, r *benchReport) {
	parents := env.parents[1 : 1+churnParents] // the latency benchmark uses parents[0]
	index := make(map[string]int, len(parents))
	for i, p := range parents {
		index[p] = i
	}
	var mu sync.Mutex
	logs := make([]churnLog, len(parents))
	lw := startWatcher(b, env, func(ev zkwatch.Event, at time.Time) {
		i, ok := index[ev.Path]
		if ev.Kind != zkwatch.EventLock || !ok {
			return
		}
		names := make([]string, len(ev.Lock.Participants))
		for j, p := range ev.Lock.Participants {
			names[j] = p.Node
		}
		mu.Lock()
		logs[i].at = append(logs[i].at, at)
		logs[i].names = append(logs[i].names, names)
		mu.Unlock()
	})
	defer lw.stop()
	lw.awaitSettled(b)
	sessions := make([]*zk.Conn, churnSessions)
	for i := range sessions {
		sessions[i] = benchConnect(b, env.zks.Addr())
	}
	makeRawParent(b, env)
	rw := &rawWatch{actor: env.actor, observer: benchConnect(b, env.zks.Addr())}

	for range b.N {
		stopProbe := make(chan struct{})
		probed := make(chan probeResult, 1)
		go func() { probed <- probeRaw(rw, stopProbe) }()
		changes, start, took := churn(sessions, parents)
		close(stopProbe)
		control := <-probed
		if control.err != nil {
			b.Fatalf("churn: control: %v", control.err)
		}
		for _, c := range changes {
			if c.err != nil {
				b.Fatalf("churn: %v", c.err)
			}
		}
		var res churnResult
		deadline := time.Now().Add(churnSettle)
		for {
			mu.Lock()
			res = matchChurn(changes, logs, start)
			mu.Unlock()
			if res.unmatched == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		reportChurn(b, r, res, control.buckets(start), len(changes), took)
	}
}

// probeResult is what the control measured: when each raw watch's change
// was issued, and how long the watch took to fire.
type probeResult struct {
	at  []time.Time
	lag []time.Duration
	err error
}

// probeRaw times a raw watch's create and then delete every
// churnProbeEvery until stop is closed.
func probeRaw(rw *rawWatch, stop <-chan struct{}) probeResult {
	var res probeResult
	tick := time.NewTicker(churnProbeEvery)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return res
		case <-tick.C:
		}
		for _, change := range []func() (time.Duration, error){rw.create, rw.delete} {
			at := time.Now()
			d, err := change()
			if err != nil {
				res.err = err
				return res
			}
			res.at, res.lag = append(res.at, at), append(res.lag, d)
		}
	}
}

// buckets sorts the control's lags by churnBucket of issue time since
// start.
func (p probeResult) buckets(start time.Time) [][]time.Duration {
	out := make([][]time.Duration, int(churnFor/churnBucket))
	for i, at := range p.at {
		if b := int(at.Sub(start) / churnBucket); at.After(start) && b < len(out) {
			out[b] = append(out[b], p.lag[i])
		}
	}
	return out
}

// churn makes the changes at churnRate and returns them, when the first
// was due, and how long issuing them all took.
func churn(sessions []*zk.Conn, parents []string) ([]churnChange, time.Time, time.Duration) {
	total := int(churnFor.Seconds() * churnRate)
	changes := make([]churnChange, total)
	// created hands each lock's new contender to the change that deletes it.
	created := make([]chan string, len(parents))
	for i := range created {
		created[i] = make(chan string, 1)
	}
	jobs := make(chan int, churnWorkers)
	var wg sync.WaitGroup
	for w := range churnWorkers {
		conn := sessions[w%len(sessions)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				c := &changes[i]
				c.lock = i % len(parents)
				c.create = (i/len(parents))%2 == 0
				parent := parents[c.lock]
				if c.create {
					c.at = time.Now()
					c.name, c.err = newContender(conn, parent)
					created[c.lock] <- c.name
					continue
				}
				c.name = <-created[c.lock]
				c.at = time.Now()
				c.err = conn.Delete(parent+"/"+c.name, -1)
			}
		}()
	}
	start := time.Now()
	for i := range total {
		if d := time.Until(start.Add(time.Duration(i) * time.Second / churnRate)); d > 0 {
			time.Sleep(d)
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return changes, start, time.Since(start)
}

// churnResult is how the watcher's events reflected the changes.
type churnResult struct {
	unmatched   int
	first, last []time.Duration // lags of the changes issued in the first and last churnBucket
	all         []time.Duration
	// buckets holds every change's lag by churnBucket of issue time.
	buckets [][]time.Duration
}

// matchChurn finds, for each change, the first event of its lock that
// reflects it: for a new contender, the first event listing it; for a
// deleted one, the first event after that no longer listing it. A lock's
// events come in the order they were read, so that event shows the change.
// A contender never listed leaves both its changes unreflected.
func matchChurn(changes []churnChange, logs []churnLog, start time.Time) churnResult {
	var res churnResult
	res.buckets = make([][]time.Duration, int(churnFor/churnBucket))
	from := make([]int, len(logs))      // per lock, the first event the next change may match
	unseen := make([]string, len(logs)) // per lock, a contender never listed
	for _, c := range changes {
		l := &logs[c.lock]
		if !c.create && unseen[c.lock] == c.name {
			res.unmatched++
			continue
		}
		j := from[c.lock]
		for j < len(l.names) && slices.Contains(l.names[j], c.name) != c.create {
			j++
		}
		if j == len(l.names) {
			res.unmatched++
			if c.create {
				unseen[c.lock] = c.name
			}
			continue
		}
		from[c.lock] = j
		if c.create {
			from[c.lock] = j + 1
		}
		lag := max(l.at[j].Sub(c.at), 0)
		res.all = append(res.all, lag)
		since := c.at.Sub(start)
		if b := int(since / churnBucket); b >= 0 && b < len(res.buckets) {
			res.buckets[b] = append(res.buckets[b], lag)
		}
	}
	if len(res.buckets) > 0 {
		res.first, res.last = res.buckets[0], res.buckets[len(res.buckets)-1]
	}
	return res
}

func reportChurn(b *testing.B, r *benchReport, res churnResult, control [][]time.Duration, total int, took time.Duration) {
	for i, lags := range res.buckets {
		lags, raw := slices.Clone(lags), control[i]
		b.Logf("changes issued %2v–%2v: watcher lag n=%d p50 %s p99 %s max %s; raw watch (control) n=%d p50 %s p99 %s",
			time.Duration(i)*churnBucket, time.Duration(i+1)*churnBucket,
			len(lags), fmtDur(quantile(lags, 0.5)), fmtDur(quantile(lags, 0.99)), fmtDur(quantile(lags, 1)),
			len(raw), fmtDur(quantile(raw, 0.5)), fmtDur(quantile(raw, 0.99)))
	}
	rate := float64(total) / took.Seconds()
	f50, f99 := quantile(res.first, 0.5), quantile(res.first, 0.99)
	l50, l99 := quantile(res.last, 0.5), quantile(res.last, 0.99)
	first, last := control[0], control[len(control)-1]
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(rate, "changes/s")
	b.ReportMetric(float64(res.unmatched), "unreflected")
	b.ReportMetric(ms(f50), "first5s-p50-ms")
	b.ReportMetric(ms(l50), "last5s-p50-ms")
	b.ReportMetric(ms(f99), "first5s-p99-ms")
	b.ReportMetric(ms(l99), "last5s-p99-ms")
	r.add(benchRow{metric: fmt.Sprintf("churn: rate over %d locks for %v", churnParents, churnFor),
		ours: fmt.Sprintf("%.0f/s", rate), target: fmt.Sprintf("≥ %.0f/s", minChurnRate*churnRate),
		verdict: verdict(rate >= minChurnRate*churnRate)})
	r.add(benchRow{metric: "churn: changes reflected by an event", ours: fmt.Sprintf("%d/%d", total-res.unmatched, total),
		target: "all", verdict: verdict(res.unmatched == 0)})
	r.compare("churn: lag p50, last 5 s vs first 5 s", l50, f50, maxChurnGrowth)
	r.compare("churn: lag p99, last 5 s vs first 5 s", l99, f99, 0)
	r.add(benchRow{metric: "churn: lag max, all changes", ours: fmtDur(quantile(res.all, 1))})
	r.compare("churn control: raw watch p50, last 5 s vs first 5 s", quantile(last, 0.5), quantile(first, 0.5), 0)
	r.compare("churn control: raw watch p99, last 5 s vs first 5 s", quantile(last, 0.99), quantile(first, 0.99), 0)
}
