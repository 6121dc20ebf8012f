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
}

// ParseAuthorizedKeys reads an authorized-keys file in OpenSSH's format,
// one key a line with its options and comment, blank lines and lines
// starting with # ignored. It returns the keys it read by fingerprint, and
// an error for each line it could not read (naming the line, never its
// key), which the caller decides about: those lines admit nobody.
func ParseAuthorizedKeys(b []byte) (map[string]Key, []error) {
	keys := map[string]Key{}
	var errs []error
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, err := parseKeyLine(line, n)
		if err != nil {
			errs = append(errs, fmt.Errorf("line %d: %w", n, err))
			continue
		}
		if prev, dup := keys[k.Fingerprint]; dup && prev.Role != k.Role {
			errs = append(errs, fmt.Errorf("line %d: the key of line %d again, with another role: neither is admitted", n, prev.Line))
			k.Role = ""
		}
		keys[k.Fingerprint] = k
	}
	if err := sc.Err(); err != nil {
		errs = append(errs, err)
	}
	for fp, k := range keys {
		if k.Role == "" {
			delete(keys, fp)
		}
	}
	return keys, errs
}

func parseKeyLine(line string, n int) (Key, error) {
	pub, comment, options, rest, err := gossh.ParseAuthorizedKey([]byte(line))
	if err != nil {
		return Key{}, fmt.Errorf("not a public key in OpenSSH's format: %w", err)
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return Key{}, errors.New("more than one key on the line")
	}
	k := Key{Fingerprint: gossh.FingerprintSHA256(pub), Role: RoleView, Comment: comment, Line: n}
	for _, o := range options {
		name, value, hasValue := strings.Cut(o, "=")
		if !strings.EqualFold(name, roleOption) {
			// OpenSSH's own options (from=, command=, …) would be
			// promises this server does not keep: refuse them rather
			// than admit a key more widely than its line says.
			return Key{}, fmt.Errorf("option %q: the only option zklocks serve reads is %s=\"view\" or %s=\"operate\"",
				name, roleOption, roleOption)
		}
		switch r := Role(strings.Trim(value, `"`)); {
		case !hasValue:
			return Key{}, fmt.Errorf("%s needs a value: %s=\"view\" or %s=\"operate\"", roleOption, roleOption, roleOption)
		case r == RoleView || r == RoleOperate:
			k.Role = r
		default:
			return Key{}, fmt.Errorf("%s=%s: the roles are \"view\" and \"operate\"", roleOption, value)
		}
	}
	return k, nil
}

// KeyFile is the authorized-keys file as last read, read again when it
// changes (Refresh) or when told to (Reload). A file that cannot be read
// admits nobody until it can: removing a key, or the file, must never
// leave the key working.
type KeyFile struct {
	path string

	mu   sync.Mutex
	keys map[string]Key
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
	var keys map[string]Key
	var errs []error
	if err != nil {
		errs = []error{err}
	} else {
		keys, errs = ParseAuthorizedKeys(b)
	}
	if statErr != nil {
		st = fileStamp{}
	}
	f.mu.Lock()
	f.keys, f.stamp = keys, st
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
	k, ok := f.keys[fingerprint]
	return k, ok
}

// Len is how many keys the file admits.
func (f *KeyFile) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.keys)
}

// Roles counts the keys admitted by role.
func (f *KeyFile) Roles() (view, operate int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, k := range f.keys {
		if k.Role == RoleOperate {
			operate++
		} else {
			view++
		}
	}
	return view, operate
}
