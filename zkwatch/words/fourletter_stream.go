package words

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

// streamBuffer is the read buffer of a streamed four-letter word.
const streamBuffer = 64 << 10

// FourLetterStream asks addr for word like [FourLetterTLS], but hands the
// answer to read as it arrives instead of holding it whole, so that a
// watch table of tens of megabytes is parsed in constant memory. It
// returns the answer's size in bytes. A refusal or a server that is not
// serving is recognised before read is called; read's error is returned
// as it is. costs, if not nil, records the ask.
func FourLetterStream(ctx context.Context, addr, word string, cfg *tls.Config, costs *Costs, read func(*bufio.Reader) error) (int64, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultFourLetterTimeout)
		defer cancel()
	}
	defer costs.turn(ctx, addr)()
	start := time.Now()
	conn, err := dialFourLetter(ctx, addr, cfg)
	if err != nil {
		return 0, streamError(ctx, addr, word, err)
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	counted := &countingReader{r: conn}
	if _, err := io.WriteString(conn, word); err != nil {
		return 0, streamError(ctx, addr, word, err)
	}
	br := bufio.NewReaderSize(counted, streamBuffer)
	head, err := br.Peek(256)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return counted.n, streamError(ctx, addr, word, err)
	}
	if err := replyError(string(head)); err != nil {
		costs.record(addr, word, time.Since(start), counted.n)
		return counted.n, fmt.Errorf("%w (%s)", err, addr)
	}
	if len(head) == 0 {
		return 0, fmt.Errorf("words: %s to %s: empty reply (unknown word?)", word, addr)
	}
	if err := read(br); err != nil {
		if ctx.Err() != nil {
			return counted.n, streamError(ctx, addr, word, err)
		}
		return counted.n, err
	}
	// Whatever read left is drained, so that the cost counts the whole
	// answer the member had to write.
	if _, err := io.Copy(io.Discard, br); err != nil {
		return counted.n, streamError(ctx, addr, word, err)
	}
	costs.record(addr, word, time.Since(start), counted.n)
	return counted.n, nil
}

// streamError reports a failed four-letter exchange. The socket deadline
// is ctx's, and can fire just before ctx's own timer does: either is
// reported as the context's error.
func streamError(ctx context.Context, addr, word string, err error) error {
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = ctxErr
	} else if errors.Is(err, os.ErrDeadlineExceeded) {
		err = context.DeadlineExceeded
	}
	return fmt.Errorf("words: %s to %s: %w", word, addr, err)
}

// dialFourLetter opens the connection a four-letter word goes over, with
// ctx's deadline set on it.
func dialFourLetter(ctx context.Context, addr string, cfg *tls.Config) (net.Conn, error) {
	var conn net.Conn
	var err error
	if cfg != nil {
		c := cfg.Clone()
		if c.ServerName == "" {
			c.ServerName, _, _ = net.SplitHostPort(addr)
		}
		conn, err = (&tls.Dialer{Config: c}).DialContext(ctx, "tcp", addr)
	} else {
		conn, err = (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, err
	}
	deadline, _ := ctx.Deadline()
	if err := conn.SetDeadline(deadline); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
