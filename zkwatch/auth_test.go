package zkwatch

import (
	"fmt"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		secrets []string
		want    string
	}{
		{"nothing to mask", "connected to zk1:2181", []string{"hunter2"}, "connected to zk1:2181"},
		{"every occurrence", "a hunter2 b hunter2", []string{"hunter2"}, "a **** b ****"},
		{"longest first", "ops:hunter2 and hunter2", []string{"hunter2", "ops:hunter2"}, "**** and ****"},
		{"empty secret ignored", "text", []string{""}, "text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var secrets [][]byte
			for _, s := range tc.secrets {
				secrets = append(secrets, []byte(s))
			}
			if got := Redact(tc.in, secrets...); got != tc.want {
				t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

type lines []string

func (l *lines) Printf(format string, args ...interface{}) {
	*l = append(*l, fmt.Sprintf(format, args...))
}

func TestRedactLoggerMasksPasswords(t *testing.T) {
	var got lines
	lg := newRedactLogger(&got, []Auth{DigestAuth("ops", "s3cret"), {Scheme: "digest"}})
	lg.Printf("auth %s failed", "ops:s3cret")
	lg.Printf("password %q", "s3cret")
	lg.Printf("100%% done, %d", 3) // formatting survives
	want := lines{"auth **** failed", `password "****"`, "100% done, 3"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("logged %q, want %q", got, want)
	}
	var plain lines
	if lg := newRedactLogger(&plain, nil); lg != &plain {
		t.Errorf("without credentials the logger should be passed through")
	}
}

func TestAuthNeverFormatsSecret(t *testing.T) {
	opt := Options{Auth: []Auth{DigestAuth("ops", "s3cret")}}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		if s := fmt.Sprintf(verb, opt); strings.Contains(s, "s3cret") {
			t.Errorf("%s of Options shows the secret: %s", verb, s)
		}
	}
	if s := fmt.Sprint(opt.Auth[0]); s != "digest:****" {
		t.Errorf("Auth prints %q", s)
	}
}

func TestSASLAuthNeverFormatsSecret(t *testing.T) {
	opt := Options{Auth: []Auth{SASLDigestAuth("ops", "s4sl-s3cret")}}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		if s := fmt.Sprintf(verb, opt); strings.Contains(s, "s4sl-s3cret") {
			t.Errorf("%s of Options shows the secret: %s", verb, s)
		}
	}
	m, err := opt.Auth[0].Mechanism("zk1")
	if err != nil || m.Name() != "DIGEST-MD5" || strings.Contains(fmt.Sprint(m), "s4sl-s3cret") {
		t.Errorf("mechanism %v, %v", m, err)
	}
	if _, _, err := saslAuth([]Auth{opt.Auth[0], opt.Auth[0]}); err == nil {
		t.Error("two sasl credentials were taken")
	}
}
