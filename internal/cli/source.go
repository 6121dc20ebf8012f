package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/zklocks/zklocks/model"
	"github.com/zklocks/zklocks/recording"
	"github.com/zklocks/zklocks/zkwatch"
)

// rangeFlags are --since, --from and --to: the stretch of a recording to
// read.
type rangeFlags struct {
	since, from, to string
}

func (f *rangeFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.since, "since", "", "read the recording from this long ago (10m, 1h, 36h) to its end")
	fs.StringVar(&f.from, "from", "", "read the recording from this moment (02:40, 2026-11-22 02:40, an RFC 3339 time)")
	fs.StringVar(&f.to, "to", "", "read the recording up to this moment (as --from)")
}

func (f *rangeFlags) given() bool { return f.since != "" || f.from != "" || f.to != "" }

// parse reads the flags as of now, in the local zone.
func (f *rangeFlags) parse(now time.Time) (recording.Range, error) {
	r, err := recording.ParseRange(f.since, f.from, f.to, now, time.Local)
	if err != nil {
		return r, &exitError{code: exitUsage, err: fmt.Errorf("--%w", err)}
	}
	return r, nil
}

// rangeOf is the range to read of srcs: the one given, else for a single
// source historyDefault's.
func (f *rangeFlags) rangeOf(srcs []string, now time.Time) (recording.Range, error) {
	r, err := f.parse(now)
	if err != nil || len(srcs) != 1 {
		return r, err
	}
	return historyDefault(srcs[0], r, f.given(), now), nil
}

// historyDefault is the range to read of src when none was given: the
// last hour of a history (a directory, or an exporter's address without
// a range of its own), which may hold a week; all of a file.
func historyDefault(src string, r recording.Range, given bool, now time.Time) recording.Range {
	if given || isDataSource([]string{src}) {
		return r
	}
	if isURL(src) {
		if u, err := url.Parse(src); err == nil {
			if q := u.Query(); q.Has("since") || q.Has("from") || q.Has("to") {
				return r
			}
		}
		return recording.Range{From: now.Add(-time.Hour)}
	}
	if isDir(src) {
		return recording.Range{From: now.Add(-time.Hour)}
	}
	return r
}

// isURL reports whether a recording source is an exporter's address.
func isURL(src string) bool {
	return strings.HasPrefix(src, "http://") || strings.HasPrefix(src, "https://")
}

// loadSource reads the recording srcs name, cut to r: recording files
// (the parts of a rotated one in any order), a history directory (every
// part in it), or an exporter's address (http://host:port, or its
// /history URL with a range of its own). A part or a stream that is cut
// short or spoilt gives what came before, with a warning naming it; a
// recording with no event at all is an error.
func loadSource(ctx context.Context, stderr io.Writer, srcs []string, r recording.Range) (*recording.Recording, error) {
	src, err := loadSourceOf(ctx, stderr, srcs, r, sourceWant{})
	if err != nil {
		return nil, err
	}
	return src.rec, nil
}

// loadSourceOf is loadSource that also reads ZooKeeper data directories
// (each member's, or one: see isDataSource), following want.lock alone
// when it names one, and says what such a read could not cover.
func loadSourceOf(ctx context.Context, stderr io.Writer, srcs []string, r recording.Range, want sourceWant) (*source, error) {
	var warned []string
	warn := func(err error) {
		text := model.Printable(err.Error())
		warned = append(warned, text)
		fmt.Fprintf(stderr, "zklocks: warning: %s\n", text)
	}
	if isDataSource(srcs) {
		src, err := loadDataDirs(ctx, srcs, r, want, warn)
		if src != nil {
			src.warnings = warned
		}
		return src, err
	}
	var rec *recording.Recording
	var err error
	switch {
	case len(srcs) == 1 && isURL(srcs[0]):
		rec, err = fetchHistory(ctx, srcs[0], r, warn)
	case len(srcs) == 1 && isDir(srcs[0]):
		if _, err := os.ReadDir(srcs[0]); err != nil {
			return nil, &exitError{code: exitFailed, err: err}
		}
		rec, err = recording.LoadDir(srcs[0], recording.ReadOptions{Range: r, Warn: warn})
	default:
		for _, s := range srcs {
			if isURL(s) || isDir(s) {
				return nil, &exitError{code: exitUsage, err: fmt.Errorf("%s: give one directory or one address alone, or recording files", s)}
			}
			if _, err := os.Stat(s); err != nil {
				return nil, &exitError{code: exitFailed, err: err}
			}
		}
		rec, err = recording.LoadParts(srcs, recording.ReadOptions{Range: r, Warn: warn})
	}
	if err != nil {
		return nil, &exitError{code: exitFailed, err: err}
	}
	if len(rec.Events) == 0 {
		return nil, &exitError{code: exitFailed, err: fmt.Errorf("%s: the recording holds no event in that range", strings.Join(srcs, " "))}
	}
	return &source{rec: rec, warnings: warned}, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// historyURL is the /history URL of an exporter's address, with r as
// its range unless r is empty and the URL has one of its own.
func historyURL(src string, r recording.Range) (string, error) {
	u, err := url.Parse(src)
	if err != nil || u.Host == "" {
		return "", fmt.Errorf("%q is not an exporter's address (http://host:port)", src)
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/history"
	}
	q := u.Query()
	if !r.From.IsZero() || !r.To.IsZero() {
		q.Del("since")
		q.Del("from")
		q.Del("to")
		// Absolute times: the exporter's clock and zone are not ours.
		if !r.From.IsZero() {
			q.Set("from", r.From.UTC().Format(time.RFC3339Nano))
		}
		if !r.To.IsZero() {
			q.Set("to", r.To.UTC().Format(time.RFC3339Nano))
		}
	}
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// fetchHistory reads a range of an exporter's history over HTTP.
func fetchHistory(ctx context.Context, src string, r recording.Range, warn func(error)) (*recording.Recording, error) {
	addr, err := historyURL(src, r)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, addr, nil)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return nil, fmt.Errorf("%s: %s: %s", addr, resp.Status, strings.TrimSpace(string(body)))
	}
	rec := &recording.Recording{}
	h, err := recording.Read(resp.Body, func(ev zkwatch.Event, _ bool) { rec.Events = append(rec.Events, ev) })
	rec.Headers = []recording.Header{h}
	var le *recording.LineError
	switch {
	case errors.As(err, &le) && len(rec.Events) > 0:
		le.File = addr
		warn(err)
	case err != nil:
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return rec, nil
}
