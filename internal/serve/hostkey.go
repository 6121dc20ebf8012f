package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// EnsureHostKey makes an ed25519 host key at path (0600, in OpenSSH's
// format, its directory made 0700 if missing) unless a file is there,
// and reports whether it made one. An existing file is left as it is:
// clients remember the host key, and a new one would look like an attack.
func EnsureHostKey(path string) (made bool, err error) {
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return false, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "zklocks serve host key")
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return false, fmt.Errorf("host key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return false, fmt.Errorf("host key: %w", err)
	}
	if _, err := f.Write(pem.EncodeToMemory(block)); err != nil {
		f.Close()
		os.Remove(path)
		return false, fmt.Errorf("host key: %w", err)
	}
	return true, f.Close()
}
