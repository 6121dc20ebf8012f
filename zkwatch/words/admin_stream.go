package words

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"
)

// AdminField reads the value of one key of an AdminServer answer from dec
// (which decodes numbers as json.Number). It returns false, having read
// nothing, for a key it does not want; the value is then skipped.
type AdminField func(key string, dec *json.Decoder) (bool, error)

// AdminStream asks member's AdminServer for command and hands each key of
// the answer to field as the answer arrives, so that a watch table of tens
// of megabytes is read in memory that grows only with what field keeps. It
// returns the answer's size in bytes. costs, if not nil, records the ask
// under word, the four-letter word the command stands for, so that pacing
// is the same whichever way a member answers.
//
// An AdminServer that is not there, or does not answer as one, is an error
// wrapping [ErrAdminUnavailable]; a server that is not serving one wrapping
// [ErrNotServing]; any other error field one wrapping [ErrAdminCommand].
// Without a deadline in ctx, it gives up after 5 seconds.
//
// Every answer must first be proven to be member's (see [proveAdmin]): one
// that is another server's is an error wrapping [ErrAdminElsewhere], one
// that cannot be tied to member an error wrapping [ErrAdminUntied], and a
// request for credentials one wrapping [ErrAdminAuth]; each also wraps
// [ErrAdminUnavailable].
func AdminStream(ctx context.Context, a *AdminServer, member, word string, costs *Costs, field AdminField) (int64, error) {
	return adminAsk(ctx, a, member, word, costs, field, false)
}

// adminAsk is AdminStream, the answer read whole before field sees it
// when whole says so (see Reader.Whole).
func adminAsk(ctx context.Context, a *AdminServer, member, word string, costs *Costs, field AdminField, whole bool) (int64, error) {
	if _, ok := AdminCommand(word); !ok {
		return 0, fmt.Errorf("words: no AdminServer command for %q", word)
	}
	if !a.Enabled() {
		return 0, ErrAdminOff
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, adminTimeout)
		defer cancel()
	}
	if word == "conf" {
		// The configuration proves itself: it names its client port.
		return proveAdmin(ctx, a, member, costs, field)
	}
	check := provenConn(strings.TrimSuffix(a.URL(member, ""), "/"), member)
	// While the connection kept from the last ask is likely open, the
	// command goes first over it, proven then; otherwise the proof first.
	proved := !a.proven.kept(member)
	if proved {
		if _, err := proveAdmin(ctx, a, member, costs, nil); err != nil {
			return 0, err
		}
	}
	n, err := adminStream(ctx, a, member, word, costs, field, whole, check)
	if errors.Is(err, errUnprovenConn) && !proved {
		// The kept connection was closed: the new one is proven, and the
		// transport hands the command the connection the proof left idle.
		if _, err := proveAdmin(ctx, a, member, costs, nil); err != nil {
			return 0, err
		}
		n, err = adminStream(ctx, a, member, word, costs, field, whole, check)
	}
	if err == nil {
		a.proven.used(member)
	}
	return n, err
}

// adminStream is adminAsk without the proof that the answer is member's:
// check is given the connection the answer came over before field reads
// it, and the answer is read only if check returns nil.
func adminStream(ctx context.Context, a *AdminServer, member, word string, costs *Costs, field AdminField, whole bool, check func(*identifiedConn) error) (int64, error) {
	command, _ := AdminCommand(word)
	url := a.URL(member, command)
	done := costs.turn(ctx, member)
	defer func() { done() }()
	start := time.Now()
	var seen connSeen
	req, err := http.NewRequestWithContext(seen.trace(ctx), http.MethodGet, url, nil)
	if err != nil {
		return 0, fmt.Errorf("words: %s: %w", url, err)
	}
	resp, err := a.client().Do(req)
	if err != nil {
		return 0, adminDialError(ctx, url, err)
	}
	defer resp.Body.Close()
	counted := &countingReader{r: resp.Body}
	if resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden {
		return 0, &notMemberError{ErrAdminAuth, fmt.Sprintf("the AdminServer at %s requires authentication (HTTP %s)", url, resp.Status)}
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		// A 404 page or another service's answer: not an AdminServer
		// with this command URL.
		return 0, fmt.Errorf("%w at %s: HTTP %s, %s", ErrAdminUnavailable, url, resp.Status, resp.Header.Get("Content-Type"))
	}
	if err := check(seen.get()); err != nil {
		return 0, err
	}
	var answer io.Reader = counted
	var took time.Duration
	var errText string
	if whole {
		var body []byte
		if body, err = io.ReadAll(counted); err == nil {
			took = time.Since(start)
			done()
			done = func() {}
			answer = bytes.NewReader(body)
		}
	}
	if err == nil {
		errText, err = readAdminAnswer(answer, field)
	}
	if err == nil {
		// Drain what the reader left, so that the cost counts the whole
		// answer and the connection can be reused.
		_, err = io.Copy(io.Discard, counted)
	}
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return counted.n, fmt.Errorf("words: %s: %w", url, err)
	}
	if !whole {
		took = time.Since(start)
	}
	costs.Record(member, word, ViaAdmin, took, counted.n)
	switch {
	case errText == "":
		return counted.n, nil
	case errText == notServingReply:
		return counted.n, fmt.Errorf("%w (%s)", ErrNotServing, url)
	}
	return counted.n, fmt.Errorf("%w: %s: %s", ErrAdminCommand, url, errText)
}

