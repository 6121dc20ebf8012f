package zkwatch

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// WatchMode says where waiters' watch targets come from.
type WatchMode int

// Watch modes.
const (
	// WatchesAuto reads the servers' watch table when the watches they
	// hold (wchs) are within a budget, and uses recipe rules otherwise.
	WatchesAuto WatchMode = iota
	// WatchesServer always reads the table, paced by its cost.
	WatchesServer
	// WatchesRecipe never reads it: every waiter's target is its recipe's
	// rule.
	WatchesRecipe
)

// DefaultWatchBudget is the most watches the servers may hold for
// WatchesAuto to read their table: about 4 MB of wchc a member.
const DefaultWatchBudget = 100_000

func (m WatchMode) String() string {
	switch m {
	case WatchesServer:
		return "server"
	case WatchesRecipe:
		return "recipe"
	}
	return "auto"
}

// ParseWatchMode parses "auto", "server" or "recipe".
func ParseWatchMode(s string) (WatchMode, error) {
	for _, m := range []WatchMode{WatchesAuto, WatchesServer, WatchesRecipe} {
		if s == m.String() {
			return m, nil
		}
	}
	return 0, fmt.Errorf("--watches %q: want auto, server or recipe", s)
}

// Interest says which part of a watch table to keep: the watches on the
// nodes of the locks shown, whoever holds them (waiters, and the hidden
// waiters of a plain lock node), so that the table's memory grows with
// those locks and not with the cluster's watches. A nil field keeps all.
type Interest struct {
	// Within reports whether a server path is inside a lock shown.
	Within func(path string) bool
	// Covers reports whether a lock (by its chroot-relative path, as
	// analysed) was shown when the table was read: a lock found later has
	// none of its watches in the table.
	Covers func(lockPath string) bool
	// Lock, when set, is the one lock this interest is kept to.
	Lock string
	// Gen numbers the set of locks Covers accepts: it grows whenever a
	// lock is found.
	Gen uint64
}

func (in Interest) keepPath(p string) bool { return in.Within == nil || in.Within(p) }

var wchsTotal = regexp.MustCompile(`(?m)^Total watches:\s*(\d+)`)

// ParseWchs reads the total of a wchs reply:
//
//	1 connections watching 1 paths
//	Total watches:1
//
// Like wchc, it counts data watches only.
func ParseWchs(text string) (int, error) {
	if err := replyError(text); err != nil {
		return 0, err
	}
	m := wchsTotal.FindStringSubmatch(text)
	if m == nil {
		return 0, fmt.Errorf("zkwatch: wchs: no \"Total watches\" line in %q", strings.TrimSpace(text))
	}
	return strconv.Atoi(m[1])
}

// ParseWatchStream reads a wchc or wchp reply as it comes (the shapes of
// [ParseWchc] and [ParseWchp]), keeping only the sessions and paths in
// interest, and returns the table by session with its paths sorted.
func ParseWatchStream(word string, r *bufio.Reader, interest Interest) (map[int64][]string, error) {
	table := map[int64][]string{}
	var header string
	started := false
	for n := 1; ; n++ {
		line, err := r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("zkwatch: %s line %d: %w", word, n, err)
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "\t"):
			if !started {
				return nil, fmt.Errorf("zkwatch: %s line %d: %q comes before any header", word, n, line)
			}
			if err := keepWatch(word, table, header, line[1:], interest); err != nil {
				return nil, fmt.Errorf("zkwatch: %s line %d: %w", word, n, err)
			}
		default:
			header, started = line, true
		}
		if errors.Is(err, io.EOF) {
			break
		}
	}
	for s, paths := range table {
		slices.Sort(paths)
		table[s] = slices.Compact(paths)
	}
	return table, nil
}

// keepWatch adds one watch of a wchc group (header a session, member a
// path) or a wchp group (the other way round), if interest keeps it.
func keepWatch(word string, table map[int64][]string, header, member string, interest Interest) error {
	sessionText, path := header, member
	if word == "wchp" {
		sessionText, path = member, header
	}
	if !strings.HasPrefix(path, "/") {
		return fmt.Errorf("%q is not a path", path)
	}
	s, err := parseHex(sessionText)
	if err != nil {
		return err
	}
	if interest.keepPath(path) {
		table[s] = append(table[s], path)
	}
	return nil
}
