package model

import (
	"fmt"
	"testing"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// BenchmarkSnapshot is what zklocks serve's hub pays for each picture it
// publishes (at most 20 a second, whatever the number of sessions), on
// 10,000 locks and a full event log.
func BenchmarkSnapshot(b *testing.B) {
	s := NewState()
	for i := range 10_000 {
		p := fmt.Sprintf("/locks/l-%05d", i)
		s.Apply(zkwatch.Event{Kind: zkwatch.EventLock, Path: p, Lock: &lockcore.Lock{Path: p}})
	}
	for len(s.History) < maxHistory {
		s.History = append(s.History, HistoryEntry{Lock: "/locks/l-00001", Change: Granted})
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Snapshot()
	}
}
