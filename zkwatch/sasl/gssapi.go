package sasl

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/chksumtype"
	"github.com/jcmturner/gokrb5/v8/iana/flags"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// Security layers of RFC 4752 3.1's negotiation, a bit mask in the
// server's first wrapped byte and the one the client chooses.
const (
	layerNone      = 1
	layerIntegrity = 2
	layerPrivacy   = 4
)

// contextFlags are the GSS-API flags our authenticator's checksum asks
// for. Java's GSS-API SASL client (GssKrb5Client) asks for confidentiality
// and integrity (the security layer is chosen later, in the negotiation)
// and, for ZooKeeper's client, which wants no security layer, not for
// mutual authentication. We ask for mutual authentication as well, with
// replay and sequence detection: the server's AP-REP then proves it holds
// the service's key before the session acts as our identity. ZooKeeper's
// server (GssKrb5Server) answers it; the exchange gains one round trip.
var contextFlags = []int{gssapi.ContextFlagMutual, gssapi.ContextFlagReplay, gssapi.ContextFlagSequence,
	gssapi.ContextFlagConf, gssapi.ContextFlagInteg}

// gssapiStep is where an exchange stands.
type gssapiStep int

const (
	stepInitial gssapiStep = iota // nothing sent
	stepAPRep                     // the AP-REQ sent: the server's AP-REP next
	stepLayers                    // the context established: the server's offer of security layers next
	stepDone                      // the client's choice sent
)

// Ticket is a service ticket for one exchange: the ticket the KDC issued
// for ZooKeeper's service principal, its session key, and the client
// principal it was issued to.
type Ticket struct {
	Ticket     messages.Ticket
	SessionKey types.EncryptionKey
	// Client is the client principal's name, Realm its realm.
	Client types.PrincipalName
	Realm  string
}

// gssapiMechanism is the GSSAPI mechanism's client side (RFC 4752) over
// Kerberos 5 (RFC 4121), for one exchange.
type gssapiMechanism struct {
	t       Ticket
	authzID string
	step    gssapiStep
	// auth is the authenticator sent, which the AP-REP must answer.
	auth types.Authenticator
	// key protects the wrap tokens: the acceptor's subkey when its AP-REP
	// has one, our authenticator's subkey otherwise (RFC 4121 2).
	key            types.EncryptionKey
	acceptorSubkey bool
}

// NewGSSAPI returns the GSSAPI mechanism for one exchange with ticket. Its
// first token is the AP-REQ, as a GSS-API initial context token, asking
// for mutual authentication; then it checks the server's AP-REP, answers
// it with an empty token (as Java's client does once its context is
// established), and answers the server's offer of security layers with
// "no security layer", a maximum message size of 0, and authzID: the
// client principal, "name@REALM", as ZooKeeper's Java client sends it.
func NewGSSAPI(ticket Ticket, authzID string) Mechanism {
	return &gssapiMechanism{t: ticket, authzID: authzID}
}

// Name is "GSSAPI".
func (m *gssapiMechanism) Name() string { return "GSSAPI" }

// Complete reports whether the client's choice of security layer was sent.
func (m *gssapiMechanism) Complete() bool { return m.step == stepDone }

// Step answers the server's last token (nil before the first).
func (m *gssapiMechanism) Step(challenge []byte) ([]byte, error) {
	switch m.step {
	case stepInitial:
		return m.apReq()
	case stepAPRep:
		return m.apRep(challenge)
	case stepLayers:
		return m.layers(challenge)
	}
	return nil, fmt.Errorf("%w: a token after the exchange completed", ErrServerToken)
}

