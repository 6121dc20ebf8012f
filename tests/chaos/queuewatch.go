package chaos

import "time"

// queueWatch tells a lock queue that stopped moving from one that moves
// slowly: a queue stalls when it holds contender nodes and no stay on its
// lock, ours or a real client's, has ended for after. A queue seen empty is
// moving by definition: its contenders are between rounds.
type queueWatch struct {
	after    time.Duration
	queued   func(lock string) int
	lastExit func(lock string) time.Time
	moved    map[string]time.Time
}

func newQueueWatch(after time.Duration, start time.Time, locks []string, queued func(string) int, lastExit func(string) time.Time) *queueWatch {
	w := &queueWatch{after: after, queued: queued, lastExit: lastExit, moved: map[string]time.Time{}}
	for _, l := range locks {
		w.moved[l] = start
	}
	return w
}

// check looks at every lock at now and returns those that have stalled.
func (w *queueWatch) check(now time.Time) []string {
	var stalled []string
	for lock, last := range w.moved {
		if exit := w.lastExit(lock); exit.After(last) {
			last = exit
		}
		if w.queued(lock) == 0 {
			last = now
		}
		w.moved[lock] = last
		if now.Sub(last) >= w.after {
			stalled = append(stalled, lock)
		}
	}
	return stalled
}
