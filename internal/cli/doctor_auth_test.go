package cli

import "testing"

// TestAuthenticatesBySASL: doctor says a session with a Kerberos login
// meets a cluster's required SASL as one with a DIGEST-MD5 password does;
// a digest addauth does not.
func TestAuthenticatesBySASL(t *testing.T) {
	for _, tc := range []struct {
		schemes []string
		want    bool
	}{
		{nil, false},
		{[]string{"digest"}, false},
		{[]string{"sasl"}, true},
		{[]string{kerberosScheme}, true},
		{[]string{"digest", kerberosScheme}, true},
	} {
		var creds []credential
		for _, s := range tc.schemes {
			creds = append(creds, credential{scheme: s})
		}
		if got := authenticatesBySASL(creds); got != tc.want {
			t.Errorf("%v: %t, want %t", tc.schemes, got, tc.want)
		}
	}
}
