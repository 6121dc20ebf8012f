package words

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"strings"
	"time"
)

// defaultFourLetterTimeout bounds FourLetter when ctx has no deadline.
const defaultFourLetterTimeout = 5 * time.Second

// Replies that are not answers: the word was refused, or the server is not
// serving. Both end with a newline on the wire.
const (
	refusedReplySuffix = " is not executed because it is not in the whitelist."
	notServingReply    = "This ZooKeeper instance is not currently serving requests"
)

// FourLetter sends word (such as "srvr", "cons", "wchc") to the ZooKeeper
// server at addr (host:port) and returns its whole reply. It honours ctx's
// deadline and cancellation, and gives up after 5 seconds if ctx has no
// deadline.
//
// A refused word is an error wrapping [ErrFourLetterRefused], and a server
// without quorum one wrapping [ErrNotServing]; an empty reply, which is what
// an unknown word gets, is an error too. The reply describes the server at
// the moment it answered.
func FourLetter(ctx context.Context, addr, word string) (string, error) {
	return FourLetterTLS(ctx, addr, word, nil)
}

// FourLetterTLS is FourLetter over TLS with cfg, for a server's secure
// client port (nil means plain TCP). A plain four-letter word sent to a
// TLS-only port gets no answer at all: it is shorter than a TLS record
// header, so the server waits for more.
func FourLetterTLS(ctx context.Context, addr, word string, cfg *tls.Config) (string, error) {
	if len(word) != 4 {
		return "", fmt.Errorf("words: four-letter word %q has %d bytes", word, len(word))
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultFourLetterTimeout)
		defer cancel()
	}
	reply, err := fourLetterExchange(ctx, addr, word, cfg)
	if err != nil {
		return "", streamError(ctx, addr, word, err)
	}
	if err := replyError(reply); err != nil {
		return "", fmt.Errorf("%w (%s)", err, addr)
	}
	if reply == "" {
		return "", fmt.Errorf("words: %s to %s: empty reply (unknown word?)", word, addr)
	}
	return reply, nil
}

// fourLetterExchange writes word on a new connection to addr and reads
// until the server closes it, which it does after every four-letter reply.
func fourLetterExchange(ctx context.Context, addr, word string, cfg *tls.Config) (string, error) {
	conn, err := dialFourLetter(ctx, addr, cfg)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	// Cancellation without a deadline change still has to unblock I/O.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := io.WriteString(conn, word); err != nil {
		return "", err
	}
	b, err := io.ReadAll(conn)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// replyError recognises the replies that carry no data: a refused word and
// a server that is not serving. It returns nil for anything else.
func replyError(reply string) error {
	line := strings.TrimSpace(reply)
	switch {
	case strings.HasSuffix(line, refusedReplySuffix) && !strings.Contains(line, "\n"):
		return fmt.Errorf("%w: %s", ErrFourLetterRefused, strings.TrimSuffix(line, refusedReplySuffix))
	case line == notServingReply:
		return ErrNotServing
	}
	return nil
}
