package serve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// Role is what a key's holder may do: look (RoleView) or also change
// ZooKeeper (RoleOperate).
type Role string

// The roles a key may carry in the authorized-keys file.
const (
	RoleView    Role = "view"
	RoleOperate Role = "operate"
)

// roleOption is the OpenSSH-style option that gives a key its role:
//
//	zklocks-role="operate" ssh-ed25519 AAAA… alice@laptop
//
// A key without it is RoleView.
const roleOption = "zklocks-role"

// Key is one authorized key: who it lets in and as what.
type Key struct {
	// Fingerprint is the key's SHA256 fingerprint, as ssh-keygen -l prints it.
	Fingerprint string
	Role        Role
	// Comment is the line's comment (usually user@host), for the log.
	Comment string
	// Line is its line number in the file.
	Line int
	// Authority, for a certificate's key, is the fingerprint of the
	// authority that signed it (Comment and Line are then its line's);
	// "" for a plain key.
	Authority string
}

// Admits is what an authorized-keys file admits: plain keys by
// fingerprint, and certificate authorities in the file's order (the first
// line that admits a certificate gives its role, as sshd takes the first
// line that matches).
type Admits struct {
	Keys        map[string]Key
	Authorities []Authority
}

// ParseAuthorizedKeys reads an authorized-keys file in OpenSSH's format,
// one key a line with its options and comment, blank lines and lines
// starting with # ignored. It returns the keys and authorities it read,
// and an error for each line it could not read (naming the line, never
// its key), which the caller decides about: those lines admit nobody.
func ParseAuthorizedKeys(b []byte) (Admits, []error) {
	a := Admits{Keys: map[string]Key{}}
	var errs []error
	err := keyLines(b, func(n int, line string) error {
		k, ca, err := parseKeyLine(line, n)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
			return nil
		case ca != nil:
			a.Authorities = append(a.Authorities, *ca)
			return nil
		}
		if prev, dup := a.Keys[k.Fingerprint]; dup && prev.Role != k.Role {
			errs = append(errs, fmt.Errorf("line %d: the key of line %d again, with another role: neither is admitted", n, prev.Line))
			k.Role = ""
		}
		a.Keys[k.Fingerprint] = k
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	for fp, k := range a.Keys {
		if k.Role == "" {
			delete(a.Keys, fp)
		}
	}
	return a, errs
}

// keyLines calls each with every line of a file of OpenSSH keys
// (authorized_keys, revoked keys) that says something, trimmed, and its
// number from 1: blank lines and # comments are skipped, as sshd skips
// them. It stops at each's first error, or at a line over 1 MiB.
func keyLines(b []byte, each func(n int, line string) error) error {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := each(n, line); err != nil {
			return err
		}
	}
	return sc.Err()
}

// parseKeyLine reads one line: a plain key (k), or with the option
// cert-authority a certificate authority (ca).
func parseKeyLine(line string, n int) (k Key, ca *Authority, err error) {
	pub, comment, options, rest, err := gossh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return Key{}, nil, fmt.Errorf("not a public key in OpenSSH's format: %w", err)
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return Key{}, nil, errors.New("more than one key on the line")
	}
	if _, isCert := pub.(*gossh.Certificate); isCert {
		return Key{}, nil, errors.New("a certificate, where a key belongs: list its authority's key with cert-authority")
	}
	k = Key{Fingerprint: gossh.FingerprintSHA256(pub), Role: RoleView, Comment: comment, Line: n}
	isCA := false
	var principals *string
	for _, o := range options {
		name, value, hasValue := strings.Cut(o, "=")
		switch {
		case strings.EqualFold(name, certAuthorityOption) && !hasValue:
			isCA = true
		case strings.EqualFold(name, principalsOption) && hasValue:
			p := strings.Trim(value, `"`)
			principals = &p
		case strings.EqualFold(name, roleOption):
			if k.Role, err = parseRole(value, hasValue); err != nil {
				return Key{}, nil, err
			}
		default:
			// OpenSSH's other options (from=, command=, …) would be
			// promises this server does not keep: refuse them rather
			// than admit a key more widely than its line says.
			return Key{}, nil, fmt.Errorf("option %q: the only options zklocks serve reads are %s=\"view\" or %s=\"operate\", and %s with %s=\"…\"",
				name, roleOption, roleOption, certAuthorityOption, principalsOption)
		}
	}
	if !isCA {
		if principals != nil {
			return Key{}, nil, fmt.Errorf("%s= belongs on a %s line only", principalsOption, certAuthorityOption)
		}
		return k, nil, nil
	}
	return Key{}, newAuthority(pub, k, principals), nil
}

