package recording

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch"
)

// BenchmarkRecord measures what recording costs at 1,000 changes a second
// (make bench-record): a minute of churn over 100 Curator mutexes, each
// about six deep, owned by 60 sessions, one create or delete a
// millisecond, each reported as the lock's new analysis, as the watcher
// reports it. It prints the CPU time the recording took (process user and
// system time, the flusher included) as a share of one core over that
// minute, and the bytes the minute takes on disk, against the targets;
// and, for comparison, the size of each event's whole lock as gzip JSON.
func BenchmarkRecord(b *testing.B) {
	const rate, minute = 1000, 60 * 1000
	c := newChurn(42, 100, 6, 60, time.Second/rate)
	evs := make([]zkwatch.Event, 0, minute+100)
	for _, l := range c.locks {
		evs = append(evs, c.event(l))
	}
	for range minute {
		evs = append(evs, c.next())
	}
	dir := b.TempDir()
	var cpu time.Duration
	var size int64
	b.ResetTimer()
	for i := range b.N {
		path := filepath.Join(dir, fmt.Sprintf("bench-%d.zklocks", i))
		before := cpuTime()
		w, err := Create(path, Options{Header: Header{Server: "bench"}})
		if err != nil {
			b.Fatal(err)
		}
		for _, ev := range evs {
			if err := w.Write(ev); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - before
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	b.StopTimer()
	cpu /= time.Duration(b.N)
	size /= int64(b.N)
	share := float64(cpu) / float64(time.Minute) * 100
	b.ReportMetric(share, "%cpu")
	b.ReportMetric(float64(size)/1e6, "MB/min")
	whole := wholeLockSize(b, evs)
	verdict := func(ok bool) string {
		if ok {
			return "pass"
		}
		return "MISSED"
	}
	fmt.Printf("\nrecording %d changes/s for a minute (%d events over %d locks):\n", rate, len(evs), len(c.locks))
	fmt.Printf("  CPU: %v for the minute = %.2f%% of one core (target < 5%%): %s\n", cpu.Round(time.Millisecond), share, verdict(share < 5))
	fmt.Printf("  size: %.3f MB per minute, %.1f bytes per change (target < 1 MB/min): %s\n", float64(size)/1e6,
		float64(size)/minute, verdict(size < 1e6))
	fmt.Printf("  for comparison, each whole lock as gzip JSON: %.2f MB per minute\n", float64(whole)/1e6)
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// wholeLockSize is what gzip JSON lines of every event's whole lock take.
func wholeLockSize(b *testing.B, evs []zkwatch.Event) int64 {
	cw := &countWriter{w: io.Discard}
	zw, _ := gzip.NewWriterLevel(cw, gzip.BestSpeed)
	enc := json.NewEncoder(zw)
	for _, ev := range evs {
		if err := enc.Encode(ev.Lock); err != nil {
			b.Fatal(err)
		}
	}
	zw.Close()
	return cw.n
}
