package zkwatch

import "context"

// toldBuffer is how many events Tell holds before the watcher sends them;
// an operator acts a few times a minute at most.
const toldBuffer = 64

// Tell passes ev on among the watcher's events (EventAction: what the
// operator did), so that whoever reads them, and a recording of them, has
// it in order with what the watcher saw. It never blocks: it is called
// from the UI's commands. An event told after the watcher has ended, or
// while toldBuffer events wait to be sent, is dropped; so is every event
// told to a watcher with Once.
func (w *Watcher) Tell(ev Event) {
	select {
	case w.told <- ev:
	default:
	}
}

// passOnTold sends what Tell was given until ctx ends.
func (w *Watcher) passOnTold(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-w.told:
			w.emit(ctx, ev)
		}
	}
}
