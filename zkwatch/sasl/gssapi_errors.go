package sasl

import (
	"errors"
	"strings"

	"github.com/jcmturner/gokrb5/v8/krberror"
)

// The Kerberos failures an operator can act on, each matched with
// errors.Is. Their messages, and those of the errors wrapping them, name
// principals, realms, files and KDC addresses, never a key or a ticket.
var (
	// ErrKerberosConfig: krb5.conf cannot be read, or it does not say
	// where the realm's KDCs are.
	ErrKerberosConfig = errors.New("sasl: kerberos configuration")
	// ErrKeytab: the keytab cannot be read, or holds no key of the
	// client principal.
	ErrKeytab = errors.New("sasl: keytab")
	// ErrWrongKey: the KDC refused the keytab's key for the principal:
	// the keytab is out of date (the principal's key was changed since)
	// or was made for a principal of the same name in another database.
	ErrWrongKey = errors.New("sasl: the keytab's key is not the principal's")
	// ErrUnknownPrincipal: the KDC does not know the client principal.
	ErrUnknownPrincipal = errors.New("sasl: principal unknown to the KDC")
	// ErrUnknownService: the KDC does not know ZooKeeper's service
	// principal (zookeeper/HOST@REALM by default).
	ErrUnknownService = errors.New("sasl: service principal unknown to the KDC")
	// ErrClockSkew: this host's clock and the KDC's (or the server's)
	// differ by more than the allowed skew (5 minutes by default).
	ErrClockSkew = errors.New("sasl: clock skew too great")
	// ErrKDCUnreachable: no KDC of the realm answered.
	ErrKDCUnreachable = errors.New("sasl: no KDC reachable")
	// ErrCredentialCache: the credential cache cannot be read, holds
	// another principal or no ticket-granting ticket, or its ticket
	// expired.
	ErrCredentialCache = errors.New("sasl: credential cache")
	// ErrServerToken: the server's token is not what the GSSAPI exchange
	// expects at this step, or does not prove the server holds the
	// service's key.
	ErrServerToken = errors.New("sasl: server's gssapi token refused")
)

// kdcErrorCodes names the KDC's error codes (RFC 4120 7.5.9, as gokrb5's
// errorcode package spells them in a KRBError's text) this package tells
// apart, with what each means here.
var kdcErrorCodes = []struct {
	name string
	err  error
}{
	{"KDC_ERR_C_PRINCIPAL_UNKNOWN", ErrUnknownPrincipal},
	{"KDC_ERR_S_PRINCIPAL_UNKNOWN", ErrUnknownService},
	{"KDC_ERR_PREAUTH_FAILED", ErrWrongKey},
	{"KRB_AP_ERR_BAD_INTEGRITY", ErrWrongKey},
	{"KRB_AP_ERR_SKEW", ErrClockSkew},
}

// classifyKerberos returns the sentinel that err, an error of gokrb5's
// client, stands for, or nil when it is none of them. gokrb5 flattens the
// KDC's KRBError into its error's text (krberror.Errorf keeps only the
// first error's kind, RootCause), so the KDC's code is found by its name
// there; the name is the RFC's, stable across gokrb5 versions.
func classifyKerberos(err error) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	for _, c := range kdcErrorCodes {
		if strings.Contains(text, c.name) {
			return c.err
		}
	}
	var kerr krberror.Krberror
	if errors.As(err, &kerr) {
		switch kerr.RootCause {
		case krberror.NetworkingError:
			return ErrKDCUnreachable
		case krberror.DecryptingError:
			// The AS reply is encrypted with the principal's key; one the
			// keytab's key cannot open was sealed with another key.
			return ErrWrongKey
		}
	}
	switch {
	case strings.Contains(text, "clock skew"):
		return ErrClockSkew
	case strings.Contains(text, "failed to communicate with KDC"), strings.Contains(text, "error sending to a KDC"):
		return ErrKDCUnreachable
	}
	return nil
}
