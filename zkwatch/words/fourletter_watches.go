package words

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// ParseWchc parses a wchc reply, the server's watches by session:
//
//	0x10000094ea10000
//		/locks/l2
//		/locks/l1/_c_1-lock-0000000000
//
// It returns each session's watched paths, sorted. A session listed twice
// (two connections claiming it, as a reconnect can briefly cause) has its
// paths merged. A session listed without paths, as the server does once a
// session's last watch has fired, is left out.
//
// What the server lists are data watches only: those set by getData and
// exists, including exists on a node that does not exist yet, and persistent
// watches. Child watches (getChildren) never appear in wchc or wchp. The
// table is one server's: a session connected elsewhere is not in it.
func ParseWchc(text string) (map[int64][]string, error) {
	return parseGroups("wchc", text, parseHex, func(m string) (string, error) { return m, nil })
}

// parseWchp parses a wchp reply, the server's watches by path:
//
//	/locks/l1/_c_1-lock-0000000000
//		0x10000094ea10001
//		0x10000094ea10000
//
// It returns each path's watching sessions in ascending order, duplicates
// merged. Like [ParseWchc], it sees data watches only.
func parseWchp(text string) (map[string][]int64, error) {
	return parseGroups("wchp", text, func(h string) (string, error) {
		if !strings.HasPrefix(h, "/") {
			return "", fmt.Errorf("%q is not a path", h)
		}
		return h, nil
	}, parseHex)
}

// parseGroups parses the shape both watch dumps share: a header line, then
// its members one per line, each indented by a tab. Each header's members
// are returned in ascending order; members repeated under the same header,
// even in separate groups, are kept once; headers without members are
// dropped.
func parseGroups[K comparable, V cmp.Ordered](word, text string, header func(string) (K, error), member func(string) (V, error)) (map[K][]V, error) {
	if err := replyError(text); err != nil {
		return nil, err
	}
	groups := make(map[K][]V)
	seen := make(map[K]map[V]bool)
	var (
		cur     K
		started bool
	)
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if m, ok := strings.CutPrefix(line, "\t"); ok {
			if !started {
				return nil, fmt.Errorf("words: %s line %d: %q comes before any header", word, n, line)
			}
			v, err := member(m)
			if err != nil {
				return nil, fmt.Errorf("words: %s line %d: %w", word, n, err)
			}
			if !seen[cur][v] {
				seen[cur][v] = true
				groups[cur] = append(groups[cur], v)
			}
			continue
		}
		k, err := header(line)
		if err != nil {
			return nil, fmt.Errorf("words: %s line %d: %w", word, n, err)
		}
		cur, started = k, true
		if seen[k] == nil {
			seen[k] = make(map[V]bool)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("words: %s: %w", word, err)
	}
	for _, members := range groups {
		slices.Sort(members)
	}
	return groups, nil
}

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
		return 0, fmt.Errorf("words: wchs: no \"Total watches\" line in %q", strings.TrimSpace(text))
	}
	return strconv.Atoi(m[1])
}

// ParseWatchStream reads a wchc or wchp reply as it comes (the shapes of
// [ParseWchc] and wchp's), keeping only the watches on the paths keep
// accepts (every path when keep is nil), and returns the table by session
// with its paths sorted.
func ParseWatchStream(word string, r *bufio.Reader, keep func(path string) bool) (map[int64][]string, error) {
	table := map[int64][]string{}
	var header string
	started := false
	for n := 1; ; n++ {
		line, err := r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("words: %s line %d: %w", word, n, err)
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case strings.TrimSpace(line) == "":
		case strings.HasPrefix(line, "\t"):
			if !started {
				return nil, fmt.Errorf("words: %s line %d: %q comes before any header", word, n, line)
			}
			if err := keepWatch(word, table, header, line[1:], keep); err != nil {
				return nil, fmt.Errorf("words: %s line %d: %w", word, n, err)
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
// path) or a wchp group (the other way round), if keep accepts its path.
func keepWatch(word string, table map[int64][]string, header, member string, keep func(path string) bool) error {
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
	if kept(keep, path) {
		table[s] = append(table[s], path)
	}
	return nil
}

// kept reports whether keep accepts p; a nil keep accepts every path.
func kept(keep func(path string) bool, p string) bool { return keep == nil || keep(p) }
