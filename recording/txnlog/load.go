package txnlog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// Errors of a read as a whole.
var (
	// ErrNoSnapshot: no snapshot was readable that the logs follow, and
	// the logs do not begin with the tree's first transaction.
	ErrNoSnapshot = errors.New("txnlog: no readable snapshot that the logs follow")
	// ErrTooManyEvents: the range holds more changes than Options.MaxEvents.
	ErrTooManyEvents = errors.New("txnlog: more changes in that range than are held at once")
	// ErrNoTxnInRange: no log holds a transaction in the range asked for.
	ErrNoTxnInRange = errors.New("txnlog: no log covers the range")
)

// Options say what to read.
type Options struct {
	// Range bounds the events sent (the leader's time of each
	// transaction); the tree before From is rebuilt from the newest
	// snapshot at or before it and the logs after.
	Range recording.Range
	// Lock, when not empty, is the one lock followed: the others are not
	// analysed, so a long log's read costs what that lock's story does.
	Lock string
	// Asked, when Lock is empty, are paths asked for by name. Each reads
	// as a lock where its node is there without children, as a watcher
	// asked to read that path reads it: a lock parent its contenders have
	// all left is no lock to the tree alone. Lock is asked for so too.
	Asked []string
	// Under, when not empty and Lock is, keeps the tree read to the
	// neighbourhood of the locks at or under it (as Lock's: see
	// nodeFilter), so that a read of every lock there holds no more of a
	// tree of a million plain znodes elsewhere than it needs.
	Under string
	// Analysis is the rule book and thresholds locks are analysed by.
	Analysis lockcore.Options
	// Warn hears what is skipped and worked around (a snapshot being
	// written, say) as it happens; Result says it too.
	Warn func(error)
	// MaxEvents, when not 0 and Emit is nil, is the most events held:
	// past it the read stops with ErrTooManyEvents, rather than hold a
	// log's millions of changes in memory.
	MaxEvents int
	// Emit, when set, hears each event as it is read, in order, and
	// Result's Recording holds none: a reader that takes them in as they
	// come (every lock's story, say) holds no more of a long log than
	// it keeps itself.
	Emit func(zkwatch.Event)
}

// Result is what a read gave.
type Result struct {
	// Recording holds the events, as a recording of the same stretch
	// would; its header's Server names the data directories.
	Recording *recording.Recording
	// Partial says why the events are not the whole of the range: a log
	// cut short or spoilt, zxids no log holds, a range that begins
	// before the history does. Empty when they are.
	Partial []string
	// Members says where the members' logs differ, or where one lacks
	// transactions the others hold.
	Members []string
	// Sent counts the events read: those sent to Options.Emit, or held
	// in Recording.
	Sent int
	// Snapshot is the snapshot read (empty: the history from its start)
	// and First and Last the zxids of the transactions read after it.
	Snapshot    string
	First, Last int64
}

// Load reads the data directories at paths (one per ensemble member, any
// number of them; each the directory holding version-2/, version-2/
// itself, or a copy) as one history, and returns it as events. A read of
// a long log stops, with ctx's error, soon after ctx is done.
func Load(ctx context.Context, paths []string, opt Options) (*Result, error) {
	dirs, err := openDirs(paths)
	if err != nil {
		return nil, err
	}
	warn := func(err error) {
		if opt.Warn != nil {
			opt.Warn(err)
		}
	}
	n := &notes{}
	keeps := nodeFilter(opt.Lock)
	if opt.Lock == "" && opt.Under != "/" {
		keeps = nodeFilter(opt.Under)
	}
	t, snap, err := startingTree(dirs, opt.Range.From, keeps, warn)
	if err != nil {
		return nil, err
	}
	// The first transaction read must follow the snapshot: logs purged
	// past it leave a gap.
	g := &merged{notes: n, last: t.zxid}
	for i, d := range dirs {
		g.members = append(g.members, newMember(memberName(paths[i]), d, t.zxid, n))
	}
	defer g.close()
	res := &Result{Snapshot: snap}
	var events []zkwatch.Event
	var started time.Time
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	tooMany := false
	k := newTracker(t, opt.Analysis, opt.Lock, opt.Asked, func(ev zkwatch.Event) {
		if res.Sent == 0 {
			started = ev.At
		}
		res.Sent++
		if opt.Emit != nil {
			opt.Emit(ev)
			return
		}
		if opt.MaxEvents > 0 && len(events) >= opt.MaxEvents {
			tooMany = true
			stop()
			return
		}
		events = append(events, ev)
	})
	r := &replay{t: t, k: k, n: n, rng: opt.Range, snap: snap, res: res}
	err = r.run(ctx, g)
	if tooMany {
		// Past the limit, whether or not the read heard its stop.
		return nil, fmt.Errorf("%w: %d, reached by %s", ErrTooManyEvents, opt.MaxEvents, r.t.at.UTC().Format(time.RFC3339))
	}
	if err != nil {
		return nil, err
	}
	g.flush()
	if err := r.end(paths); err != nil {
		return nil, err
	}
	res.Partial, res.Members = n.partial, n.members
	for _, p := range res.Partial {
		warn(errors.New(p))
	}
	if res.Sent == 0 {
		started = r.first
	}
	res.Recording = &recording.Recording{
		Headers: []recording.Header{{Format: recording.Version, Started: started, Part: 1,
			Server: "ZooKeeper data " + strings.Join(paths, ", "), By: "zklocks (ZooKeeper's transaction log)"}},
		Events: events,
	}
	return res, nil
}

// openDirs opens every member's data directory, failing at the first that
// is not one.
func openDirs(paths []string) ([]*Dir, error) {
	var dirs []*Dir
	for _, p := range paths {
		d, err := Open(p)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, d)
	}
	return dirs, nil
}
