package serve

import (
	"bytes"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// The host key is made at the first start, an ed25519 key only its owner
// can read in a directory only its owner can enter (said in the log when
// the directory was open to others), and kept as it is at the next:
// clients remember it.
func TestNewMakesTheHostKeyOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "keys")
	path := filepath.Join(dir, "host")
	// A directory that is there is set 0700, and the log says so.
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	start := func() (gossh.PublicKey, string) {
		t.Helper()
		var logged bytes.Buffer
		if _, err := New(Config{Listen: "127.0.0.1:0", HostKey: path, Log: log.New(&logged, "", 0)}); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("host key mode: %v %v", fi, err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		signer, err := gossh.ParsePrivateKey(b)
		if err != nil {
			t.Fatal(err)
		}
		return signer.PublicKey(), logged.String()
	}
	key, logged := start()
	if key.Type() != gossh.KeyAlgoED25519 || !strings.Contains(logged, "made a new host key: "+path) ||
		!strings.Contains(logged, "the host key's directory "+dir+" is now mode 0700 (it was 0755)") {
		t.Fatalf("first start: a %s key, logged %q", key.Type(), logged)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the key's directory: %v %v", fi, err)
	}
	again, logged := start()
	if !bytes.Equal(again.Marshal(), key.Marshal()) || strings.Contains(logged, "made") {
		t.Fatalf("second start: the host key changed (%v) or was said to be made: %q", !bytes.Equal(again.Marshal(), key.Marshal()), logged)
	}
}
