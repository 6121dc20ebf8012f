package model

import (
	"context"
	"slices"
	"sync"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// actionBuffer is how many actions Tell holds before they are passed on;
// an operator acts a few times a minute at most.
const actionBuffer = 64

// mergedBuffer is the merged stream's buffer, the watcher's own.
const mergedBuffer = 256

// ActionFeed carries the operator's actions into a watcher's events: the
// watcher says what the cluster did, the program adds what its operator
// did (zkwatch.EventAction), so that whatever reads the stream (the
// state, a recording of it) has both in the order they happened.
type ActionFeed struct {
	told chan lockcore.Action

	mu sync.Mutex
	// recent are the audit lines of the last actions passed on, oldest
	// first, so that one read back from the audit log is not told twice.
	recent []string
}

// recentActions is how many of the last actions TellAudited recognises.
const recentActions = 256

// NewActionFeed returns a feed to Merge into one stream of events.
func NewActionFeed() *ActionFeed {
	return &ActionFeed{told: make(chan lockcore.Action, actionBuffer)}
}

// Tell passes a on (Actions.Told). It never blocks: it is called from the
// UI's commands. An action told while actionBuffer others wait, or after
// the merged stream ended, is dropped.
func (f *ActionFeed) Tell(a lockcore.Action) {
	if a.Kind != lockcore.ActionRelease {
		// Our own releases are never audited, so never read back.
		f.note(AuditLine(a))
	}
	select {
	case f.told <- a:
	default:
	}
}

// TellAudited passes on an action read from an audit log as it was
// appended (another zklocks on this host, or this one's own), unless it
// is one of the last told: this zklocks' own actions are told by Tell as
// they are made, and written to the log too.
func (f *ActionFeed) TellAudited(a lockcore.Action) {
	line := AuditLine(a)
	f.mu.Lock()
	told := slices.Contains(f.recent, line)
	f.mu.Unlock()
	if !told {
		f.Tell(a)
	}
}

func (f *ActionFeed) note(line string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recent = append(f.recent, line)
	if len(f.recent) > recentActions {
		f.recent = slices.Clone(f.recent[len(f.recent)-recentActions:])
	}
}

// Merge returns events with every action told added as an EventAction
// (its Path the node acted on), until events closes, and then closes. Once
// ctx ends it passes nothing more on but still reads events to their end,
// so that the watcher, which closes events as its own context ends, is
// never left waiting. Merge a feed into one stream only.
func (f *ActionFeed) Merge(ctx context.Context, events <-chan zkwatch.Event) <-chan zkwatch.Event {
	out := make(chan zkwatch.Event, mergedBuffer)
	go func() {
		defer close(out)
		send := func(ev zkwatch.Event) bool {
			select {
			case out <- ev:
				return true
			case <-ctx.Done():
				return false
			}
		}
		for {
			var ev zkwatch.Event
			select {
			case e, ok := <-events:
				if !ok {
					return
				}
				ev = e
			case a := <-f.told:
				ev = ActionEvent(a)
			}
			if !send(ev) {
				for range events {
				}
				return
			}
		}
	}()
	return out
}

// ActionEvent is a as the stream carries it.
func ActionEvent(a lockcore.Action) zkwatch.Event {
	return zkwatch.Event{Kind: zkwatch.EventAction, At: a.At, Path: a.Node, Action: &a}
}
