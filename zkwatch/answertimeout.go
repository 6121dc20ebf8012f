package zkwatch

import (
	"context"
	"fmt"
	"time"
)

// answerClock ends a context once no request made under it has been
// answered for d.
type answerClock struct {
	d     time.Duration
	timer *time.Timer
}

type answerClockKey struct{}

// WithAnswerTimeout returns a context for reads through a Conn that ends
// when the server has left every request made under it unanswered for d:
// a read of a lock with 100,000 contenders goes on for as long as answers
// keep coming, however slow the machine makes them, and ends once the
// server has gone quiet for d. The context's cause is then an error that
// wraps context.DeadlineExceeded. cancel releases it, as a context's
// cancel does.
func WithAnswerTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	quiet := fmt.Errorf("no answer for %v: %w", d, context.DeadlineExceeded)
	clock := &answerClock{d: d, timer: time.AfterFunc(d, func() { cancel(quiet) })}
	return context.WithValue(ctx, answerClockKey{}, clock), func() {
		clock.timer.Stop()
		cancel(context.Canceled)
	}
}

// answered restarts the wait of ctx's answer clock, if it has one.
func answered(ctx context.Context) {
	if clock, ok := ctx.Value(answerClockKey{}).(*answerClock); ok {
		clock.timer.Reset(clock.d)
	}
}
