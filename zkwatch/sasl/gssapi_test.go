package sasl

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/jcmturner/gofork/encoding/asn1"
	"github.com/jcmturner/gokrb5/v8/asn1tools"
	"github.com/jcmturner/gokrb5/v8/crypto"
	"github.com/jcmturner/gokrb5/v8/crypto/etype"
	"github.com/jcmturner/gokrb5/v8/gssapi"
	"github.com/jcmturner/gokrb5/v8/iana/etypeID"
	"github.com/jcmturner/gokrb5/v8/iana/flags"
	"github.com/jcmturner/gokrb5/v8/iana/keyusage"
	"github.com/jcmturner/gokrb5/v8/iana/nametype"
	"github.com/jcmturner/gokrb5/v8/keytab"
	"github.com/jcmturner/gokrb5/v8/messages"
	"github.com/jcmturner/gokrb5/v8/service"
	"github.com/jcmturner/gokrb5/v8/spnego"
	"github.com/jcmturner/gokrb5/v8/types"
)

const testRealm = "EXAMPLE.COM"

// acceptor is the server's side of the exchange as a GSS-API acceptor
// holding the service's key does it, built from gokrb5's own acceptor
// code (service.VerifyAPREQ), to check our tokens against.
type acceptor struct {
	t      *testing.T
	kt     *keytab.Keytab
	ticket Ticket
	apReq  messages.APReq
}