// apReq builds the initial token: an AP-REQ for the ticket whose
// authenticator carries the GSS-API checksum of our context flags, a
// fresh subkey and our initial sequence number, with mutual
// authentication required.
func (m *gssapiMechanism) apReq() ([]byte, error) {
	auth, err := types.NewAuthenticator(m.t.Realm, m.t.Client)
	if err != nil {
		return nil, fmt.Errorf("make the authenticator: %w", err)
	}
	e, err := crypto.GetEtype(m.t.SessionKey.KeyType)
	if err != nil {
		return nil, fmt.Errorf("the ticket's session key: %w", err)
	}
	if err := auth.GenerateSeqNumberAndSubKey(m.t.SessionKey.KeyType, e.GetKeyByteSize()); err != nil {
		return nil, fmt.Errorf("make the authenticator's subkey: %w", err)
	}
	auth.Cksum = types.Checksum{CksumType: chksumtype.GSSAPI, Checksum: gssChecksum(contextFlags)}
	req, err := messages.NewAPReq(m.t.Ticket, m.t.SessionKey, auth)
	if err != nil {
		return nil, fmt.Errorf("make the ap-req: %w", err)
	}
	types.SetFlag(&req.APOptions, flags.APOptionMutualRequired)
	token, err := initialContextToken(req)
	if err != nil {
		return nil, err
	}
	m.auth, m.key, m.step = auth, auth.SubKey, stepAPRep
	return token, nil
}

// gssChecksum is the authenticator checksum of RFC 4121 4.1.1: the length
// of the (empty) channel bindings hash, that hash, and the context flags,
// little-endian; no delegation.
func gssChecksum(ctxFlags []int) []byte {
	b := make([]byte, 24)
	binary.LittleEndian.PutUint32(b[:4], 16)
	var f uint32
	for _, flag := range ctxFlags {
		f |= uint32(flag)
	}
	binary.LittleEndian.PutUint32(b[20:24], f)
	return b
}

// apRep checks the server's AP-REP and answers with an empty token, as
// Java's client does once its context is established (the server then
// offers its security layers).
func (m *gssapiMechanism) apRep(challenge []byte) ([]byte, error) {
	tokID, msg, err := contextToken(challenge)
	if err != nil {
		return nil, err
	}
	switch {
	case bytes.Equal(tokID, tokError):
		var kerr messages.KRBError
		if err := kerr.Unmarshal(msg); err != nil {
			return nil, fmt.Errorf("%w: a kerberos error that does not decode", ErrServerToken)
		}
		if c := classifyKerberos(kerr); c != nil {
			return nil, fmt.Errorf("the server refused the ticket: %w", c)
		}
		return nil, fmt.Errorf("%w: the server refused the ticket: %v", ErrServerToken, kerr)
	case !bytes.Equal(tokID, tokAPRep):
		return nil, fmt.Errorf("%w: token %x where an ap-rep was expected", ErrServerToken, tokID)
	}
	part, err := checkAPRep(msg, m.t.SessionKey, m.auth)
	if err != nil {
		return nil, err
	}
	if len(part.Subkey.KeyValue) > 0 {
		m.key, m.acceptorSubkey = part.Subkey, true
	}
	m.step = stepLayers
	return []byte{}, nil
}

// layers reads the server's offer (the layers it supports and its largest
// message) and answers, wrapped, "no security layer", a maximum message
// size of 0 (no layer, no messages) and the authorization identity.
func (m *gssapiMechanism) layers(challenge []byte) ([]byte, error) {
	offer, err := unwrap(challenge, m.key)
	if err != nil {
		return nil, err
	}
	if len(offer) != 4 {
		return nil, fmt.Errorf("%w: the security-layer offer has %d bytes, not 4", ErrServerToken, len(offer))
	}
	if offer[0]&layerNone == 0 {
		return nil, fmt.Errorf("%w: the server requires a security layer (offer %#x: integrity %t, privacy %t), which ZooKeeper's clients never use",
			ErrServerToken, offer[0], offer[0]&layerIntegrity != 0, offer[0]&layerPrivacy != 0)
	}
	answer := append([]byte{layerNone, 0, 0, 0}, m.authzID...)
	token, err := wrap(answer, m.key, uint64(m.auth.SeqNumber), m.acceptorSubkey)
	if err != nil {
		return nil, err
	}
	m.step = stepDone
	return token, nil
}
