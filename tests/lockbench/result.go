package lockbench

import (
	"bufio"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Result is what one Config measured, over its window only.
type Result struct {
	Config
	// Elapsed is the window's length as measured.
	Elapsed time.Duration
	// Acquisitions returned inside the window; Releases were called
	// inside it.
	Acquisitions, Releases int
	// Handoffs are the gaps from a release call to the next acquire's
	// return, for every next acquisition inside the window, sorted.
	Handoffs []time.Duration
	// Overlaps counts acquisitions that returned before the previous
	// holder called release: broken mutual exclusion. It should be 0.
	Overlaps int
	// Requests is the server's zk_packets_received across the window:
	// every request, pings included, less the closing mntr.
	Requests int64
	// Notifications is how many watch notifications the server sent
	// across the window.
	Notifications int64
	// Received is what the contenders' connections were notified of in
	// the window, when they are in process.
	Received Received
	// Ops are our client's calls in the window, by request type; empty for
	// the other clients.
	Ops []OpStat
	// Disconnects counts the contenders' connections that dropped while
	// looping, warm-up included; each reconnect re-sends watches and
	// disturbs the figures a little.
	Disconnects int64
	// Tally counts releases and notifications over the whole run, both
	// over the same events, where the window's figures are cut by its
	// edges.
	Tally Tally
	// ConnectRequests are the requests the in-process contenders'
	// connections sent before each had its session, over Connects
	// connections: one each (the connect request) in plain TCP, three
	// with SASL DIGEST-MD5 (its two rounds).
	ConnectRequests, Connects int64
	// Rates are the acquisitions per second of each window measured: one,
	// or one per Result merged (see Merge).
	Rates []float64
}

// Merge adds up Results of one Config measured in several windows, say in
// rounds interleaved with other clients: counts and times are summed,
// handoffs pooled, and each window's rate kept in Rates.
func Merge(rs ...Result) Result {
	if len(rs) == 0 {
		return Result{}
	}
	m := Result{Config: rs[0].Config}
	at := map[string]int{} // index in m.Ops by request type
	for _, r := range rs {
		m.Elapsed += r.Elapsed
		m.Acquisitions += r.Acquisitions
		m.Releases += r.Releases
		m.Overlaps += r.Overlaps
		m.Requests += r.Requests
		m.Notifications += r.Notifications
		m.Handoffs = append(m.Handoffs, r.Handoffs...)
		m.Received.InProcess = r.Received.InProcess
		m.Received.Own += r.Received.Own
		m.Received.Wakes += r.Received.Wakes
		m.Disconnects += r.Disconnects
		m.Tally = m.Tally.Add(r.Tally)
		m.ConnectRequests += r.ConnectRequests
		m.Connects += r.Connects
		m.Rates = append(m.Rates, r.Rates...)
		for _, o := range r.Ops {
			i, ok := at[o.Name]
			if !ok {
				at[o.Name], i = len(m.Ops), len(m.Ops)
				m.Ops = append(m.Ops, OpStat{Name: o.Name})
			}
			m.Ops[i].Calls += o.Calls
			m.Ops[i].Failed += o.Failed
			m.Ops[i].Time += o.Time
		}
	}
	sort.Slice(m.Handoffs, func(i, j int) bool { return m.Handoffs[i] < m.Handoffs[j] })
	return m
}

// Rate is acquisitions per second.
func (r Result) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Acquisitions) / r.Elapsed.Seconds()
}

// RequestsPerAcquisition is Requests over Acquisitions.
func (r Result) RequestsPerAcquisition() float64 { return ratio(r.Requests, r.Acquisitions) }

// NotificationsPerRelease is Notifications over Releases.
func (r Result) NotificationsPerRelease() float64 { return ratio(r.Notifications, r.Releases) }

// Handoff returns the q quantile (0 < q ≤ 1) of the handoff latency, by
// the nearest-rank method; 0 without handoffs.
func (r Result) Handoff(q float64) time.Duration {
	if len(r.Handoffs) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(r.Handoffs)))) - 1
	return r.Handoffs[max(0, min(i, len(r.Handoffs)-1))]
}

