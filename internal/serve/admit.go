package serve

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	gossh "golang.org/x/crypto/ssh"
)

// The reasons a key is not admitted that a session's end names.
var (
	// errNotListed: a plain key the authorized keys do not list.
	errNotListed = errors.New("not in the authorized keys")
	// errRevoked: a key, or a certificate's key or authority, that the
	// revoked keys list.
	errRevoked = errors.New("revoked")
)

// signIn is what a key that signed in proved: the key admitted, and the
// certificate it came in when it did.
type signIn struct {
	key  Key
	cert *lockcore.Certificate
	// raw is the certificate itself, nil for a plain key.
	raw *gossh.Certificate
}

// admitKey decides whether key, presented by user from the address from
// at now, is admitted, and as what: a plain key by the authorized keys'
// plain lines, a certificate by their cert-authority lines, neither when
// the revoked keys list it. A certificate is never admitted by a plain
// line, nor a plain key by a cert-authority line, as in sshd.
func (s *Server) admitKey(user string, key gossh.PublicKey, from string, now time.Time) (signIn, error) {
	if cert, ok := key.(*gossh.Certificate); ok {
		k, c, err := admitCert(s.cfg.Keys.admitted(), s.cfg.Revoked, user, cert, from, now)
		if err != nil {
			return signIn{}, err
		}
		return signIn{key: k, cert: c, raw: cert}, nil
	}
	fp := gossh.FingerprintSHA256(key)
	if gone, err := s.cfg.Revoked.Revoked(key); gone || err != nil {
		return signIn{}, fmt.Errorf("%w: key %s is %w: %s", errNotAdmitted, fp, errRevoked, revokedWhy(err))
	}
	k, ok := s.cfg.Keys.Lookup(fp)
	if !ok {
		return signIn{}, fmt.Errorf("%w: key %s is %w", errNotAdmitted, fp, errNotListed)
	}
	return signIn{key: k}, nil
}

// noLongerWhy is what a session is told when its key stopped being
// admitted (the keys file or the revoked keys changed).
func noLongerWhy(who Who, err error) string {
	switch {
	case who.Cert != nil:
		return "your certificate is no longer admitted: " + strings.TrimPrefix(err.Error(), errNotAdmitted.Error()+": ")
	case errors.Is(err, errRevoked):
		return "your key is no longer admitted: " + strings.TrimPrefix(err.Error(), errNotAdmitted.Error()+": ")
	default:
		return "your key was removed from the authorized keys"
	}
}
