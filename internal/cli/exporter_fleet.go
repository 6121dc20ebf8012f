package cli

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/internal/exporter"
	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/model"
)

// fleetExporterFlags are the exporter's flags that concern several
// contexts at once.
type fleetExporterFlags struct {
	listen   string
	longHeld time.Duration
	all      bool     // --all-contexts
	names    []string // --contexts
	audit    string   // this host's audit log, followed
}

// runFleetExporter is exporter --contexts or --all-contexts: one watcher
// per context, each on its own session and settings, their metrics served
// together with a cluster label.
func runFleetExporter(cmd *cobra.Command, g *globalFlags, hf *historyFlags, f fleetExporterFlags, opts exporter.Options) error {
	names, err := exporterContexts(g, f)
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	warn := func(err error) { fmt.Fprintf(stderr, "zklocks: warning: %s\n", model.Printable(err.Error())) }
	fl := exporter.NewFleet(names, opts)
	var targets []exporterTarget
	closeAll := func() {
		for _, t := range targets {
			if t.hist != nil {
				_ = t.hist.Close()
			}
		}
	}
	dirs := map[string]string{}
	for _, name := range names {
		s, err := g.loadContext(name)
		if err != nil {
			closeAll()
			return err
		}
		s.readOnly = true
		if _, err := s.options(); err != nil {
			closeAll()
			return &exitError{code: exitUsage, err: fmt.Errorf("context %s: %w", name, err)}
		}
		cfg := s.watchConfig()
		cfg.Analysis = lockcore.Options{LongHeld: f.longHeld}
		own := *hf
		if own.dir != "" && own.dir != "off" {
			own.dir = filepath.Join(own.dir, name)
		}
		hist, err := own.open(s, cmd.Root().Version, warn)
		if err != nil {
			closeAll()
			return err
		}
		if hist != nil {
			if other, ok := dirs[hist.Dir()]; ok {
				_ = hist.Close()
				closeAll()
				return &exitError{code: exitUsage, err: fmt.Errorf("contexts %s and %s watch the same cluster and roots: their histories would share %s", other, name, hist.Dir())}
			}
			dirs[hist.Dir()] = name
			fmt.Fprintf(stderr, "zklocks: context %s: keeping the history in %s (max age %s, max size %s)\n",
				name, model.Printable(hist.Dir()), own.maxAge.String(), own.maxSize.String())
		}
		targets = append(targets, exporterTarget{name: name, s: s, cfg: cfg, exp: fl.Exporter(name), hist: hist, audit: f.audit, retry: func(err error) {
			fmt.Fprintf(stderr, "zklocks: context %s: %v; trying again\n", name, err)
		}})
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		closeAll()
		return &exitError{code: exitFailed, err: fmt.Errorf("--listen: %w", err)}
	}
	fmt.Fprintf(stderr, "zklocks: exporter serving http://%s/metrics for contexts %s (label cluster)\n", ln.Addr(), strings.Join(names, ", "))
	if f.audit != "" {
		fmt.Fprintf(stderr, "zklocks: telling the force-releases of this host's audit log %s as such\n", model.Printable(f.audit))
	}
	return serveExporter(cmd.Context(), fl.Handler(fl.Registry()), targets, ln, warn)
}

// exporterContexts are the contexts --all-contexts or --contexts name,
// checked against the config file.
func exporterContexts(g *globalFlags, f fleetExporterFlags) ([]string, error) {
	if f.all && len(f.names) > 0 {
		return nil, &exitError{code: exitUsage, err: errors.New("--all-contexts and --contexts exclude each other")}
	}
	option := "--all-contexts"
	if !f.all {
		option = "--contexts"
	}
	all, err := fleetContexts(g, option)
	if err != nil {
		return nil, err
	}
	if f.all {
		return all, nil
	}
	var names []string
	for _, n := range f.names {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
			continue
		case !slices.Contains(all, n):
			return nil, &exitError{code: exitUsage, err: fmt.Errorf("--contexts: no context %q in the config file (there are: %s)", n, strings.Join(all, ", "))}
		case !slices.Contains(names, n):
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, &exitError{code: exitUsage, err: errors.New("--contexts names no context")}
	}
	return names, nil
}

// historyHandler serves the targets' histories at /history: the one
// target's, or among several the one ?cluster=NAME names. Nil when none
// keeps a history.
func historyHandler(targets []exporterTarget, warn func(error)) http.Handler {
	byName := map[string]http.Handler{}
	var names []string
	for _, t := range targets {
		if t.hist != nil {
			byName[t.name] = exporter.HistoryHandler(t.hist, time.Now, warn)
			names = append(names, t.name)
		}
	}
	switch {
	case len(byName) == 0:
		return nil
	case len(targets) == 1:
		return byName[targets[0].name]
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, ok := byName[r.URL.Query().Get("cluster")]
		if !ok {
			http.Error(w, "this exporter keeps one history per cluster: ask for /history?cluster=NAME&since=1h, NAME one of "+
				strings.Join(names, ", "), http.StatusBadRequest)
			return
		}
		h.ServeHTTP(w, r)
	})
}
