package exporter

import (
	"bufio"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// bulkyHistory is a history whose range takes far more bytes than the
// (shrunk) socket buffers between a server and a reader hold: its
// contenders' data is random, which does not compress.
func bulkyHistory(t *testing.T) *recording.History {
	t.Helper()
	h, err := recording.OpenHistory(t.TempDir(), recording.HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	now := time.Now().Add(-time.Minute)
	h.Write(zkwatch.Event{Kind: zkwatch.EventConn, At: now, Conn: zkwatch.ConnState{Phase: zkwatch.Connected, Since: now}})
	// 150 readings of a kilobyte of random data each: many times what
	// the small buffers of the stalled reader's connection hold, few
	// enough that the stream, once read, crosses those buffers quickly.
	for i := range 150 {
		l := mutex(fmt.Sprintf("/locks/l%03d", i%50), 0, 1, 2)
		l.Participants[1].Data = make([]byte, 1<<10)
		rand.Read(l.Participants[1].Data)
		l.ReadAt = now.Add(time.Duration(i) * time.Millisecond)
		if err := h.Write(zkwatch.Event{Kind: zkwatch.EventLock, At: l.ReadAt, Path: l.Path, Lock: l}); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// A /history reader that stalls holds up neither /metrics nor the
// recording: the stream waits in its own goroutine.
func TestHistoryStalledReaderDoesNotDelayMetrics(t *testing.T) {
	h := bulkyHistory(t)
	e, _ := feed(t, Options{}, mutex("/locks/orders", time.Second, 1, 2))
	streaming, streamed := make(chan struct{}), make(chan struct{})
	hist := HistoryHandler(h, time.Now, func(err error) {})
	mux := http.NewServeMux()
	mux.Handle("/", e.Handler(e.Registry()))
	mux.Handle("/history", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(streaming)
		defer close(streamed)
		hist.ServeHTTP(w, r)
	}))
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	defer srv.Close()

	// The stalled reader: asks for the history and reads nothing.
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.(*net.TCPConn).SetReadBuffer(4 << 10)
	fmt.Fprintf(conn, "GET /history?since=1h HTTP/1.1\r\nHost: x\r\n\r\n")
	<-streaming

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for range 3 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/metrics", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("/metrics while a /history reader stalls: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), `zklocks_lock_holders{path="/locks/orders"`) {
			t.Fatalf("/metrics answered without the lock:\n%.500s", body)
		}
		// The recording goes on too.
		now := time.Now()
		if err := h.Write(zkwatch.Event{Kind: zkwatch.EventServers, At: now}); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-streamed:
		t.Fatal("the history stream ended although its reader read nothing: the test proves nothing")
	default:
	}
	// Once the reader reads, the stream goes on to its end.
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/gzip" {
		t.Fatalf("status %s, type %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	locks := 0
	if _, err := recording.Read(resp.Body, func(ev zkwatch.Event, _ bool) {
		if ev.Kind == zkwatch.EventLock {
			locks++
		}
	}); err != nil {
		t.Fatal(err)
	}
	if locks != 150 {
		t.Errorf("the stream held %d lock readings, want 150", locks)
	}
}

// smallBuffers gives the server's connections a small send buffer, so
// that a reader that reads nothing stalls the writer after a few
// kilobytes.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetWriteBuffer(4 << 10)
	}
	return c, err
}

// The history is read-only, and a range it cannot read is refused.
func TestHistoryHandlerRefuses(t *testing.T) {
	h, err := recording.OpenHistory(t.TempDir(), recording.HistoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(HistoryHandler(h, time.Now, func(error) {}))
	defer srv.Close()
	for _, tc := range []struct {
		method, query string
		code          int
	}{
		{http.MethodPost, "?since=1h", http.StatusMethodNotAllowed},
		{http.MethodDelete, "", http.StatusMethodNotAllowed},
		{http.MethodGet, "?since=yesterday", http.StatusBadRequest},
		{http.MethodGet, "?since=1h&from=02:00", http.StatusBadRequest},
		{http.MethodGet, "?since=1h", http.StatusOK},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+"/history"+tc.query, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("%s %s: %s, want %d", tc.method, tc.query, resp.Status, tc.code)
		}
	}
}