func newAcceptor(t *testing.T) *acceptor {
	t.Helper()
	kt := keytab.New()
	if err := kt.AddEntry("zookeeper/localhost", testRealm, "service secret", time.Now(), 1, etypeID.AES256_CTS_HMAC_SHA1_96); err != nil {
		t.Fatal(err)
	}
	client := types.NewPrincipalName(nametype.KRB_NT_PRINCIPAL, "alice")
	now := time.Now().UTC()
	tkt, key, err := messages.NewTicket(client, testRealm, types.NewPrincipalName(nametype.KRB_NT_SRV_HST, "zookeeper/localhost"), testRealm,
		types.NewKrbFlags(), kt, etypeID.AES256_CTS_HMAC_SHA1_96, 1, now, now, now.Add(time.Hour), now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	return &acceptor{t: t, kt: kt, ticket: Ticket{Ticket: tkt, SessionKey: key, Client: client, Realm: testRealm}}
}

// accept checks the initial token as an acceptor does: a GSS-API initial
// context token of the Kerberos mechanism around an AP-REQ whose ticket
// and authenticator verify.
func (a *acceptor) accept(token []byte) {
	a.t.Helper()
	var k spnego.KRB5Token
	if err := k.Unmarshal(token); err != nil {
		a.t.Fatalf("initial token: %v", err)
	}
	if !k.IsAPReq() {
		a.t.Fatalf("initial token is not an ap-req")
	}
	a.apReq = k.APReq
	ok, creds, err := service.VerifyAPREQ(&a.apReq, service.NewSettings(a.kt))
	if !ok || err != nil {
		a.t.Fatalf("the acceptor refuses the ap-req: %v", err)
	}
	if creds.UserName() != "alice" || creds.Domain() != testRealm {
		a.t.Fatalf("ap-req for %s@%s, want alice@%s", creds.UserName(), creds.Domain(), testRealm)
	}
}

// apRep is the acceptor's AP-REP answering auth, sealed with key.
func (a *acceptor) apRep(auth types.Authenticator, key types.EncryptionKey, subkey *types.EncryptionKey) []byte {
	a.t.Helper()
	part := messages.EncAPRepPart{CTime: auth.CTime, Cusec: auth.Cusec, SequenceNumber: 7}
	if subkey != nil {
		part.Subkey = *subkey
	}
	b, err := asn1.Marshal(part)
	if err != nil {
		a.t.Fatal(err)
	}
	enc, err := crypto.GetEncryptedData(asn1tools.AddASNAppTag(b, 27), key, keyusage.AP_REP_ENCPART, 0)
	if err != nil {
		a.t.Fatal(err)
	}
	rep, err := asn1.Marshal(messages.APRep{PVNO: 5, MsgType: 15, EncPart: enc})
	if err != nil {
		a.t.Fatal(err)
	}
	return frame(a.t, tokAPRep, asn1tools.AddASNAppTag(rep, 15))
}

// frame wraps msg as a context token of the Kerberos mechanism.
func frame(t *testing.T, tokID, msg []byte) []byte {
	oid, err := asn1.Marshal(gssapi.OIDKRB5.OID())
	if err != nil {
		t.Fatal(err)
	}
	return asn1tools.AddASNAppTag(append(append(oid, tokID...), msg...), 0)
}

// offer is the acceptor's wrapped security-layer offer.
func offer(t *testing.T, layers byte, key types.EncryptionKey, extraFlags byte) []byte {
	t.Helper()
	wt := gssapi.WrapToken{Flags: wrapSentByAcceptor | extraFlags, EC: 12, SndSeqNum: 7, Payload: []byte{layers, 0x01, 0x00, 0x00}}
	if err := wt.SetCheckSum(key, keyusage.GSSAPI_ACCEPTOR_SEAL); err != nil {
		t.Fatal(err)
	}
	b, err := wt.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestGSSAPIExchange(t *testing.T) {
	for _, tc := range []struct {
		name           string
		acceptorSubkey bool
		rrc            uint16
	}{
		{"initiator subkey", false, 0},
		{"acceptor subkey", true, 0},
		{"rotated offer", false, 28},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAcceptor(t)
			m := NewGSSAPI(a.ticket, "alice@"+testRealm)
			if m.Name() != "GSSAPI" {
				t.Fatalf("Name = %q", m.Name())
			}
			first, err := m.Step(nil)
			if err != nil {
				t.Fatal(err)
			}
			a.accept(first)
			if !types.IsFlagSet(&a.apReq.APOptions, flags.APOptionMutualRequired) {
				t.Fatalf("the ap-req does not require mutual authentication")
			}
			auth := a.apReq.Authenticator
			if got := binary.LittleEndian.Uint32(auth.Cksum.Checksum[20:24]); got != 0x3e {
				t.Fatalf("context flags %#x, want mutual|replay|sequence|conf|integ (0x3e)", got)
			}
			if len(auth.SubKey.KeyValue) == 0 {
				t.Fatalf("the authenticator has no subkey")
			}
			key := auth.SubKey
			var sub *types.EncryptionKey
			if tc.acceptorSubkey {
				k, err := types.GenerateEncryptionKey(mustEtype(t))
				if err != nil {
					t.Fatal(err)
				}
				sub, key = &k, k
			}
			empty, err := m.Step(a.apRep(auth, a.ticket.SessionKey, sub))
			if err != nil {
				t.Fatal(err)
			}
			if empty == nil || len(empty) != 0 || m.Complete() {
				t.Fatalf("after the ap-rep: token %x (nil %t), complete %t; want an empty token, not complete", empty, empty == nil, m.Complete())
			}
			extra := byte(0)
			if tc.acceptorSubkey {
				extra = wrapAcceptorSubkey
			}
			o := offer(t, layerNone|layerIntegrity|layerPrivacy, key, extra)
			if tc.rrc != 0 {
				o = rotateRight(o, tc.rrc)
			}
			answer, err := m.Step(o)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Complete() {
				t.Fatalf("not complete after the answer")
			}
			var wt gssapi.WrapToken
			if err := wt.Unmarshal(answer, false); err != nil {
				t.Fatal(err)
			}
			if ok, err := wt.Verify(key, keyusage.GSSAPI_INITIATOR_SEAL); !ok {
				t.Fatalf("the answer's checksum: %v", err)
			}
			if want := append([]byte{1, 0, 0, 0}, "alice@"+testRealm...); !bytes.Equal(wt.Payload, want) {
				t.Fatalf("answer %q, want %q", wt.Payload, want)
			}
			if wt.SndSeqNum != uint64(auth.SeqNumber) {
				t.Fatalf("answer's sequence number %d, want the authenticator's %d", wt.SndSeqNum, auth.SeqNumber)
			}
			if got := wt.Flags&wrapAcceptorSubkey != 0; got != tc.acceptorSubkey {
				t.Fatalf("answer's acceptor-subkey flag %t, want %t", got, tc.acceptorSubkey)
			}
			if _, err := m.Step([]byte{}); !errors.Is(err, ErrServerToken) {
				t.Fatalf("a token after completion: %v, want ErrServerToken", err)
			}
		})
	}
}

