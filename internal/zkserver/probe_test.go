package zkserver

import (
	"context"
	"io"
	"net"
	"testing"
	"time"
)

// slowMember answers srvr as a standalone server does, after delay.
func slowMember(t *testing.T, delay time.Duration) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 4)
				if _, err := io.ReadFull(c, buf); err != nil {
					return
				}
				time.Sleep(delay)
				io.WriteString(c, "Zookeeper version: 3.9\nMode: standalone\nNode count: 5\n")
			}()
		}
	}()
	return ln.Addr().String()
}

// A member that answers slower than a probe waits is heard once the
// Prober's asks have grown longer than its answer; asks that each give up
// at the same time never hear it.
func TestProberWaitsLongerForASlowMember(t *testing.T) {
	addr := slowMember(t, 300*time.Millisecond)
	ctx := context.Background()
	if m, slow := ModeWithin(ctx, addr, 100*time.Millisecond); m != "" || !slow {
		t.Fatalf("an ask shorter than the answer: mode %q, slow %v; want none, slow", m, slow)
	}
	p := Prober{within: 100 * time.Millisecond}
	var modes []string
	for range 3 {
		modes = append(modes, p.Mode(ctx, addr))
	}
	if modes[0] != "" || modes[2] != "standalone" {
		t.Fatalf("modes %q as the Prober waited longer, want none first and standalone by the third ask", modes)
	}
	if p.within != 400*time.Millisecond {
		t.Errorf("the Prober waits %v after two slow asks from 100ms, want 400ms", p.within)
	}
}

// A member that is not there is not slow: its refusal comes at once.
func TestModeWithinRefusedIsNotSlow(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if m, slow := ModeWithin(context.Background(), addr, time.Second); m != "" || slow {
		t.Errorf("a closed port: mode %q, slow %v", m, slow)
	}
}
