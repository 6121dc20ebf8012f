package words

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/zklocks/zklocks/internal/testkit/loopback"
)

// replyWith answers the four bytes it reads with reply and closes.
func replyWith(reply string) func(net.Conn) {
	return func(c net.Conn) {
		buf := make([]byte, 4)
		if _, err := io.ReadFull(c, buf); err != nil {
			return
		}
		_, _ = io.WriteString(c, reply)
	}
}

func TestFourLetterReplies(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
		want        error // nil: success with the reply
		wantErr     bool
	}{
		{"answer", "imok", nil, false},
		{"refused", "wchc is not executed because it is not in the whitelist.\n", ErrFourLetterRefused, true},
		{"not serving", "This ZooKeeper instance is not currently serving requests\n", ErrNotServing, true},
		{"empty", "", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := loopback.Serve(t, replyWith(tc.reply))
			got, err := FourLetter(context.Background(), addr, "wchc")
			if !tc.wantErr {
				if err != nil || got != tc.reply {
					t.Fatalf("FourLetter = %q, %v; want %q", got, err, tc.reply)
				}
				return
			}
			if err == nil {
				t.Fatalf("FourLetter = %q, want an error", got)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

func TestFourLetterSendsWord(t *testing.T) {
	got := make(chan string, 1)
	addr := loopback.Serve(t, func(c net.Conn) {
		b, _ := io.ReadAll(io.LimitReader(c, 4))
		got <- string(b)
		_, _ = io.WriteString(c, "ok\n")
	})
	if _, err := FourLetter(context.Background(), addr, "cons"); err != nil {
		t.Fatal(err)
	}
	if w := <-got; w != "cons" {
		t.Fatalf("server read %q, want cons", w)
	}
	if _, err := FourLetter(context.Background(), addr, "status"); err == nil {
		t.Fatal("a six-letter word was sent")
	}
}

func TestFourLetterHonoursContext(t *testing.T) {
	hang := func(c net.Conn) { _, _ = io.Copy(io.Discard, c) }

	t.Run("deadline", func(t *testing.T) {
		addr := loopback.Serve(t, hang)
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := FourLetter(ctx, addr, "srvr")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("took %v", d)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		addr := loopback.Serve(t, hang)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		_, err := FourLetter(ctx, addr, "srvr")
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want Canceled", err)
		}
	})
}
