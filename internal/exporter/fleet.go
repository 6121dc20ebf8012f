package exporter

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// ClusterLabel is the label every series of a Fleet's clusters carries:
// the context's name.
const ClusterLabel = "cluster"

// Fleet is one Exporter per cluster, served together: one exporter
// process for several contexts, each cluster's series told apart by
// their cluster label. The single-cluster exporter's series have no such
// label, so rules written for it match a Fleet's series too, one alert
// per cluster.
type Fleet struct {
	names []string
	exps  map[string]*Exporter
}

// NewFleet returns a Fleet of the clusters names, each its own Exporter
// made with opts (so --max-locks bounds each cluster's locks).
func NewFleet(names []string, opts Options) *Fleet {
	f := &Fleet{names: names, exps: map[string]*Exporter{}}
	for _, n := range names {
		f.exps[n] = New(opts)
	}
	return f
}

// Exporter is the named cluster's Exporter, for its watcher's events.
func (f *Fleet) Exporter(name string) *Exporter { return f.exps[name] }

// Registry returns a registry of every cluster's Exporter, each series
// with its cluster label, and the process's and the Go runtime's
// collectors once, without.
func (f *Fleet) Registry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, n := range f.names {
		prometheus.WrapRegistererWith(prometheus.Labels{ClusterLabel: n}, reg).MustRegister(f.exps[n])
	}
	return reg
}

// Handler serves /metrics from reg and /healthz, whose body has one line
// per cluster, "NAME: " and what the single-cluster exporter's says.
func (f *Fleet) Handler(reg *prometheus.Registry) http.Handler {
	return handler(reg, f.health)
}

func (f *Fleet) health() string {
	lines := make([]string, len(f.names))
	for i, n := range f.names {
		lines[i] = fmt.Sprintf("%s: %s", n, f.exps[n].health())
	}
	return strings.Join(lines, "\n")
}
