package zkwatch

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zklocks/zklocks/zkwatch/jute"
	"github.com/zklocks/zklocks/zkwatch/sasl"
)

// authState is what the connections of one session share: the SASL
// mechanism to authenticate each with, the outcome of the last exchange,
// the connection in use, and whether the server said it requires SASL.
type authState struct {
	mechanism mechanismFactory // nil: no SASL
	mechName  string           // "DIGEST-MD5", for messages
	user      string           // who authenticates, for messages
	timeout   time.Duration    // for one exchange

	xid atomic.Int32 // counts down from ownXidFirst

	mu       sync.Mutex
	current  *authConn // the connection that last completed its handshake
	last     error     // the last exchange's failure, nil after a success
	rejected chan struct{}
	refused  bool   // rejected is closed
	required bool   // a reply said SESSIONCLOSEDREQUIRESASLAUTH
	asking   string // the host an exchange is under way with, or ""
	ok       int    // exchanges that succeeded
}

// newDialAuth returns the state for a session with credentials auth,
// each connection's exchange bounded by timeout.
func newDialAuth(auth []Auth, timeout time.Duration) (*authState, error) {
	s := newAuthState(timeout)
	a, ok, err := saslAuth(auth)
	if err != nil {
		return nil, err
	}
	if ok {
		s.mechanism, s.mechName, s.user = a.Mechanism, a.MechanismName, a.User
		if s.mechName == "" {
			s.mechName = "SASL"
		}
	}
	return s, nil
}

func newAuthState(timeout time.Duration) *authState {
	s := &authState{timeout: timeout, rejected: make(chan struct{})}
	s.xid.Store(ownXidFirst + 1)
	return s
}

// nextXid returns an xid of our own, wrapping within the reserved range.
func (s *authState) nextXid() int32 {
	for {
		x := s.xid.Add(-1)
		if x >= ownXidLast {
			return x
		}
		s.xid.CompareAndSwap(x, ownXidFirst+1)
	}
}

// ready records a connection whose handshake is done.
func (s *authState) ready(c *authConn) {
	s.mu.Lock()
	s.current = c
	if s.mechanism != nil {
		s.last = nil
		s.ok++
	}
	s.mu.Unlock()
}

// gone forgets a closed connection.
func (s *authState) gone(c *authConn) {
	s.mu.Lock()
	if s.current == c {
		s.current = nil
	}
	s.mu.Unlock()
}

// failed records a failed exchange; a refusal of the credentials closes
// rejected, as trying again cannot help.
func (s *authState) failed(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = err
	if isRejected(err) && !s.refused {
		s.refused = true
		close(s.rejected)
	}
}

func (s *authState) sawRequired() {
	s.mu.Lock()
	s.required = true
	s.mu.Unlock()
}

// exchanging records that an exchange with host is under way ("" when it
// has ended).
func (s *authState) exchanging(host string) {
	s.mu.Lock()
	s.asking = host
	s.mu.Unlock()
}

// stuck is why no session came, as far as authentication knows: the last
// exchange's failure, or one still waiting for the server; nil when
// authentication is not what held the session up.
func (s *authState) stuck() error {
	if err := s.problem(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asking != "" {
		return fmt.Errorf("%w: %s as %s at %s: the server has not answered the sasl request", ErrSASLFailed, s.mechName, s.user, s.asking)
	}
	return nil
}

// problem is why the session is not authenticated as asked: the last
// exchange's failure, or the server's demand for SASL; nil when neither.
func (s *authState) problem() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.last != nil:
		return s.last
	case s.required && s.mechanism == nil:
		return requiredError()
	}
	return nil
}

// conn returns the connection in use, or nil between connections.
func (s *authState) conn() *authConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// request sends a request of our own on the connection in use and waits
// for its reply, or for ctx.
func (s *authState) request(ctx context.Context, op int32, body []byte) ([]byte, error) {
	c := s.conn()
	if c == nil {
		return nil, errNotConnected
	}
	ch, err := c.send(op, body)
	if err != nil {
		return nil, err
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, r.err
		}
		if r.header.Err != jute.ErrOK {
			if r.header.Err == jute.ErrSessionClosedRequireSASL {
				return nil, requiredError()
			}
			return nil, fmt.Errorf("the server answered %s", describe(r.header.Err))
		}
		return r.body, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

var errNotConnected = errors.New("not connected to a server at the moment")

// isRejected reports whether the server refused the credentials.
// isRejected reports whether err is a failure that another attempt within
// the command's time cannot mend: the server refused the credentials, or
// the Kerberos login itself is refused (a wrong or unreadable keytab, a
// principal or service the KDC does not know, clocks too far apart, a
// configuration without the realm). A KDC that does not answer may answer
// the next attempt.
func isRejected(err error) bool {
	for _, permanent := range []error{ErrSASLRejected, sasl.ErrKerberosConfig, sasl.ErrKeytab, sasl.ErrWrongKey,
		sasl.ErrUnknownPrincipal, sasl.ErrUnknownService, sasl.ErrClockSkew, sasl.ErrCredentialCache} {
		if errors.Is(err, permanent) {
			return true
		}
	}
	return false
}

func requiredError() error {
	return fmt.Errorf("%w: give --auth sasl:USER:@FILE (or an auth entry of scheme sasl in the context)", ErrSASLRequired)
}

// AuthProblem says why the session is not authenticated as asked, or nil:
// the last SASL exchange failed (on a reconnect, say, to a member that
// refuses the credentials), or the server requires SASL of a session
// that has none. What it says may be stale by the time it is read.
func (c *Conn) AuthProblem() error {
	if c.auth == nil {
		return nil
	}
	return c.auth.problem()
}

// zkRequiredSASL is how go-zookeeper v1.0.4, which has no name for error
// −124 (SESSIONCLOSEDREQUIRESASLAUTH), reports it.
var zkRequiredSASL = fmt.Sprintf("unknown error: %d", jute.ErrSessionClosedRequireSASL)

// explain turns go-zookeeper's error for a server that requires SASL into
// ErrSASLRequired; other errors are returned as they are.
func explain(err error) error {
	if err != nil && err.Error() == zkRequiredSASL {
		return requiredError()
	}
	return err
}
