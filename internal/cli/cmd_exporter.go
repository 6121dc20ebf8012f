package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/zklocks/zklocks/internal/exporter"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// defaultExporterListen is the exporter's address: port 12181 ("1" and
// ZooKeeper's 2181) is outside Prometheus' standard exporter range
// 9100–9999, which its default port allocations list shows full, and
// free among the allocations listed above it.
const defaultExporterListen = ":12181"

func newExporterCommand(g *globalFlags, o *operateFlags) *cobra.Command {
	var listen string
	var maxLocks int
	var pathRes []string
	var longHeld time.Duration
	var hf historyFlags
	var contexts []string
	var allContexts bool
	cmd := &cobra.Command{
		Use:   "exporter [flags]",
		Short: "Serve Prometheus metrics of every lock under the roots, live",
		Long: `exporter watches every lock under the roots with the same watcher, bounds and watch
mode as the UI, and serves Prometheus metrics at /metrics and a liveness answer at
/healthz (200 while it runs; its body says the session's state). It reconnects and
re-syncs by itself, and never writes to ZooKeeper (--read-only is implied).

Per lock (labels path, recipe): zklocks_lock_holders, _waiters, _oldest_hold_seconds,
_anomalies{kind}, _grants_total, _releases_total, _fifo_breaks_total. Histograms
zklocks_wait_seconds (join to grant) and zklocks_hold_seconds (grant to release), by
recipe. The exporter's own: zklocks_up, zklocks_last_sync_age_seconds, zklocks_watches,
zklocks_discovery_complete, zklocks_fourletter_{bytes,seconds}_last_minute{member}.

At most --max-locks locks whose path matches a --path regex get series of their own,
first come first served, kept while the lock exists; the others are folded into the
zklocks_folded_* totals, and zklocks_folded_locks says how many. Alerting rules to load
into Prometheus are in contrib/prometheus/zklocks-rules.yml.

It keeps the history of what it sees, by default: one rolling recording per cluster in
--history (by default $XDG_STATE_HOME/zklocks/history/CLUSTER), kept for --history-max-age
(7d) within --history-max-size (2GB), the oldest parts deleted whole; each part opens with
a snapshot, so what is left replays on its own, and a restart continues the history. It
serves it at /history?since=1h (or ?from=02:40&to=03:10), a recording streamed from disk
that zklocks replay, show --at and postmortem read from the exporter's address.
It follows this host's audit log (--audit-log, or its default) as it runs, so that a
force-release made from the CLI or a UI on this host is told, and kept, as one.

--contexts NAME,... (or --all-contexts: every context of the config file) watches several
clusters at once, each with its own session, watcher and context settings (roots, auth,
TLS), so that one exporter serves a fleet: every series of theirs then has a cluster label,
the context's name (the process's own series do not). --max-locks bounds each cluster's
locks; /healthz says each cluster's state on a line of its own; each cluster keeps its own
history (in --history/CONTEXT when --history is given), served at /history?cluster=NAME.
The rules in contrib/prometheus work for both: one alert per cluster.

The default port, 12181, lies outside Prometheus' standard exporter range (9100-9999,
which is full) and is free among the other allocations its wiki lists.

` + exitCodesHelp(),
		Example: `  zklocks exporter --context prod
  zklocks exporter --listen 127.0.0.1:12181 --root /locks --max-locks 200 --path '^/locks/(orders|billing)/'
  zklocks exporter --history /var/lib/zklocks/history --history-max-age 14d --history-max-size 10GB
  zklocks exporter --all-contexts --listen :12181`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := exporter.Options{MaxLocks: maxLocks}
			if maxLocks == 0 {
				opts.MaxLocks = -1
			}
			for _, p := range pathRes {
				re, err := regexp.Compile(p)
				if err != nil {
					return &exitError{code: exitUsage, err: fmt.Errorf("--path %q: %w", p, err)}
				}
				opts.Paths = append(opts.Paths, re)
			}
			if allContexts || len(contexts) > 0 {
				return runFleetExporter(cmd, g, &hf, fleetExporterFlags{listen: listen, longHeld: longHeld, all: allContexts, names: contexts, audit: o.auditLog}, opts)
			}
			s, err := g.load()
			if err != nil {
				return err
			}
			s.readOnly = true
			if _, err := s.options(); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			ln, err := net.Listen("tcp", listen)
			if err != nil {
				return &exitError{code: exitFailed, err: fmt.Errorf("--listen: %w", err)}
			}
			cfg := s.watchConfig()
			cfg.Analysis = s.analysis(longHeld)
			stderr := cmd.ErrOrStderr()
			warn := func(err error) { fmt.Fprintf(stderr, "zklocks: warning: %s\n", model.Printable(err.Error())) }
			hist, err := hf.open(s, cmd.Root().Version, warn)
			if err != nil {
				ln.Close()
				return err
			}
			fmt.Fprintf(stderr, "zklocks: exporter serving http://%s/metrics for %s\n", ln.Addr(), s.server)
			if hist != nil {
				fmt.Fprintf(stderr, "zklocks: keeping the history in %s (max age %s, max size %s), served at http://%s/history\n",
					hist.Dir(), hf.maxAge.String(), hf.maxSize.String(), ln.Addr())
			}
			exp := exporter.New(opts)
			if o.auditLog != "" {
				fmt.Fprintf(stderr, "zklocks: telling the force-releases of this host's audit log %s as such\n", model.Printable(o.auditLog))
			}
			t := exporterTarget{s: s, cfg: cfg, exp: exp, hist: hist, audit: o.auditLog, retry: func(err error) {
				fmt.Fprintf(stderr, "zklocks: %v; trying again\n", err)
			}}
			return serveExporter(cmd.Context(), exp.Handler(exp.Registry()), []exporterTarget{t}, ln, warn)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&listen, "listen", defaultExporterListen, "address to serve /metrics and /healthz on")
	fl.IntVar(&maxLocks, "max-locks", exporter.DefaultMaxLocks, "most locks with series of their own; the rest are folded into totals (0: none)")
	fl.StringArrayVar(&pathRes, "path", nil, "regular expression (RE2) a lock's path must match for series of its own (repeatable; default every path)")
	fl.DurationVar(&longHeld, "long-held", 5*time.Minute, "holders older than this count as long-held anomalies (0 turns it off)")
	fl.StringSliceVar(&contexts, "contexts", nil, "watch these contexts of the config file at once, every series labelled with its\ncluster (comma-separated, repeatable)")
	fl.BoolVar(&allContexts, "all-contexts", false, "watch every context of the config file at once, as --contexts would")
	hf.register(fl, "history/CLUSTER")
	return cmd
}

