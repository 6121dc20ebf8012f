package zkwatch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"path"
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
