package cli

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"github.com/zklocks/zklocks/recording"
)

// historyFlags say where and how an always-on process (exporter, serve)
// keeps the history of what its watcher sees.
type historyFlags struct {
	dir     string
	maxAge  ageValue
	maxSize capValue
}

// register adds the flags; where says the default directory under
// $XDG_STATE_HOME/zklocks, as the command's help says it.
func (f *historyFlags) register(fs *pflag.FlagSet, where string) {
	f.maxAge = ageValue(recording.DefaultHistoryAge)
	f.maxSize = capValue(recording.DefaultHistorySize)
	fs.StringVar(&f.dir, "history", "", "directory to keep the history in (default $XDG_STATE_HOME/zklocks/"+where+"); off keeps none")
	fs.Var(&f.maxAge, "history-max-age", "delete the history's parts older than this (e.g. 7d, 36h); off keeps them whatever their age")
	fs.Var(&f.maxSize, "history-max-size", "delete the oldest parts to keep the history within this size (e.g. 2GB); off bounds nothing")
}

// open starts the history of the cluster s watches, or returns nil when
// it is off.
func (f *historyFlags) open(s settings, version string, warn func(error)) (*recording.History, error) {
	dir := f.dir
	if dir == "off" {
		return nil, nil
	}
	if dir == "" {
		base, err := xdgPath("XDG_STATE_HOME", filepath.Join(".local", "state"), "history")
		if err != nil {
			return nil, &exitError{code: exitUsage, err: fmt.Errorf("--history: %w", err)}
		}
		dir = filepath.Join(base, clusterDirName(s.server, s.roots))
	}
	h, err := recording.OpenHistory(dir, recording.HistoryOptions{MaxAge: time.Duration(f.maxAge), MaxSize: int64(f.maxSize),
		Header: recording.Header{Server: s.server, Roots: s.roots, By: "zklocks " + version}, Warn: warn})
	if err != nil {
		return nil, &exitError{code: exitFailed, err: fmt.Errorf("--history: %w", err)}
	}
	return h, nil
}

// forCluster is f for one of several clusters a process watches: its
// history in a directory of its own, name (a context's name, or a
// cluster's from clusterDirName), under --history when given, else under
// the default's directory sub (apart from the exporter's, which may run
// beside).
func (f historyFlags) forCluster(sub, name string) historyFlags {
	if f.dir == "off" {
		return f
	}
	base := f.dir
	if base == "" {
		def, err := xdgPath("XDG_STATE_HOME", filepath.Join(".local", "state"), "history")
		if err != nil {
			return f // open says why
		}
		base = filepath.Join(def, sub)
	}
	f.dir = filepath.Join(base, safeDirName(name))
	return f
}

// clusterDirName names a cluster's history directory after its connect
// string, and its roots when they are not the whole tree, in characters
// safe in a file name.
func clusterDirName(server string, roots []string) string {
	name := server
	if len(roots) > 0 && !(len(roots) == 1 && roots[0] == "/") {
		name += "@" + strings.Join(roots, "+")
	}
	return safeDirName(name)
}

// safeDirName is name in characters safe in a file name, never a
// directory of its own ("." or "..").
func safeDirName(name string) string {
	if name == "." || name == ".." {
		return strings.Repeat("_", len(name))
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == ',', r == '@', r == '+':
			return r
		}
		return '_'
	}, name)
}

// ageValue is a duration given as Go does (36h, 90m) or in days (7d), or
// off (0).
type ageValue time.Duration

func (v *ageValue) String() string {
	d := time.Duration(*v)
	switch {
	case d == 0:
		return "off"
	case d%(24*time.Hour) == 0:
		return strconv.FormatInt(int64(d/(24*time.Hour)), 10) + "d"
	}
	return d.String()
}

func (v *ageValue) Type() string { return "age" }

func (v *ageValue) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "off" {
		*v = 0
		return nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not an age (e.g. 7d, 36h or off)", s)
		}
		*v = ageValue(time.Duration(n * float64(24*time.Hour)))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("%q is not an age (e.g. 7d, 36h or off)", s)
	}
	*v = ageValue(d)
	return nil
}

// capValue is a size (see sizeValue) or off (0).
type capValue int64

func (v *capValue) String() string {
	if *v == 0 {
		return "off"
	}
	if *v%(1<<30) == 0 {
		return strconv.FormatInt(int64(*v)>>30, 10) + "GB"
	}
	if *v%(1<<20) == 0 {
		return strconv.FormatInt(int64(*v)>>20, 10) + "MB"
	}
	return strconv.FormatInt(int64(*v), 10)
}

func (v *capValue) Type() string { return "size" }

func (v *capValue) Set(s string) error {
	if strings.TrimSpace(s) == "off" {
		*v = 0
		return nil
	}
	var sz sizeValue
	if err := sz.Set(s); err != nil || sz == 0 {
		return fmt.Errorf("%q is not a size (e.g. 2GB or off)", s)
	}
	*v = capValue(sz)
	return nil
}
