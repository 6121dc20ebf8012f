package sasl

import (
	"encoding/binary"
	"fmt"

	"github.com/jcmturner/gofork/encoding/asn1"
	"github.com/jcmturner/gokrb5/v8/asn1tools"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/types"
)

// Token identifiers of the Kerberos mechanism (RFC 1964 1.1, RFC 4121 4.1
// and 4.2.6.2).
var (
	tokAPReq = []byte{0x01, 0x00}
	tokAPRep = []byte{0x02, 0x00}
	tokError = []byte{0x03, 0x00}
	tokWrap  = []byte{0x05, 0x04}
)

// Flags of an RFC 4121 wrap token.
const (
	wrapSentByAcceptor = 0x01
	wrapSealed         = 0x02
	wrapAcceptorSubkey = 0x04
)

// wrapHeaderLen is an RFC 4121 wrap token's header length.
const wrapHeaderLen = 16

// initialContextToken frames an AP-REQ as a GSS-API initial context token
// (RFC 2743 3.1, RFC 4121 4.1): an application-tagged sequence of the
// Kerberos mechanism's OID, the AP-REQ token identifier and the AP-REQ.
func initialContextToken(apReq messages.APReq) ([]byte, error) {
	req, err := apReq.Marshal()
	if err != nil {
		return nil, fmt.Errorf("encode the ap-req: %w", err)
	}
	oid, err := asn1.Marshal(gssapi.OIDKRB5.OID())
	if err != nil {
		return nil, fmt.Errorf("encode the kerberos oid: %w", err)
	}
	body := append(append(oid, tokAPReq...), req...)
	return asn1tools.AddASNAppTag(body, 0), nil
}

// contextToken splits a server's context token (an AP-REP or a KRB-ERROR,
// framed as the initial token is) into its token identifier and message.
func contextToken(b []byte) (tokID, msg []byte, err error) {
	var oid asn1.ObjectIdentifier
	rest, err := asn1.UnmarshalWithParams(b, &oid, "application,explicit,tag:0")
	if err != nil {
		return nil, nil, fmt.Errorf("%w: not a gss-api context token", ErrServerToken)
	}
	if !oid.Equal(gssapi.OIDKRB5.OID()) {
		return nil, nil, fmt.Errorf("%w: a token of mechanism %s, not kerberos", ErrServerToken, oid)
	}
	if len(rest) < 2 {
		return nil, nil, fmt.Errorf("%w: context token too short", ErrServerToken)
	}
	return rest[:2], rest[2:], nil
}

// checkAPRep opens the server's AP-REP with the ticket's session key and
// checks that it answers our authenticator (RFC 4120 3.2.5): only a holder
// of the service's key could read the authenticator's time, so mutual
// authentication rests on this. It returns the reply's encrypted part.
func checkAPRep(msg []byte, sessionKey types.EncryptionKey, auth types.Authenticator) (messages.EncAPRepPart, error) {
	var rep messages.APRep
	var part messages.EncAPRepPart
	if err := rep.Unmarshal(msg); err != nil {
		return part, fmt.Errorf("%w: its ap-rep does not decode", ErrServerToken)
	}
	plain, err := crypto.DecryptEncPart(rep.EncPart, sessionKey, keyusage.AP_REP_ENCPART)
	if err != nil {
		return part, fmt.Errorf("%w: its ap-rep is not sealed with the ticket's session key (a server without the service's key)", ErrServerToken)
	}
	if err := part.Unmarshal(plain); err != nil {
		return part, fmt.Errorf("%w: its ap-rep's encrypted part does not decode", ErrServerToken)
	}
	// The authenticator's time travels in whole seconds (KerberosTime),
	// its microseconds in cusec.
	if part.CTime.Unix() != auth.CTime.Unix() || part.Cusec != auth.Cusec {
		return part, fmt.Errorf("%w: its ap-rep answers another authenticator", ErrServerToken)
	}
	return part, nil
}

// unwrap checks an RFC 4121 wrap token sent by the acceptor without
// confidentiality, as the security-layer negotiation's tokens are
// (RFC 4752 3.1), and returns its payload.
func unwrap(b []byte, key types.EncryptionKey) ([]byte, error) {
	if len(b) > 0 && b[0] == 0x60 {
		// RFC 1964's tokens are framed as context tokens: an old
		// encryption type (DES or RC4) that RFC 4121's wrap tokens
		// replaced.
		return nil, fmt.Errorf("%w: a pre-RFC 4121 wrap token (the service's key is of an old encryption type such as rc4-hmac; give it an aes key)", ErrServerToken)
	}
	var wt gssapi.WrapToken
	if err := wt.Unmarshal(rotate(b), true); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrServerToken, err)
	}
	if wt.Flags&wrapSealed != 0 {
		return nil, fmt.Errorf("%w: the security-layer token is sealed, where RFC 4752 sends it in clear", ErrServerToken)
	}
	if ok, err := wt.Verify(key, keyusage.GSSAPI_ACCEPTOR_SEAL); !ok {
		return nil, fmt.Errorf("%w: the security-layer token's checksum does not verify: %v", ErrServerToken, err)
	}
	return wt.Payload, nil
}

// rotate undoes a wrap token's right rotation count (RFC 4121 4.2.5): the
// data after the header was rotated right by RRC bytes.
func rotate(b []byte) []byte {
	if len(b) < wrapHeaderLen {
		return b
	}
	rrc := int(binary.BigEndian.Uint16(b[6:8]))
	data := b[wrapHeaderLen:]
	if rrc == 0 || len(data) == 0 {
		return b
	}
	rrc %= len(data)
	out := make([]byte, 0, len(b))
	out = append(out, b[:6]...)
	out = append(out, 0, 0)
	out = append(out, b[8:wrapHeaderLen]...)
	out = append(out, data[rrc:]...)
	return append(out, data[:rrc]...)
}

// wrap builds the initiator's RFC 4121 wrap token around payload, with
// integrity and no confidentiality, its sequence number seq (the one our
// authenticator announced).
func wrap(payload []byte, key types.EncryptionKey, seq uint64, acceptorSubkey bool) ([]byte, error) {
	e, err := crypto.GetEtype(key.KeyType)
	if err != nil {
		return nil, fmt.Errorf("wrap the security-layer answer: %w", err)
	}
	wt := gssapi.WrapToken{EC: uint16(e.GetHMACBitLength() / 8), SndSeqNum: seq, Payload: payload}
	if acceptorSubkey {
		wt.Flags |= wrapAcceptorSubkey
	}
	if err := wt.SetCheckSum(key, keyusage.GSSAPI_INITIATOR_SEAL); err != nil {
		return nil, fmt.Errorf("wrap the security-layer answer: %w", err)
	}
	return wt.Marshal()
}
