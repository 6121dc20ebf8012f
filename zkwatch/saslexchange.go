package zkwatch

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/zklocks/zklocks/zkwatch/jute"
)

// Errors of SASL authentication. Each also matches ErrAuthFailed.
var (
	// ErrSASLRejected: the server refused the session's SASL credentials:
	// a wrong password or an unknown user (the server does not say which).
	ErrSASLRejected = fmt.Errorf("%w: the server refused the sasl credentials", ErrAuthFailed)
	// ErrSASLFailed: the SASL exchange did not complete: no answer in
	// time, an answer that is not ZooKeeper's, a server that did not prove
	// it knows the password, or a server without SASL.
	ErrSASLFailed = fmt.Errorf("%w: sasl authentication did not complete", ErrAuthFailed)
	// ErrSASLRequired: the server requires SASL authentication of every
	// session (enforce.auth.enabled, or sessionRequireClientSASLAuth) and
	// this session has none; the server closed it.
	ErrSASLRequired = fmt.Errorf("%w: the server requires sasl authentication and this session has none", ErrAuthFailed)
)

// saslRounds bounds an exchange: DIGEST-MD5 takes two, GSSAPI a few more.
const saslRounds = 10

// authenticate runs the SASL exchange on the connection, before
// go-zookeeper has it, within the session timeout.
func (c *authConn) authenticate() error {
	st := c.state
	mech, err := st.mechanism(c.host)
	if err != nil {
		return fmt.Errorf("%w: %s for %s: %w", ErrSASLFailed, st.mechName, c.host, err)
	}
	if err := c.Conn.SetDeadline(time.Now().Add(st.timeout)); err != nil {
		return err
	}
	defer func() {
		c.dlmu.Lock()
		c.Conn.SetReadDeadline(c.deadline)
		c.dlmu.Unlock()
		c.Conn.SetWriteDeadline(time.Time{})
	}()
	token, err := mech.Step(nil)
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrSASLFailed, mech.Name(), err)
	}
	for round := 0; ; round++ {
		if token == nil {
			if mech.Complete() {
				return nil
			}
			return fmt.Errorf("%w: %s has nothing to send and is not complete", ErrSASLFailed, mech.Name())
		}
		if round == saslRounds {
			return fmt.Errorf("%w: %s not complete after %d rounds", ErrSASLFailed, mech.Name(), saslRounds)
		}
		answer, err := c.saslRound(token)
		if err != nil {
			return fmt.Errorf("%s as %s at %s: %w", mech.Name(), st.user, c.host, err)
		}
		if mech.Complete() {
			return nil
		}
		if token, err = mech.Step(answer); err != nil {
			return fmt.Errorf("%w: %s as %s at %s: %w", ErrSASLFailed, mech.Name(), st.user, c.host, err)
		}
	}
}

// saslRound sends one token (GetSASLRequest) and reads the server's
// answer (SetSASLResponse) on the raw connection.
func (c *authConn) saslRound(token []byte) ([]byte, error) {
	var w jute.Writer
	jute.RequestHeader{Xid: c.state.nextXid(), OpCode: jute.OpSASL}.Write(&w)
	w.Buffer(token)
	if err := jute.WriteFrame(c.Conn, w.Bytes()); err != nil {
		return nil, fmt.Errorf("%w: sending a token: %w", ErrSASLFailed, timeoutWords(err, c.state.timeout))
	}
	body, err := jute.ReadFrame(c.Conn, jute.MaxFrame)
	if err != nil {
		return nil, fmt.Errorf("%w: reading the server's answer: %w", ErrSASLFailed, timeoutWords(err, c.state.timeout))
	}
	r := jute.NewReader(body)
	h := jute.ReadReplyHeader(r)
	switch {
	case r.Err() != nil:
		return nil, fmt.Errorf("%w: the answer is not a zookeeper reply (%d bytes)", ErrSASLFailed, len(body))
	case h.Err == jute.ErrAuthFailed:
		return nil, fmt.Errorf("%w: wrong password or unknown user, the server does not say which (%s)", ErrSASLRejected, describe(h.Err))
	case h.Err == jute.ErrSessionClosedRequireSASL:
		return nil, fmt.Errorf("%w: wrong password or unknown user, the server does not say which; it requires sasl and closed the session (%s)",
			ErrSASLRejected, describe(h.Err))
	case h.Err != jute.ErrOK:
		return nil, fmt.Errorf("%w: the server answered %s", ErrSASLFailed, describe(h.Err))
	}
	answer := r.Buffer()
	if r.Err() != nil {
		return nil, fmt.Errorf("%w: the answer holds no sasl token (%d bytes)", ErrSASLFailed, len(body))
	}
	return answer, nil
}

// timeoutWords says that a deadline passed in words, for an operator.
func timeoutWords(err error, d time.Duration) error {
	var ne net.Error
	if errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return fmt.Errorf("no answer within %s", d)
	}
	return err
}
