package zktest

import (
	"context"

	"github.com/zklocks/zklocks/internal/zkserver"
)

// fourLetter sends a four-letter word to addr and returns the whole reply.
// The public client is words.FourLetter; this package cannot import it.
func fourLetter(ctx context.Context, addr, word string) (string, error) {
	return zkserver.FourLetter(ctx, addr, word)
}

// probe asks addr for its mode, giving up after a second; "" when it does
// not serve.
func probe(ctx context.Context, addr string) string { return zkserver.Mode(ctx, addr) }
