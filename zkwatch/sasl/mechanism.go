// Package sasl holds the client side of the SASL mechanisms ZooKeeper
// accepts (DIGEST-MD5, and GSSAPI for Kerberos): each a Mechanism that
// turns the server's challenges into responses. The exchange itself (the
// sasl request, opcode 102, after the session is established) is the
// connection's; this package knows no sockets.
//
// A leaf: it imports nothing of zklocks.
package sasl

// Mechanism is one SASL mechanism's client side for one exchange, as
// ZooKeeper's own client drives it (ZooKeeperSaslClient): the first token
// sent is Step(nil) (an empty, not a null, token when the mechanism has
// no initial response), then each answer of the server is given to Step
// while Complete is false; a nil response with no error means nothing is
// to be sent for that answer. A Mechanism is used once: a reconnect makes
// a new one.
type Mechanism interface {
	// Name is the mechanism's SASL name ("DIGEST-MD5", "GSSAPI").
	Name() string
	// Step takes the server's last token (nil before the first) and
	// returns the token to send. An error says why the server's token
	// was refused (a server that does not prove it knows the password,
	// a token that is not of this mechanism), in words for an operator.
	Step(challenge []byte) (response []byte, err error)
	// Complete reports whether the exchange is done on the client's side.
	Complete() bool
}
