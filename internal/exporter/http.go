package exporter

import (
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/zkwatch"
)

// Registry returns a registry of e and the Go runtime's and the process's
// standard collectors.
func (e *Exporter) Registry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(e, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// Handler serves /metrics from reg and /healthz. /healthz answers 200
// while the exporter runs, whatever ZooKeeper's state (a liveness probe
// that failed when ZooKeeper is away would only restart an exporter that
// reconnects by itself); its body says the session's state, and
// zklocks_up says it to Prometheus.
func (e *Exporter) Handler(reg *prometheus.Registry) http.Handler {
	return handler(reg, e.health)
}

// handler serves /metrics from reg, /healthz with health's answer, and a
// page linking them.
func handler(reg *prometheus.Registry, health func() string) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, health())
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintln(w, `<html><head><title>zklocks exporter</title></head><body><h1>zklocks exporter</h1><p><a href="/metrics">metrics</a> · <a href="/healthz">health</a></p></body></html>`)
	})
	return mux
}

// health is /healthz's sentence. A session that is not connected says
// for how long first: the last sync's age alone reads as a healthy
// exporter that synced a while ago.
func (e *Exporter) health() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.state
	now := e.now()
	phase := s.Conn.Phase.String()
	if s.Conn.Phase != zkwatch.Connected && !s.Conn.Since.IsZero() {
		phase += fmt.Sprintf(" for %s (since %s)", ago(now, s.Conn.Since), s.Conn.Since.Format(time.TimeOnly))
	}
	switch {
	case s.LastSync.IsZero():
		return fmt.Sprintf("ok: %s, no sync yet", phase)
	case s.Conn.Phase != zkwatch.Connected:
		return fmt.Sprintf("ok: %s; the metrics are as of the last sync, %s ago", phase, ago(now, s.LastSync))
	case e.resyncing():
		return fmt.Sprintf("ok: %s, re-syncing; last sync %s ago", phase, ago(now, s.LastSync))
	}
	return fmt.Sprintf("ok: %s, %d locks, last sync %s ago", phase, len(s.Locks), ago(now, s.LastSync))
}

// ago is the time from t to now, to the second.
func ago(now, t time.Time) string { return model.Duration(max(now.Sub(t), 0).Truncate(time.Second)) }
