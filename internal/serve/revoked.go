package serve

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"

	gossh "golang.org/x/crypto/ssh"
)

// krlMagic starts OpenSSH's binary key revocation list (ssh-keygen -k).
const krlMagic = "SSHKRL\n\x00"

// errKRL refuses a revoked-keys file that is a KRL: no maintained Go
// library reads one, and a list half understood would admit keys it
// revokes.
var errKRL = errors.New("a key revocation list (KRL): zklocks serve reads OpenSSH's plain list of revoked keys only (one public key a line)")

// RevokedKeys is OpenSSH's RevokedKeys file in its plain form: public
// keys, one a line (a certificate's line revokes its key), blank lines
// and # comments ignored. A key listed is refused, and so is every
// certificate whose key or authority is listed, as sshd does. The file is
// read again when it changes (Refresh); while it cannot be read, or has a
// line that is not a key, every key counts as revoked (sshd refuses
// everyone then too).
type RevokedKeys struct {
	path string

	mu    sync.Mutex
	keys  map[string]bool // by SHA256 fingerprint
	err   error
	stamp fileStamp
}

// OpenRevokedKeys reads path; a file that cannot be read is an error
// here, so that a server does not start on a file its operator got wrong.
func OpenRevokedKeys(path string) (*RevokedKeys, error) {
	r := &RevokedKeys{path: path}
	if err := r.load(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *RevokedKeys) load() error {
	st, statErr := stampOf(r.path)
	if statErr != nil {
		st = fileStamp{}
	}
	keys, err := readRevoked(r.path)
	if err != nil {
		err = fmt.Errorf("revoked keys %s: %w", r.path, err)
	}
	r.mu.Lock()
	r.keys, r.err, r.stamp = keys, err, st
	r.mu.Unlock()
	return err
}

func readRevoked(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(b, []byte(krlMagic)) {
		return nil, errKRL
	}
	keys := map[string]bool{}
	err = keyLines(b, func(n int, line string) error {
		pub, _, _, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return fmt.Errorf("line %d: not a public key in OpenSSH's format", n)
		}
		if cert, ok := pub.(*gossh.Certificate); ok {
			pub = cert.Key
		}
		keys[gossh.FingerprintSHA256(pub)] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	return keys, nil
}

// Refresh reads the file again if it changed since it was last read, and
// reports whether it did, with what was wrong with it.
func (r *RevokedKeys) Refresh() (reloaded bool, err error) {
	if r == nil {
		return false, nil
	}
	st, serr := stampOf(r.path)
	r.mu.Lock()
	same := serr == nil && st == r.stamp && r.err == nil
	r.mu.Unlock()
	if same {
		return false, nil
	}
	return true, r.load()
}

// Reload reads the file again, whether or not it changed.
func (r *RevokedKeys) Reload() error {
	if r == nil {
		return nil
	}
	return r.load()
}

// Revoked reports whether key (a certificate's key, for a certificate)
// is listed; while the file cannot be read, every key is, and err says
// why. A nil RevokedKeys revokes nothing.
func (r *RevokedKeys) Revoked(key gossh.PublicKey) (bool, error) {
	if r == nil {
		return false, nil
	}
	if cert, ok := key.(*gossh.Certificate); ok {
		key = cert.Key
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return true, r.err
	}
	return r.keys[gossh.FingerprintSHA256(key)], nil
}

// Len is how many keys the file lists.
func (r *RevokedKeys) Len() int {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.keys)
}

// Path is the file's name.
func (r *RevokedKeys) Path() string { return r.path }

// revokedWhy is the reason a revoked key is refused.
func revokedWhy(err error) string {
	if err != nil {
		return "the revoked keys cannot be read (" + err.Error() + ")"
	}
	return "listed in the revoked keys"
}