// exporterTarget is one cluster an exporter watches: its settings and
// watcher configuration, the Exporter its events feed, its history (nil
// for none), and what to say when it cannot be reached.
type exporterTarget struct {
	name  string // the context, when the exporter watches several; "" for one
	s     settings
	cfg   zkwatch.WatchConfig
	exp   *exporter.Exporter
	hist  *recording.History
	retry func(error)
	// audit is this host's audit log, followed while the watcher runs
	// ("" follows none).
	audit string
}

// serveExporter serves metrics (the handler of /metrics and /healthz) on
// ln and feeds each target's Exporter from a watcher of its own until ctx
// ends (SIGINT, SIGTERM), then shuts the server down gracefully. A
// ZooKeeper that cannot be reached at first is dialled again every few
// seconds meanwhile, with its zklocks_up 0; once connected, the watcher
// reconnects and re-syncs by itself. The targets' histories record every
// event and are served at /history (?cluster=NAME among several); they
// are closed on the way out.
func serveExporter(ctx context.Context, metrics http.Handler, targets []exporterTarget, ln net.Listener, warn func(error)) error {
	mux := http.NewServeMux()
	mux.Handle("/", metrics)
	if h := historyHandler(targets, warn); h != nil {
		mux.Handle("/history", h)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		var wg sync.WaitGroup
		for _, t := range targets {
			wg.Go(func() { watchForExporter(ctx, t, warn) })
		}
		wg.Wait()
	}()
	var err error
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if serr := srv.Shutdown(shutdownCtx); serr != nil && err == nil {
		err = serr
	}
	<-watched
	for _, t := range targets {
		if t.hist == nil {
			continue
		}
		if herr := t.hist.Close(); herr != nil {
			warn(fmt.Errorf("history: %w", herr))
		}
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return &exitError{code: exitFailed, err: err}
	}
	return nil
}

// watchForExporter dials until it gets a session, then feeds the
// watcher's events to the history and exp until ctx ends. The history
// stops at its first failure (a full disk), said once; the metrics go on.
func watchForExporter(ctx context.Context, t exporterTarget, warn func(error)) {
	s, cfg, exp, hist, retry := t.s, t.cfg, t.exp, t.hist, t.retry
	var conn *zkwatch.Conn
	for conn == nil {
		var err error
		if conn, err = s.dial(ctx); err != nil {
			if ctx.Err() != nil {
				return
			}
			retry(err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(3 * time.Second):
			}
		}
	}
	defer conn.Close()
	failed := false
	for ev := range followingAudit(ctx, zkwatch.Watch(ctx, conn, cfg).Events(), t.audit, cfg.Roots, warn) {
		if hist != nil && !failed {
			if err := hist.Write(ev); err != nil {
				failed = true
				warn(fmt.Errorf("the history stopped recording: %w", err))
			}
		}
		exp.Apply(ev)
	}
}
