package txnlog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// replay feeds the merged logs' transactions to the tree in order and
// brings the tracker live where the range begins: what comes before only
// builds the tree, so the events start with the picture as it stood then.
type replay struct {
	t    *tree
	k    *tracker
	n    *notes
	rng  recording.Range
	snap string
	res  *Result
	// first is the time of the first transaction read; zero until one is.
	first time.Time
}

// goLive reports what a watcher connecting at at would: connected, every
// lock as the tree stands, synced. From then on each transaction's
// changes are events.
func (r *replay) goLive(at time.Time) {
	r.k.emit(zkwatch.Event{Kind: zkwatch.EventConn, At: at, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Since: at}})
	r.k.discover(at)
	// The tree read is the whole tree: every lock in it is known, as a
	// watcher's is only once a walk has ended.
	r.k.emit(zkwatch.Event{Kind: zkwatch.EventSynced, At: at, Discovery: zkwatch.Discovery{Complete: true, WalkedAt: at}})
	r.k.live = true
}

// startAt is when the events begin: the range's start, or the first
// transaction read when the history read begins after it.
func (r *replay) startAt() time.Time {
	if !r.rng.From.IsZero() && r.rng.From.After(r.first) {
		return r.rng.From
	}
	return r.first
}

// run reads g's transactions up to the range's end (or the logs').
func (r *replay) run(ctx context.Context, g *merged) error {
	from, to := r.rng.From, r.rng.To
	for read := 0; ; read++ {
		// A full log holds millions of transactions: an interrupt is
		// heard between them, not only once they are all read.
		if read%4096 == 0 && ctx.Err() != nil {
			return fmt.Errorf("transaction log read stopped after %d transactions: %w", read, ctx.Err())
		}
		rec, ok := g.next()
		if !ok {
			return nil
		}
		at := time.UnixMilli(rec.Header.Time)
		if !to.IsZero() && at.After(to) {
			if !r.k.live && !r.first.IsZero() {
				// Nothing happened between the range's start and its end.
				r.goLive(r.startAt())
			}
			return nil
		}
		if r.first.IsZero() {
			r.firstRead(rec.Header.Zxid, at)
		}
		if !r.k.live && (from.IsZero() || !at.Before(from)) {
			r.goLive(r.startAt())
		}
		changes := r.t.apply(rec)
		r.res.Last = rec.Header.Zxid
		if r.k.live && len(changes) > 0 {
			r.k.touched(changes, at)
		}
	}
}

// firstRead notes the first transaction read, and says the history is
// partial when it begins after the range does: the snapshot read is the
// oldest there is, and what came between is lost.
func (r *replay) firstRead(zxid int64, at time.Time) {
	r.first = at
	r.res.First = zxid
	from := r.rng.From
	if !from.IsZero() && at.After(from) && r.snap != "" {
		r.n.addPartial("the range begins at %s, before the history read does (its first transaction after %s is at %s)",
			from.Format(time.RFC3339), r.snap, at.Format(time.RFC3339Nano))
	}
}

// end goes live at the logs' end when they end before the range begins:
// what they say is then how things stood from that time on. It fails when
// no transaction was read at all.
func (r *replay) end(paths []string) error {
	if r.k.live {
		return nil
	}
	if r.first.IsZero() {
		return fmt.Errorf("%w: the logs hold no transaction after %s up to the range's end (%s)", ErrNoTxnInRange, snapOrStart(r.snap), strings.Join(paths, ", "))
	}
	r.n.addPartial("the logs end at %s (zxid %#x), before the range begins: what they say is how things stood from then on, as far as they go",
		r.t.at.Format(time.RFC3339Nano), r.t.zxid)
	r.goLive(r.startAt())
	return nil
}

func snapOrStart(snap string) string {
	if snap == "" {
		return "the history's start"
	}
	return snap
}
