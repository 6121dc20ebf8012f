package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A character cut between two writes is recorded whole; a recording at
// its size cap stops, saying so in the recording; names are safe.
func TestCastFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.cast")
	c, err := createCast(path, castHeader{Width: 80, Height: 24, Title: "t"}, time.Now(), 600)
	if err != nil {
		t.Fatal(err)
	}
	snow := []byte("❄ snow")
	c.output(snow[:2])
	c.output(snow[2:])
	c.resize(100, 30)
	for range 20 {
		c.output([]byte(strings.Repeat("x", 40)))
	}
	stopped, err := c.close()
	if err != nil || !strings.Contains(stopped, "size cap") {
		t.Fatalf("close: %q %v", stopped, err)
	}
	_, evs := readCast(t, path)
	if len(evs) < 3 || evs[0].data != "❄ snow" || evs[1].kind != "r" || evs[1].data != "100x30" ||
		!strings.Contains(evs[len(evs)-1].data, "the recording stopped here") {
		t.Fatalf("events %+v", evs)
	}
	if _, err := createCast(path, castHeader{}, time.Now(), 0); !os.IsExist(err) {
		t.Fatalf("a recording written over another: %v", err)
	}
	for in, want := range map[string]string{"alice": "alice", "../etc/passwd": "-..-etc-passwd", "SHA256:a/b+c": "SHA256-a-b-c", ".x": "-.x", "": "-"} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}