func ratio(n int64, d int) float64 {
	if d == 0 {
		return math.NaN()
	}
	return float64(n) / float64(d)
}

// analyze turns every acquisition's times and the window's edges into a
// Result. Holds are ordered by when they were acquired; each one's handoff
// is from the latest release call of the holds before it (with mutual
// exclusion, the previous hold's).
func analyze(cfg Config, holds []Hold, open, shut snapshot) Result {
	r := Result{Config: cfg, Elapsed: time.Duration(shut.at-open.at) * time.Microsecond}
	sort.Slice(holds, func(i, j int) bool { return holds[i].Acquired < holds[j].Acquired })
	in := func(t int64) bool { return t >= open.at && t < shut.at }
	var lastRelease int64 // the latest release call among earlier holds
	for i, h := range holds {
		prevRelease := lastRelease
		lastRelease = max(lastRelease, h.Released)
		if in(h.Released) {
			r.Releases++
		}
		if !in(h.Acquired) {
			continue
		}
		r.Acquisitions++
		switch {
		case i == 0:
		case h.Acquired < prevRelease:
			r.Overlaps++
		default:
			r.Handoffs = append(r.Handoffs, time.Duration(h.Acquired-prevRelease)*time.Microsecond)
		}
	}
	sort.Slice(r.Handoffs, func(i, j int) bool { return r.Handoffs[i] < r.Handoffs[j] })
	r.Rates = []float64{r.Rate()}
	// Each mntr is a packet that its own reply counts: the closing one is
	// in the difference.
	r.Requests = shut.counters.packetsReceived - open.counters.packetsReceived - 1
	r.Notifications = shut.counters.notifications() - open.counters.notifications()
	if a, b := open.seen.received, shut.seen.received; a.InProcess {
		r.Received = Received{InProcess: true, Own: b.Own - a.Own, Wakes: b.Wakes - a.Wakes}
	}
	for i, o := range shut.seen.ops {
		if o.Calls == 0 {
			continue
		}
		b := open.seen.ops[i]
		r.Ops = append(r.Ops, OpStat{Name: o.Name, Calls: o.Calls - b.Calls, Failed: o.Failed - b.Failed, Time: o.Time - b.Time})
	}
	return r
}

// counters are the server's mntr figures the benchmark reads.
type counters struct {
	packetsReceived int64
	// watchers triggered, by the event that triggered them
	created, deleted, changed, children int64
}

func (c counters) notifications() int64 { return c.created + c.deleted + c.changed + c.children }

// mntrKeys maps mntr keys to the counter each fills.
var mntrKeys = map[string]func(*counters) *int64{
	"zk_packets_received":              func(c *counters) *int64 { return &c.packetsReceived },
	"zk_sum_node_created_watch_count":  func(c *counters) *int64 { return &c.created },
	"zk_sum_node_deleted_watch_count":  func(c *counters) *int64 { return &c.deleted },
	"zk_sum_node_changed_watch_count":  func(c *counters) *int64 { return &c.changed },
	"zk_sum_node_children_watch_count": func(c *counters) *int64 { return &c.children },
}

// parseMntr reads the counters from an mntr reply ("key<TAB>value" lines).
// A server without the watch-count summaries (before 3.6) is an error.
func parseMntr(reply string) (counters, error) {
	var c counters
	found := 0
	lines := bufio.NewScanner(strings.NewReader(reply))
	for lines.Scan() {
		key, value, ok := strings.Cut(lines.Text(), "\t")
		field := mntrKeys[key]
		if !ok || field == nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			return c, fmt.Errorf("lockbench: mntr %s: %w", key, err)
		}
		*field(&c) = n
		found++
	}
	if found != len(mntrKeys) {
		return c, fmt.Errorf("lockbench: mntr has %d of the %d counters needed (ZooKeeper 3.6 or later has them all)", found, len(mntrKeys))
	}
	return c, nil
}
