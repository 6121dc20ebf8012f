package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch"
)

// maxBatch bounds how many waiting events one message carries, so that a
// burst (1,000 events a second) costs a few frames rather than one each.
const maxBatch = 256

// watchEventsMsg carries watcher events in arrival order; closed says the
// channel closed after them.
type watchEventsMsg struct {
	events []zkwatch.Event
	closed bool
}

// batchWindow is how long events that follow one another are gathered
// into one message: under a frame (zklocks draws at most 20 a second),
// so a change shows at most that much later, while a stream of them (a first sync of 10,000
// locks arriving a few at a time) costs one rebuild and one frame per
// window rather than per few locks, leaving the CPU to the watcher.
var batchWindow = 15 * time.Millisecond

// waitForEvents waits for one event, then takes whatever else comes within
// batchWindow, up to maxBatch. A nil channel yields nothing.
func waitForEvents(ch <-chan zkwatch.Event) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return watchEventsMsg{closed: true}
		}
		evs := []zkwatch.Event{ev}
		window := time.NewTimer(batchWindow)
		defer window.Stop()
		for len(evs) < maxBatch {
			// Events already waiting are taken before the window is
			// looked at: once it has passed, a select over both would
			// pick between them at random and cut a burst that had
			// arrived in time, whenever this goroutine ran late.
			select {
			case ev, ok := <-ch:
				if !ok {
					return watchEventsMsg{events: evs, closed: true}
				}
				evs = append(evs, ev)
				continue
			default:
			}
			select {
			case ev, ok := <-ch:
				if !ok {
					return watchEventsMsg{events: evs, closed: true}
				}
				evs = append(evs, ev)
			case <-window.C:
				return watchEventsMsg{events: evs}
			}
		}
		return watchEventsMsg{events: evs}
	}
}

// tickMsg comes every second, so that ages and "ago"s move on.
type tickMsg time.Time

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(t time.Time) tea.Msg { return tickMsg(t) })
}

// openLockMsg asks to show a lock's detail, with node (a participant's
// Path) selected when not empty.
type openLockMsg struct{ path, node string }

func openLock(path, node string) tea.Cmd {
	return func() tea.Msg { return openLockMsg{path: path, node: node} }
}

// openNodeMsg asks to show a participant's node.
type openNodeMsg struct{ participant lockcore.Participant }

func openNode(p lockcore.Participant) tea.Cmd {
	return func() tea.Msg { return openNodeMsg{participant: p} }
}

// flashMsg asks to show a message in the status line.
type flashMsg struct {
	text  string
	isErr bool
}

func flashErr(text string) tea.Cmd {
	return func() tea.Msg { return flashMsg{text: text, isErr: true} }
}

// nodeReadMsg is the answer to a node read, id telling which one.
type nodeReadMsg struct {
	id     int
	detail zkwatch.NodeDetail
	err    error
}

// readNode reads path with read, giving up after timeout.
func readNode(read NodeReader, id int, path string, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		d, err := read(ctx, path)
		return nodeReadMsg{id: id, detail: d, err: err}
	}
}
