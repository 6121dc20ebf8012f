package zkwatch

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"
)

// AuthRequired says whether the cluster requires authentication of every
// session (enforce.auth.enabled, or sessionRequireClientSASLAuth): it
// opens a session without credentials and reads the root's stat, which
// such a server answers with SESSIONCLOSEDREQUIRESASLAUTH before closing
// the session. Which schemes meet the requirement (enforce.auth.schemes)
// the server does not say. An error means the probe could not tell.
func (c *Conn) AuthRequired(ctx context.Context) (bool, error) {
	opt := c.opt
	opt.Auth = nil
	probe, err := Dial(ctx, opt)
	if err != nil {
		return false, fmt.Errorf("a session without credentials: %w", err)
	}
	defer probe.Close()
	_, err = call(ctx, func() (bool, error) {
		ok, _, err := probe.zk.Exists(probe.abs("/"))
		return ok, err
	})
	switch {
	case errors.Is(err, ErrSASLRequired):
		return true, nil
	case err == nil, errors.Is(err, zk.ErrNoAuth):
		return false, nil
	}
	return false, fmt.Errorf("a session without credentials: %w", err)
}

// Accepted reads the root's stat, so that a session without SASL on a
// server that requires it hears so (ErrSASLRequired) before it starts
// watching, rather than from every read that follows. A session with a
// SASL credential has been accepted by Dial already: it reads nothing.
func (c *Conn) Accepted(ctx context.Context) error {
	if c.auth != nil && c.auth.mechanism != nil {
		return nil
	}
	_, err := call(ctx, func() (bool, error) {
		ok, _, err := c.zk.Exists(c.abs("/"))
		return ok, err
	})
	if errors.Is(err, ErrSASLRequired) {
		return err
	}
	return nil
}
