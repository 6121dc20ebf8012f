package sasl

import (
	"errors"
	"strings"
	"testing"
)

// rfcChallenge is RFC 2831 section 4's example challenge.
const rfcChallenge = `realm="elwood.innosoft.com",nonce="OA6MG9tEQGm2hh",qop="auth",algorithm=md5-sess,charset=utf-8`

func rfcExchange() *DigestMD5 {
	d := NewDigestMD5("chris", "secret")
	d.uri = "imap/elwood.innosoft.com"
	d.cnonce = func() (string, error) { return "OA6MHXh6VqTrRk", nil }
	return d
}

// TestDigestMD5RFCExample checks the response and rspauth against RFC
// 2831's worked example.
func TestDigestMD5RFCExample(t *testing.T) {
	d := rfcExchange()
	first, err := d.Step(nil)
	if err != nil || first == nil || len(first) != 0 {
		t.Fatalf("first token = %q, %v; want an empty, non-nil token", first, err)
	}
	resp, err := d.Step([]byte(rfcChallenge))
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseDirectives(string(resp))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"username": "chris", "realm": "elwood.innosoft.com", "nonce": "OA6MG9tEQGm2hh",
		"nc": "00000001", "cnonce": "OA6MHXh6VqTrRk", "digest-uri": "imap/elwood.innosoft.com",
		"response": "d388dad90d4bbd760a152321f2143af7", "qop": "auth", "charset": "utf-8"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if d.Complete() {
		t.Fatal("complete before the server proved itself")
	}
	last, err := d.Step([]byte("rspauth=ea40f60335c427b5527b84dbabcdfffd"))
	if err != nil || last != nil || !d.Complete() {
		t.Fatalf("after rspauth: %q, %v, complete %v", last, err, d.Complete())
	}
}

func TestDigestMD5Refusals(t *testing.T) {
	for _, tc := range []struct {
		name      string
		challenge string
		rspauth   string
		want      error
	}{
		{"no challenge", "", "", ErrBadChallenge},
		{"garbage", "\x00\x01\xff", "", ErrBadChallenge},
		{"no nonce", `realm="r",qop="auth",algorithm=md5-sess`, "", ErrBadChallenge},
		{"other algorithm", `nonce="n",qop="auth",algorithm=md5`, "", ErrBadChallenge},
		{"no auth qop", `nonce="n",qop="auth-conf",algorithm=md5-sess`, "", ErrBadChallenge},
		{"unterminated", `nonce="n,algorithm=md5-sess`, "", ErrBadChallenge},
		{"wrong rspauth", rfcChallenge, "rspauth=00000000000000000000000000000000", ErrServerNotProven},
		{"no rspauth", rfcChallenge, "", ErrServerNotProven},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := rfcExchange()
			d.Step(nil)
			_, err := d.Step([]byte(tc.challenge))
			if err == nil {
				_, err = d.Step([]byte(tc.rspauth))
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Fatalf("the error shows the password: %v", err)
			}
			if d.Complete() {
				t.Fatal("complete after a refusal")
			}
		})
	}
}

func TestDigestMD5Escapes(t *testing.T) {
	d := NewDigestMD5(`a"b\c`, "pw")
	d.Step(nil)
	resp, err := d.Step([]byte(`nonce="n",algorithm=md5-sess,charset=utf-8`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseDirectives(string(resp))
	if err != nil {
		t.Fatal(err)
	}
	if got["username"] != `a"b\c` || got["digest-uri"] != "zookeeper/zk-sasl-md5" {
		t.Fatalf("username %q, digest-uri %q", got["username"], got["digest-uri"])
	}
	if strings.Contains(d.String(), "pw") {
		t.Fatalf("String shows the password: %s", d)
	}
}

func FuzzParseDirectives(f *testing.F) {
	f.Add(rfcChallenge)
	f.Add(`a="\`)
	f.Fuzz(func(t *testing.T, s string) { parseDirectives(s) })
}
