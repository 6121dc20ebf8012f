package session

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

// fakePeer answers one connection as a server would: a session for the
// connect request, then each request by opcode through answer, which
// returns the error code of the reply (and may send notifications first).
func fakePeer(t *testing.T, answer func(c net.Conn, h jute.RequestHeader, r *jute.Reader) int32) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		if _, err := jute.ReadFrame(c, jute.MaxFrame); err != nil {
			return
		}
		var w jute.Writer
		w.Int(0)
		w.Int(9000)
		w.Long(0x1234)
		w.Buffer(make([]byte, 16))
		w.Bool(false)
		jute.WriteFrame(c, w.Bytes())
		for {
			f, err := jute.ReadFrame(c, jute.MaxFrame)
			if err != nil {
				return
			}
			r := jute.NewReader(f)
			h := jute.RequestHeader{Xid: r.Int(), OpCode: r.Int()}
			code := answer(c, h, r)
			if code == 1 {
				return // hang up, as a 3.5 server does at an unknown request
			}
			var reply jute.Writer
			reply.Int(h.Xid)
			reply.Long(42)
			reply.Int(code)
			jute.WriteFrame(c, reply.Bytes())
		}
	}()
	return l.Addr().String()
}

func notify(c net.Conn, typ int32, path string) {
	var w jute.Writer
	w.Int(jute.XidNotification)
	w.Long(43)
	w.Int(0)
	w.Int(typ)
	w.Int(3)
	w.String(path)
	jute.WriteFrame(c, w.Bytes())
}

func TestRawSessionAddsWatchAndTakesNotifications(t *testing.T) {
	var got []string
	addr := fakePeer(t, func(c net.Conn, h jute.RequestHeader, r *jute.Reader) int32 {
		switch h.OpCode {
		case jute.OpAuth:
			if a := (jute.AuthPacket{Type: r.Int(), Scheme: r.String(), Auth: r.Buffer()}); a.Scheme != "digest" || string(a.Auth) != "u:p" || h.Xid != jute.XidAuth {
				t.Errorf("auth packet %+v xid %d", a, h.Xid)
			}
		case jute.OpAddWatch:
			if p, m := r.String(), r.Int(); p != "/app/locks" || m != jute.AddWatchPersistentRecursive {
				t.Errorf("addWatch %q mode %d", p, m)
			}
			notify(c, jute.EventNodeCreated, "/app/locks/a/lock-0000000001")
		case jute.OpRemoveWatches:
			if p, typ := r.String(), r.Int(); p != "/app/locks" || typ != jute.WatcherAny {
				t.Errorf("removeWatches %q type %d", p, typ)
			}
		}
		return jute.ErrOK
	})
	events := make(chan jute.WatcherEvent, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := Dial(ctx, net.DialTimeout, addr, 9*time.Second, Identity{}, []Credential{{Scheme: "digest", Secret: []byte("u:p")}}, func(ev jute.WatcherEvent) { events <- ev })
	if err != nil {
		t.Fatal(err)
	}
	if s.Identity().id != 0x1234 || s.timeout != 9*time.Second {
		t.Errorf("session %#x, timeout %s", s.Identity().id, s.timeout)
	}
	err = s.AddWatch(ctx, "/app/locks", jute.AddWatchPersistentRecursive)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-events:
		got = append(got, ev.Path)
	case <-ctx.Done():
		t.Fatal("no notification")
	}
	if len(got) != 1 || got[0] != "/app/locks/a/lock-0000000001" {
		t.Errorf("notifications %q", got)
	}
	if s.Identity().lastZxid != 43 {
		t.Errorf("last zxid %d, want the notification's 43", s.Identity().lastZxid)
	}
	err = s.Request(ctx, jute.OpRemoveWatches, "removeWatches", func(w *jute.Writer) {
		jute.RemoveWatchesRequest{Path: "/app/locks", Type: jute.WatcherAny}.Write(w)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CloseSession(ctx); err != nil {
		t.Errorf("closeSession: %v", err)
	}
}

func TestRawSessionRefusals(t *testing.T) {
	for name, code := range map[string]int32{"an error": jute.ErrUnimplemented, "a hang-up": 1} {
		t.Run(name, func(t *testing.T) {
			addr := fakePeer(t, func(net.Conn, jute.RequestHeader, *jute.Reader) int32 { return code })
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			s, err := Dial(ctx, net.DialTimeout, addr, 9*time.Second, Identity{}, nil, func(jute.WatcherEvent) {})
			if err != nil {
				t.Fatal(err)
			}
			err = s.AddWatch(ctx, "/", jute.AddWatchPersistentRecursive)
			var re *ReplyError
			switch {
			case code == 1 && !errors.Is(err, ErrClosed):
				t.Errorf("hang-up: %v, want ErrClosed", err)
			case code != 1 && (!errors.As(err, &re) || re.Code != code):
				t.Errorf("refusal: %v, want a ReplyError of %d", err, code)
			}
		})
	}
}

func TestStreamMeterNapsInAFloodOnly(t *testing.T) {
	t0 := time.Unix(1000, 0)
	var m streamMeter
	if m.streaming(t0) {
		t.Fatal("fast before any frame")
	}
	m.frames = 4 // a new lock's notifications, a millisecond apart
	if m.streaming(t0.Add(5 * time.Millisecond)) {
		t.Error("fast within the first window")
	}
	if m.streaming(t0.Add(10 * time.Second)) {
		t.Error("four frames over ten seconds taken for a stream")
	}
	m.frames = 500 // 5,000 a second
	if !m.streaming(t0.Add(10*time.Second + 100*time.Millisecond)) {
		t.Error("5,000 frames a second not taken for a stream")
	}
	m.frames = 100
	if !m.streaming(t0.Add(10*time.Second + 150*time.Millisecond)) {
		t.Error("the window under way ended before it was rawWindow old")
	}
	if m.streaming(t0.Add(12 * time.Second)) {
		t.Error("still fast after the stream stopped")
	}
}
