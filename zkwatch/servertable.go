package zkwatch

import (
	"context"
	"errors"
	"fmt"

	"github.com/zklocks/zklocks/lockcore"
)

// ServerWatches asks every server of the target for its watch table (wchc)
// and merges the answers, with paths made chroot-relative and this
// session's own watches left out. Sessions are per server, so the table is
// complete only when every server answers: if any does not, it returns nil
// and an error naming each server that did not (wrapping
// ErrFourLetterRefused when a server's whitelist refused the word).
func (c *Conn) ServerWatches(ctx context.Context) (*lockcore.WatchTable, error) {
	merged := map[int64][]string{}
	var errs []error
	for _, server := range c.target.Servers {
		reply, err := FourLetterTLS(ctx, server, "wchc", c.TLS())
		if err == nil {
			var table map[int64][]string
			if table, err = ParseWchc(reply); err == nil {
				for session, paths := range table {
					for _, p := range paths {
						if rel, ok := c.rel(p); ok {
							merged[session] = append(merged[session], rel)
						}
					}
				}
				continue
			}
		}
		errs = append(errs, fmt.Errorf("%s: %w", server, err))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	delete(merged, c.SessionID())
	return lockcore.NewWatchTable(merged), nil
}
