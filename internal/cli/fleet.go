package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/model/check"
	"github.com/zklocks/zklocks/model/fleet"
)

// Every context at once: ls and check --all-contexts, and the UI's fleet
// screen, read each context of the config file with one light poll (the
// probe below) rather than a watcher.

// fleetParallel is how many contexts are polled at once by ls and check
// --all-contexts.
const fleetParallel = 8

// fleetContexts returns the config file's contexts for --all-contexts
// (or the exporter's --contexts, named by option), refusing the flags
// that name one cluster: its server, its context, its servers' Kerberos
// principal (the --sasl-* flags would replace each context's own sasl
// block, and be refused by every context without a kerberos credential).
func fleetContexts(g *globalFlags, option string) ([]string, error) {
	changed := g.flags.Changed
	switch {
	case changed("server"):
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("%s and --server exclude each other: every context names its own server", option)}
	case changed("context"):
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("%s and --context exclude each other", option)}
	}
	for _, f := range saslFlagNames {
		if changed(f.flag) {
			return nil, &exitError{code: exitUsage, err: fmt.Errorf("%s and --%s exclude each other: every context names its servers' Kerberos principal in its own sasl block", option, f.flag)}
		}
	}
	s, err := g.load()
	if err != nil {
		return nil, err
	}
	names := s.file.names()
	if len(names) == 0 {
		return nil, &exitError{code: exitUsage, err: fmt.Errorf("%s: %s defines no contexts (see zklocks config --help)", option, s.file.path)}
	}
	return names, nil
}

// fleetProbe reads a context once as check reads a cluster: a session,
// one search for every lock under its roots (which sets no watch), the
// members' cons when a finding names a session, judged with th's
// thresholds for the context; the session is closed before it returns. A
// poll that runs past its deadline (six times the context's timeout, at
// least a minute) ends as a search that did not finish.
func fleetProbe(g *globalFlags, th func(settings) (check.Thresholds, error), walk bool) fleet.Probe {
	return func(ctx context.Context, name string) fleet.Cluster {
		start := time.Now()
		c := probeContext(ctx, g, th, walk, name)
		c.At = time.Now()
		c.Took = c.At.Sub(start)
		return c
	}
}

func probeContext(ctx context.Context, g *globalFlags, th func(settings) (check.Thresholds, error), walk bool, name string) fleet.Cluster {
	failed := func(reach fleet.Reach, server string, err error) fleet.Cluster {
		// The package's prefix says nothing to the operator in a row.
		return fleet.Cluster{Name: name, Server: server, Reach: reach, Err: model.Plain(firstLine(err.Error()))}
	}
	s, err := g.loadContext(name)
	if err != nil {
		return failed(fleet.Failed, "", err)
	}
	t, err := th(s)
	if err != nil {
		return failed(fleet.Failed, s.server, err)
	}
	ctx, cancel := context.WithTimeout(ctx, max(6*s.timeout, time.Minute))
	defer cancel()
	conn, err := s.dial(ctx)
	if err != nil {
		if exitCodeOf(err) == exitUnreachable {
			return failed(fleet.Unreachable, s.server, err)
		}
		return failed(fleet.Failed, s.server, err)
	}
	defer conn.Close()
	cfg := s.watchConfig()
	cfg.Analysis, cfg.Once, cfg.FullWalk = s.analysis(t.LongHeld()), true, walk
	state := searchLocks(ctx, conn, s, cfg)
	if state.LastSync.IsZero() {
		return failed(fleet.Failed, s.server, errors.New("the search for locks did not finish (the connection was lost)"))
	}
	r := checkState(state, t)
	if needsClients(r) {
		r.SetClients(askClients(ctx, conn, s.timeout))
	}
	return fleet.Summarize(name, s.server, state.SortedLocks(model.ByPath), r)
}

// pollFleet polls every context once, fleetParallel at a time, and
// returns their rows worst first.
func pollFleet(ctx context.Context, names []string, probe fleet.Probe) []fleet.Cluster {
	rows := make([]fleet.Cluster, len(names))
	sem := make(chan struct{}, fleetParallel)
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			rows[i] = probe(ctx, n)
		})
	}
	wg.Wait()
	fleet.Sort(rows)
	return rows
}

// contextThresholds are check's thresholds for s's context with no flag
// given: its check section, then the defaults (ls --all-contexts and the
// fleet screen judge as check --all-contexts does without flags).
func contextThresholds(s settings) (check.Thresholds, error) {
	def := check.DefaultThresholds()
	f := &checkFlags{warnHeld: def.WarnHeld, critHeld: def.CritHeld, warnWaiters: def.WarnWaiters, critWaiters: def.CritWaiters,
		warnWait: def.WarnWait, critWait: def.CritWait, critical: kindStrings(def.Critical), warning: kindStrings(def.Warning)}
	return f.mergeContext(func(string) bool { return false }, s)
}

// fleetExit is the exit code of ls --all-contexts: 2 when a context was
// unreachable, else 1 when one could not be read, else 0.
func fleetExit(rows []fleet.Cluster) error {
	code, n := exitOK, 0
	for _, c := range rows {
		switch c.Reach {
		case fleet.Unreachable:
			code, n = exitUnreachable, n+1
		case fleet.Failed:
			n++
			if code == exitOK {
				code = exitFailed
			}
		}
	}
	if code == exitOK {
		return nil
	}
	return &exitError{code: code, err: fmt.Errorf("%d of %d contexts could not be read", n, len(rows))}
}
