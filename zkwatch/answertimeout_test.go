package zkwatch

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestAnswerTimeoutEndsAfterSilence(t *testing.T) {
	ctx, cancel := WithAnswerTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	never := make(chan struct{})
	defer close(never)
	_, err := call(ctx, func() (int, error) { <-never; return 0, nil })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a request never answered: %v, want it to end with context.DeadlineExceeded", err)
	}
}

func TestAnswerTimeoutLastsWhileAnswersCome(t *testing.T) {
	const quiet = time.Second
	ctx, cancel := WithAnswerTimeout(context.Background(), quiet)
	defer cancel()
	start := time.Now()
	// Answers 50 ms apart, for three times the silence the context allows.
	for time.Since(start) < 3*quiet {
		if _, err := call(ctx, func() (int, error) { time.Sleep(50 * time.Millisecond); return 0, nil }); err != nil {
			t.Fatalf("after %v of answers 50 ms apart: %v", time.Since(start).Round(time.Millisecond), err)
		}
	}
}

func TestAnswerTimeoutKeepsTheParentsEnd(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.Background())
	ctx, cancel := WithAnswerTimeout(parent, time.Hour)
	defer cancel()
	cancelParent()
	never := make(chan struct{})
	defer close(never)
	if _, err := call(ctx, func() (int, error) { <-never; return 0, nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("the parent canceled: %v, want context.Canceled", err)
	}
}
