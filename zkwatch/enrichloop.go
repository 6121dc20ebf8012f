package zkwatch

import (
	"context"
	"time"

	"github.com/zklocks/zklocks/lockcore"
)

// defaultEnrichEvery is how often the servers are asked about themselves
// when WatchConfig.EnrichEvery is zero.
const defaultEnrichEvery = 5 * time.Second

// enrichLoop asks every ensemble member for its four-letter words each
// period, reports what they said, and gives the watch table to the
// analysis when it changed. Refused words are asked once (the Enricher
// remembers), so a locked-down cluster costs one srvr per member per period.
func (w *Watcher) enrichLoop(ctx context.Context, every time.Duration) {
	e := NewEnricher(w.conn.target.Servers, every)
	e.TLS = w.conn.TLS()
	var last *lockcore.WatchTable
	first := true
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		pollCtx, cancel := context.WithTimeout(ctx, every)
		en := e.Poll(pollCtx).WithinChroot(w.conn.target.Chroot).Without(w.conn.SessionID())
		cancel()
		if ctx.Err() != nil {
			return
		}
		w.emit(ctx, Event{Kind: EventServers, At: en.At, Servers: en.Servers, Clients: en.Clients,
			ClientsComplete: en.Complete, Note: en.WatchesNote})
		table := en.Watches.AsOf(appliedByAll(en.Servers))
		if first || !table.Equal(last) {
			w.SetWatchTable(table)
			last, first = table, false
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// appliedByAll is the lowest zxid the servers reported (srvr, asked just
// before their watch tables): every server had applied it when it answered.
func appliedByAll(servers []ServerInfo) int64 {
	var low int64
	for i, s := range servers {
		if i == 0 || s.Status.Zxid < low {
			low = s.Status.Zxid
		}
	}
	return low
}
