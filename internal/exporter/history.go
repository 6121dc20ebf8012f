package exporter

import (
	"fmt"
	"net/http"
	"time"

	"github.com/zklocks/zklocks/recording"
)

// HistoryStreams is how many /history answers may stream at once: each
// decompresses and compresses again a stretch of the history, and the
// exporter's metrics come first.
const HistoryStreams = 4

// historyStall is how long a /history reader may take to accept the next
// piece of the stream before the exporter gives up on it.
const historyStall = time.Minute

// HistoryHandler serves h over HTTP, read-only: GET /history?since=1h, or
// ?from=…&to=… (RFC 3339 times, or as recording.ParseRange reads them, by
// the exporter's clock and zone), answers a recording of that range as a
// stream (application/gzip), which zklocks replay, show --at and
// postmortem read. It reads the parts on disk in the request's own
// goroutine and holds no lock of the exporter's while it writes, so a
// slow reader delays neither the metrics nor the recording; one stalled
// for historyStall is cut off. warn hears of spoilt parts.
func HistoryHandler(h *recording.History, now func() time.Time, warn func(error)) http.Handler {
	slots := make(chan struct{}, HistoryStreams)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "the history is read-only: GET /history?since=1h", http.StatusMethodNotAllowed)
			return
		}
		q := r.URL.Query()
		rng, err := recording.ParseRange(q.Get("since"), q.Get("from"), q.Get("to"), now(), time.Local)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
		default:
			http.Error(w, fmt.Sprintf("%d history streams already running; try again", HistoryStreams), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/gzip")
		w.Header().Set("Content-Disposition", `attachment; filename="history.zklocks"`)
		if r.Method == http.MethodHead {
			return
		}
		rc := http.NewResponseController(w)
		rc.SetWriteDeadline(time.Now().Add(historyStall))
		flush := func() {
			rc.Flush()
			rc.SetWriteDeadline(time.Now().Add(historyStall))
		}
		if err := h.WriteRange(w, rng, warn, flush); err != nil {
			// The status line has gone: the reader sees a stream that
			// ends in the middle, which it reports.
			warn(fmt.Errorf("history stream to %s: %w", r.RemoteAddr, err))
		}
	})
}