func parseRole(value string, hasValue bool) (Role, error) {
	switch r := Role(strings.Trim(value, `"`)); {
	case !hasValue:
		return "", fmt.Errorf("%s needs a value: %s=\"view\" or %s=\"operate\"", roleOption, roleOption, roleOption)
	case r == RoleView || r == RoleOperate:
		return r, nil
	default:
		return "", fmt.Errorf("%s=%s: the roles are \"view\" and \"operate\"", roleOption, value)
	}
}

// KeyFile is the authorized-keys file as last read, read again when it
// changes (Refresh) or when told to (Reload). A file that cannot be read
// admits nobody until it can: removing a key, or the file, must never
// leave the key working.
type KeyFile struct {
	path string

	mu     sync.Mutex
	admits Admits
	// stamp is the file's size and time of change when last read.
	stamp fileStamp
}

type fileStamp struct {
	size  int64
	mtime time.Time
	ino   uint64
}

// OpenKeyFile reads path; any line it cannot read is an error here, so
// that a server does not start on a file its operator got wrong.
func OpenKeyFile(path string) (*KeyFile, error) {
	f := &KeyFile{path: path}
	errs := f.load()
	if len(errs) > 0 {
		return nil, fmt.Errorf("authorized keys %s: %w", path, errors.Join(errs...))
	}
	return f, nil
}

// load reads the file and returns what was wrong with it; the keys it
// could read are those admitted from now on.
func (f *KeyFile) load() []error {
	st, statErr := stampOf(f.path)
	b, err := os.ReadFile(f.path)
	var admits Admits
	var errs []error
	if err != nil {
		errs = []error{err}
	} else {
		admits, errs = ParseAuthorizedKeys(b)
	}
	if statErr != nil {
		st = fileStamp{}
	}
	f.mu.Lock()
	f.admits, f.stamp = admits, st
	f.mu.Unlock()
	return errs
}

// Reload reads the file again, whether or not it changed, and returns the
// lines it could not read.
func (f *KeyFile) Reload() []error { return f.load() }

// Refresh reads the file again if it changed since it was last read, and
// reports whether it did, with the lines it could not read.
func (f *KeyFile) Refresh() (reloaded bool, errs []error) {
	st, err := stampOf(f.path)
	f.mu.Lock()
	same := err == nil && st == f.stamp
	f.mu.Unlock()
	if same {
		return false, nil
	}
	return true, f.load()
}

// Lookup returns the key with that fingerprint, if the file admits it.
func (f *KeyFile) Lookup(fingerprint string) (Key, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k, ok := f.admits.Keys[fingerprint]
	return k, ok
}

// admitted is what the file admits now.
func (f *KeyFile) admitted() Admits {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.admits
}

// Authorities are the certificate authorities the file lists, in its
// order.
func (f *KeyFile) Authorities() []Authority {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Authority(nil), f.admits.Authorities...)
}

// Len is how many keys and authorities the file admits.
func (f *KeyFile) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.admits.Keys) + len(f.admits.Authorities)
}

// Roles counts the plain keys admitted by role.
func (f *KeyFile) Roles() (view, operate int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, k := range f.admits.Keys {
		if k.Role == RoleOperate {
			operate++
		} else {
			view++
		}
	}
	return view, operate
}
