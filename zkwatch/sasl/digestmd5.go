package sasl

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// ZooKeeper's DIGEST-MD5 service: its server's SaslServer is made for
// protocol "zookeeper" and server name "zk-sasl-md5", whatever the host.
const (
	DigestProtocol   = "zookeeper"
	DigestServerName = "zk-sasl-md5"
)

// Errors of a DIGEST-MD5 exchange.
var (
	// ErrBadChallenge: the server's token is not a DIGEST-MD5 challenge
	// this client can answer.
	ErrBadChallenge = errors.New("sasl: not a digest-md5 challenge this client can answer")
	// ErrServerNotProven: the server's last token does not prove that it
	// knows the password (a wrong rspauth, or none).
	ErrServerNotProven = errors.New("sasl: the server did not prove it knows the password")
)

// DigestMD5 is the client side of RFC 2831's DIGEST-MD5 with qop auth
// (authentication only: no integrity or privacy layer, as ZooKeeper uses
// it), for user and password, against ZooKeeper's service
// (digest-uri zookeeper/zk-sasl-md5). Its String never shows the password.
type DigestMD5 struct {
	user, password string
	// cnonce makes the client nonce; nil means 16 random bytes.
	cnonce func() (string, error)
	// uri is the digest-uri; "" means ZooKeeper's.
	uri string

	step     int
	rspauth  string // the rspauth the server must send back
	complete bool
}

// NewDigestMD5 returns a DIGEST-MD5 exchange for user and password.
func NewDigestMD5(user, password string) *DigestMD5 {
	return &DigestMD5{user: user, password: password}
}

// Name implements Mechanism.
func (*DigestMD5) Name() string { return "DIGEST-MD5" }

// Complete implements Mechanism.
func (d *DigestMD5) Complete() bool { return d.complete }

// String names the mechanism and user, never the password.
func (d *DigestMD5) String() string { return "DIGEST-MD5 " + d.user }

// Step implements Mechanism: an empty first token (DIGEST-MD5 has no
// initial response), the digest response to the server's challenge, then
// the check of the server's rspauth, after which nothing is sent.
func (d *DigestMD5) Step(challenge []byte) ([]byte, error) {
	d.step++
	switch d.step {
	case 1:
		return []byte{}, nil
	case 2:
		return d.respond(challenge)
	case 3:
		return nil, d.verify(challenge)
	}
	return nil, fmt.Errorf("%w: a token after the exchange was complete", ErrBadChallenge)
}

// respond answers the digest challenge (RFC 2831 2.1.2).
func (d *DigestMD5) respond(challenge []byte) ([]byte, error) {
	if len(challenge) == 0 {
		return nil, fmt.Errorf("%w: the server sent no challenge (is SASL configured on the server, with a Server section in its JAAS file?)", ErrBadChallenge)
	}
	ch, err := parseDirectives(string(challenge))
	if err != nil {
		return nil, err
	}
	nonce := ch.get("nonce")
	if nonce == "" {
		return nil, fmt.Errorf("%w: no nonce", ErrBadChallenge)
	}
	if a := ch.get("algorithm"); a != "md5-sess" {
		return nil, fmt.Errorf("%w: algorithm %q, not md5-sess", ErrBadChallenge, printable(a))
	}
	if q := ch.get("qop"); q != "" && !hasToken(q, "auth") {
		return nil, fmt.Errorf("%w: qop %q does not offer auth", ErrBadChallenge, printable(q))
	}
	utf8 := ch.get("charset") == "utf-8"
	realm := ch.get("realm")
	gen := d.cnonce
	if gen == nil {
		gen = randomNonce
	}
	cnonce, err := gen()
	if err != nil {
		return nil, fmt.Errorf("sasl: client nonce: %w", err)
	}
	const nc = "00000001"
	digestURI := d.uri
	if digestURI == "" {
		digestURI = DigestProtocol + "/" + DigestServerName
	}
	user, pass, rlm := encode(d.user, utf8), encode(d.password, utf8), encode(realm, utf8)
	secret := md5.Sum([]byte(user + ":" + rlm + ":" + pass))
	a1 := string(secret[:]) + ":" + nonce + ":" + cnonce
	ha1 := hexMD5(a1)
	kd := func(a2 string) string {
		return hexMD5(ha1 + ":" + nonce + ":" + nc + ":" + cnonce + ":auth:" + hexMD5(a2))
	}
	response := kd("AUTHENTICATE:" + digestURI)
	d.rspauth = kd(":" + digestURI)

	var b strings.Builder
	if utf8 {
		b.WriteString("charset=utf-8,")
	}
	fmt.Fprintf(&b, "username=%s,", quote(user))
	if realm != "" {
		fmt.Fprintf(&b, "realm=%s,", quote(rlm))
	}
	fmt.Fprintf(&b, "nonce=%s,nc=%s,cnonce=%s,digest-uri=%s,maxbuf=65536,response=%s,qop=auth",
		quote(nonce), nc, quote(cnonce), quote(digestURI), response)
	return []byte(b.String()), nil
}

// verify checks the server's rspauth=… (RFC 2831 2.1.3).
func (d *DigestMD5) verify(token []byte) error {
	ds, err := parseDirectives(string(token))
	if err != nil {
		return fmt.Errorf("%w: %w", ErrServerNotProven, err)
	}
	got := ds.get("rspauth")
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(d.rspauth)) != 1 {
		return ErrServerNotProven
	}
	d.complete = true
	return nil
}

func hexMD5(s string) string {
	h := md5.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}

func randomNonce() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawStdEncoding.EncodeToString(b), nil
}

// encode gives s as the digest computes it: UTF-8 when the server said
// charset=utf-8, else ISO 8859-1 where every rune fits (RFC 2831 2.1.2.1).
func encode(s string, utf8 bool) string {
	if utf8 {
		return s
	}
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return s
		}
		out = append(out, byte(r))
	}
	return string(out)
}

// quote writes a quoted-string, escaping " and \.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// hasToken reports whether the comma-separated list holds tok.
func hasToken(list, tok string) bool {
	for _, t := range strings.Split(list, ",") {
		if strings.TrimSpace(t) == tok {
			return true
		}
	}
	return false
}

// printable keeps what a server sent fit for an operator's terminal.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
