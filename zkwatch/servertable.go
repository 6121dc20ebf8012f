package zkwatch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/zklocks/zklocks/lockcore"
	"github.com/zklocks/zklocks/zkwatch/words"
)

// WatchQuery says how [Conn.ReadWatches] reads the servers' watch table.
type WatchQuery struct {
	// Mode: WatchesRecipe reads nothing; WatchesAuto reads the table only
	// when every member holds at most Budget watches (wchs); WatchesServer
	// always reads it.
	Mode WatchMode
	// Budget is WatchesAuto's limit; 0 means DefaultWatchBudget.
	Budget int
	// Locks, when not empty, are the chroot-relative lock paths (and
	// their recipe parts) whose watches are kept; the rest of the table is
	// dropped as it is read, and the table covers only these locks.
	Locks []string
	// Costs, if not nil, counts the words asked.
	Costs *words.Costs
}

// ServerWatches reads the whole watch table of every server, as
// ReadWatches with WatchesServer does.
func (c *Conn) ServerWatches(ctx context.Context) (*lockcore.WatchTable, error) {
	return c.ReadWatches(ctx, WatchQuery{Mode: WatchesServer})
}

// ReadWatches asks every ensemble member (see Members) for its watch table (wchc,
// streamed, or the AdminServer's watches where wchc is refused) and merges the answers, with paths made chroot-relative and
// this session's own watches left out. Sessions are per server, so the
// table is complete only when every server answers: if any does not, or
// the query's mode or budget rules it out, it returns nil and an error
// saying why (wrapping words.ErrFourLetterRefused when a server's whitelist
// refused the word and no AdminServer answered, or ErrOverBudget).
func (c *Conn) ReadWatches(ctx context.Context, q WatchQuery) (*lockcore.WatchTable, error) {
	if q.Mode == WatchesRecipe {
		return nil, ErrRecipeMode
	}
	ensemble := c.Members(ctx)
	if len(ensemble.Missing) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrMembersMissing, strings.Join(ensemble.Missing, "; "))
	}
	if q.Mode == WatchesAuto {
		if err := c.withinBudget(ctx, q, ensemble.Servers); err != nil {
			return nil, err
		}
	}
	interest := c.lockInterest(q.Locks)
	merged := map[int64][]string{}
	var errs []error
	for _, server := range ensemble.Servers {
		table := map[int64][]string{}
		_, err := c.ways(q.Costs).AskEither(ctx, server, "wchc", words.Reader{
			Text: func(r *bufio.Reader) error {
				var err error
				table, err = words.ParseWatchStream("wchc", r, interest.Within)
				return err
			},
			JSON: words.AdminWatchTable(table, interest.Within),
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", server, err))
			continue
		}
		words.SortTable(table)
		for session, paths := range table {
			for _, p := range paths {
				if rel, ok := c.relOrMark(p); ok {
					merged[session] = append(merged[session], rel)
				}
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	delete(merged, c.SessionID())
	return lockcore.NewWatchTable(merged).Scoped(interest.Covers), nil
}

// Reasons ReadWatches gives for not reading the table.
var (
	// ErrOverBudget: a member holds more watches than the budget allows
	// reading.
	ErrOverBudget = errors.New("zkwatch: watch table over budget")
	// ErrRecipeMode: the table was not asked for.
	ErrRecipeMode = errors.New("zkwatch: watch table not read (--watches=recipe)")
	// ErrMembersMissing: an ensemble member cannot be asked, so the table
	// would lack its sessions' watches.
	ErrMembersMissing = errors.New("zkwatch: not every ensemble member can be asked")
)

// withinBudget asks every member how many watches it holds. A member that
// refuses wchs is not held against the table: wchc may still answer.
func (c *Conn) withinBudget(ctx context.Context, q WatchQuery, servers []string) error {
	budget := q.Budget
	if budget <= 0 {
		budget = DefaultWatchBudget
	}
	for _, server := range servers {
		var total int
		var text string
		via, err := c.ways(q.Costs).AskEither(ctx, server, "wchs", words.Reader{Text: words.TextReader(&text), JSON: words.AdminWatchSummary(&total)})
		if err == nil && via == words.ViaWord {
			total, err = words.ParseWchs(text)
		}
		if err == nil && total > budget {
			return fmt.Errorf("%w: %s holds %d watches, over the budget of %d (--watches=server reads it anyway)", ErrOverBudget, server, total, budget)
		}
	}
	return nil
}

// lockInterest keeps the watches on the named locks' nodes.
func (c *Conn) lockInterest(locks []string) Interest {
	if len(locks) == 0 {
		return Interest{}
	}
	set := make(map[string]bool, len(locks))
	for _, l := range locks {
		set[l] = true
	}
	return c.interestIn(set, set)
}

// interestIn keeps the watches on parts (lock paths and their recipe
// parts, chroot-relative) and their children, and on zklocks' mark, and
// covers locks.
func (c *Conn) interestIn(parts, locks map[string]bool) Interest {
	return Interest{
		Within: func(p string) bool {
			if p == lockcore.ObserverMark {
				return true
			}
			rel, ok := c.rel(p)
			return ok && (parts[rel] || parts[path.Dir(rel)])
		},
		Covers: func(l string) bool { return locks[l] },
	}
}

// relOrMark is rel, but for zklocks' mark, which is one server path
// whatever the chroot of the zklocks watchers that carry it.
func (c *Conn) relOrMark(p string) (string, bool) {
	if p == lockcore.ObserverMark {
		return p, true
	}
	return c.rel(p)
}

// NoWayFix says, once, which members answer neither cons as a four-letter
// word nor through an AdminServer, and the two ways to fix it; "" when
// every member answered one way or the other (or could not be asked at
// all, which is another matter).
func NoWayFix(servers []ServerInfo) string {
	var stuck []string
	var why error
	for _, s := range servers {
		if !NoWay(s) {
			continue
		}
		stuck = append(stuck, s.Addr)
		if why == nil {
			why = s.AdminErr
		}
	}
	if len(stuck) == 0 {
		return ""
	}
	reason := strings.TrimPrefix(strings.TrimPrefix(why.Error(), "words: "), "no AdminServer at ")
	if errors.Is(why, words.ErrAdminOff) {
		reason = "--admin-port=off"
	}
	return fmt.Sprintf("%s: four-letter words refused and no AdminServer (%s): no clients, disconnected holders or real watches. Fix: %s in zoo.cfg, or %s (zklocks doctor says more)",
		strings.Join(stuck, ", "), reason, words.WhitelistFix, words.AdminFixFor(why))
}

// NoWay reports whether member s answers cons neither as a four-letter
// word nor through an AdminServer: one of those NoWayFix names.
func NoWay(s ServerInfo) bool {
	return s.Err == nil && slices.Contains(s.Refused, "cons") && s.AdminErr != nil && s.Via["cons"] == ""
}

// WaysNote says how a member answered, for notes: "by AdminServer (words
// refused): cons, wchc; by four-letter word: srvr; refused, no answer:
// dump, wchs (the AdminServer's answer failed: …); no AdminServer: …".
func WaysNote(s ServerInfo) string {
	var admin, word, unanswered []string
	for w, via := range s.Via {
		switch via {
		case words.ViaAdmin:
			admin = append(admin, w)
		case words.ViaWord:
			word = append(word, w)
		}
	}
	for _, w := range s.Refused {
		if s.Via[w] == "" {
			unanswered = append(unanswered, unansweredWhy(s, w))
		}
	}
	slices.Sort(admin)
	slices.Sort(word)
	var parts []string
	if len(admin) > 0 {
		parts = append(parts, "by AdminServer (words refused): "+strings.Join(admin, ", "))
	}
	if len(word) > 0 {
		parts = append(parts, "by four-letter word: "+strings.Join(word, ", "))
	}
	if len(unanswered) > 0 {
		parts = append(parts, "refused, no answer: "+strings.Join(unanswered, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	if s.AdminErr != nil && !errors.Is(s.AdminErr, words.ErrAdminOff) {
		parts = append(parts, strings.TrimPrefix(s.AdminErr.Error(), "words: "))
	}
	return strings.Join(parts, "; ")
}

// unansweredWhy is w, refused and answered no other way, with why its
// AdminServer command failed when it was asked and did not answer (a
// timeout, an error), so that a note does not read as if the member had
// no AdminServer.
func unansweredWhy(s ServerInfo, w string) string {
	if err := s.Failed[w]; err != nil {
		return fmt.Sprintf("%s (the AdminServer's answer failed: %s)", w, strings.TrimPrefix(err.Error(), "words: "))
	}
	return w
}

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
