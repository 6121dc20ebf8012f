package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/recording/txnlog"
)

// source is a recording read, and what its read could not cover.
type source struct {
	rec *recording.Recording
	// partial says why the events are not the whole range; members where
	// ensemble members' transaction logs differ.
	partial, members []string
	// warnings are every warning the read said, as it said them.
	warnings []string
}

// sourceWant is what a command wants of a ZooKeeper data directory: the
// one lock it tells (empty: every lock), and the rule book to read locks
// by.
type sourceWant struct {
	lock string
	// asked are the paths asked for by name, besides lock (see
	// txnlog.Options.Asked).
	asked []string
	// maxEvents, when not 0, is the most events the read may hold (see
	// txnlog.Options.MaxEvents).
	maxEvents int
	book      *lockcore.Book
}

// wantOf is what a command wants of srcs when they are data directories:
// lock, read by the config file's rule book (which only a data directory,
// analysed here rather than by the recorder, needs).
func wantOf(g *globalFlags, srcs []string, lock string) (sourceWant, error) {
	want := sourceWant{lock: lock}
	if !isDataSource(srcs) {
		return want, nil
	}
	s, err := g.load()
	if err != nil {
		return want, err
	}
	want.book = s.book
	return want, nil
}

// isDataSource reports whether srcs are ZooKeeper data directories (one
// per member), told by their contents, not their names.
func isDataSource(srcs []string) bool {
	for _, s := range srcs {
		if isURL(s) || !isDir(s) || !txnlog.IsDataDir(s) {
			return false
		}
	}
	return len(srcs) > 0
}

// loadDataDirs reads ZooKeeper data directories as a recording, never
// writing to them.
func loadDataDirs(ctx context.Context, srcs []string, r recording.Range, want sourceWant, warn func(error)) (*source, error) {
	res, err := txnlog.Load(ctx, srcs, txnlog.Options{Range: r, Lock: want.lock, Asked: want.asked, MaxEvents: want.maxEvents, Analysis: lockcore.Options{Book: want.book}, Warn: warn})
	if errors.Is(err, txnlog.ErrTooManyEvents) {
		err = fmt.Errorf("%w: give a shorter stretch (--from and --to, or --since), or tell a lock's story with zklocks postmortem, which holds no event", err)
	}
	if err != nil {
		return nil, &exitError{code: exitFailed, err: err}
	}
	for _, m := range res.Members {
		warn(errors.New(m))
	}
	if len(res.Recording.Events) == 0 {
		return nil, &exitError{code: exitFailed, err: fmt.Errorf("%w: nothing read", txnlog.ErrNoTxnInRange)}
	}
	return &source{rec: res.Recording, partial: res.Partial, members: res.Members}, nil
}