// adminDialError says why no answer came: a closed port or a TLS mismatch
// mean no AdminServer there; a timeout or cancellation is the context's.
func adminDialError(ctx context.Context, url string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("words: %s: %w", url, ctx.Err())
	}
	var opErr *net.OpError
	var recordErr tls.RecordHeaderError
	var certErr *tls.CertificateVerificationError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w at %s: connection refused", ErrAdminUnavailable, url)
	case errors.As(err, &recordErr):
		return fmt.Errorf("%w at %s: it does not speak HTTPS (try --admin-scheme=http)", ErrAdminUnavailable, url)
	case errors.As(err, &certErr):
		return fmt.Errorf("%w at %s: its certificate is not trusted (%v; give --admin-ca, or --admin-insecure-skip-verify)", ErrAdminUnavailable, url, certErr.Err)
	case strings.Contains(err.Error(), "malformed HTTP response") || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return fmt.Errorf("%w at %s: the answer is not plain HTTP (try --admin-scheme=https)", ErrAdminUnavailable, url)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		// Hung up without a word of HTTP: a port that speaks something
		// else, such as a client port.
		return fmt.Errorf("%w at %s: the port closed without an HTTP answer (is it the AdminServer's port?)", ErrAdminUnavailable, url)
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return fmt.Errorf("%w at %s: %v", ErrAdminUnavailable, url, opErr.Err)
	}
	return fmt.Errorf("words: %s: %w", url, err)
}

// readAdminAnswer reads the answer's top-level object, giving every key
// but command and error to field, and returns the error field's text.
func readAdminAnswer(r io.Reader, field AdminField) (string, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return "", err
	}
	var errText string
	for dec.More() {
		key, err := stringToken(dec)
		if err != nil {
			return "", err
		}
		switch key {
		case "error":
			var s *string
			if err := dec.Decode(&s); err != nil {
				return "", fmt.Errorf("error field: %w", err)
			}
			if s != nil {
				errText = *s
			}
			continue
		case "command":
			if err := skipValue(dec); err != nil {
				return "", err
			}
			continue
		}
		used, err := field(key, dec)
		if err != nil {
			return "", fmt.Errorf("%s: %w", key, err)
		}
		if !used {
			if err := skipValue(dec); err != nil {
				return "", err
			}
		}
	}
	return errText, expectDelim(dec, '}')
}

// expectDelim reads one token and checks it is the delimiter d.
func expectDelim(dec *json.Decoder, d json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if t != d {
		return fmt.Errorf("want %q, got %v", d, t)
	}
	return nil
}

// stringToken reads a token that must be a string (an object key, a path).
func stringToken(dec *json.Decoder) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", fmt.Errorf("want a string, got %v", t)
	}
	return s, nil
}

// skipValue reads past one value without keeping it: an object or array
// one member at a time (each decoded whole, as a watch table's are small),
// so that skipping a large one holds little.
func skipValue(dec *json.Decoder) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	open, ok := t.(json.Delim)
	if !ok {
		return nil // a scalar, read
	}
	var member json.RawMessage
	for dec.More() {
		if open == '{' {
			if _, err := dec.Token(); err != nil {
				return err
			}
		}
		member = member[:0]
		if err := dec.Decode(&member); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing delimiter
	return err
}
