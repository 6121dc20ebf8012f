package zkwatch

import "context"

// Another dials a new session to the same target with the same options
// (credentials, TLS, session timeout), and returns once it is established.
// Work whose ephemeral nodes and watches must end when it does takes a
// session of its own: ZooKeeper removes a session's watches only when they
// fire or the session closes, and go-zookeeper cannot remove one. The
// caller must Close the Conn.
func (c *Conn) Another(ctx context.Context) (*Conn, error) { return Dial(ctx, c.opt) }
