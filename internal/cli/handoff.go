package cli

import "github.com/zklocks/zklocks/zkwatch"

// handoffBatch is how many events go across at once: one channel send
// per event would cost more than most events' reading.
const handoffBatch = 256

// handoff applies events on a goroutine of its own, each once and in the
// order sent. Reading a data directory (its records decoded, the tree
// rebuilt, each lock analysed) and telling the stories from what it
// reports then take a core each, where they took turns on one. An event
// is not touched by its sender once sent, so nothing is shared but the
// channel.
type handoff struct {
	batch []zkwatch.Event
	ch    chan []zkwatch.Event
	done  chan struct{}
}

// newHandoff starts the goroutine that applies what is sent; close must
// be called once sending is over.
func newHandoff(apply func(zkwatch.Event)) *handoff {
	h := &handoff{batch: make([]zkwatch.Event, 0, handoffBatch), ch: make(chan []zkwatch.Event, 8), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		for batch := range h.ch {
			for _, ev := range batch {
				apply(ev)
			}
		}
	}()
	return h
}

// send passes ev on, to be applied after every event sent before it.
func (h *handoff) send(ev zkwatch.Event) {
	h.batch = append(h.batch, ev)
	if len(h.batch) == handoffBatch {
		h.ch <- h.batch
		h.batch = make([]zkwatch.Event, 0, handoffBatch)
	}
}

// close returns once every event sent has been applied.
func (h *handoff) close() {
	if len(h.batch) > 0 {
		h.ch <- h.batch
		h.batch = nil
	}
	close(h.ch)
	<-h.done
}