// rotateRight rotates a wrap token's data right by rrc bytes and records
// it in the header, as an acceptor may send it (RFC 4121 4.2.5).
func rotateRight(b []byte, rrc uint16) []byte {
	data := b[wrapHeaderLen:]
	n := int(rrc) % len(data)
	out := append([]byte(nil), b[:wrapHeaderLen]...)
	binary.BigEndian.PutUint16(out[6:8], rrc)
	out = append(out, data[len(data)-n:]...)
	return append(out, data[:len(data)-n]...)
}

func TestGSSAPIRefusesServerTokens(t *testing.T) {
	other, err := types.GenerateEncryptionKey(mustEtype(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		// rep and offer build the server's two tokens; a nil offer
		// stops at the ap-rep.
		rep   func(a *acceptor, auth types.Authenticator) []byte
		offer func(a *acceptor, key types.EncryptionKey) []byte
		want  error
	}{
		{"ap-rep sealed with another key", func(a *acceptor, auth types.Authenticator) []byte {
			return a.apRep(auth, other, nil)
		}, nil, ErrServerToken},
		{"ap-rep for another authenticator", func(a *acceptor, auth types.Authenticator) []byte {
			auth.CTime = auth.CTime.Add(-time.Second)
			return a.apRep(auth, a.ticket.SessionKey, nil)
		}, nil, ErrServerToken},
		{"not a context token", func(*acceptor, types.Authenticator) []byte { return []byte("hello") }, nil, ErrServerToken},
		{"kerberos error: clock skew", func(a *acceptor, _ types.Authenticator) []byte {
			return frame(t, tokError, krbError(t, 37))
		}, nil, ErrClockSkew},
		{"offer without 'no security layer'", nil, func(a *acceptor, key types.EncryptionKey) []byte {
			return offer(t, layerIntegrity|layerPrivacy, key, 0)
		}, ErrServerToken},
		{"offer with a bad checksum", nil, func(a *acceptor, key types.EncryptionKey) []byte {
			return offer(t, layerNone, other, 0)
		}, ErrServerToken},
		{"sealed offer", nil, func(a *acceptor, key types.EncryptionKey) []byte {
			return offer(t, layerNone, key, wrapSealed)
		}, ErrServerToken},
		{"pre-RFC 4121 token", nil, func(a *acceptor, key types.EncryptionKey) []byte {
			return frame(t, []byte{0x02, 0x01}, make([]byte, 40))
		}, ErrServerToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAcceptor(t)
			m := NewGSSAPI(a.ticket, "alice@"+testRealm)
			first, err := m.Step(nil)
			if err != nil {
				t.Fatal(err)
			}
			a.accept(first)
			auth := a.apReq.Authenticator
			rep := a.apRep(auth, a.ticket.SessionKey, nil)
			if tc.rep != nil {
				rep = tc.rep(a, auth)
			}
			_, err = m.Step(rep)
			if tc.offer != nil {
				if err != nil {
					t.Fatalf("ap-rep: %v", err)
				}
				_, err = m.Step(tc.offer(a, auth.SubKey))
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if m.Complete() {
				t.Fatalf("complete after a refused token")
			}
		})
	}
}

// krbError is a KRB-ERROR message with code, as a server's GSS-API
// acceptor may answer an AP-REQ it refuses.
func krbError(t *testing.T, code int32) []byte {
	t.Helper()
	e := messages.KRBError{PVNO: 5, MsgType: 30, STime: time.Now().UTC(), ErrorCode: code, Realm: testRealm,
		SName: types.NewPrincipalName(nametype.KRB_NT_SRV_HST, "zookeeper/localhost")}
	b, err := asn1.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return asn1tools.AddASNAppTag(b, 30)
}

func mustEtype(t *testing.T) etype.EType {
	t.Helper()
	e, err := crypto.GetEtype(etypeID.AES256_CTS_HMAC_SHA1_96)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
