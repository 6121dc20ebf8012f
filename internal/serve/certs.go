package serve

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/zklocks/zklocks/lockcore"
	gossh "golang.org/x/crypto/ssh"
)

// The authorized-keys options of a certificate authority's line, as
// OpenSSH spells them:
//
//	cert-authority,principals="oncall",zklocks-role="operate" ssh-ed25519 AAAA… ca@corp
const (
	certAuthorityOption = "cert-authority"
	principalsOption    = "principals"
)

// The certificate's critical option zklocks serve enforces, and its
// extension it honours; any other critical option refuses the
// certificate (force-command and verify-required too: this server runs
// its UI only and cannot verify a security key's user presence, so it
// could keep neither promise).
const (
	sourceAddressOption = "source-address"
	permitPTYExtension  = "permit-pty"
)

// errNotAdmitted is the sentinel of every refusal of a key or certificate
// at sign-in; the wrapped text says why, in sshd's words where it has them.
var errNotAdmitted = errors.New("not admitted")

// Authority is a certificate authority the authorized-keys file lists
// (cert-authority): it admits user certificates it signed, for the role
// its line gives, to holders with one of its principals.
type Authority struct {
	Key gossh.PublicKey
	// Fingerprint is the authority's key's SHA256 fingerprint.
	Fingerprint string
	Role        Role
	// Principals are those the line allows (principals="…"); nil when
	// the line names none, and the SSH user name must then be one of the
	// certificate's principals, as sshd requires of the account name.
	Principals []string
	Comment    string
	Line       int
}

func newAuthority(pub gossh.PublicKey, k Key, principals *string) *Authority {
	a := &Authority{Key: pub, Fingerprint: k.Fingerprint, Role: k.Role, Comment: k.Comment, Line: k.Line}
	if principals != nil {
		// OpenSSH's list: comma-separated names, matched exactly.
		a.Principals = []string{}
		for _, p := range strings.Split(*principals, ",") {
			if p = strings.TrimSpace(p); p != "" {
				a.Principals = append(a.Principals, p)
			}
		}
	}
	return a
}

// principal is the first of the certificate's principals that the line
// allows, or "" if none is.
func (a Authority) principal(user string, cert *gossh.Certificate) string {
	for _, p := range cert.ValidPrincipals {
		if (a.Principals == nil && p == user) || slices.Contains(a.Principals, p) {
			return p
		}
	}
	return ""
}

// admitCert checks a certificate as sshd checks one against an
// authorized-keys file's cert-authority lines: a user certificate, signed
// by a listed authority with a supported algorithm, not revoked (nor its
// authority), valid at now, with a principal the line allows, and only
// critical options this server keeps (source-address, checked against
// from). It returns the key it admits (its fingerprint, with the line's
// role) and what the certificate says of its holder.
func admitCert(a Admits, revoked *RevokedKeys, user string, cert *gossh.Certificate, from string, now time.Time) (Key, *lockcore.Certificate, error) {
	fp := gossh.FingerprintSHA256(cert.Key)
	if cert.CertType != gossh.UserCert {
		return Key{}, nil, fmt.Errorf("%w: certificate %q is a host certificate, not a user one", errNotAdmitted, cert.KeyId)
	}
	caFP := gossh.FingerprintSHA256(cert.SignatureKey)
	var listed []Authority
	for _, ca := range a.Authorities {
		if ca.Fingerprint == caFP {
			listed = append(listed, ca)
		}
	}
	if len(listed) == 0 {
		return Key{}, nil, fmt.Errorf("%w: certificate %q is signed by %s, which is not a listed authority", errNotAdmitted, cert.KeyId, caFP)
	}
	if cert.Signature == nil || cert.Signature.Format == gossh.KeyAlgoRSA {
		// sshd refuses SHA-1 RSA signatures on certificates
		// (CASignatureAlgorithms, since OpenSSH 8.2).
		return Key{}, nil, fmt.Errorf("%w: certificate %q is signed with ssh-rsa (SHA-1), which sshd refuses", errNotAdmitted, cert.KeyId)
	}
	for _, k := range []gossh.PublicKey{cert.Key, cert.SignatureKey} {
		if gone, err := revoked.Revoked(k); gone || err != nil {
			return Key{}, nil, fmt.Errorf("%w: certificate %q (key %s, authority %s) is %w: %s", errNotAdmitted, cert.KeyId, fp, caFP, errRevoked, revokedWhy(err))
		}
	}
	if len(cert.ValidPrincipals) == 0 {
		return Key{}, nil, fmt.Errorf("%w: certificate %q lacks a principal list", errNotAdmitted, cert.KeyId)
	}
	var ca Authority
	principal := ""
	for _, c := range listed {
		if principal = c.principal(user, cert); principal != "" {
			ca = c
			break
		}
	}
	if principal == "" {
		return Key{}, nil, fmt.Errorf("%w: none of certificate %q's principals %q is allowed by authority %s (%s)",
			errNotAdmitted, cert.KeyId, cert.ValidPrincipals, caFP, allowed(listed))
	}
	checker := gossh.CertChecker{Clock: func() time.Time { return now }}
	if err := checker.CheckCert(principal, cert); err != nil {
		return Key{}, nil, fmt.Errorf("%w: certificate %q: %s", errNotAdmitted, cert.KeyId, strings.TrimPrefix(err.Error(), "ssh: "))
	}
	if list, ok := cert.CriticalOptions[sourceAddressOption]; ok {
		if err := fromAllowed(list, from); err != nil {
			return Key{}, nil, fmt.Errorf("%w: certificate %q: %w", errNotAdmitted, cert.KeyId, err)
		}
	}
	k := Key{Fingerprint: fp, Role: ca.Role, Comment: ca.Comment, Line: ca.Line, Authority: caFP}
	return k, &lockcore.Certificate{KeyID: cert.KeyId, Serial: cert.Serial, Principal: principal}, nil
}

// allowed says which principals an authority's lines allow.
func allowed(lines []Authority) string {
	var s []string
	for _, c := range lines {
		if c.Principals == nil {
			s = append(s, fmt.Sprintf("line %d: the user name", c.Line))
		} else {
			s = append(s, fmt.Sprintf("line %d: %q", c.Line, c.Principals))
		}
	}
	return strings.Join(s, "; ")
}

// fromAllowed checks the client's address against a certificate's
// source-address option, a comma-separated list of addresses and CIDR
// blocks; a list that cannot be read admits nobody, as in sshd.
func fromAllowed(list, from string) error {
	host := hostOf(from)
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("source-address: the client's address %q cannot be read", host)
	}
	addr = addr.Unmap()
	match := false
	for _, entry := range strings.Split(list, ",") {
		entry = strings.TrimSpace(entry)
		var p netip.Prefix
		if strings.Contains(entry, "/") {
			p, err = netip.ParsePrefix(entry)
		} else {
			var a netip.Addr
			if a, err = netip.ParseAddr(entry); err == nil {
				p = netip.PrefixFrom(a, a.BitLen())
			}
		}
		if err != nil {
			return fmt.Errorf("source-address %q cannot be read: %q", list, entry)
		}
		match = match || p.Contains(addr)
	}
	if !match {
		return fmt.Errorf("source-address %q does not allow %s", list, addr)
	}
	return nil
}

// permitsPTY reports whether a session signed in with cert may have a
// terminal: sshd gives one only to a certificate with permit-pty (which
// ssh-keygen grants by default), and this server's UI needs one.
func permitsPTY(cert *gossh.Certificate) bool {
	if cert == nil {
		return true
	}
	_, ok := cert.Extensions[permitPTYExtension]
	return ok
}
